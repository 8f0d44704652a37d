/**
 * `od.batch` (wire contract section 4): the steps the builder names go to the server as ONE changeset of one `$batch`
 * request, which FileMaker applies all or nothing. Each step's request is built (and its values encoded through the
 * caller's encodeRow, with the checks of the single calls) when the builder names it, so a bad value fails before
 * anything is sent. A failing step rejects the whole batch with the ODataError its answer carries, renamed to say which
 * step failed and that nothing was applied. Never retried (a changeset is a write).
 *
 * Results, in the steps' order: create, the new row as stored once the whole batch applied (a changeset's insert
 * answers only its ROWID, section 4, so the new rows are read back by ROWID in one more `$batch` of GETs; a row that a
 * later step deleted cannot be, and the batch, applied, rejects with a BatchReadBackError holding the other results);
 * update and delete, undefined; updateWhere and deleteWhere, how many rows (`fmodata.affected_rows`).
 *
 * Reads are not batched: an OData changeset holds writes only, and a read needs no atomicity; read with the table's
 * calls. Loaded on the first `od.batch` call.
 */
import { ProtocolError } from "../core/protocol-errors.js";
import type { BatchBuilder, BatchOptions, BatchStep, BatchTable } from "./batch-types.js";
import { BatchFramingError, readBatch, writeBatch, type BatchItem, type PartAnswer, type PartRequest } from "./batch-multipart.js";
import type { ODataAnswer, ODataCaller } from "./caller.js";
import type { AnyTable, TableSpec } from "./definition.js";
import { batchStepError, type StepFailure } from "./batch-error.js";
import { BatchReadBackError } from "./batch-read-back-error.js";
import { renderFilter, type Filter } from "./filter.js";
import { queryString } from "./query-text.js";
import { rowKey } from "./read-query.js";
import { hasExactField } from "./values.js";
import { parseJson } from "../core/json-numbers.js";

type StepKind = "create" | "update" | "delete" | "updateWhere" | "deleteWhere";

/** A step as the builder made it: its request (path below the database) and what it is, for errors. */
class Step {
  constructor(
    readonly owner: object,
    readonly kind: StepKind,
    readonly table: TableSpec,
    readonly request: Omit<PartRequest, "url"> & { path: string },
    /** `update Invoices(3)`: the step as an error names it. */
    readonly what: string,
  ) {}
}

/** Most steps one batch takes: the emulator's part limit (and a bound on what one failure rolls back). */
export const MAX_BATCH_STEPS = 1000;

