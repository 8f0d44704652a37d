// The OData API as the HTTP shell carries it (../http/server.ts): every request signs in (section 8), its body is
// read at its route's limit, then `answer` (the one dispatch, `$batch` parts included) reads Accept, resolves the
// hosted file and calls the route of route-table.ts; every failure is in OData's error shape (section 9), the
// shell's own answers (refusals, injected faults, malformed requests) too.

import type { IncomingMessage } from "node:http";
import type { HostedServer } from "../hosted-file/hosted-server.js";
import type { AnswerBytes, InjectedCode, ShellAnswer } from "../http/answer.js";
import { readBody } from "../http/request-body.js";
import { requestBaseUrl } from "../http/request-host.js";
import type { HttpApi } from "../http/server.js";
import { batchBodyTooLarge, isBatchTarget, MAX_BATCH_BYTES, serveBatch } from "./batch-serve.js";
import { writeBodyLimit } from "./container-upload.js";
import { hostedDatabase } from "./database-name.js";
import { refuseNonJsonBody } from "./json-content-type.js";
import { readAccept, type PlainHeaders } from "./negotiation.js";
import { authenticateOData } from "./odata-auth.js";
import { MAX_URL_LENGTH, ODataError, uriTooLong } from "./odata-error.js";
import { readServiceRoot } from "./read-routes.js";
import { errorReply, failureReply, INTERNAL, type Reply } from "./reply.js";
import { ROUTES } from "./route-table.js";
import { matchRoute, type ODataHost, type ODataRequest } from "./routes.js";
import { checkSchemaVersion } from "./schema-api.js";
import { parseODataRequestTarget, SERVICE_ROOT } from "./url-request.js";
import type { WebhookRegistry } from "./webhook-registry.js";

const HEADERS = { "OData-Version": "4.0" };
const WRITES = new Set(["POST", "PATCH", "PUT", "DELETE"]);

/**
 * The API served at `{pathPrefix}/fmi/odata/v4` (`pathPrefix` `""`: the emulator's own root; `/otto`: an API key's
 * proxy prefix, odata-auth.ts). URLs in answers leave the prefix out, as the Otto captures do (2.3).
 */
export function odataApi(server: HostedServer, webhooks: WebhookRegistry, pathPrefix = ""): HttpApi {
  const host: ODataHost = { server, webhooks };
  const served = pathPrefix + SERVICE_ROOT;
  return {
    logName: "OData",
    takesFaults: (target: string) => target === served || target.startsWith(`${served}/`) || target.startsWith(`${served}?`),
    serve: (req: IncomingMessage) => serve(host, req, pathPrefix),
    shellAnswer: (answer) => bytesOf(errorReply(shellError(answer))),
    // OData has no session to revoke: every request signs in again.
    revoke: () => {},
  };
}

async function serve(host: ODataHost, req: IncomingMessage, pathPrefix: string): Promise<AnswerBytes> {
  let reply: Reply;
  // The account signing in gave, for the request log: none for a request that did not sign in (a refusal is a 401).
  let account: string | undefined;
  try {
    const target = (req.url ?? "/").slice(pathPrefix.length);
    const method = req.method ?? "GET";
    const batch = isBatchTarget(target);
    const limit = batch ? MAX_BATCH_BYTES : writeBodyLimit(method, target, host.server.maxUploadBytes);
    if (target.length > MAX_URL_LENGTH) throw uriTooLong(target.length);
    // Every request signs in (section 8): Basic, FMID or an API key of the prefix it came in under (odata-auth.ts);
    // a `$batch` once, for all its parts. Before its body is read: no one unsigned makes the server take in an upload.
    account = authenticateOData(host.server, req.headers, pathPrefix);
    // A write's body is read whole before the write begins, at most `limit` bytes (413 beyond: choice).
    const body = WRITES.has(method) ? await readBody(req, limit, batch ? batchBodyTooLarge : () => tooLarge(limit)) : undefined;
    reply = await answer(host, { method, target, headers: plainHeaders(req), body }, `${requestBaseUrl(req, host.server.baseUrl)}${SERVICE_ROOT}`, account);
  } catch (error) {
    reply = failureReply(error);
  }
  return bytesOf(reply, account);
}

