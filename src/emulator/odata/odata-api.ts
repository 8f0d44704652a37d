// The OData API as the HTTP shell carries it (../http/server.ts): Basic auth on every request (section 8), the read
// path (entity-read.ts) over the hosted file, and every failure in OData's error shape (section 9), faults included.

import type { IncomingMessage } from "node:http";
import type { HostedServer } from "../hosted-file/hosted-server.js";
import type { AnswerBytes, ShellAnswer } from "../http/answer.js";
import type { HttpApi } from "../http/server.js";
import { mediaTypeOf } from "../http/media-type.js";
import { readBody } from "../http/request-body.js";
import { requestBaseUrl } from "../http/request-host.js";
import { authenticateOData } from "./odata-auth.js";
import type { ContainerStore, HostedDatabase } from "../hosted-file/store.js";
import type { ODataPath } from "./url-path.js";
import { findSet, odataModelOf, recordKey } from "./entity-sets.js";
import { createEntity, deleteEntities, filteredRecords, parseWriteBody, recordToWrite, updateEntities, type WriteContext } from "./entity-write.js";
import { readCollection, readCount, readEntity, readMember, readValue, refuseUnsupported, type Annotations, type ReadContext } from "./entity-read.js";
import { downloadContainer, uploadBinary, writeBodyLimit } from "./container-upload.js";
import { callScript } from "./script-call.js";
import { odataMetadata } from "./metadata-document.js";
import { readApplied } from "./apply-read.js";
import { readCrossjoin } from "./crossjoin.js";
import { hostedDatabase } from "./database-name.js";
import { MAX_URL_LENGTH, ODataError, uriTooLong } from "./odata-error.js";
import { parsePrefer } from "./query-options-prefer.js";
import type { QueryOptions } from "./query-options.js";
import { checkSchemaVersion, serveSchemaChange } from "./schema-api.js";
import { serviceDocument, serviceRootDocument } from "./service-document.js";
import { batchBodyTooLarge, isBatchTarget, MAX_BATCH_BYTES, serveBatch } from "./batch-serve.js";
import { formatODataPath } from "./url-format.js";
import { parseODataRequestTarget, SERVICE_ROOT } from "./url-request.js";
import { serveWebhook } from "./webhook-api.js";
import { serveReference } from "./references.js";
import { stringifyJson } from "./json-number.js";
import { refuseNonJsonBody } from "./json-content-type.js";
import type { WebhookRegistry } from "./webhook-registry.js";

/** What the OData API serves: the hosted server both APIs share, and the file's webhooks (section 7). */
export interface ODataHost {
  readonly server: HostedServer;
  readonly webhooks: WebhookRegistry;
}

const JSON_TYPE = "application/json;charset=utf-8";
const HEADERS = { "OData-Version": "4.0" };
const INTERNAL = "Unexpected internal OData Provider error";

interface Reply {
  status: number;
  contentType: string;
  body: Buffer;
  headers?: Record<string, string>;
}

/** Header names in lower case, values as one string each. */
export type PlainHeaders = Readonly<Record<string, string | undefined>>;

/**
 * One request as the dispatch answers it: a top-level HTTP request, or one part of a `$batch` (batch-serve.ts).
 * `target` is the path and query as sent, from `/fmi/odata/v4` on; signing in is checked before (once per batch).
 */
export interface ODataRequest {
  readonly method: string;
  readonly target: string;
  readonly headers: PlainHeaders;
  readonly body: Buffer | undefined;
  /** A part of a `$batch`: `return=representation` is ignored (section 4's choice: a POST answers 204 + Location). */
  readonly inBatch?: boolean;
}

/**
 * The API served at `{pathPrefix}/fmi/odata/v4` (`pathPrefix` `""`: the emulator's own root; `/otto`: an API key's
 * proxy prefix, odata-auth.ts). URLs in answers leave the prefix out, as the Otto captures do (2.3).
 */
