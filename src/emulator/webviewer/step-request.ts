import { NumberToken, stringifyJson } from "../../runtime/core/json-numbers.js";

/**
 * The `Execute FileMaker Data API` step's request (a JSON object: `action`, `layouts`, `query`, `recordId`, ...) as
 * the Data API call that does the same work, and that call's answer as the step's result text. The step answers in
 * the Data API's own envelope (`{"response":{...},"messages":[{"code":"0","message":"OK"}]}`), so the result is the
 * call's envelope as it is; what the step refuses before any call (no `layouts`, an unknown `action`) is an envelope
 * with the code the step gives.
 */

/** One Data API request run in process: a method, a path below `/fmi/data/vLatest` (query string included), a JSON body. */
export interface DataApiRequest {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** Below `/fmi/data/vLatest`, starting with `databases/...`; segments percent-encoded. */
  path: string;
  body?: Record<string, unknown>;
}

/** Runs a Data API request with the bridge's session; resolves with the answer's envelope as JSON text. */
export type DataApiCall = (request: DataApiRequest) => Promise<string>;

/** The keys the step reads itself; every other key is passed on to the Data API call (which refuses unknown ones with 960). */
const STEP_KEYS = new Set(["action", "version", "layouts", "tables", "recordId"]);

/** The step's keys that name a query parameter of a GET with a leading underscore (`offset` is `_offset`). */
const UNDERSCORED = /^(offset|limit|sort)(\..+)?$/;

/** The FileMaker code of a step result (its envelope's `messages[0].code`), undefined when it has none. */
export function resultCode(result: string): string | undefined {
  try {
    const code = (JSON.parse(result) as { messages?: { code?: unknown }[] } | null)?.messages?.[0]?.code;
    return typeof code === "string" ? code : undefined;
  } catch {
    return undefined;
  }
}

/** A step result for an error the step answers before any call. */
export function errorResult(code: string, message: string): string {
  return JSON.stringify({ response: {}, messages: [{ code, message }] });
}

/**
 * The Data API request for a step request, or the step's error result when the request cannot be run (a result
 * text, as the step would set its target to).
 */
export function dataApiRequest(database: string, step: Record<string, unknown>): DataApiRequest | { error: string } {
  const action = step.action ?? "read";
  if (typeof action !== "string" || !ACTIONS.has(action)) {
    return { error: errorResult("1708", `action must be one of read, metaData, create, update, delete, duplicate; got ${JSON.stringify(action)}`) };
  }
  const db = `databases/${encodeURIComponent(database)}`;
  const layout = step.layouts;
  if (action === "metaData") {
    if (step.tables !== undefined) return { error: errorResult("1708", "metaData with tables (table occurrence metadata) is not emulated: ask for a layout's (layouts) or the layout list") };
    if (layout === undefined) return { method: "GET", path: `${db}/layouts` };
    if (typeof layout !== "string") return { error: errorResult("1708", "layouts must be a layout name (text)") };
    return { method: "GET", path: `${db}/layouts/${encodeURIComponent(layout)}${queryOf(rest(step), false)}` };
  }
  if (typeof layout !== "string" || layout === "") return { error: errorResult("1708", "layouts (the layout's name) is required") };
  const records = `${db}/layouts/${encodeURIComponent(layout)}/records`;
  const recordId = step.recordId;
  if (recordId !== undefined && typeof recordId !== "string" && typeof recordId !== "number" && !(recordId instanceof NumberToken)) return { error: errorResult("1708", "recordId must be a record id") };
  const id = recordId === undefined ? undefined : encodeURIComponent(recordId instanceof NumberToken ? recordId.text : String(recordId));
  const body = rest(step);
  const needId = (what: string) => ({ error: errorResult("1708", `${what} needs recordId`) });
  switch (action) {
    case "read":
      if (id !== undefined && body.query !== undefined) return { error: errorResult("1708", "recordId and query cannot both be given") };
      if (id !== undefined) return { method: "GET", path: `${records}/${id}${queryOf(body, true)}` };
      if (body.query !== undefined) return { method: "POST", path: `${db}/layouts/${encodeURIComponent(layout)}/_find`, body };
      return { method: "GET", path: `${records}${queryOf(body, true)}` };
    case "create":
      return { method: "POST", path: records, body };
    case "update":
      return id === undefined ? needId("update") : { method: "PATCH", path: `${records}/${id}`, body };
    case "delete":
      return id === undefined ? needId("delete") : { method: "DELETE", path: `${records}/${id}${queryOf(body, false)}` };
    default:
      return id === undefined ? needId("duplicate") : { method: "POST", path: `${records}/${id}`, body };
  }
}

const ACTIONS = new Set(["read", "metaData", "create", "update", "delete", "duplicate"]);

function rest(step: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(step).filter(([key]) => !STEP_KEYS.has(key)));
}

/**
 * The step's keys as a GET's query string: `offset`, `limit`, `sort` and their portal forms (`offset.Invoices`) get
 * the underscore the Data API's GETs name them with; a JSON value (sort, portal) is sent as its JSON text (number
 * tokens a double does not hold written back bare: stringifyJson).
 */
function queryOf(keys: Record<string, unknown>, underscore: boolean): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(keys)) {
    const name = underscore && UNDERSCORED.test(key) ? `_${key}` : key;
    params.append(name, typeof value === "string" ? value : stringifyJson(value));
  }
  const text = params.toString();
  return text === "" ? "" : `?${text}`;
}
