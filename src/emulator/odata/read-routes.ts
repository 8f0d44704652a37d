// The GET routes (route-table.ts): the discovery documents (1.2), `$metadata` (1.6), and reads of collections, one
// record, one field, `$value` and `/$count` (2.3; entity-read.ts, apply-read.ts, crossjoin.ts).

import { readApplied } from "./apply-read.js";
import { downloadContainer } from "./container-upload.js";
import { readCrossjoin } from "./crossjoin.js";
import { readCollection, readCount, readEntity, readMember, readValue, refuseUnsupported } from "./entity-read.js";
import { findSet, odataModelOf } from "./entity-sets.js";
import { odataMetadata } from "./metadata-document.js";
import { discovery, metadataFormat } from "./negotiation.js";
import { ODataError } from "./odata-error.js";
import type { QueryOptions } from "./query-options.js";
import { json, notAcceptable, type Reply } from "./reply.js";
import { readContext, type Handler, type ODataCall, type PathOf } from "./routes.js";
import { serviceDocument, serviceRootDocument } from "./service-document.js";
import { formatODataPath } from "./url-format.js";

/** `GET /fmi/odata/v4`: the hosted files (any method: the service root names no file to write to). */
export function readServiceRoot(call: Omit<ODataCall<PathOf<"serviceRoot">>, "db" | "hostedName" | "urlDb">, databases: readonly string[]): Reply {
  refuseOptions(call.query);
  // The service root names no database whose SchemaVersion a `$schemaversion` could be compared with.
  if (call.query.schemaversion !== undefined) throw new ODataError(400, "-1002", "Error: $schemaversion does not apply to the service root");
  if (!call.accept.json) throw notAcceptable();
  return json(serviceRootDocument(databases, call.root, discovery(call.accept.annotations)));
}

export const readServiceDocument: Handler<"serviceDocument"> = (call) => {
  refuseOptions(call.query);
  if (!call.accept.json) throw notAcceptable();
  return json(serviceDocument(odataModelOf(call.db), call.root + formatODataPath({ kind: "serviceDocument", db: call.path.db }), discovery(call.accept.annotations)));
};

export const readMetadata: Handler<"metadata"> = ({ db, path, query, request }) => {
  refuseOptions(query);
  const doc = odataMetadata(db, {
    database: path.db,
    format: metadataFormat(request.headers, query.format),
    ...(path.table === undefined ? {} : { table: path.table }),
    idAnnotationsOnly: /include-annotations\s*=\s*"?-\*"?/i.test(String(request.headers.prefer ?? "")),
  });
  return { status: 200, contentType: doc.contentType, body: Buffer.from(doc.body) };
};

export const readSet: Handler<"collection"> = (call) => {
  refuseUnsupported(call.query, true);
  const set = findSet(call.db, call.path.set);
  if (!call.accept.json) throw notAcceptable();
  const ctx = readContext(call);
  return json(call.query.apply !== undefined ? readApplied(set, ctx) : readCollection(set, ctx));
};

export const readSetCount: Handler<"count"> = (call) => {
  refuseUnsupported(call.query, false);
  const set = findSet(call.db, call.path.set);
  // 2.3: `Accept: text/plain` is a 406 on FMS 22; `*/*` and application/json work.
  if (!call.accept.json) throw notAcceptable();
  return { status: 200, contentType: "text/plain;charset=utf-8", body: Buffer.from(readCount(set, readContext(call))) };
};

export const readOne: Handler<"entity"> = (call) => {
  refuseUnsupported(call.query, false);
  const set = findSet(call.db, call.path.set);
  if (!call.accept.json) throw notAcceptable();
  return json(readEntity(set, call.path.key, readContext(call)));
};

export const readField: Handler<"member"> = (call) => {
  refuseUnsupported(call.query, false);
  const set = findSet(call.db, call.path.set);
  if (!call.accept.json) throw notAcceptable();
  return json(readMember(set, call.path.key, call.path.member, readContext(call)));
};

/** `T(k)/F/$value`: a container's bytes with its type, any other field's raw text. */
export const readFieldValue: Handler<"value"> = (call) => {
  refuseUnsupported(call.query, false);
  const set = findSet(call.db, call.path.set);
  const ctx = readContext(call);
  const file = downloadContainer(set, call.path.key, call.path.member, call.request.headers.accept, ctx);
  if (file) return file;
  const raw = readValue(set, call.path.key, call.path.member, ctx);
  return { status: 200, contentType: raw.contentType, body: raw.body };
};

export const readJoined: Handler<"crossjoin"> = (call) => {
  refuseUnsupported(call.query);
  if (!call.accept.json) throw notAcceptable();
  return json(readCrossjoin(call.path.sets, readContext(call)));
};

/** The discovery documents take no query options; one given is refused, not ignored. */
function refuseOptions(query: QueryOptions): void {
  const given = Object.entries(query).filter(([k, v]) => k !== "ignored" && k !== "format" && k !== "schemaversion" && v !== undefined);
  if (given.length > 0) throw new ODataError(400, "-1002", `Error: $${given[0]![0]} does not apply to this resource`);
}