export function odataApi(server: HostedServer, webhooks: WebhookRegistry, pathPrefix = ""): HttpApi {
  const host: ODataHost = { server, webhooks };
  const served = pathPrefix + SERVICE_ROOT;
  return {
    takesFaults: (target: string) => target === served || target.startsWith(`${served}/`) || target.startsWith(`${served}?`),
    serve: (req: IncomingMessage) => serve(host, req, pathPrefix),
    shellAnswer: (answer) => bytesOf(errorReply(shellError(answer))),
    // OData has no session to revoke: every request signs in again.
    revoke: () => {},
  };
}

/** The shell's answers as OData errors. */
function shellError(answer: ShellAnswer): ODataError {
  switch (answer.kind) {
    case "refused":
      return new ODataError(answer.status, "-1000", `${answer.reason[0]!.toUpperCase()}${answer.reason.slice(1)}`);
    case "injected":
      if (answer.code === "812") return new ODataError(503, "812", "(812): Exceeds host's capacity");
      if (answer.code === "956") return new ODataError(500, "956", "(956): Maximum number of Data API sessions exceeded");
      return new ODataError(answer.status, "-1", INTERNAL);
    case "malformed": {
      // A request line past the URL cap that Node refuses first (past its header limit) is 414 as a shorter one is.
      const line = answer.requestLineLength;
      if (answer.status === 431 && line !== undefined && line > MAX_URL_LENGTH) return new ODataError(414, "-1002", `Error: URL of more than ${MAX_URL_LENGTH} characters exceeds the limit of ${MAX_URL_LENGTH}`);
      return new ODataError(answer.status, "-1002", `Error: malformed HTTP request (${answer.parserCode ?? "parse error"})`);
    }
  }
}

async function serve(host: ODataHost, req: IncomingMessage, pathPrefix: string): Promise<AnswerBytes> {
  let reply: Reply;
  try {
    const target = (req.url ?? "/").slice(pathPrefix.length);
    const method = req.method ?? "GET";
    const batch = isBatchTarget(target);
    const limit = batch ? MAX_BATCH_BYTES : writeBodyLimit(method, target, host.server.maxUploadBytes);
    if (target.length > MAX_URL_LENGTH) throw uriTooLong(target.length);
    // Every request signs in (section 8): Basic, FMID or an API key of the prefix it came in under (odata-auth.ts);
    // a `$batch` once, for all its parts. Before its body is read: no one unsigned makes the server take in an upload.
    authenticateOData(host.server, req.headers, pathPrefix);
    // A write's body is read whole before the write begins, at most `limit` bytes (413 beyond: choice).
    const body = WRITES.has(method) ? await readBody(req, limit, batch ? batchBodyTooLarge : () => tooLarge(limit)) : undefined;
    reply = await answer(host, { method, target, headers: plainHeaders(req), body }, `${requestBaseUrl(req, host.server.baseUrl)}${SERVICE_ROOT}`);
  } catch (error) {
    reply = errorReply(error instanceof ODataError ? error : new ODataError(500, "-1", `${INTERNAL}: emulator fault (${(error as Error)?.message ?? String(error)})`));
  }
  return bytesOf(reply);
}

const WRITES = new Set(["POST", "PATCH", "PUT", "DELETE"]);

const tooLarge = (limit: number) => new ODataError(413, "-1", `Error: the request body is larger than ${limit} bytes`);

function errorReply(error: ODataError): Reply {
  const headers: Record<string, string> = error.status === 401 ? { "WWW-Authenticate": 'Basic realm="FileMaker"' } : {};
  return { status: error.status, contentType: JSON_TYPE, body: Buffer.from(JSON.stringify(error.toJSON())), headers };
}

/** The request's headers as PlainHeaders (repeated ones joined with ", "). */
function plainHeaders(req: IncomingMessage): PlainHeaders {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  return out;
}

/**
 * The dispatch every request goes through, top-level or a `$batch` part (signing in already checked). `root` is
 * the service root URL answers link to (`http://host:port/fmi/odata/v4`).
 */
