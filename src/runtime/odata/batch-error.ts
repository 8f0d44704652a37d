/**
 * The errors `od.batch` rejects with. A failed changeset: the ODataError (or the subclass its code names) that the
 * failing part carries, as a single call would throw it, its message saying which step failed and that nothing of the
 * batch was applied; `batchStep` is that step (1-based), when the server said which. A batch applied whose new row
 * could not be read back: BatchReadBackError (batch-read-back-error.ts, exported by the entries).
 */
import { parseJson } from "../core/json-numbers.js";
import { odataError, ODataError, ProtocolError } from "./errors.js";

export interface StepFailure {
  status: number;
  /** The failing part's body (FileMaker's `{"error":{"code","message"}}`). */
  body: string;
  /** How many steps the batch had. */
  steps: number;
  /** The failed step (1-based), what it was and its request, when the server said which part failed. */
  step?: number;
  what?: string;
  method?: string;
  path?: string;
}

export function batchStepError(failure: StepFailure): ODataError | ProtocolError {
  const call = { method: failure.method ?? "POST", path: failure.path ?? "/$batch" };
  let error: { code?: unknown; message?: unknown } | undefined;
  try {
    error = (parseJson(failure.body) as { error?: { code?: unknown; message?: unknown } }).error;
  } catch {
    error = undefined;
  }
  if (typeof error?.code !== "string" && typeof error?.code !== "number") return new ProtocolError(failure.status, failure.body.slice(0, 100), call, `is a failed batch step that is not an OData error; nothing of the batch was applied`);
  const result = odataError(String(error.code), typeof error.message === "string" ? error.message : "", failure.status, call, /\)$/.test(call.path));
  const which = failure.step === undefined ? "a step" : `step ${failure.step} (${failure.what})`;
  result.message = `batch: ${which} of ${failure.steps} failed, so nothing of the batch was applied: ${result.message}`;
  if (failure.step !== undefined) Object.defineProperty(result, "batchStep", { value: failure.step, enumerable: true });
  return result;
}
