// Every route of the OData API below a hosted file (`/fmi/odata/v4/{db}/...`), by method and path kind
// (url-path.ts); a method a kind has no row for is 405 (routes.ts). A path kind whose handler answers every method
// itself (`*`) refuses the methods it does not take in its own words. The service root and `$batch` are answered
// before the hosted file is resolved (odata-api.ts).

import { resolveDatabase } from "../hosted-file/database-name.js";
import { callScript } from "./script-call.js";
import { readField, readFieldValue, readJoined, readMetadata, readOne, readServiceDocument, readSet, readSetCount } from "./read-routes.js";
import { serveReference } from "./references.js";
import { json, noContent, notAcceptable } from "./reply.js";
import { route, type Handler, type ODataRoute } from "./routes.js";
import { serveSchemaChange } from "./schema-api.js";
import { serveWebhook } from "./webhook-api.js";
import { createOne, deleteMatches, deleteOne, updateMatches, updateOne, uploadFile } from "./write-routes.js";

/** `FileMaker_Tables/...` and `FileMaker_Indexes/...` (section 6). */
const changeSchema: Handler<"tables" | "indexes"> = ({ db, path, request, query, host }) => {
  const done = serveSchemaChange(db, host.server.containers, request.method, path, query, request.body);
  return done.body === undefined ? { ...noContent(), status: done.status } : { ...json(done.body), status: done.status };
};

export const ROUTES: readonly ODataRoute[] = [
  // Discovery and the model (1.2, 1.6).
  route("GET", "serviceDocument", readServiceDocument),
  route("GET", "metadata", readMetadata),
  // Reads (section 2).
  route("GET", "collection", readSet),
  route("GET", "count", readSetCount),
  route("GET", "entity", readOne),
  route("GET", "member", readField),
  route("GET", "value", readFieldValue),
  route("GET", "crossjoin", readJoined),
  // Writes (3.1, 3.2) and binary container uploads (3.3).
  route("POST", "collection", createOne),
  route("PATCH", "collection", updateMatches),
  route("DELETE", "collection", deleteMatches),
  route("PATCH", "entity", updateOne),
  route("PUT", "entity", updateOne),
  route("DELETE", "entity", deleteOne),
  route("PATCH", "member", uploadFile),
  route("PATCH", "value", uploadFile),
  // Scripts (5), schema changes (6), webhooks (7), references (3.2): each refuses the methods it does not take.
  route("*", "script", ({ db, path, request, query, host }) => callScript(db, { method: request.method, script: path.script, set: path.set, key: path.key, query, body: request.body }, host.server)),
  route("*", "tables", changeSchema),
  route("*", "indexes", changeSchema),
  route("*", "webhook", ({ db, path, request, query, host, root, accept, hostedName, urlDb }) => {
    if (!accept.json) throw notAcceptable();
    return json(serveWebhook(host.webhooks, { method: request.method, operation: path.operation, id: path.id, database: hostedName, urlDb, db, query, body: request.body, root, annotations: accept.annotations }));
  }),
  route("*", "ref", ({ db, path, request, query, host, root, accept }) => {
    const { method, target, body } = request;
    if (method === "GET" && !accept.json) throw notAcceptable();
    // By model: `db` is the request's view of the hosted file (with its account name), not the map's object.
    const sameDatabase = (urlName: string) => resolveDatabase(host.server.databases, urlName)?.db.model === db.model;
    const done = serveReference({ db, clock: host.server.clock }, { method, path, query, target, body, root, annotations: accept.annotations, sameDatabase });
    return done.status === 200 ? json(done.body) : noContent();
  }),
];
