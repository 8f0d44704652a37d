import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { EmulatorError, standardMessage } from "../hosted-file/fm-error.js";
import type { FaultKind, PlannedFault } from "../http/faults.js";
import { playAfter, sendProxyPage, sendTruncated, type AnswerBytes } from "../http/mangled-answers.js";
import { serveContainer } from "./handlers/containers.js";
import { SessionGlobals, sessionDatabase } from "../hosted-file/globals.js";
import { dropAllSessions, type EmulatorState } from "./state.js";
import { sendEnvelope } from "./wire/envelope.js";
import { checkQueryNames } from "./wire/known-params.js";
import { unknownParameters } from "../hosted-file/input/unknown-parameters.js";
import { matchRoute, type Route, type RequestContext } from "./routes.js";
import { ROUTES, ROUTES_WITHOUT_METADATA } from "./route-table.js";
import type { HttpApi } from "../http/server.js";

const VERSIONS = new Set(["v1", "v2", "vLatest"]);

/**
 * Codes real servers answer with their own HTTP status (400, 401, 404), not the 500 of FileMaker errors
 * (docs/emulator.md, "10. Statuses on real servers"): bad parameters 960 / 1708 / 1710, a URL naming no resource 1630.
 */
const HTTP_LEVEL_CODES = new Set(["1630", "1708", "1710", "960"]);

interface Reply {
  status: number;
  code: string;
  response: object;
  message?: string | undefined;
  headers?: Record<string, string> | undefined;
}

/** The Data API as the HTTP shell carries it (../http/server.ts): its paths, its envelopes, its faults' wire forms. */
export function dataApi(state: EmulatorState): HttpApi {
  return {
    // Faults play on the Data API's paths (/fmi/...), not on container downloads.
    takesFaults: (target) => target.startsWith("/fmi/"),
    refuse: (res, status, reason) => sendEnvelope(res, status, "1630", {}, `${standardMessage("1630")}: ${reason}`),
    serve: (req, res, fault) => serve(state, req, res, fault),
    answerMalformed,
  };
}

/** A request Node's HTTP parser refuses still gets an envelope with a code, then the connection closes. */
function answerMalformed(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable || error.code === "ECONNRESET") {
    socket.destroy();
    return;
  }
  const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
  const body = JSON.stringify({ response: {}, messages: [{ code: "1708", message: `malformed HTTP request (${error.code ?? "parse error"})` }] });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Answers one Data API request; every failure becomes an envelope with a code (a lost socket throws). */
async function serve(state: EmulatorState, req: IncomingMessage, res: ServerResponse, fault: PlannedFault | undefined): Promise<void> {
  if (fault?.phase === "before" && playBefore(state, req, res, fault.kind)) return;
  let reply: Reply | "sent";
  try {
    reply = await dispatch(state, req, res);
  } catch (error) {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    reply = errorReply(state, error);
  }
  if (reply === "sent") return;
  if (fault?.phase === "after") playAfter(res, fault.kind, () => envelopeBytes(reply));
  else sendEnvelope(res, reply.status, reply.code, reply.response, reply.message, reply.headers);
}

function errorReply(state: EmulatorState, error: unknown): Reply {
  if (error instanceof EmulatorError) {
    // FileMaker Server answers 500 for FileMaker errors; 1630/1708 are HTTP-level and keep their status.
    const asServer = state.serverStatuses && (error.status === 400 || error.status === 404) && !HTTP_LEVEL_CODES.has(error.code);
    const status = state.serverStatuses && error.serverStatus !== undefined ? error.serverStatus : asServer ? 500 : error.status;
    return { status, code: error.code, response: error.response ?? {}, message: error.message };
  }
  return { status: 500, code: "-1", response: {}, message: `Unknown error: emulator fault (${(error as Error)?.message ?? String(error)})` };
}

/** A fault before the request is handled: nothing is applied. True when the answer is already given. */
function playBefore(state: EmulatorState, req: IncomingMessage, res: ServerResponse, kind: FaultKind): boolean {
  switch (kind) {
    case "drop":
      req.socket.destroy();
      return true;
    case "html":
      sendProxyPage(res, 502);
      return true;
    case "truncate":
      sendTruncated(res, envelopeBytes({ status: 500, code: "-1", response: {}, message: "Unknown error" }));
      return true;
    case "capacity812":
      sendEnvelope(res, 503, "812", {}, "Exceeds host's capacity");
      return true;
    case "capacity956":
      sendEnvelope(res, 500, "956", {});
      return true;
    case "revoke": {
      // The token is forgotten; the request then meets the ordinary check and gets 952.
      const token = bearerToken(req);
      if (token) state.sessions.revoke(token);
      return false;
    }
    case "restart":
      dropAllSessions(state);
      return false;
  }
}

/** A reply as the whole envelope's bytes, for a mangled answer. */
function envelopeBytes(reply: Reply): AnswerBytes {
  const body = Buffer.from(JSON.stringify({ response: reply.response, messages: [{ code: reply.code, message: reply.message ?? "" }] }));
  return { status: reply.status, headers: { "Content-Type": "application/json; charset=utf-8" }, body };
}

