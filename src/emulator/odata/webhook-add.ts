// The bodies of `Webhook.Add` and `Webhook.Invoke` (docs/emulator.md, "Webhooks"), checked key by key before anything
// is registered: every value's type, every string's length, the headers' names and values, and where the webhook may
// POST (loopback unless the emulator allows more). Every refusal is 400 -1002 naming the key (choice).

import { NumberToken, parseJsonExactly } from "../../runtime/core/json-numbers.js";
import { isIPv6 } from "node:net";
import { MAX_PAGE } from "./entity-read.js";
import { MAX_URL_LENGTH, ODataError, quoted } from "./odata-error.js";
import { parsePrefer } from "./query-options-prefer.js";

/** A registration as `Webhook.Add` gives it, checked. */
export interface WebhookSpec {
  readonly webhook: string;
  readonly tableName: string;
  /** `endpointHeaders` (or the legacy `headers`): sent with each delivery. */
  readonly headers: Readonly<Record<string, string>>;
  /** Applied to the query that builds each payload: `Prefer` and `Accept` only. */
  readonly queryHeaders: Readonly<Record<string, string>>;
  readonly notifySchemaChanges: boolean;
  readonly select: string;
  readonly filter: string;
  /** 0: retry forever (section 7's default). */
  readonly maxFailedAttempts: number;
}

/** Longest webhook URL taken (choice). */
export const MAX_WEBHOOK_URL = 2048;
/** Most endpoint (or query) headers one webhook carries (choice). */
export const MAX_WEBHOOK_HEADERS = 64;
/** Longest header value taken (choice). */
const MAX_HEADER_VALUE = 8192;
/** Longest table name taken: FileMaker names are at most 100 characters. */
const MAX_TABLE_NAME = 100;

const KEYS = new Set(["webhook", "tableName", "endpointHeaders", "headers", "queryHeaders", "notifySchemaChanges", "select", "filter", "maxFailedAttempts"]);

/** Headers a delivery sets itself, or that would change how its request is framed: refused in endpointHeaders. */
const RESERVED_HEADERS = new Set(["content-type", "content-length", "transfer-encoding", "host", "connection", "keep-alive", "upgrade", "te", "trailer", "expect", "proxy-connection"]);

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

export const badBody = (message: string) => new ODataError(400, "-1002", `Error: ${message}`);

