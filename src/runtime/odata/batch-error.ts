/**
 * The error a failed changeset rejects `od.batch` with: the ODataError its failing part carries (the same class a
 * single call would throw), its message saying which step failed and that nothing of the batch was applied.
 */
export interface StepFailure {
  status: number;
  /** The failing part's body (FileMaker's `{"error":{"code","message"}}`). */
  body: string;
  /** How many steps the batch had. */
  steps: number;
  /** The failed step (1-based) and what it was, when the server said which part failed. */
  step?: number;
  what?: string;
}

// PROVISIONAL until the core's errors.ts is merged: a plain Error carrying the code.
export function batchStepError(failure: StepFailure): Error {
  let code: string | undefined;
  let message = failure.body.slice(0, 200);
  try {
    const e = (JSON.parse(failure.body) as { error?: { code?: unknown; message?: unknown } }).error;
    code = typeof e?.code === "string" ? e.code : undefined;
    message = typeof e?.message === "string" ? e.message : message;
  } catch {
    // not JSON
  }
  const which = failure.step === undefined ? "a step" : `step ${failure.step} (${failure.what})`;
  const error = new Error(`batch: ${which} of ${failure.steps} failed: ${message} (HTTP ${failure.status}); nothing of the batch was applied`) as Error & { code?: string };
  if (code !== undefined) error.code = code;
  return error;
}

/**
 * The batch was applied, but a created row could not be read back (a later step of the same batch deleted it, or
 * another client did since): `results` holds every step's result, `null` for each such row.
 */
export class BatchReadBackError extends Error {
  declare readonly results: unknown[];
  constructor(message: string, results: unknown[]) {
    super(message);
    this.results = results;
    this.name = "BatchReadBackError";
  }
}
