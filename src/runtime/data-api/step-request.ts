import { parseEnvelope, callOf, type Envelope, type Transport, type TransportSettings, type WireRequest } from "./transport.js";
import type { FailedCall } from "../core/protocol-errors.js";
import { setOwn } from "../core/own.js";
import { parseJson } from "../core/json-numbers.js";

/**
 * The Data API's calls as FileMaker's `Execute FileMaker Data API` script step takes them: where a page in a Web
 * Viewer has no server to send HTTP requests to, each wire request (method, path, query, body) becomes the step's
 * request JSON (`action`, `layouts`, `recordId`, `query`, `sort`, `offset`, `limit`, ...), and the step's result
 * text, which is the Data API's envelope, is read back as one. Session calls are answered here (the Web Viewer runs
 * in FileMaker's own session, with the user's account); what the step cannot do is refused, saying why.
 */

/** What a step call asks FileMaker to do: one Data API action (`request`), or a named script (`script`). */
export type StepCall = { request: Record<string, unknown> } | { script: { name: string; parameter?: string } };

/** What the bridge is told about a call besides its body: the call errors name, and a short name of its action. */
export interface StepCallInfo {
  call: FailedCall;
  /** `read on layout "Contacts"`, `script "Send Invoice"`: what a timeout names. */
  action: string;
  signal?: AbortSignal | undefined;
}

/** Runs one step call in FileMaker and resolves to its result text (the envelope). */
export type StepRunner = (step: StepCall, info: StepCallInfo) => Promise<string>;

/** A call the step cannot make, refused before anything is sent to FileMaker. */
export class StepUnsupportedError extends Error {
  /** The call refused. */
  declare readonly call: FailedCall;

  constructor(call: FailedCall, why: string) {
    super(`${call.method} ${call.path}: ${why}`);
    this.call = call;
    this.name = "StepUnsupportedError";
  }
}

/** The status an envelope read from the step carries: 0, since no HTTP exchange took place (errors then name none). */
const STEP_STATUS = 0;

/** The envelope of an answer made here (session calls), never sent to FileMaker. */
const local = (response: Record<string, unknown>): Envelope => ({ response, code: "0", message: "OK", httpStatus: STEP_STATUS, headers: {} });

/**
 * A transport whose requests run through `run` (the Web Viewer's bridge): each becomes a step call, each result an
 * envelope (parseEnvelope: a result that is not one is a ProtocolError quoting its start). Container uploads are
 * refused (the step has no way to send a file); container URLs are read over HTTP by `fetch` (the global one).
 */
export function stepTransport(settings: TransportSettings, run: StepRunner): Transport {
  return {
    send: async (req, scrub) => {
      const call = callOf(req);
      const step = stepOf(req, call);
      if ("local" in step) return step.local;
      const text = await run(step.step, { call, action: step.action, signal: req.signal });
      return parseEnvelope(STEP_STATUS, {}, text, call, scrub);
    },
    filePaths: false,
    close: async () => {},
    settings,
    fetch: (url, init) => globalThis.fetch(url, init),
  };
}

type Mapped = { local: Envelope } | { step: StepCall; action: string };

/** Keys of a query string or body that are numbers in the step's request: offsets and limits, a portal's too. */
const NUMERIC = /^(?:offset|limit)(?:\..+)?$/;
/** Keys whose value travels in a query string as JSON text: the sort and the portals' names. */
const JSON_KEYS = new Set(["sort", "portal"]);

/**
 * The step's request (or a local answer) of one wire request: the path names the database, layout, record and
 * what is done; the query string (`_offset`, `_limit`, `_sort`, `portal`, `_offset.P`, `layout.response`,
 * `script...`, `dateformats`) and the JSON body give the rest, under the names the step's request uses.
 */
