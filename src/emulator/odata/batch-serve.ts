// Serves `POST /fmi/odata/v4/{db}/$batch` (docs/emulator.md, "`$batch`"): the body is parsed whole
// (batch-parse.ts: -1014 not multipart, -1015 bad body or too many parts, -1000 another service root inside, -1032
// another database inside, -1002 a `$<Content-ID>` reference), then every part is answered by the same dispatch as a
// top-level request (odata-api.ts `answer`, passed in), signed in once for the whole batch, and the answers are
// written as multipart/mixed (batch-write.ts). A changeset is atomic: its parts run in one synchronous step inside
// hosted-file/records/atomic-changes.ts, and the first failing part rolls back every record write the changeset
// made (change feed included); it then answers one error part for the whole changeset. Without
// `Prefer: odata.continue-on-error` the batch stops at the first failing part or changeset (later parts absent).

import type { HostedDatabase } from "../hosted-file/store.js";
import { atomically } from "../hosted-file/records/atomic-changes.js";
import { MAX_BATCH_BYTES } from "./batch-multipart.js";
import { parseBatchRequest, SERVICE_ROOT_PATH, type BatchRequestPart, type HeaderList } from "./batch-parse.js";
import { writeBatchResponse, type BatchResponseEntry, type BatchResponseInput } from "./batch-write.js";
import { hostedDatabase } from "./database-name.js";
import type { NameMap } from "../hosted-file/name-map.js";
import { ODataError } from "./odata-error.js";
import { parsePrefer } from "./query-options-prefer.js";
import type { QueryOptions } from "./query-options.js";
import { failureReply, type Reply } from "./reply.js";
import type { ODataRequest } from "./routes.js";
import type { ODataPath } from "./url-path.js";
import { parseODataRequestTarget } from "./url-request.js";

export { MAX_BATCH_BYTES } from "./batch-multipart.js";

/** A `$batch` body over MAX_BATCH_BYTES, as batch-parse.ts words it: 413 -1015. */
export const batchBodyTooLarge = (): ODataError => new ODataError(413, "-1015", `Batch body exceeds ${MAX_BATCH_BYTES} bytes`);

/** Whether a request target names a `$batch` (its body may then be larger than a write's). */
export function isBatchTarget(target: string): boolean {
  const q = target.indexOf("?");
  return /\/(?:\$|%24)batch$/i.test(q < 0 ? target : target.slice(0, q));
}

export interface BatchContext {
  readonly host: { readonly databases: NameMap<HostedDatabase> };
  readonly method: string;
  readonly path: Extract<ODataPath, { kind: "batch" }>;
  readonly query: QueryOptions;
  /** The `$batch` request itself. */
  readonly request: ODataRequest;
  readonly root: string;
}

/** The `$batch` answer: 200 multipart/mixed, or an ODataError thrown for the envelope. */
export async function serveBatch(ctx: BatchContext, dispatch: PartAnswer): Promise<Reply> {
  // A `$batch` part naming `$batch` again (choice: refused, as OData 4.0 11.7.2 allows no nesting).
  if (ctx.request.inBatch === true) throw new ODataError(400, "-1002", "Error: a $batch request cannot be a part of another $batch");
  if (ctx.method !== "POST") throw new ODataError(405, "-1002", `Error: ${ctx.method} is not supported on $batch by the emulator's OData API (send POST)`);
  const given = Object.entries(ctx.query).filter(([k, v]) => k !== "ignored" && v !== undefined);
  if (given.length > 0) throw new ODataError(400, "-1002", `Error: $${given[0]![0]} does not apply to a $batch request`);
  // The outer name resolves as on every path kind; inner URLs must name the hosted file (section 4).
  const { name, db } = hostedDatabase(ctx.host.databases, ctx.path.db);
  const items = parseBatchRequest(ctx.request.body ?? Buffer.alloc(0), { contentType: ctx.request.headers["content-type"], db: name });
  const continueOnError = parsePrefer(ctx.request.headers.prefer).continueOnError;
  // Batch-level headers cascade into parts (choice, FSP/12): a GET part carries no headers on FMS (PKS framing),
  // so the batch's Accept and Prefer are the only way a client sets a part's annotations or entity ids.
  const inherited = cascading(ctx.request.headers);
  const answer: PartAnswer = (part) => dispatch({ ...part, headers: { ...inherited, ...part.headers } });
  const entries: BatchResponseEntry[] = [];
  for (const item of items) {
    if (item.kind === "request") {
      // Outside a changeset a part may wait (a script runs): it is answered before the next part starts.
      const reply = await runPart(item.request, answer);
      entries.push({ kind: "response", ...responseOf(reply, item.request.contentId) });
      if (reply.status >= 400 && !continueOnError) break;
      continue;
    }
    const outcome = runChangeset(db, item.requests, answer);
    if ("failed" in outcome) {
      entries.push({ kind: "response", ...outcome.failed });
      if (!continueOnError) break;
    } else {
      entries.push({ kind: "changeset", responses: outcome.responses });
    }
  }
  const written = writeBatchResponse(entries);
  const body = Buffer.from(written.body.buffer, written.body.byteOffset, written.body.byteLength);
  // RFC 7240: a preference that was honoured is named back.
  return { status: 200, contentType: written.contentType, body, ...(continueOnError && { headers: { "Preference-Applied": "odata.continue-on-error" } }) };
}

