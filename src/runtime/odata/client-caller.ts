/**
 * The client's {@link ODataCaller}: the base URL (`{server}[{pathPrefix}]/fmi/odata/v4/{database}`), the credential on
 * every request (Basic; `FMID <token>`, asked for again once when refused; `Bearer <apiKey>`), retries of reads (network
 * faults, proxies' 5xx pages) and of calls the server refused as too busy (812, 956: nothing was done), error answers
 * as ODataErrors, bodies that are not OData JSON as ProtocolErrors quoting their start with every secret scrubbed.
 */
import { basicAuth } from "../core/basic-auth.js";
import { segment, pathStep, type Scrub } from "../core/call-bounds.js";
import { ProtocolError, type FailedCall } from "../core/protocol-errors.js";
import { DEFAULT_RETRY, withCapacityRetry, withRetry, type RetryPolicy } from "../core/retry.js";
import { scrub, secretForms } from "../core/secrets.js";
import { sendableToken } from "../core/sendable-token.js";
import { checkTransport } from "../core/transport-security.js";
import { checkOptions, optionError, textOption } from "../core/options-check.js";
import type { CommonODataClientOptions, ODataAuth } from "./api.js";
import type { ODataAnswer, ODataCaller, ODataRequest } from "./caller.js";
import { drain, type Carrier, type CarrierBounds, type RawAnswer } from "../core/carrier.js";
import { checkTableDatabase, type TableSpec } from "./definition.js";
import { CapacityError, odataError } from "./errors.js";
import { fieldRefs, type FieldRefs } from "./field-refs.js";
import { decodeRow, encodeRow, EXACT_JSON, fieldIds } from "./values.js";
import { NumberToken, parseJson } from "../core/json-numbers.js";

const MAX_QUOTE = 120;
const CREATE = "createODataClient";
const HTTP_URL = "an http:// or https:// URL";
const ACCEPT = "application/json;odata.metadata=none";
/** A read of a table with an exact number field: Edm.Decimal values as strings (OData's IEEE754Compatible), every digit. */
const EXACT_ACCEPT = `${ACCEPT};IEEE754Compatible=true`;

/** The optional options of both entries (their transports' too), and what each must be when given. */
const OPTIONS: Record<string, string> = {
  entityIds: "a boolean",
  timeoutMs: "a number",
  maxResponseBytes: "a number",
  retry: "an object",
  insecure: "warn|refuse|allow",
  dispatcher: "an object",
  fetch: "a function",
};

/** The options checked (each entry calls this first), and the bounds they ask for (defaults: 60 s, 64 MiB). */
export function boundsOf(options: CommonODataClientOptions): CarrierBounds {
  checkOptions(CREATE, options, OPTIONS);
  const { timeoutMs = 60_000, maxResponseBytes = 64 * 1024 * 1024 } = options;
  if (!(timeoutMs > 0 && timeoutMs <= 2 ** 31 - 1)) throw new TypeError(`createODataClient: options.timeoutMs must be a number of milliseconds above 0, got ${String(timeoutMs)}`);
  if (!(maxResponseBytes > 0)) throw new TypeError(`createODataClient: options.maxResponseBytes must be a number above 0, got ${String(maxResponseBytes)}`);
  return { timeoutMs, maxResponseBytes };
}

