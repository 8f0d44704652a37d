// The write routes (route-table.ts; 3.1, 3.2): POST a collection; PATCH/PUT/DELETE one record by key, or a
// collection's `$filter` matches (`fmodata.affected_rows`); a binary container upload, `PATCH T(k)/F[/$value]` (3.3:
// container-upload.ts). Every write goes through the hosted file's own record writes (entity-write.ts).

import { uploadBinary } from "./container-upload.js";
import { readEntity } from "./entity-read.js";
import { findSet, recordKey, type EntitySet } from "./entity-sets.js";
import { createEntity, deleteEntities, filteredRecords, parseWriteBody, recordToWrite, updateEntities, type WriteContext } from "./entity-write.js";
import { ODataError } from "./odata-error.js";
import { parsePrefer } from "./query-options-prefer.js";
import { json, noContent, type Reply } from "./reply.js";
import { readContext, type Handler, type ODataCall, type PathOf } from "./routes.js";
import { formatODataPath } from "./url-format.js";

/** `POST T`: 201 with the entity, or (`return=minimal`, a batch part) 204 with its ROWID URL. */
export const createOne: Handler<"collection"> = (call) => {
  const { set, wctx } = writeCall(call);
  const record = createEntity(set, parseWriteBody(call.request.body), wctx);
  if (parsePrefer(call.request.headers.prefer).return === "minimal" || call.request.inBatch === true) {
    const url = call.root + formatODataPath({ kind: "entity", db: call.path.db, set: { by: "name", name: set.name }, key: { kind: "rowid", rowid: record.recordId } });
    return noContent({ Location: url, "OData-EntityId": url });
  }
  const key = recordKey(set, record);
  const location = call.root + formatODataPath({ kind: "entity", db: call.path.db, set: { by: "name", name: set.name }, key });
  return { ...json(readEntity(set, key, writtenView(call))), status: 201, headers: { Location: location } };
};

/** `PATCH T?$filter=…`: every match, all or nothing. */
export const updateMatches: Handler<"collection"> = (call) => {
  const { set, wctx } = writeCall(call);
  const fields = parseWriteBody(call.request.body);
  return affected(updateEntities(set, filteredRecords(set, call.query.filter, wctx, "PATCH"), fields, wctx).length);
};

/** `DELETE T?$filter=…`: every match with its cascades, or nothing. */
export const deleteMatches: Handler<"collection"> = (call) => {
  const { set, wctx } = writeCall(call);
  const records = filteredRecords(set, call.query.filter, wctx, "DELETE");
  deleteEntities(set, records, wctx);
  return affected(records.length);
};

/** `PATCH` or `PUT T(k)`: only the fields the body names change. */
export const updateOne: Handler<"entity"> = (call) => {
  const { set, wctx } = writeCall(call);
  const fields = parseWriteBody(call.request.body);
  const [record] = updateEntities(set, [recordToWrite(set, call.path.key)], fields, wctx);
  // 3.2: the entity, without `fmodata.affected_rows` (a client reads that header first and would take the count);
  // a batch part ignores return=representation (section 4's choice).
  if (parsePrefer(call.request.headers.prefer).return === "representation" && call.request.inBatch !== true) return json(readEntity(set, recordKey(set, record!), writtenView(call)));
  return affected(1);
};

export const deleteOne: Handler<"entity"> = (call) => {
  const { set, wctx } = writeCall(call);
  deleteEntities(set, [recordToWrite(set, call.path.key)], wctx);
  return affected(1);
};

/** `PATCH T(k)/F` or `T(k)/F/$value` with the file's bytes (3.3). */
export const uploadFile: Handler<"member" | "value"> = (call) => {
  const { server } = call.host;
  const set = findSet(call.db, call.path.set);
  const { request, path, query } = call;
  return uploadBinary(set, path.key, path.member, query, request.headers, request.body ?? Buffer.alloc(0), { db: call.db, containers: server.containers, clock: server.clock }, writtenView(call));
};

/**
 * What a record write starts from: rule one (a write applies `$filter`, on a collection's PATCH and DELETE, and
 * nothing else; another option is refused), the set, and the hosted file's write context.
 */
function writeCall(call: ODataCall<PathOf<"collection" | "entity">>): { set: EntitySet; wctx: WriteContext } {
  const { method, headers } = call.request;
  const given = Object.entries(call.query).filter(([k, v]) => k !== "ignored" && k !== "schemaversion" && v !== undefined && !(k === "filter" && call.path.kind === "collection" && method !== "POST"));
  if (given.length > 0) throw new ODataError(400, "-1002", `Error: $${given[0]![0]} does not apply to a ${method} request`);
  const set = findSet(call.db, call.path.set);
  const { server } = call.host;
  const ieee754 = /ieee754compatible=true/i.test(String(headers["content-type"] ?? "")) || call.accept.annotations.ieee754 === true;
  return { set, wctx: { db: call.db, clock: server.clock, ieee754, now: server.clock.now(), containers: server.containers } };
}

/** How a written record reads back: the read context with only the request's ignored options. */
function writtenView(call: ODataCall): ReturnType<typeof readContext> {
  return readContext(call, { ignored: call.query.ignored });
}

function affected(n: number): Reply {
  return noContent({ "fmodata.affected_rows": String(n) });
}
