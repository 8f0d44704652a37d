/**
 * `od.webhooks` (wire contract section 7): `Webhook.Add` (POST), `Webhook.GetAll` and `Webhook.Get(n)` (GET),
 * `Webhook.Delete(n)` and `Webhook.Invoke(n)` (POST). A new webhook's `select` and `filter` are rendered with the
 * table's field references and `f`'s renderer, as a read's `$select` and `$filter` are; its table goes by name (as
 * `tableName` is documented). Listings are mapped to {@link Webhook}'s names. Loaded on the first `od.webhooks` call.
 */
import { NumberToken } from "../core/json-numbers.js";
import { ODataError, ProtocolError } from "./errors.js";
import type { ODataAnswer, ODataCaller } from "./caller.js";
import { renderFilter } from "./filter.js";
import type { CallOptions } from "./shapes.js";
import type { NewWebhook, PendingOperation, Webhook, WebhookCalls } from "./webhook-types.js";

const idOf = (id: unknown, call: string): number => {
  if (typeof id !== "number" || !Number.isSafeInteger(id) || id < 0) throw new TypeError(`webhooks.${call}: the id must be a webhook's id (a whole number), not ${typeof id === "number" ? id : typeof id}`);
  return id;
};

/** The body of `Webhook.Add`, every value checked (a TypeError naming the key) and the select and filter rendered. */
export function webhookBody(caller: ODataCaller, hook: NewWebhook<any, any>): Record<string, unknown> {
  const where = "webhooks.add";
  if (typeof hook !== "object" || hook === null) throw new TypeError(`${where}: takes { url, table, headers?, select?, filter?, notifySchemaChanges?, maxFailedAttempts? }`);
  if (typeof hook.url !== "string" || !URL.canParse(hook.url) || !/^https?:$/.test(new URL(hook.url).protocol)) throw new TypeError(`${where}: url must be an http(s) URL, not ${JSON.stringify(hook.url)}`);
  // Checks the table's database as every call does.
  caller.tablePath(hook.table);
  const refs = caller.refs(hook.table);
  const body: Record<string, unknown> = { webhook: hook.url, tableName: hook.table.table };
  if (hook.headers !== undefined) {
    if (typeof hook.headers !== "object" || hook.headers === null) throw new TypeError(`${where}: headers must be an object of header names and values`);
    for (const [name, value] of Object.entries(hook.headers)) {
      if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || typeof value !== "string" || /[\r\n\0]/.test(value)) throw new TypeError(`${where}: header ${JSON.stringify(name)} must be a header name with a one-line string value`);
    }
    // `headers`: the name 22.0.x servers list, taken by newer ones too (their `endpointHeaders` is its new name).
    body.headers = { ...hook.headers };
  }
  if (hook.notifySchemaChanges !== undefined) {
    if (typeof hook.notifySchemaChanges !== "boolean") throw new TypeError(`${where}: notifySchemaChanges must be a boolean`);
    body.notifySchemaChanges = hook.notifySchemaChanges;
  }
  if (hook.maxFailedAttempts !== undefined) {
    if (!Number.isSafeInteger(hook.maxFailedAttempts) || hook.maxFailedAttempts < 0) throw new TypeError(`${where}: maxFailedAttempts must be a whole number, 0 or more (0: retry forever)`);
    body.maxFailedAttempts = hook.maxFailedAttempts;
  }
  if (hook.select !== undefined) {
    if (!Array.isArray(hook.select) || hook.select.length === 0) throw new TypeError(`${where}: select must be a non-empty array of field names`);
    body.select = hook.select.map((name) => refs.ref(name)).join(",");
  }
  if (hook.filter !== undefined) body.filter = renderFilter(hook.filter, refs);
  return body;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A webhook as the server describes it, in the client's names; undefined when the shape is not one. */
