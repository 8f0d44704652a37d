import { fileURLToPath } from "node:url";
import { expect } from "vitest";

/**
 * Plain-HTTP access to a Data API server (the emulator) for the conformance tests: real loopback
 * requests through Node's global `fetch`, no stubbing. Paths are written as the Data API writes them,
 * relative to `{base_url}` = `${server}/fmi/data/{version}`.
 */

export const CONFORMANCE_FIXTURES = fileURLToPath(new URL("../fixtures/conformance/", import.meta.url));
export const CONFORMANCE_LAYOUTS = fileURLToPath(new URL("../fixtures/conformance/layouts/", import.meta.url));
export const CONFORMANCE_SEED = fileURLToPath(new URL("../fixtures/conformance/seed.json", import.meta.url));

/** Names used by the fixtures in `test/fixtures/conformance/`. */
export const DB = "Contacts";
export const CONTACTS = "Contacts Web";
export const INVOICES = "Invoices";
export const NOTES = "Notes";
export const USER = "web";
export const PASSWORD = "secret";
/** An account of the seed whose privilege set lacks `fmrest`. */
export const NO_FMREST_USER = "desktop";

export interface Message {
  code: string;
  message: string;
}

/** The Data API envelope. `response` is left loosely typed: tests assert its exact shape. */
export interface Envelope {
  response: any;
  messages: Message[];
}

export interface HttpResult {
  status: number;
  headers: Headers;
  /** The raw body text. */
  text: string;
  /** The parsed body (an envelope when the server keeps the contract). */
  body: Envelope;
  /** True when the body parsed as `{ response?: object, messages: [{ code: string, message: string }, ...] }`. */
  isEnvelope: boolean;
  /** `messages[0].code`, when there is one. */
  code: string | undefined;
}

export interface CallOptions {
  /** Sends `Authorization: Bearer <token>`. */
  token?: string;
  /** Sends the value as a JSON body with `Content-Type: application/json`. */
  json?: unknown;
  /** A raw body; no content type is added unless given in `headers` (or implied by FormData). */
  body?: string | Uint8Array | FormData | Blob;
  headers?: Record<string, string>;
}

/** Tagged template that percent-encodes every interpolated path segment: p`/databases/${db}/layouts/${layout}`. */
export function p(strings: TemplateStringsArray, ...values: (string | number)[]): string {
  let out = strings[0] ?? "";
  values.forEach((value, i) => {
    out += encodeURIComponent(String(value)) + (strings[i + 1] ?? "");
  });
  return out;
}

/** `?a=1&b=2`, values URL-encoded ("" for no parameters). */
export function qs(params: Record<string, string | number> | undefined): string {
  if (!params || Object.keys(params).length === 0) return "";
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) search.set(key, String(value));
  return `?${search.toString()}`;
}