function answer(host: ODataHost, request: ODataRequest, root: string): Reply | Promise<Reply> {
  const { method, target, body } = request;
  if (target.length > MAX_URL_LENGTH) throw uriTooLong(target.length);
  const { path, query } = parseODataRequestTarget(target);
  const accept = readAccept(request.headers, query.format);
  if (path.kind === "batch") return serveBatch({ host: host.server, method, path, query, request, root }, (part) => answer(host, part, root));
  refuseNonJsonBody({ method, target, contentType: request.headers["content-type"], body }, path);
  if (path.kind === "serviceRoot") {
    refuseOptions(query);
    // The service root names no database whose SchemaVersion a `$schemaversion` could be compared with.
    if (query.schemaversion !== undefined) throw new ODataError(400, "-1002", "Error: $schemaversion does not apply to the service root");
    if (!accept.json) throw notAcceptable();
    return json(serviceRootDocument([...host.server.databases.keys()], root, discovery(accept.annotations)));
  }
  // 1.1: a file is named with or without `.fmp12` (PKM was requested as `WebData.fmp12`); the URL's form is echoed.
  const { name: hostedName, db } = hostedDatabase(host.server.databases, path.db);
  checkSchemaVersion(db, query.schemaversion);
  if (path.kind === "script") return callScript(db, { method, script: path.script, set: path.set, key: path.key, query, body }, host.server);
  if (path.kind === "tables" || path.kind === "indexes") {
    const done = serveSchemaChange(db, host.server.containers, method, path, query, body);
    return done.body === undefined ? { status: done.status, contentType: JSON_TYPE, body: Buffer.alloc(0) } : { ...json(done.body), status: done.status };
  }
  if (path.kind === "webhook") {
    if (!accept.json) throw notAcceptable();
    return json(serveWebhook(host.webhooks, { method, operation: path.operation, id: path.id, database: hostedName, db, query, body, root, annotations: accept.annotations }));
  }
  if (path.kind === "ref") {
    if (method === "GET" && !accept.json) throw notAcceptable();
    const sameDatabase = (urlName: string) => host.server.databases.get(urlName) === db || host.server.databases.get(urlName.replace(/\.fmp12$/i, "")) === db;
    const done = serveReference({ db, clock: host.server.clock }, { method, path, query, target, body, root, annotations: accept.annotations, sameDatabase });
    return done.status === 200 ? json(done.body) : { status: 204, contentType: JSON_TYPE, body: Buffer.alloc(0) };
  }
  if (method !== "GET") return write(host, request, method, path, query, body, db, root, accept.annotations);
  const dbRoot = root + formatODataPath({ kind: "serviceDocument", db: path.db });
  switch (path.kind) {
    case "serviceDocument":
      refuseOptions(query);
      if (!accept.json) throw notAcceptable();
      return json(serviceDocument(odataModelOf(db), dbRoot, discovery(accept.annotations)));
    case "metadata": {
      refuseOptions(query);
      const doc = odataMetadata(db, {
        database: path.db,
        format: metadataFormat(request.headers, query.format),
        ...(path.table === undefined ? {} : { table: path.table }),
        idAnnotationsOnly: /include-annotations\s*=\s*"?-\*"?/i.test(String(request.headers.prefer ?? "")),
      });
      return { status: 200, contentType: doc.contentType, body: Buffer.from(doc.body) };
    }
    case "collection":
    case "count":
    case "entity":
    case "member":
    case "value": {
      refuseUnsupported(query, path.kind === "collection");
      const set = findSet(db, path.set);
      const ctx: ReadContext = { db, containers: host.server.containers, root, annotations: accept.annotations, prefer: parsePrefer(request.headers.prefer), query, now: host.server.clock.now(), written: 0 };
      if (path.kind === "value") {
        const file = downloadContainer(set, path.key, path.member, request.headers.accept, ctx);
        if (file) return file;
        const raw = readValue(set, path.key, path.member, ctx);
        return { status: 200, contentType: raw.contentType, body: raw.body };
      }
      if (path.kind === "count") {
        // 2.3: `Accept: text/plain` is a 406 on FMS 22; `*/*` and application/json work.
        if (!accept.json) throw notAcceptable();
        return { status: 200, contentType: "text/plain;charset=utf-8", body: Buffer.from(readCount(set, ctx)) };
      }
      if (!accept.json) throw notAcceptable();
      if (path.kind === "collection") return json(query.apply !== undefined ? readApplied(set, ctx) : readCollection(set, ctx));
      if (path.kind === "entity") return json(readEntity(set, path.key, ctx));
      return json(readMember(set, path.key, path.member, ctx));
    }
    case "crossjoin": {
      refuseUnsupported(query);
      if (!accept.json) throw notAcceptable();
      const ctx: ReadContext = { db, containers: host.server.containers, root, annotations: accept.annotations, prefer: parsePrefer(request.headers.prefer), query, now: host.server.clock.now(), written: 0 };
      return json(readCrossjoin(path.sets, ctx));
    }
    default:
      // Every path kind is answered above; a new kind url-path.ts learns must be given its answer here.
      throw new ODataError(500, "-1", `${INTERNAL}: no answer for ${(path as ODataPath).kind} requests`);
  }
}

