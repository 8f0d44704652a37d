import type { IncomingMessage, ServerResponse } from "node:http";
import { EmulatorError } from "../fm-error.js";
import { serveContainer } from "../handlers/containers.js";
import type { EmulatorState } from "../state.js";
import { sendEnvelope } from "./envelope.js";
import { matchRoute, type Route, type RequestContext } from "./routes.js";
import { ROUTES, ROUTES_WITHOUT_METADATA } from "./route-table.js";

const VERSIONS = new Set(["v1", "v2", "vLatest"]);

/** Answers one HTTP request; never throws, every failure becomes an envelope with a code. */
export async function handleRequest(state: EmulatorState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  state.counters.requests++;
  try {
    await dispatch(state, req, res);
  } catch (error) {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (error instanceof EmulatorError) {
      // FileMaker Server answers 500 for FileMaker errors; 1630/1708 are HTTP-level and keep their status.
      const asServer = state.serverStatuses && (error.status === 400 || error.status === 404) && error.code !== "1630" && error.code !== "1708";
      sendEnvelope(res, asServer ? 500 : error.status, error.code, {}, error.message);
    } else {
      sendEnvelope(res, 500, "-1", {}, `Unknown error: emulator fault (${(error as Error)?.message ?? String(error)})`);
    }
  }
}

async function dispatch(state: EmulatorState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", "http://emulator.invalid");
  const segments = decodeSegments(url.pathname);

  if (segments[0] === "Streaming" && req.method === "GET") {
    if (serveContainer(state, segments, res)) return;
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
  // Only a successful call resets the inactivity timer (data-api.md, session lifecycle).
  touchSession(state, req, route);
  sendEnvelope(res, answer.status ?? 200, answer.code ?? "0", answer.response ?? {}, undefined, answer.headers);
}

async function contextFor(state: EmulatorState, req: IncomingMessage, route: Route, params: Record<string, string>, query: URLSearchParams): Promise<RequestContext> {
  const db = state.databases.get(params.database!);
  if (!db) throw new EmulatorError(404, "100", `no hosted database named "${params.database}"`);
  if (route.auth === "bearer") {
    const token = bearerToken(req);
    if (!token || !state.sessions.isValid(token, db.model.name)) {
      throw new EmulatorError(401, "952", token ? "the token is unknown, expired or for another database" : "send Authorization: Bearer <token>");
    }
  }
  let layout = undefined;
  if (route.needsLayout) {
    layout = db.model.layouts.get(params.layout!);
    if (!layout) throw new EmulatorError(404, "105", `no layout named "${params.layout}" in "${db.model.name}"`);
  }
  // Routes without a layout never read ctx.layout.
  return { req, state, params, query, db, layout: layout! };
}

function touchSession(state: EmulatorState, req: IncomingMessage, route: Route): void {
  if (route.auth === "bearer") state.sessions.touch(bearerToken(req)!);
}

function bearerToken(req: IncomingMessage): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
  return m?.[1];
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