export async function runBatch(caller: ODataCaller, build: (b: BatchBuilder<string>) => readonly BatchStep<unknown>[], options: BatchOptions = {}): Promise<unknown[]> {
  const owner = {};
  // One BatchTable per table and batch: a builder names its table once per step (`b.table(T).update(...)`), and
  // making it again each time (its path checked and encoded, its five calls) was a good share of building a step.
  const tables = new Map<AnyTable, BatchTable<AnyTable>>();
  const table = (definition: AnyTable) => tables.get(definition) ?? tables.set(definition, batchTable(caller, owner, definition)).get(definition)!;
  const builder: BatchBuilder<string> = { table: table as never };
  if (typeof build !== "function") throw new TypeError("batch: takes a function that returns the steps, (b) => [b.table(T).create({...}), ...]");
  const steps = build(builder);
  if (!Array.isArray(steps)) throw new TypeError("batch: the function must return an array of steps made by its builder");
  steps.forEach((step, i) => {
    if (!(step instanceof Step) || step.owner !== owner) throw new TypeError(`batch: step ${i + 1} is not a step made by this batch's builder (b.table(T).create/update/delete/updateWhere/deleteWhere)`);
  });
  const list = steps as readonly Step[];
  if (list.length === 0) return [];
  if (list.length > MAX_BATCH_STEPS) throw new RangeError(`batch: ${list.length} steps; one changeset takes at most ${MAX_BATCH_STEPS}`);
  const root = serviceRoot(caller.database);
  const written = writeBatch(
    list.map(({ request: { method, path, body, exact } }) => ({ method, url: root + path, body, exact })),
    true,
  );
  // A create's part may answer its new row: of a table with an exact number field, with Edm.Decimal values as strings.
  const exactAnswer = list.some((step) => step.kind === "create" && hasExactField(step.table));
  const answer = await caller.call({ method: "POST", path: "/$batch", headers: { "Content-Type": written.contentType }, body: written.body, exactAnswer, idempotent: false, signal: options.signal });
  const answers = changesetAnswers(answer, list);
  const results: unknown[] = list.map((step, i) => resultOf(caller, step, i, answers[i]!, answer));
  // The new rows, read back by ROWID in one more request (section 4: a changeset's insert answers its ROWID only).
  const reads: { i: number; step: Step; rowId: number }[] = [];
  list.forEach((step, i) => {
    if (step.kind === "create" && typeof results[i] === "number") reads.push({ i, step, rowId: results[i] as number });
  });
  if (reads.length > 0) {
    const get = writeBatch(reads.map((r) => ({ method: "GET", url: `${root}${caller.tablePath(r.step.table)}(ROWID=${r.rowId})` })), false);
    // continue-on-error: a row that is gone answers 404 and the reads after it are still answered (section 4).
    const headers = { "Content-Type": get.contentType, Prefer: "odata.continue-on-error" };
    const exactBack = reads.some((r) => hasExactField(r.step.table));
    const back = await caller.call({ method: "POST", path: "/$batch", headers, body: get.body, exactAnswer: exactBack, idempotent: false, signal: options.signal }).catch((error: unknown) => {
      // Whatever failed here, the changeset is applied: say so, so that no one sends it again.
      if (error instanceof Error) error.message = `batch: applied, but reading back its new rows failed: ${error.message}`;
      throw error;
    });
    const items = parsed(back);
    const missing: string[] = [];
    reads.forEach((r, n) => {
      const item = items[n];
      const part = item?.kind === "response" ? item.answer : undefined;
      if (part?.status === 200) results[r.i] = caller.decodeRow(r.step.table, json(part, back), `batch step ${r.i + 1} (${r.step.what})`);
      else if (part?.status === 404) {
        results[r.i] = null;
        missing.push(`step ${r.i + 1} (${r.step.what}, ROWID ${r.rowId})`);
      } else throw broken(back, `answers the read back of step ${r.i + 1}'s new row with ${part ? `HTTP ${part.status}` : "nothing"}; the batch WAS applied`);
    });
    if (missing.length > 0) throw new BatchReadBackError(`batch: applied, but the new row of ${missing.join(", ")} no longer exists (did a later step delete it?); error.results holds each step's result, null for it`, results);
  }
  return results;
}

/** `/fmi/odata/v4/{db}` as parts name it: the database without `.fmp12` (section 4), never a proxy's prefix. */
function serviceRoot(database: string): string {
  return `/fmi/odata/v4/${encodeURIComponent(database.replace(/\.fmp12$/i, ""))}`;
}

function batchTable(caller: ODataCaller, owner: object, definition: AnyTable): BatchTable<AnyTable> {
  // Refuses a table of another database (TypeError), as every call does.
  const path = caller.tablePath(definition);
  const name = definition.table;
  const step = (kind: StepKind, request: Step["request"], what: string) => new Step(owner, kind, definition, request, what);
  const filterQuery = (filter: Filter<any>, call: string) => {
    if (filter === undefined || filter === null) throw new TypeError(`batch: ${call} on table "${name}" needs a filter (f...): a batch never writes every row by omission`);
    return `?${queryString([["$filter", renderFilter(filter, caller.refs(definition))]])}`;
  };
  return {
    create: (row) => step("create", { method: "POST", path, ...caller.encodeRow(definition, row, `batch: create on table "${name}"`) }, `create ${name}`),
    update: (ref, changes) => {
      const at = rowKey(definition, ref, "batch: update");
      return step("update", { method: "PATCH", path: `${path}${at}`, ...caller.encodeRow(definition, changes, `batch: update of ${name}${at}`) }, `update ${name}${at}`);
    },
    delete: (ref) => {
      const at = rowKey(definition, ref, "batch: delete");
      return step("delete", { method: "DELETE", path: `${path}${at}` }, `delete ${name}${at}`);
    },
    updateWhere: (filter, changes) =>
      step("updateWhere", { method: "PATCH", path: path + filterQuery(filter, "updateWhere"), ...caller.encodeRow(definition, changes, `batch: updateWhere on table "${name}"`) }, `updateWhere ${name}`),
    deleteWhere: (filter) => step("deleteWhere", { method: "DELETE", path: path + filterQuery(filter, "deleteWhere") }, `deleteWhere ${name}`),
  } as BatchTable<AnyTable>;
}