export function basic(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, "utf8").toString("base64")}`;
}

function looksLikeEnvelope(json: unknown): json is Envelope {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return false;
  const { messages, response } = json as { messages?: unknown; response?: unknown };
  if (response !== undefined && (typeof response !== "object" || response === null || Array.isArray(response))) return false;
  return (
    Array.isArray(messages) &&
    messages.length > 0 &&
    messages.every(
      (m: unknown) =>
        typeof m === "object" &&
        m !== null &&
        typeof (m as Message).code === "string" &&
        typeof (m as Message).message === "string",
    )
  );
}

/** Sends one request to an absolute URL and reads the whole answer. */
export async function rawRequest(url: string, method: string, options: CallOptions = {}): Promise<HttpResult> {
  const headers: Record<string, string> = {};
  let body: string | Uint8Array | FormData | Blob | undefined = options.body;
  if (options.json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(options.json);
  }
  if (options.token !== undefined) headers["Authorization"] = `Bearer ${options.token}`;
  Object.assign(headers, options.headers ?? {});
  const init: RequestInit = { method, headers, redirect: "manual" };
  if (body !== undefined) init.body = body;
  const res = await fetch(url, init);
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const isEnvelope = looksLikeEnvelope(parsed);
  return {
    status: res.status,
    headers: res.headers,
    text,
    body: (parsed ?? {}) as Envelope,
    isEnvelope,
    code: isEnvelope ? (parsed as Envelope).messages[0]?.code : undefined,
  };
}

/** Asserts a success envelope: HTTP 200 and `messages[0].code === "0"`. Returns `response`. */
export function expectOk(res: HttpResult): any {
  expect({ status: res.status, code: res.code }, `body: ${res.text.slice(0, 400)}`).toEqual({ status: 200, code: "0" });
  expect(res.isEnvelope, `not an envelope: ${res.text.slice(0, 400)}`).toBe(true);
  expect(typeof res.body.response).toBe("object");
  return res.body.response;
}

/** Asserts an error envelope with the exact HTTP status and `messages[0].code`. */
export function expectError(res: HttpResult, status: number, code: string): void {
  expect(res.isEnvelope, `not an envelope (HTTP ${res.status}): ${res.text.slice(0, 400)}`).toBe(true);
  expect({ status: res.status, code: res.code }, `body: ${res.text.slice(0, 400)}`).toEqual({ status, code });
}

export interface FileToUpload {
  bytes: Uint8Array;
  type: string;
  filename: string;
}

/**
 * One Data API server at `{server}/fmi/data/{version}`, spoken to as docs/emulator.md ("The base Data API")
 * describes.
 */
export class DataApi {
  readonly base: string;

  constructor(
    readonly server: string,
    readonly version = "vLatest",
  ) {
    this.base = `${server}/fmi/data/${version}`;
  }

  /** The same server under another version segment. */
  withVersion(version: string): DataApi {
    return new DataApi(this.server, version);
  }

  /** A call to `{base_url}{path}`; `path` is sent as given (already encoded). */
  call(method: string, path: string, options: CallOptions = {}): Promise<HttpResult> {
    return rawRequest(this.base + path, method, options);
  }

  loginRaw(username: string, password: string, database = DB, json: unknown = {}): Promise<HttpResult> {
    return this.call("POST", p`/databases/${database}/sessions`, { json, headers: { Authorization: basic(username, password) } });
  }

  /** Logs in (asserting success) and returns the token. */
  async login(username = USER, password = PASSWORD, database = DB): Promise<string> {
    const res = await this.loginRaw(username, password, database);
    const response = expectOk(res);
    expect(typeof response.token).toBe("string");
    return response.token as string;
  }

  logout(token: string, database = DB): Promise<HttpResult> {
    return this.call("DELETE", p`/databases/${database}/sessions/${token}`);
  }

  list(token: string, layout: string, params?: Record<string, string | number>, database = DB): Promise<HttpResult> {
    return this.call("GET", p`/databases/${database}/layouts/${layout}/records` + qs(params), { token });
  }

  get(token: string, layout: string, recordId: string, database = DB): Promise<HttpResult> {
    return this.call("GET", p`/databases/${database}/layouts/${layout}/records/${recordId}`, { token });
  }

  create(token: string, layout: string, json: unknown, database = DB): Promise<HttpResult> {
    return this.call("POST", p`/databases/${database}/layouts/${layout}/records`, { token, json });
  }

  edit(token: string, layout: string, recordId: string, json: unknown, database = DB): Promise<HttpResult> {
    return this.call("PATCH", p`/databases/${database}/layouts/${layout}/records/${recordId}`, { token, json });
  }

  delete(token: string, layout: string, recordId: string, database = DB): Promise<HttpResult> {
    return this.call("DELETE", p`/databases/${database}/layouts/${layout}/records/${recordId}`, { token });
  }

  find(token: string, layout: string, json: unknown, database = DB): Promise<HttpResult> {
    return this.call("POST", p`/databases/${database}/layouts/${layout}/_find`, { token, json });
  }

  upload(
    token: string,
    layout: string,
    recordId: string,
    fieldName: string,
    repetition: string | number,
    file: FileToUpload,
    database = DB,
  ): Promise<HttpResult> {
    const form = new FormData();
    form.append("upload", new Blob([file.bytes], { type: file.type }), file.filename);
    return this.call(
      "POST",
      p`/databases/${database}/layouts/${layout}/records/${recordId}/containers/${fieldName}/${String(repetition)}`,
      { token, body: form },
    );
  }

  /** Creates a record (asserting success) and returns its ids. */
  async createOk(token: string, layout: string, json: unknown, database = DB): Promise<{ recordId: string; modId: string }> {
    const response = expectOk(await this.create(token, layout, json, database));
    return { recordId: response.recordId as string, modId: response.modId as string };
  }

  /** Reads one record (asserting success). */
  async getOk(token: string, layout: string, recordId: string, database = DB): Promise<any> {
    const response = expectOk(await this.get(token, layout, recordId, database));
    expect(response.data).toHaveLength(1);
    return response.data[0];
  }

  /**
   * Every record of every fixture table, through a list call per layout (404/101 for an empty table is
   * recorded as no records). Asserts each list call is answered normally, so comparing two snapshots also
   * proves the server still works.
   */
  async snapshotAll(token: string, layouts: readonly string[] = [CONTACTS, INVOICES, NOTES]): Promise<Record<string, unknown>> {
    const snapshot: Record<string, unknown> = {};
    for (const layout of layouts) {
      const res = await this.list(token, layout, { _limit: 100000 });
      if (res.status === 404 && res.code === "101") {
        snapshot[layout] = [];
        continue;
      }
      const response = expectOk(res);
      snapshot[layout] = { data: response.data, totalRecordCount: response.dataInfo.totalRecordCount };
    }
    return snapshot;
  }
}

/** Parses a wire timestamp `MM/DD/YYYY HH:MM:SS` as local wall time, for comparisons with the emulator clock. */
export function wireTimestampToMs(text: string): number {
  const m = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (!m) throw new Error(`not a wire timestamp: ${JSON.stringify(text)}`);
  const [month, day, year, h, min, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  return new Date(year, month - 1, day, h, min, s).getTime();
}

export const WIRE_DATE = /^\d{2}\/\d{2}\/\d{4}$/;
export const WIRE_TIME = /^\d{2}:\d{2}:\d{2}$/;
export const WIRE_TIMESTAMP = /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/;
export const UUID = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/i;