/** The batch-level headers a part takes when it does not carry its own (a part's header wins, per name). */
const CASCADING = ["accept", "prefer", "odata-version", "odata-maxversion"];

function cascading(headers: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of CASCADING) {
    const value = headers[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** A part as the dispatch's request, with its own headers (the batch's are added by serveBatch). */
function partRequest(part: BatchRequestPart): ODataRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of part.headers) {
    const key = name.toLowerCase();
    headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
  }
  const body = Buffer.from(part.body.buffer, part.body.byteOffset, part.body.byteLength);
  return { method: part.method, target: SERVICE_ROOT_PATH + part.target, headers, body: part.body.byteLength > 0 ? body : undefined, inBatch: true };
}

/** The dispatch (odata-api.ts `answer`): a script's answer comes later, every other at once. */
type PartAnswer = (part: ODataRequest) => Reply | Promise<Reply>;

async function runPart(part: BatchRequestPart, answer: PartAnswer): Promise<Reply> {
  try {
    return await answer(partRequest(part));
  } catch (error) {
    return failureReply(error);
  }
}

/** A changeset's part, answered in the changeset's one synchronous step (record writes only: none waits). */
function runPartNow(part: BatchRequestPart, answer: PartAnswer): Reply {
  try {
    const request = partRequest(part);
    recordWritesOnly(request);
    const reply = answer(request);
    if (reply instanceof Promise) {
      reply.catch(() => undefined);
      throw new ODataError(500, "-1", "Unexpected internal OData Provider error: emulator fault (a changeset part did not answer at once)");
    }
    return reply;
  } catch (error) {
    return failureReply(error);
  }
}

function responseOf(reply: Reply, contentId: string | undefined): BatchResponseInput {
  const headers: [string, string][] = [];
  if (reply.body.byteLength > 0) headers.push(["Content-Type", reply.contentType]);
  for (const [name, value] of Object.entries(reply.headers ?? {})) if (name.toLowerCase() !== "content-type") headers.push([name, value]);
  return { status: reply.status, headers: headers as HeaderList, body: reply.body, ...(contentId !== undefined && { contentId }) };
}

/** What a changeset may hold (choice): record writes, which atomic-changes.ts can roll back. */
const RECORD_PATHS: ReadonlySet<string> = new Set(["collection", "entity", "member", "value", "ref"]);

function recordWritesOnly(request: ODataRequest): void {
  const { path } = parseODataRequestTarget(request.target);
  if (!RECORD_PATHS.has(path.kind)) {
    throw new ODataError(400, "-1002", `Error: a changeset holds record writes only; send the ${path.kind} request outside the changeset`);
  }
}

/** Thrown inside the atomic step to roll it back; never leaves runChangeset. */
const ROLL_BACK = Symbol("roll back the changeset");

/**
 * A changeset's parts in order, all in one synchronous atomic step: the first part answering an error (or
 * throwing) rolls back everything the changeset wrote, and that error is the changeset's one answer.
 */
function runChangeset(db: HostedDatabase, parts: readonly BatchRequestPart[], answer: PartAnswer): { responses: BatchResponseInput[] } | { failed: BatchResponseInput } {
  const responses: BatchResponseInput[] = [];
  let failed: BatchResponseInput | undefined;
  try {
    atomically(db, () => {
      for (const part of parts) {
        const reply = runPartNow(part, answer);
        if (reply.status >= 400) {
          failed = responseOf(reply, part.contentId);
          throw ROLL_BACK;
        }
        responses.push(responseOf(reply, part.contentId));
      }
    });
  } catch (error) {
    if (error !== ROLL_BACK) throw error;
  }
  return failed === undefined ? { responses } : { failed };
}