const notServed = (method: string, what: string) => new ODataError(405, "-1002", `Error: ${method} is not supported on ${what} by the emulator's OData API`);

/**
 * Writes (3.1, 3.2): POST a collection; PATCH/PUT/DELETE one record by key, or a collection's `$filter` matches
 * (`fmodata.affected_rows`); a binary container upload, `PATCH T(k)/F[/$value]` (3.3: container-upload.ts).
 */
function write(host: ODataHost, req: ODataRequest, method: string, path: ODataPath, query: QueryOptions, body: Buffer | undefined, db: HostedDatabase, root: string, annotations: Annotations): Reply {
  if (path.kind !== "collection" && path.kind !== "entity") {
    if ((path.kind === "member" || path.kind === "value") && method === "PATCH") {
      const set = findSet(db, path.set);
      const ctx: ReadContext = { db, containers: host.server.containers, root, annotations, prefer: parsePrefer(req.headers.prefer), query: { ignored: query.ignored }, now: host.server.clock.now(), written: 0 };
      return uploadBinary(set, path.key, path.member, query, req.headers, body ?? Buffer.alloc(0), { db, containers: host.server.containers, clock: host.server.clock }, ctx);
    }
    throw notServed(method, `a ${path.kind} resource`);
  }
  // Rule one: a write applies `$filter` (collection PATCH/DELETE) and nothing else; other options are refused.
  const given = Object.entries(query).filter(([k, v]) => k !== "ignored" && k !== "schemaversion" && v !== undefined && !(k === "filter" && path.kind === "collection" && method !== "POST"));
  if (given.length > 0) throw new ODataError(400, "-1002", `Error: $${given[0]![0]} does not apply to a ${method} request`);
  const set = findSet(db, path.set);
  const prefer = parsePrefer(req.headers.prefer);
  const ieee754 = /ieee754compatible=true/i.test(String(req.headers["content-type"] ?? "")) || annotations.ieee754 === true;
  const wctx: WriteContext = { db, clock: host.server.clock, ieee754, now: host.server.clock.now(), containers: host.server.containers };
  const ctx: ReadContext = { db, containers: host.server.containers, root, annotations, prefer, query: { ignored: query.ignored }, now: wctx.now, written: 0 };
  const rowidUrl = (rowid: number) => root + formatODataPath({ kind: "entity", db: path.db, set: { by: "name", name: set.name }, key: { kind: "rowid", rowid } });
  const affected = (n: number): Reply => ({ status: 204, contentType: JSON_TYPE, body: Buffer.alloc(0), headers: { "fmodata.affected_rows": String(n) } });
  if (path.kind === "collection") {
    if (method === "POST") {
      const record = createEntity(set, parseWriteBody(body), wctx);
      if (prefer.return === "minimal" || req.inBatch === true) {
        const url = rowidUrl(record.recordId);
        return { status: 204, contentType: JSON_TYPE, body: Buffer.alloc(0), headers: { Location: url, "OData-EntityId": url } };
      }
      const key = recordKey(set, record);
      const location = root + formatODataPath({ kind: "entity", db: path.db, set: { by: "name", name: set.name }, key });
      return { ...json(readEntity(set, key, ctx)), status: 201, headers: { Location: location } };
    }
    if (method === "PATCH") {
      const fields = parseWriteBody(body);
      return affected(updateEntities(set, filteredRecords(set, query.filter, wctx, method), fields, wctx).length);
    }
    if (method === "DELETE") {
      const records = filteredRecords(set, query.filter, wctx, method);
      deleteEntities(set, records, wctx);
      return affected(records.length);
    }
    throw notServed(method, "a collection");
  }
  if (method === "PATCH" || method === "PUT") {
    const fields = parseWriteBody(body);
    const [record] = updateEntities(set, [recordToWrite(set, path.key)], fields, wctx);
    // 3.2: the entity, without `fmodata.affected_rows` (a client reads that header first and would take the count);
    // a batch part ignores return=representation (section 4's choice).
    if (prefer.return === "representation" && req.inBatch !== true) return json(readEntity(set, recordKey(set, record!), ctx));
    return affected(1);
  }
  if (method === "DELETE") {
    deleteEntities(set, [recordToWrite(set, path.key)], wctx);
    return affected(1);
  }
  throw notServed(method, "an entity");
}

