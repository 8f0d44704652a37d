import type { IncomingMessage } from "node:http";
import { resolveDatabase } from "../hosted-file/database-name.js";
import { EmulatorError, standardMessage } from "../hosted-file/fm-error.js";
import type { AnswerBytes, InjectedCode, ShellAnswer } from "../http/answer.js";
import { serveContainer } from "./handlers/containers.js";
import { SessionGlobals, sessionDatabase } from "../hosted-file/globals.js";
import type { DataApiState } from "./state.js";
import { envelope } from "./wire/envelope.js";
import { checkQueryNames } from "./wire/known-params.js";
import { unknownParameters } from "../hosted-file/input/unknown-parameters.js";
import { RC_TYPE } from "../hosted-file/container-urls.js";
import { API_KEY_ACCOUNT_NAME } from "../hosted-file/sign-ins.js";
import { matchRoute, type Route, type RequestContext } from "./routes.js";
import { ROUTES, ROUTES_WITHOUT_METADATA } from "./route-table.js";
import type { HttpApi } from "../http/server.js";
import { dataApiLogAccount } from "./log-account.js";

const VERSIONS = new Set(["v1", "v2", "vLatest"]);

/**
 * Codes real servers answer with their own HTTP status (400, 401, 404), not the 500 of FileMaker errors
 * (docs/emulator.md, "10. Statuses on real servers"): bad parameters 960 / 1708 / 1710, a URL naming no resource 1630.
 */
const HTTP_LEVEL_CODES = new Set(["1630", "1708", "1710", "960"]);

/** The Data API as the HTTP shell carries it (../http/server.ts): its paths, its envelopes, the shell's answers in them. */
export function dataApi(state: DataApiState): HttpApi {
  return {
    logName: "Data API",
    // Faults play on the Data API's paths (/fmi/...), not on container downloads.
    takesFaults: (target) => target.startsWith("/fmi/"),
    serve: (req) => serve(state, req),
    logAccount: (req) => dataApiLogAccount(state, req),
    shellAnswer,
    revoke: (req) => {
      const token = bearerToken(req);
      if (token) state.sessions.revoke(token);
    },
  };
}

/** How the Data API words the codes injected faults answer with (docs/emulator.md, "Fault injection"). */
const INJECTED_MESSAGES: Record<InjectedCode, string> = { "-1": "Unknown error", "812": "Exceeds host's capacity", "956": standardMessage("956") };

/** The shell's answers as envelopes with a code. */
function shellAnswer(answer: ShellAnswer): AnswerBytes {
  switch (answer.kind) {
    case "refused":
      return envelope(answer.status, "1630", {}, `${standardMessage("1630")}: ${answer.reason}`);
    case "injected":
      return envelope(answer.status, answer.code, {}, INJECTED_MESSAGES[answer.code]);
    case "malformed":
      return envelope(answer.status, "1708", {}, `malformed HTTP request (${answer.parserCode ?? "parse error"})`);
  }
}

/** Answers one Data API request; every failure becomes an envelope with a code (a lost socket throws). */
async function serve(state: DataApiState, req: IncomingMessage): Promise<AnswerBytes> {
  try {
    return await dispatch(state, req);
  } catch (error) {
    return errorAnswer(state, error);
  }
}

/**
 * A container URL's query (docs/emulator.md, "11. Container URLs"): `RCType=EmbeddedRCFileProcessor`, as the URL is
 * given out, or none (*choice*: a client that drops it still downloads); any other parameter, another RCType, or
 * RCType twice is 400 / 960 (rule one: no parameter is silently ignored), before the file is looked up.
 */
function checkContainerQuery(query: URLSearchParams): void {
  const names = [...new Set(query.keys())].filter((name) => name !== "RCType");
  if (names.length > 0) throw unknownParameters(names);
  const rcType = query.getAll("RCType");
  if (rcType.length > 1) throw new EmulatorError(400, "960", "RCType is given more than once; a container URL carries it once");
  if (rcType.length === 1 && rcType[0] !== RC_TYPE) throw new EmulatorError(400, "960", `RCType must be ${RC_TYPE}, as the container URL gives it`);
}