const broken = (answer: ODataAnswer, what: string) => new ProtocolError(answer.status, answer.text().slice(0, 100), { method: "POST", path: "/$batch" }, what);

function parsed(answer: ODataAnswer): BatchItem[] {
  try {
    return readBatch(answer.bytes, answer.headers["content-type"]);
  } catch (error) {
    if (error instanceof BatchFramingError) throw broken(answer, `is not a batch answer: ${error.message}`);
    throw error;
  }
}

function json(part: PartAnswer, answer: ODataAnswer): unknown {
  try {
    // Long number tokens kept (json-numbers.ts), as the single calls keep them.
    return parseJson(new TextDecoder().decode(part.body));
  } catch {
    throw broken(answer, "has a part whose body is not JSON");
  }
}

/**
 * The changeset's answers, one per step; a failed changeset (one error part instead of the changeset) is thrown as the
 * error its part carries, naming the failed step when the part says which (its Content-ID).
 */
function changesetAnswers(answer: ODataAnswer, steps: readonly Step[]): PartAnswer[] {
  const items = parsed(answer);
  const item = items[0];
  if (item?.kind === "changeset" && item.answers.length === steps.length && item.answers.every((a) => a.status < 400)) return item.answers;
  const failed = item?.kind === "response" ? item.answer : item?.kind === "changeset" ? item.answers.find((a) => a.status >= 400) : undefined;
  if (failed === undefined || failed.status < 400) throw broken(answer, `does not answer the changeset's ${steps.length} steps`);
  const byId = failed.contentId !== undefined && /^\d+$/.test(failed.contentId) ? Number(failed.contentId) : undefined;
  const index = byId !== undefined && byId >= 1 && byId <= steps.length ? byId - 1 : item?.kind === "changeset" ? item.answers.indexOf(failed) : undefined;
  const failure: StepFailure = {
    status: failed.status,
    body: new TextDecoder().decode(failed.body),
    steps: steps.length,
    ...(index !== undefined && { step: index + 1, what: steps[index]!.what, method: steps[index]!.request.method, path: steps[index]!.request.path }),
  };
  throw batchStepError(failure);
}

/** What a step resolves to: a create its new ROWID (read back later) or its row, a write-where its count. */
function resultOf(caller: ODataCaller, step: Step, i: number, part: PartAnswer, answer: ODataAnswer): unknown {
  switch (step.kind) {
    case "create": {
      // A server that answers the row (201) saves the read back; one that answers 204 names the row in Location.
      if (part.status === 201 && part.body.byteLength > 0) return caller.decodeRow(step.table, json(part, answer), `batch step ${i + 1} (${step.what})`);
      const rowId = /\(ROWID=(\d+)\)$/.exec(part.headers.get("location") ?? part.headers.get("odata-entityid") ?? "");
      if (rowId === null) throw broken(answer, `answers step ${step.what} with neither the new row nor its ROWID (Location)`);
      return Number(rowId[1]);
    }
    case "updateWhere":
    case "deleteWhere": {
      const count = Number(part.headers.get("fmodata.affected_rows"));
      if (!Number.isSafeInteger(count) || count < 0) throw broken(answer, `answers step ${step.what} without fmodata.affected_rows`);
      return count;
    }
    default:
      return undefined;
  }
}