/** The discovery documents take no query options; one given is refused, not ignored. */
function refuseOptions(query: QueryOptions): void {
  const given = Object.entries(query).filter(([k, v]) => k !== "ignored" && k !== "format" && k !== "schemaversion" && v !== undefined);
  if (given.length > 0) throw new ODataError(400, "-1002", `Error: $${given[0]![0]} does not apply to this resource`);
}

/** The discovery documents follow the read path's annotation form (1.7, 2.2). */
function discovery(a: Annotations): { prefixed: boolean; noContext: boolean } {
  return { prefixed: a.prefixed, noContext: a.none };
}

/**
 * `$metadata`'s form (1.6): CSDL XML by default (no Accept, `*∕*`, XML); JSON CSDL for `$format=json`, or an Accept
 * that names `application/json` and not XML. `$format` overrides Accept (2.9).
 */
function metadataFormat(headers: PlainHeaders, format: "json" | "xml" | undefined): "json" | "xml" {
  if (format !== undefined) return format;
  const types = (headers.accept ?? "").split(",").map(mediaTypeOf);
  return types.includes("application/json") && !types.includes("application/xml") ? "json" : "xml";
}

function json(body: unknown): Reply {
  return { status: 200, contentType: JSON_TYPE, body: Buffer.from(stringifyJson(body)) };
}

const notAcceptable = () => new ODataError(406, "-1", INTERNAL);

/**
 * What Accept (and `$format`, which overrides it: 2.1) allows: JSON when absent, `*∕*`, `application/*` or
 * `application/json`; Atom and XML data are not emulated (2.1's choice: 406). The annotation form (2.2's choice):
 * `@odata.` when the request has `OData-Version`/`OData-MaxVersion` 4.0 or an `odata.metadata=` parameter.
 */
function readAccept(headers: PlainHeaders, format: "json" | "xml" | undefined): { json: boolean; annotations: Annotations } {
  const header = headers.accept;
  let jsonOk = header === undefined || header.trim() === "";
  let metadata: string | undefined;
  let ieee754 = false;
  for (const range of (header ?? "").split(",")) {
    const [type, ...params] = range.split(";").map((s) => s.trim().toLowerCase());
    if (type === "*/*" || type === "application/*" || type === "application/json") jsonOk = true;
    for (const p of params) {
      // 4.01: the parameter with or without `odata.` (2.1).
      const m = /^(?:odata\.)?metadata=(.*)$/.exec(p);
      if (m) metadata ??= m[1];
      if (p === "ieee754compatible=true") ieee754 = true;
    }
  }
  if (format !== undefined) jsonOk = format === "json";
  const v4 = (h: string | undefined) => h?.trim().startsWith("4.0") ?? false;
  const prefixed = metadata !== undefined || v4(headers["odata-version"]) || v4(headers["odata-maxversion"]);
  return { json: jsonOk, annotations: { prefixed, none: metadata === "none", ieee754 } };
}

/** A reply as the bytes the shell sends. */
function bytesOf(reply: Reply): AnswerBytes {
  return { status: reply.status, headers: { ...HEADERS, "Content-Type": reply.contentType }, ownHeaders: reply.headers, body: reply.body };
}