function webhookOf(raw: unknown): Webhook | undefined {
  if (!isRecord(raw) || typeof raw.webhookID !== "number" || typeof raw.tableName !== "string" || typeof raw.webhook !== "string") return undefined;
  const pending = Array.isArray(raw.pendingOperations) ? raw.pendingOperations.filter(isRecord) : [];
  return {
    id: raw.webhookID,
    table: raw.tableName,
    url: raw.webhook,
    headers: isRecord(raw.headers) ? (Object.fromEntries(Object.entries(raw.headers).filter(([, v]) => typeof v === "string")) as Record<string, string>) : {},
    notifySchemaChanges: raw.notifySchemaChanges === true,
    select: typeof raw.select === "string" ? raw.select : "",
    filter: typeof raw.filter === "string" ? raw.filter : "",
    pendingOperations: pending.map((op): PendingOperation => ({
      operation: op.operation as PendingOperation["operation"],
      rowIds: Array.isArray(op.rowIDs) ? op.rowIDs.filter((n): n is number => typeof n === "number") : [],
      status: typeof op.status === "string" ? op.status : "",
      ...(typeof op.lastErrorCode === "number" && { lastErrorCode: op.lastErrorCode }),
      ...(typeof op.lastErrorMessage === "string" && { lastErrorMessage: op.lastErrorMessage }),
      sendAttempts: typeof op.sendAttempts === "number" ? op.sendAttempts : 0,
    })),
  };
}

/** The payload with each number too long for a JavaScript number (a NumberToken) as its text, digit for digit. */
function tokensAsText(value: unknown): unknown {
  if (value instanceof NumberToken) return value.text;
  if (Array.isArray(value)) return value.map(tokensAsText);
  if (isRecord(value)) for (const key of Object.keys(value)) value[key] = tokensAsText(value[key]);
  return value;
}

const broken = (answer: ODataAnswer, method: string, path: string, what: string) => new ProtocolError(answer.status, answer.text().slice(0, 100), { method, path }, `is not ${what}`);

/** FileMaker's "Specified WebHook not found" (404 -1061), which `get` answers as null. */
const isUnknownWebhook = (error: unknown): boolean => error instanceof ODataError && error.code === "-1061";

export function webhookCalls<Db extends string>(caller: ODataCaller): WebhookCalls<Db> {
  const call = (method: "GET" | "POST", path: string, options: CallOptions, body?: object) =>
    caller.call({ method, path, idempotent: method === "GET", signal: options.signal, ...(body !== undefined && { body: JSON.stringify(body), headers: { "Content-Type": "application/json" } }) });
  const idResult = (answer: ODataAnswer, method: string, path: string): number => {
    const id = (answer.json() as { webhookResult?: { webhookID?: unknown } } | null)?.webhookResult?.webhookID;
    if (typeof id !== "number") throw broken(answer, method, path, "{ webhookResult: { webhookID } }");
    return id;
  };
  return {
    async add(hook, options = {}) {
      const body = webhookBody(caller, hook);
      return { id: idResult(await call("POST", "/Webhook.Add", options, body), "POST", "/Webhook.Add") };
    },
    async list(options = {}) {
      const path = "/Webhook.GetAll";
      const answer = await call("GET", path, options);
      const hooks = (answer.json() as { webhooks?: unknown } | null)?.webhooks;
      if (!Array.isArray(hooks)) throw broken(answer, "GET", path, "{ webhooks: [...] }");
      return hooks.map((raw) => webhookOf(raw) ?? (() => { throw broken(answer, "GET", path, "a list of webhooks (one has no webhookID, tableName or webhook)"); })());
    },
    async get(id, options = {}) {
      const path = `/Webhook.Get(${idOf(id, "get")})`;
      let answer: ODataAnswer;
      try {
        answer = await call("GET", path, options);
      } catch (error) {
        if (isUnknownWebhook(error)) return null;
        throw error;
      }
      return webhookOf(answer.json()) ?? (() => { throw broken(answer, "GET", path, "a webhook"); })();
    },
    async remove(id, options = {}) {
      await call("POST", `/Webhook.Delete(${idOf(id, "remove")})`, options);
    },
    async invoke(id, options = {}) {
      const path = `/Webhook.Invoke(${idOf(id, "invoke")})`;
      const rowIds = options.rowIds;
      if (rowIds !== undefined && (!Array.isArray(rowIds) || !rowIds.every((n) => Number.isSafeInteger(n) && n > 0))) throw new TypeError("webhooks.invoke: rowIds must be an array of ROWIDs (whole numbers above 0)");
      return tokensAsText((await call("POST", path, options, rowIds === undefined ? undefined : { rowIDs: rowIds })).json());
    },
  };
}