/** A body as one JSON object (empty allowed only where `emptyOk`). */
export function parseJsonObject(body: Buffer | undefined, what: string, emptyOk: boolean): Record<string, unknown> | undefined {
  const text = body === undefined ? "" : body.toString("utf8").trim();
  if (text === "") {
    if (emptyOk) return undefined;
    throw badBody(`${what}: the request body must be a JSON object (it is empty)`);
  }
  let parsed: unknown;
  try {
    parsed = parseJsonExactly(text);
  } catch (error) {
    throw badBody(`${what}: malformed JSON in the request body (${quoted((error as Error).message)})`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw badBody(`${what}: the request body must be one JSON object`);
  return parsed as Record<string, unknown>;
}

const shown = (value: unknown): string => {
  const text = typeof value === "string" ? JSON.stringify(quoted(value)) : value instanceof NumberToken ? value.text.slice(0, 60) : Array.isArray(value) ? "an array" : value === null ? "null" : typeof value === "object" ? "an object" : String(value);
  return text;
};

/** Where webhooks may POST: loopback always; `allowed` names more hosts, `"*"` any. */
export class WebhookTargets {
  private readonly names: Set<string>;
  private readonly any: boolean;

  constructor(allowed: readonly string[] = []) {
    this.any = allowed.includes("*");
    this.names = new Set(["localhost", "127.0.0.1", "[::1]"]);
    allowed.forEach((entry, i) => {
      if (entry === "*") return;
      const name = typeof entry === "string" ? hostNameOf(isIPv6(entry) ? `[${entry}]` : entry) : undefined;
      if (name === undefined) throw new Error(`webhooks.allowedHosts[${i}] must be a host name, an IP address (no port) or "*", got ${JSON.stringify(entry)}`);
      this.names.add(name);
    });
  }

  allows(url: URL): boolean {
    return this.any || this.names.has(url.hostname);
  }
}

function hostNameOf(text: string): string | undefined {
  if (text === "" || /[/?#@\s]/.test(text) || /:\d*$/.test(text.replace(/^\[.*\]$/, ""))) return undefined;
  try {
    return new URL(`http://${text}/`).hostname;
  } catch {
    return undefined;
  }
}

/** `Webhook.Add`'s body, every key checked; unknown keys are refused (rule one). */
export function parseWebhookAdd(body: Buffer | undefined, targets: WebhookTargets): WebhookSpec & { url: URL } {
  const o = parseJsonObject(body, "Webhook.Add", false)!;
  for (const key of Object.keys(o)) if (!KEYS.has(key)) throw badBody(`Webhook.Add: unknown key "${quoted(key)}" (it takes ${[...KEYS].join(", ")})`);
  if (o.endpointHeaders !== undefined && o.headers !== undefined) throw badBody('Webhook.Add: give "endpointHeaders" or its legacy name "headers", not both');
  const webhook = requiredString(o, "webhook", MAX_WEBHOOK_URL);
  const url = webhookUrl(webhook, targets);
  const tableName = requiredString(o, "tableName", MAX_TABLE_NAME);
  const headersKey = o.headers !== undefined ? "headers" : "endpointHeaders";
  return {
    webhook,
    url,
    tableName,
    headers: headerRecord(o[headersKey], headersKey),
    queryHeaders: queryHeaders(o.queryHeaders),
    notifySchemaChanges: optionalBoolean(o, "notifySchemaChanges"),
    select: optionalString(o, "select", MAX_URL_LENGTH),
    filter: optionalString(o, "filter", MAX_URL_LENGTH),
    maxFailedAttempts: count(o, "maxFailedAttempts"),
  };
}

function requiredString(o: Record<string, unknown>, key: string, max: number): string {
  if (o[key] === undefined) throw badBody(`Webhook.Add: "${key}" is required`);
  const value = optionalString(o, key, max);
  if (value === "") throw badBody(`Webhook.Add: "${key}" must not be empty`);
  return value;
}

function optionalString(o: Record<string, unknown>, key: string, max: number): string {
  const value = o[key];
  if (value === undefined) return "";
  if (typeof value !== "string") throw badBody(`Webhook.Add: "${key}" must be a string, got ${shown(value)}`);
  if (value.length > max) throw badBody(`Webhook.Add: "${key}" is ${value.length} characters long; at most ${max} are taken`);
  return value;
}

function optionalBoolean(o: Record<string, unknown>, key: string): boolean {
  const value = o[key];
  if (value === undefined) return false;
  if (typeof value !== "boolean") throw badBody(`Webhook.Add: "${key}" must be true or false, got ${shown(value)}`);
  return value;
}

function count(o: Record<string, unknown>, key: string): number {
  const value = o[key];
  if (value === undefined) return 0;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) throw badBody(`Webhook.Add: "${key}" must be a whole number, 0 or more (0: retry forever), got ${shown(value)}`);
  return value;
}

function webhookUrl(text: string, targets: WebhookTargets): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw badBody(`Webhook.Add: "webhook" must be an absolute http or https URL, got ${shown(text)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw badBody(`Webhook.Add: "webhook" must be an http or https URL, got ${shown(url.protocol)}`);
  if (url.username !== "" || url.password !== "") throw badBody('Webhook.Add: "webhook" must not carry a user name or password; send credentials in "endpointHeaders"');
  if (!targets.allows(url)) {
    throw badBody(`Webhook.Add: "webhook" names ${shown(url.hostname)}; the emulator delivers to loopback (localhost, 127.0.0.1, [::1]) and to the hosts given in its webhooks.allowedHosts option only`);
  }
  return url;
}

function headerRecord(value: unknown, key: string): Record<string, string> {
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw badBody(`Webhook.Add: "${key}" must be an object of header names to string values, got ${shown(value)}`);
  const out: Record<string, string> = {};
  const seen = new Set<string>();
  let n = 0;
  for (const [name, v] of Object.entries(value)) {
    if (++n > MAX_WEBHOOK_HEADERS) throw badBody(`Webhook.Add: "${key}" holds more than ${MAX_WEBHOOK_HEADERS} headers`);
    if (!TOKEN.test(name)) throw badBody(`Webhook.Add: "${key}" has a header name that is not an HTTP token: ${shown(name)}`);
    const lower = name.toLowerCase();
    if (seen.has(lower)) throw badBody(`Webhook.Add: "${key}" names the header "${name}" twice`);
    seen.add(lower);
    if (key !== "queryHeaders" && RESERVED_HEADERS.has(lower)) throw badBody(`Webhook.Add: "${key}"."${name}" is set by the emulator's delivery itself and cannot be given`);
    if (typeof v !== "string") throw badBody(`Webhook.Add: "${key}"."${quoted(name)}" must be a string, got ${shown(v)}`);
    if (v.length > MAX_HEADER_VALUE) throw badBody(`Webhook.Add: "${key}"."${quoted(name)}" is ${v.length} characters long; at most ${MAX_HEADER_VALUE} are taken`);
    if (!HEADER_VALUE.test(v)) throw badBody(`Webhook.Add: "${key}"."${quoted(name)}" holds a character a header value cannot (a line break or control character)`);
    // Defined, not assigned: a header named `__proto__` stays a key.
    Object.defineProperty(out, name, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** `queryHeaders`: `Prefer` (the preferences a read takes that shape a record) and `Accept` (JSON, its parameters). */
function queryHeaders(value: unknown): Record<string, string> {
  const headers = headerRecord(value, "queryHeaders");
  for (const [name, v] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === "prefer") {
      const p = parsePrefer(v);
      const unused = [...p.ignored, ...(p.maxPageSize !== undefined ? ["odata.maxpagesize"] : []), ...(p.return !== undefined ? ["return"] : []), ...(p.continueOnError ? ["odata.continue-on-error"] : [])];
      if (unused.length > 0) throw badBody(`Webhook.Add: "queryHeaders"."${name}": ${shown(unused[0])} does not apply to a webhook's payload (it takes fmodata.include-specialcolumns, fmodata.entity-ids)`);
    } else if (lower === "accept") {
      acceptOf(v, `"queryHeaders"."${name}"`);
    } else {
      throw badBody(`Webhook.Add: "queryHeaders"."${quoted(name)}" is not applied to a webhook's payload (it takes Prefer and Accept)`);
    }
  }
  return headers;
}

/** What a webhook's `Accept` query header asks of its payloads: JSON only; `odata.metadata=none`, `IEEE754Compatible`. */
export function acceptOf(value: string, where = "Accept"): { none: boolean; ieee754: boolean } {
  let json = false;
  let none = false;
  let ieee754 = false;
  for (const range of value.split(",")) {
    const [type, ...params] = range.split(";").map((s) => s.trim().toLowerCase());
    if (type === "*/*" || type === "application/*" || type === "application/json") json = true;
    for (const p of params) {
      const m = /^(?:odata\.)?metadata=(.*)$/.exec(p);
      if (m) none ||= m[1] === "none";
      if (p === "ieee754compatible=true") ieee754 = true;
    }
  }
  if (!json) throw badBody(`Webhook.Add: ${where} must allow application/json (payloads are JSON), got ${shown(value)}`);
  return { none, ieee754 };
}

/** `Webhook.Invoke`'s body: empty, `{}`, or `{"rowIDs":[…]}` (positive whole numbers, at most a page). */
export function parseInvokeBody(body: Buffer | undefined): readonly number[] | undefined {
  const o = parseJsonObject(body, "Webhook.Invoke", true);
  if (o === undefined) return undefined;
  for (const key of Object.keys(o)) if (key !== "rowIDs") throw badBody(`Webhook.Invoke: unknown key "${quoted(key)}" (it takes rowIDs)`);
  const ids = o.rowIDs;
  if (ids === undefined) return undefined;
  if (!Array.isArray(ids)) throw badBody(`Webhook.Invoke: "rowIDs" must be an array of ROWIDs (numbers), got ${shown(ids)}`);
  if (ids.length > MAX_PAGE) throw badBody(`Webhook.Invoke: "rowIDs" holds ${ids.length} ROWIDs; at most ${MAX_PAGE} are taken`);
  ids.forEach((id: unknown, i) => {
    if (typeof id !== "number" || !Number.isSafeInteger(id) || id < 1) throw badBody(`Webhook.Invoke: "rowIDs"[${i}] must be a ROWID (a whole number, 1 or more), got ${shown(id)}`);
  });
  return ids as number[];
}
