import type { IncomingMessage } from "node:http";
import type { DataApiState } from "./state.js";
import type { HostedDatabase } from "../hosted-file/store.js";
import type { LayoutModel } from "../hosted-file/model.js";
import type { DateFormat } from "../hosted-file/date-format.js";

/** What a handler answers: a `response` payload (code 0 unless said otherwise) and extra headers. */
export interface Answer {
  status?: number;
  code?: string;
  response?: object;
  headers?: Record<string, string>;
  /** The account the request log shows, when the request no longer says (a logout: its session is gone). */
  account?: string;
}

export interface RequestContext {
  req: IncomingMessage;
  state: DataApiState;
  params: Record<string, string>;
  query: URLSearchParams;
  db: HostedDatabase;
  /** Set for routes under `layouts/{layout}`. */
  layout: LayoutModel;
  /** The route answering this request (what it accepts). */
  route: Route;
  /** The call's `dateformats` (date-format.ts), once its handler has read it; default US. */
  dateFormat?: DateFormat;
  /** The account the request log shows for a Bearer request: its session's, or "API key" (log-account.ts). */
  signedInAs?: string | undefined;
}

export type Auth = "basic" | "bearer" | "none";

export interface Route {
  method: string;
  /** Segments after `/fmi/data/{version}`; `:name` captures one segment. */
  pattern: string[];
  auth: Auth;
  /** Whether the route resolves `:layout` to a layout model first (105 when missing). */
  needsLayout: boolean;
  handle: (ctx: RequestContext) => Promise<Answer> | Answer;
  /** The query parameters and body keys it implements; any other answers 960. */
  accepts: AcceptedNames;
}

/** The query parameters and body keys a route implements; any other name answers 960 (known-params.ts). */
export interface AcceptedNames {
  /** Query parameter names the route implements. */
  query?: readonly string[];
  /** Top-level JSON body keys the route implements. */
  body?: readonly string[];
  /** Names that depend on the call (a portal's `_limit.<portal>`): true when the route implements this one. */
  dynamicQuery?: (name: string, ctx: RequestContext) => boolean;
  dynamicBody?: (name: string, ctx: RequestContext) => boolean;
}

export function route(method: string, path: string, auth: Auth, handle: Route["handle"], accepts: AcceptedNames = {}): Route {
  const pattern = path.split("/").filter(Boolean);
  return { method, pattern, auth, needsLayout: pattern.includes(":layout"), handle, accepts };
}

/** Matches decoded segments against the routes: the route, or whether some route has this path. */
export function matchRoute(routes: readonly Route[], method: string, segments: readonly string[]): { route?: Route; params?: Record<string, string>; pathKnown: boolean } {
  let pathKnown = false;
  for (const candidate of routes) {
    const params = matchPattern(candidate.pattern, segments);
    if (!params) continue;
    pathKnown = true;
    if (candidate.method === method) return { route: candidate, params, pathKnown };
  }
  return { pathKnown };
}

function matchPattern(pattern: readonly string[], segments: readonly string[]): Record<string, string> | undefined {
  if (pattern.length !== segments.length) return undefined;
  const params: Record<string, string> = Object.create(null);
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    if (p.startsWith(":")) params[p.slice(1)] = segments[i]!;
    else if (p !== segments[i]) return undefined;
  }
  return params;
}