async function dispatch(state: EmulatorState, req: IncomingMessage, res: ServerResponse): Promise<Reply | "sent"> {
  const url = requestUrl(req.url ?? "/");
  // A proxy path prefix of an API key (`/otto/fmi/data/...`) is taken off here (hosted-file/api-keys.ts).
  const segments = state.apiKeys.route(req, decodeSegments(url.pathname));

  if (segments[0] === "Streaming" && req.method === "GET") {
    // A container URL takes no query parameters (rule one: none is read, so none is taken).
    const names = [...new Set(url.searchParams.keys())];
    if (names.length > 0) throw unknownParameters(names);
    if (serveContainer(state, segments, bearerToken(req), res, req)) return "sent";
    throw new EmulatorError(404, "1630", "no container data at this URL");
  }
  if (segments[0] !== "fmi" || segments[1] !== "data" || !VERSIONS.has(segments[2] ?? "")) {
    throw new EmulatorError(404, "1630", "paths start with /fmi/data/{v1|v2|vLatest}/");
  }
  const rest = segments.slice(3);
  const method = req.method ?? "GET";
  const { route, params, pathKnown } = matchRoute(state.metadata ? ROUTES : ROUTES_WITHOUT_METADATA, method, rest);
  if (!route || !params) {
    if (pathKnown) throw new EmulatorError(405, "1630", `${method} is not supported on this resource`);
    throw new EmulatorError(404, "1630", `no Data API resource at ${url.pathname}`);
  }
  const ctx = await contextFor(state, req, route, params, url.searchParams);
  let answer;
  try {
    answer = await route.handle(ctx);
  } catch (error) {
    // A find that matches nothing is an empty result, not a failure: it keeps the session alive too.
    if (error instanceof EmulatorError && error.code === "401") touchSession(state, req, route);
    throw error;
  }
  // Only a successful call resets the inactivity timer (docs/emulator.md, "Sessions").
  touchSession(state, req, route);
  return { status: answer.status ?? 200, code: answer.code ?? "0", response: answer.response ?? {}, headers: answer.headers };
}

async function contextFor(state: EmulatorState, req: IncomingMessage, route: Route, params: Record<string, string>, query: URLSearchParams): Promise<RequestContext> {
  if (params.database === undefined) return serverLevelContext(state, req, route, params, query);
  const db = state.databases.get(params.database);
  if (!db) throw new EmulatorError(404, "100", `no hosted database named "${params.database}"`);
  // Every request runs with global values of its own (globals.ts): a session's, an API key's, or (a login, a
  // logout) a scope that is dropped with the request. The file's values are written by seed data only.
  let globals: SessionGlobals;
  if (route.auth === "bearer") {
    const token = bearerToken(req);
    const scope = token === undefined ? undefined : state.sessions.isValid(token, db.model.name) ? state.sessions.globalsOf(token) : state.apiKeys.globalsOf(req, token);
    if (!scope) throw new EmulatorError(401, "952", token ? "the token is unknown, expired or for another database" : "send Authorization: Bearer <token>");
    globals = scope;
  } else {
    globals = new SessionGlobals();
  }
  let layout = undefined;
  if (route.needsLayout) {
    layout = db.model.layouts.get(params.layout!);
    if (!layout) throw new EmulatorError(404, "105", `no layout named "${params.layout}" in "${db.model.name}"`);
  }
  // Routes without a layout never read ctx.layout.
  // A session's request sees the database with the session's global field values (globals.ts).
  const ctx: RequestContext = { req, state, params, query, db: sessionDatabase(db, globals), layout: layout!, route };
  checkQueryNames(ctx);
  return ctx;
}

/** A server-level route (`productInfo`, `databases`) names no database or layout, and its handler reads neither. */
function serverLevelContext(state: EmulatorState, req: IncomingMessage, route: Route, params: Record<string, string>, query: URLSearchParams): RequestContext {
  const ctx: RequestContext = { req, state, params, query, db: undefined!, layout: undefined!, route };
  checkQueryNames(ctx);
  return ctx;
}

function touchSession(state: EmulatorState, req: IncomingMessage, route: Route): void {
  if (route.auth === "bearer") state.sessions.touch(bearerToken(req)!);
}

function bearerToken(req: IncomingMessage): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
  return m?.[1];
}

/** The request target as a URL; one the URL parser refuses (`//`, `http://[`) is a malformed path. */
function requestUrl(target: string): URL {
  try {
    return new URL(target, "http://emulator.invalid");
  } catch {
    throw new EmulatorError(400, "1630", "the request target is not a valid URL path");
  }
}

function decodeSegments(pathname: string): string[] {
  return pathname
    .split("/")
    .filter((s) => s !== "")
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        throw new EmulatorError(400, "1630", `malformed percent-encoding in path segment "${segment}"`);
      }
    });
}
