import { fileURLToPath } from "node:url";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../../src/emulator/index.js";

// The inspector's tests: the contacts example (a layout with a portal and a container field, two tables), with an
// account of both APIs and an API key whose secrets are strings found nowhere else, so that a test can look for them.

export const LAYOUTS = fileURLToPath(new URL("../../../examples/contacts/layouts", import.meta.url));
export const SEED = fileURLToPath(new URL("../../../examples/contacts/seed.json", import.meta.url));

export const USER = "inspector-user";
export const PASSWORD = "Pa55-w0rd-inspector-7731";
export const API_KEY = "dk_inspector_api_key_5151";
export const DATA_SOURCE_PASSWORD = "ds-pass-inspector-4242";
export const OAUTH = { requestId: "oauth-request-id-8080", identifier: "oauth-identifier-9090" };
export const BASIC = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}`;

export const DB = "Contacts";
export const LAYOUT = "Contacts Web";
export const V = "/fmi/data/vLatest";
export const RECORDS = `${V}/databases/${DB}/layouts/${encodeURIComponent(LAYOUT)}/records`;
export const ODATA = `/fmi/odata/v4/${DB}`;

export function startInspected(options: Partial<EmulatorOptions> = {}): Promise<RunningEmulator> {
  return startEmulator({
    layouts: [LAYOUTS],
    data: SEED,
    accounts: [{ username: USER, password: PASSWORD }, { oauth: OAUTH }],
    apiKeys: [{ key: API_KEY }],
    log: () => undefined,
    ...options,
  });
}

/** A Data API login: its token. */
export async function login(url: string, body: object = {}): Promise<string> {
  const res = await fetch(`${url}${V}/databases/${DB}/sessions`, { method: "POST", headers: { Authorization: BASIC, "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const json = (await res.json()) as { response: { token?: string } };
  if (!json.response.token) throw new Error(`login failed: ${JSON.stringify(json)}`);
  return json.response.token;
}

/** A JSON call; the answer's status and parsed body. */
export async function call(url: string, method: string, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<{ status: number; body: any; headers: Headers }> {
  const init: RequestInit = { method, headers: { ...headers, ...(body === undefined ? {} : { "Content-Type": "application/json" }) } };
  if (body !== undefined) init.body = typeof body === "string" ? body : JSON.stringify(body);
  const res = await fetch(`${url}${path}`, init);
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

/** The inspector's JSON at `/fmgen/api/<path>`. */
export async function inspector(url: string, path: string): Promise<any> {
  const res = await fetch(`${url}/fmgen/api/${path}`);
  if (!res.ok) throw new Error(`GET /fmgen/api/${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Every entry of the log, each with its headers and bodies, and the text of all of it. */
export async function wholeLog(url: string): Promise<{ entries: any[]; text: string }> {
  const list = await inspector(url, "log");
  const entries = [];
  for (const entry of list.entries) entries.push(await inspector(url, `request?id=${entry.id}`));
  return { entries, text: JSON.stringify(list) + JSON.stringify(entries) };
}