function errorAnswer(state: DataApiState, error: unknown): AnswerBytes {
  if (error instanceof EmulatorError) {
    // FileMaker Server answers 500 for FileMaker errors; 1630/1708 are HTTP-level and keep their status.
    const asServer = state.serverStatuses && (error.status === 400 || error.status === 404) && !HTTP_LEVEL_CODES.has(error.code);
    const status = state.serverStatuses && error.serverStatus !== undefined ? error.serverStatus : asServer ? 500 : error.status;
    return envelope(status, error.code, error.response ?? {}, error.message);
  }
  return envelope(500, "-1", {}, `Unknown error: emulator fault (${(error as Error)?.message ?? String(error)})`);
}

async function dispatch(state: DataApiState, req: IncomingMessage): Promise<AnswerBytes> {
  const url = requestUrl(req.url ?? "/");
  // A proxy path prefix of an API key (`/otto/fmi/data/...`) is taken off here (hosted-file/api-keys.ts).
  const segments = state.apiKeys.route(req, decodeSegments(url.pathname));

  if (segments[0] === "Streaming" && req.method === "GET") {
    checkContainerQuery(url.searchParams);
    const file = serveContainer(state, segments, bearerToken(req), req);
    if (file) return file;
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
  const code = answer.code ?? "0";
  return envelope(answer.status ?? 200, code, answer.response ?? {}, standardMessage(code), answer.headers, answer.account ?? ctx.signedInAs);
}

async function contextFor(state: DataApiState, req: IncomingMessage, route: Route, params: Record<string, string>, query: URLSearchParams): Promise<RequestContext> {
  if (params.database === undefined) return serverLevelContext(state, req, route, params, query);
  // The one rule of both APIs (hosted-file/database-name.ts): `Contacts.fmp12` and `contacts` name the file
  // `Contacts`, so a session opened under one form serves paths in the other (it is the file's session).
  const db = resolveDatabase(state.databases, params.database)?.db;
  if (!db) throw new EmulatorError(404, "100", `no hosted database named "${params.database}"`);
  // Every request runs with global values of its own (globals.ts): a session's, an API key's, or (a login, a
  // logout) a scope that is dropped with the request. The file's values are written by seed data only.
  let globals: SessionGlobals;
  let account: string | undefined;
  let signedInAs: string | undefined;
  if (route.auth === "bearer") {
    const token = bearerToken(req);
    const session = token !== undefined && state.sessions.isValid(token, db.model.name);
    const scope = token === undefined ? undefined : session ? state.sessions.globalsOf(token) : state.apiKeys.globalsOf(req, token);
    if (!scope) throw new EmulatorError(401, "952", token ? "the token is unknown, expired or for another database" : "send Authorization: Bearer <token>");
    globals = scope;
    account = session ? state.sessions.accountNameOf(token!) : API_KEY_ACCOUNT_NAME;
    // For the request log, named while the session is at hand (log-account.ts asks again only for other requests).
    signedInAs = session ? state.sessions.accountOf(token!) : "API key";
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
  const ctx: RequestContext = { req, state, params, query, db: sessionDatabase(db, globals, account), layout: layout!, route, signedInAs };
  checkQueryNames(ctx);
  return ctx;
}

/** A server-level route (`productInfo`, `databases`) names no database or layout, and its handler reads neither. */
function serverLevelContext(state: DataApiState, req: IncomingMessage, route: Route, params: Record<string, string>, query: URLSearchParams): RequestContext {
  const ctx: RequestContext = { req, state, params, query, db: undefined!, layout: undefined!, route };
  checkQueryNames(ctx);
  return ctx;
}

function touchSession(state: DataApiState, req: IncomingMessage, route: Route): void {
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