export function makeCaller(options: CommonODataClientOptions, carrier: Carrier): ODataCaller {
  const server = textOption(`${CREATE}: options.server`, options.server, HTTP_URL);
  const database = textOption(`${CREATE}: options.database`, options.database, "the hosted file's name");
  const url = URL.canParse(server) ? new URL(server) : undefined;
  // Credentials in the URL would be echoed by errors and sent nowhere: refused, never shown (any "@": a password may hold "/" or "#").
  if (server.includes("@")) throw new TypeError("createODataClient: server must not hold credentials (user:password@): pass them in auth");
  if (!url || !/^https?:$/.test(url.protocol)) throw new TypeError(`createODataClient: options.server must be ${HTTP_URL}, got ${JSON.stringify(server)}`);
  checkTransport(url, options.insecure ?? "warn", "credentials");
  if (url.search || url.hash) throw new TypeError(`createODataClient: server must be the server's URL without a query or fragment, got "${server}"`);
  const auth = checkAuth(options.auth);
  const prefix = "pathPrefix" in auth && auth.pathPrefix !== undefined ? auth.pathPrefix.replace(/\/+$/, "") : "";
  for (const step of prefix.split("/")) pathStep(step, "createODataClient: auth.pathPrefix segment");
  if (prefix && !prefix.startsWith("/")) throw new TypeError(`createODataClient: options.auth.pathPrefix must start with "/", got "${prefix}"`);
  const base = `${url.origin}${url.pathname.replace(/\/+$/, "")}${prefix}/fmi/odata/v4/${segment(database, "createODataClient: database")}`;
  const entityIds = options.entityIds === true;
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };

  // The credential, and the secrets errors must never show: the password, the API key, every token asked for.
  // Tokens beyond the last few are dropped from the forms (a long-lived client asks for one an hour).
  const secrets: string[] = [];
  let kept = 0;
  let forms = secretForms(secrets);
  const addSecret = (secret: string, token = false) => {
    if (token && ++kept > 4) secrets.splice(secrets.length - 4, 1);
    secrets.push(secret);
    forms = secretForms(secrets);
  };
  const scrubText: Scrub = (text) => scrub(text, forms);
  let fixed: string | undefined;
  if ("username" in auth) {
    fixed = basicAuth(auth.username, auth.password).authorization;
    addSecret(auth.password);
    addSecret(fixed.slice(6));
  } else if ("apiKey" in auth) {
    fixed = `Bearer ${auth.apiKey}`;
    addSecret(auth.apiKey);
  }
  // Claris ID: one token shared by concurrent calls; asked for again once when the server refuses it.
  let token: Promise<string> | undefined;
  const claris = "claris" in auth ? auth.claris : undefined;
  const askToken = (): Promise<string> =>
    (token = Promise.resolve()
      .then(() => claris!())
      .then((value) => {
        // A value no server issued (sendable-token.ts) is refused, not kept: it would fail every call and never be answered 401.
        if (!sendableToken(value)) throw new TypeError("createODataClient: auth.claris() must resolve to a Claris ID token (1 to 4,096 visible ASCII characters)");
        addSecret(value, true);
        return value;
      }));
  const authorization = async (fresh: boolean): Promise<string> => {
    if (fixed) return fixed;
    if (fresh || !token) askToken();
    const asked = token!;
    try {
      return `FMID ${await asked}`;
    } catch (error) {
      // A failed ask is not kept: the next call asks again.
      if (token === asked) token = undefined;
      throw error;
    }
  };

  /** One exchange, signed in; a refused Claris ID token is asked for again, once. */
  const exchange = async (request: ODataRequest, send: (headers: Record<string, string>) => Promise<{ status: number; body?: unknown }>, again?: Promise<string>): Promise<unknown> => {
    // Again after a refusal: a new token, unless another call asked for one since this one's.
    const credential = await authorization(again !== undefined && again === token);
    const used = token;
    // `odata.metadata=none`: no `@context`, and no `@id` + `@editLink` on every row (a 100-row page of 20 fields: 39.5 KB
    // instead of 53.7 KB), which the client never reads; `@odata.count` and `@odata.nextLink` are kept (wire contract
    // 2.2: the annotations then come `@odata.`-prefixed, and the client reads both forms).
    const headers: Record<string, string> = { Accept: request.exactAnswer ? EXACT_ACCEPT : ACCEPT, ...request.headers, Authorization: credential };
    if (entityIds) headers.Prefer = headers.Prefer ? `fmodata.entity-ids, ${headers.Prefer}` : "fmodata.entity-ids";
    if (typeof request.body === "string" && !headers["Content-Type"]) headers["Content-Type"] = request.exactBody ? EXACT_JSON : "application/json";
    const answer = await send(headers);
    if (answer.status === 401 && claris && again === undefined && used) {
      // An opened answer's body is let go before the request is sent again.
      if (answer.body instanceof ReadableStream) await answer.body.cancel().catch(() => undefined);
      return exchange(request, send, used);
    }
    return answer;
  };

  const urlOf = (request: ODataRequest) => `${base}${request.path}${request.query ? `?${request.query}` : ""}`;
  const callOf = (request: ODataRequest): FailedCall => ({ method: request.method, path: request.path });

  /** Retries what is safe to retry; a capacity answer (812, 956) is retried for writes too: the server did nothing. */
  const retried = async <T>(request: ODataRequest, attempt: () => Promise<T>): Promise<T> => {
    const outcome = await withCapacityRetry(policy, request.signal, async () => {
      try {
        return { code: "0", value: await withRetry(policy, request.idempotent, request.signal, attempt) };
      } catch (error) {
        if (error instanceof CapacityError) return { code: error.code, error };
        throw error;
      }
    });
    if ("error" in outcome) throw outcome.error;
    return outcome.value;
  };

  const failure = (status: number, bytes: Uint8Array, call: FailedCall): Error => {
    const text = new TextDecoder().decode(bytes.subarray(0, 4 * 1024));
    let json: unknown;
    try {
      json = parseJson(new TextDecoder().decode(bytes));
    } catch {
      // Not JSON: a ProtocolError below.
    }
    const error = (json as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
    const code = error?.code instanceof NumberToken ? error.code.text : error?.code;
    if (error && (typeof code === "string" || typeof code === "number")) {
      const message = typeof error.message === "string" ? scrubText(error.message) : "";
      return odataError(String(code), message, status, call, /\)$/.test(call.path));
    }
    return notOData(status, text, call);
  };
  const notOData = (status: number, text: string, call: FailedCall) =>
    new ProtocolError(status, scrubText(text.slice(0, 4 * 1024)).slice(0, MAX_QUOTE), call, `is not an OData answer; it begins ${JSON.stringify(scrubText(text.slice(0, 4 * 1024)).slice(0, MAX_QUOTE))}`);

  /** One exchange over the carrier, its answer whatever the status. */
  const sendOnce = (request: ODataRequest): Promise<RawAnswer> =>
    exchange(request, (headers) => carrier.send({ url: urlOf(request), method: request.method, headers, body: request.body, signal: request.signal }, callOf(request), scrubText)) as Promise<RawAnswer>;

  const refsCache = new WeakMap<TableSpec, FieldRefs>();
  const caller: ODataCaller = {
    database,
    entityIds,
    send: (request) => retried(request, () => sendOnce(request)),
    call: (request) => {
      const call = callOf(request);
      return retried(request, async () => {
        const raw = await sendOnce(request);
        if (raw.status < 200 || raw.status > 299) throw failure(raw.status, raw.bytes, call);
        let text: string | undefined;
        const answer: ODataAnswer = {
          status: raw.status,
          headers: raw.headers,
          bytes: raw.bytes,
          text: () => (text ??= new TextDecoder().decode(raw.bytes)),
          json: () => {
            try {
              // Long number tokens kept as NumberTokens (json-numbers.ts): decodeRow reads them digit for digit.
              return parseJson(answer.text());
            } catch {
              throw notOData(raw.status, answer.text(), call);
            }
          },
        };
        return answer;
      });
    },
    open: (request) => {
      const call = callOf(request);
      return retried(request, async () => {
        const opened = (await exchange(request, (headers) =>
          carrier.open({ url: urlOf(request), method: request.method, headers, body: request.body, signal: request.signal }, call, scrubText),
        )) as Awaited<ReturnType<Carrier["open"]>>;
        if (opened.status >= 200 && opened.status <= 299) return opened;
        throw failure(opened.status, await drain(opened.body), call);
      });
    },
    tablePath: (table) => {
      checkTableDatabase(table, database);
      if (!entityIds) return `/${segment(table.table, `table`)}`;
      if (!table.id || !/^FMTID:\d+$/.test(table.id)) throw new TypeError(`table "${table.table}" has no FMTID in its definition, which entityIds needs (generate it with ids)`);
      return `/${table.id}`;
    },
    refs: (table) => {
      let refs = refsCache.get(table);
      if (!refs) refsCache.set(table, (refs = fieldRefs(table, entityIds)));
      return refs;
    },
    encodeRow: (table, values, what) => encodeRow(table, values, entityIds, what),
    decodeRow: (table, row, what) => decodeRow(table, row, entityIds ? fieldIds(table) : undefined, what),
  };
  return caller;
}

/** The auth option, checked: exactly one of its forms, with strings where strings belong (never echoed). */
function checkAuth(auth: ODataAuth): ODataAuth {
  const where = `${CREATE}: options.auth`;
  const a = auth as Record<string, unknown>;
  const shapes = "{ username, password }, { claris } or { apiKey, pathPrefix? }";
  if (typeof a != "object" || !a) throw optionError(where, shapes, a);
  if ("username" in a) {
    textOption(`${where}.username`, a.username);
    if (typeof a.password != "string") throw optionError(`${where}.password`, "a string", a.password, 1);
  } else if ("claris" in a) {
    if (typeof a.claris != "function") throw optionError(`${where}.claris`, "a function that resolves to a Claris ID token", a.claris);
  } else if ("apiKey" in a) {
    if (/\s/.test(textOption(`${where}.apiKey`, a.apiKey))) throw new TypeError(`${where}.apiKey must be the key, without spaces`);
    if (a.pathPrefix !== undefined && typeof a.pathPrefix !== "string") throw optionError(`${where}.pathPrefix`, 'a string such as "/otto"', a.pathPrefix);
  } else throw new TypeError(`${where} must be ${shapes}, got an object with keys ${Object.keys(a)}`);
  return auth;
}