/**
 * The dispatch every request goes through, top-level or a `$batch` part (signing in already checked): the target,
 * Accept, then the route. `root` is the service root URL answers link to (`http://host:port/fmi/odata/v4`);
 * `account` the account name the sign-in's writes auto-enter (a `$batch`'s parts write as the batch signed in).
 */
function answer(host: ODataHost, request: ODataRequest, root: string, account: string): Reply | Promise<Reply> {
  const { method, target, body } = request;
  if (target.length > MAX_URL_LENGTH) throw uriTooLong(target.length);
  const { path, query } = parseODataRequestTarget(target);
  const accept = readAccept(request.headers, query.format);
  // A `$batch`'s body is multipart, and it resolves its file after its own checks (batch-serve.ts).
  if (path.kind === "batch") return serveBatch({ host: host.server, method, path, query, request, root }, (part) => answer(host, part, root, account));
  refuseNonJsonBody({ method, target, contentType: request.headers["content-type"], body }, path);
  if (path.kind === "serviceRoot") return readServiceRoot({ host, request, path, query, accept, root }, [...host.server.databases.keys()]);
  // 1.1: a file is named with or without `.fmp12` (PKM was requested as `WebData.fmp12`), case aside; the URL's
  // form is echoed in every URL of the answer (urlDb).
  const { name: hostedName, db: hosted } = hostedDatabase(host.server.databases, path.db);
  const db = { ...hosted, account };
  checkSchemaVersion(db, query.schemaversion);
  return matchRoute(ROUTES, method, path.kind)({ host, request, path, query, accept, root, db, hostedName, urlDb: path.db });
}

const tooLarge = (limit: number) => new ODataError(413, "-1", `Error: the request body is larger than ${limit} bytes`);

/** How OData words the codes injected faults answer with (docs/emulator.md, "The OData API", "Reads"). */
const INJECTED_MESSAGES: Record<InjectedCode, string> = { "-1": INTERNAL, "812": "(812): Exceeds host's capacity", "956": "(956): Maximum number of Data API sessions exceeded" };

/** The shell's answers as OData errors. */
function shellError(answer: ShellAnswer): ODataError {
  switch (answer.kind) {
    case "refused":
      return new ODataError(answer.status, "-1000", `${answer.reason[0]!.toUpperCase()}${answer.reason.slice(1)}`);
    case "injected":
      return new ODataError(answer.status, answer.code, INJECTED_MESSAGES[answer.code]);
    case "malformed": {
      // A request line past the URL cap that Node refuses first (past its header limit) is 414 as a shorter one is.
      const line = answer.requestLineLength;
      if (answer.status === 431 && line !== undefined && line > MAX_URL_LENGTH) return new ODataError(414, "-1002", `Error: URL of more than ${MAX_URL_LENGTH} characters exceeds the limit of ${MAX_URL_LENGTH}`);
      return new ODataError(answer.status, "-1002", `Error: malformed HTTP request (${answer.parserCode ?? "parse error"})`);
    }
  }
}

/** The request's headers as PlainHeaders (repeated ones joined with ", "). */
function plainHeaders(req: IncomingMessage): PlainHeaders {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  return out;
}

/**
 * A reply as the bytes the shell sends; its code (an error's, "0" for a success) and `account` are the request log's
 * (AnswerBytes.account: a field of every answer, undefined or not, so that answers have one shape).
 */
function bytesOf(reply: Reply, account?: string): AnswerBytes {
  return { status: reply.status, headers: { ...HEADERS, "Content-Type": reply.contentType }, ownHeaders: reply.headers, body: reply.body, code: reply.code ?? (reply.status < 400 ? "0" : undefined), account };
}