export function stepOf(req: WireRequest, call: FailedCall): Mapped {
  if (typeof req.body === "object") {
    throw new StepUnsupportedError(call, "the Execute FileMaker Data API step cannot upload into a container field (it takes JSON only); upload from FileMaker (Insert File, or a script given the file), or through a Data API client of the server");
  }
  const [path, search = ""] = splitQuery(req.path);
  const parts = path.split("/").slice(1).map(decodeURIComponent);
  const [databases, , kind, layout, what, recordId, sub] = parts;
  if (databases === "databases" && kind === "sessions") {
    // The Web Viewer is in FileMaker's session already: a login has nothing to do, a logout nothing to end.
    if (req.method === "POST" && parts.length === 3) return { local: local({ token: "webviewer" }) };
    if (req.method === "DELETE" && parts.length === 4) return { local: local({}) };
  }
  const unsupported = (why: string) => new StepUnsupportedError(call, why);
  if (databases !== "databases" || parts.length < 3) {
    throw unsupported("the Execute FileMaker Data API step answers calls on the file that runs it only (no product info, no list of hosted files)");
  }
  if (kind === "globals") throw unsupported("the Execute FileMaker Data API step cannot set global fields; set them in the FileMaker script (Set Field), or run a script that does");
  if (kind === "scripts" && parts.length === 3) throw unsupported("the Execute FileMaker Data API step cannot list the file's scripts");
  if (kind === "layouts" && parts.length === 3 && req.method === "GET") return { step: { request: { action: "metaData", version: "vLatest", layouts: "" } }, action: "metaData (the file's layouts)" };
  if (kind !== "layouts" || layout === undefined) throw unsupported("no Execute FileMaker Data API action does this call");
  const on = `on layout "${layout}"`;
  if (what === undefined && req.method === "GET") return { step: { request: { action: "metaData", version: "vLatest", layouts: layout } }, action: `metaData ${on}` };
  if (what === "script" && recordId !== undefined && req.method === "GET" && sub === undefined) {
    const parameter = new URLSearchParams(search).get("script.param");
    return { step: { script: parameter === null ? { name: recordId } : { name: recordId, parameter } }, action: `script "${recordId}"` };
  }
  const base = { layouts: layout, ...queryKeys(search), ...bodyKeys(req.body) };
  const read = (keys: Record<string, unknown>) => ({ step: { request: { action: "read", version: "vLatest", ...keys } }, action: `read ${on}` });
  const act = (action: string, keys: Record<string, unknown>) => ({ step: { request: { action, version: "vLatest", ...keys } }, action: `${action} ${on}` });
  const record = recordId !== undefined && /^\d+$/.test(recordId) && sub === undefined;
  if (what === "_find" && recordId === undefined && req.method === "POST") return read(base);
  if (what === "records" && recordId === undefined) {
    if (req.method === "GET") return read(base);
    if (req.method === "POST") return act("create", base);
  }
  if (what === "records" && record) {
    const keys = { ...base, recordId };
    if (req.method === "GET") return read(keys);
    if (req.method === "PATCH") return act("update", keys);
    if (req.method === "DELETE") return act("delete", keys);
    if (req.method === "POST") return act("duplicate", keys);
  }
  throw unsupported("no Execute FileMaker Data API action does this call");
}

/** A path and its query string (without the "?"). */
function splitQuery(path: string): [string, string?] {
  const at = path.indexOf("?");
  return at < 0 ? [path] : [path.slice(0, at), path.slice(at + 1)];
}

/** A list's query string as the step's keys: `_offset` is `offset`, `_sort` the sort array, `portal` the names' array. */
function queryKeys(search: string): Record<string, unknown> {
  const keys: Record<string, unknown> = {};
  for (const [name, value] of new URLSearchParams(search)) {
    const key = name.startsWith("_") ? name.slice(1) : name;
    setOwn(keys, key, NUMERIC.test(key) || key === "dateformats" ? Number(value) : JSON_KEYS.has(key) ? JSON.parse(value) : value);
  }
  return keys;
}

/** A JSON body's keys, offsets and limits as numbers (a find's body sends them as text). */
function bodyKeys(body: string | undefined): Record<string, unknown> {
  if (body === undefined) return {};
  // parseJson: an exact field's number token stays its text, which the bridge writes back bare (stringifyJson).
  const keys = parseJson(body) as Record<string, unknown>;
  for (const key of Object.keys(keys)) {
    if (NUMERIC.test(key) && typeof keys[key] === "string") keys[key] = Number(keys[key]);
  }
  return keys;
}
