import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import type { LayoutDescriptionInput } from "../../../src/layout/schema.js";

// A small hosted file for the OData read tests: Office with Contacts (keyed on a uuid `id`: required, unique),
// a portal to Notes (keyless: addressed by ROWID), every field type, a calculation and a repeating field.

export const DB = "Office";
export const USER = "web";
export const PASSWORD = "secret";

export const LAYOUTS: LayoutDescriptionInput[] = [
  {
    database: DB,
    layout: "Contacts",
    table: "Contacts",
    fields: [
      { name: "id", type: "text", autoEnter: "uuid", required: true, unique: true },
      { name: "Name", type: "text" },
      { name: "Age", type: "number" },
      { name: "Born", type: "date" },
      { name: "Alarm", type: "time" },
      { name: "Seen", type: "timestamp" },
      { name: "Photo", type: "container" },
      { name: "Tags", type: "text", repetitions: 2 },
      { name: "Label", type: "text", readOnly: true },
    ],
    portals: [
      { name: "Notes", table: "Notes", relation: { parentField: "id", childField: "ContactId" }, fields: [{ name: "Notes::Text", type: "text" }] },
    ],
  },
  { database: DB, layout: "Notes", table: "Notes", fields: [{ name: "ContactId", type: "text" }, { name: "Text", type: "text" }, { name: "N", type: "number" }] },
];

export const CONTACTS = [
  { id: "A1", Name: "Ada", Age: 36, Born: "12/10/1815", Alarm: "07:30:00", Seen: "11/27/2026 09:15:00", Tags: "x" },
  { id: "B2", Name: "bob", Age: 41, Born: "", Alarm: "", Seen: "", Tags: "" },
  { id: "C3", Name: "Cy O'Brien", Age: 7.5, Born: "01/01/2020", Alarm: "23:59:59", Seen: "01/01/2020 00:00:00", Tags: "" },
];

export async function startOffice(notes = 25, extra: Partial<Parameters<typeof startEmulator>[0]> = {}): Promise<RunningEmulator> {
  return startEmulator({
    layouts: LAYOUTS,
    calculations: { Contacts: { Label: (r) => `${r.Name} (${r.Age})` } },
    data: {
      accounts: [
        { username: USER, password: PASSWORD },
        { username: "rest", password: "only", privileges: ["fmrest"] },
        { username: "od", password: "only", privileges: ["fmodata"] },
      ],
      records: {
        Contacts: CONTACTS,
        Notes: Array.from({ length: notes }, (_, i) => ({ ContactId: i % 2 === 0 ? "A1" : "B2", Text: `note ${i + 1}`, N: i + 1 })),
      },
    },
    ...extra,
  });
}

export const auth = (user = USER, password = PASSWORD) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** GET `path` (after the server URL, already encoded) with Basic auth unless `headers` overrides it. */
export async function get(url: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return send(url, "GET", path, undefined, headers);
}

/**
 * `method` `path` with Basic auth unless `headers` overrides it (`signIn: false`: no Authorization at all), and a body:
 * a string or bytes as they are, anything else as JSON (`Content-Type: application/json` unless `headers` says).
 */
export async function send(url: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}, signIn = true): Promise<Answer> {
  const init: RequestInit = { method, headers: { ...(signIn && { Authorization: auth() }), "Content-Type": "application/json", ...headers }, signal: AbortSignal.timeout(10_000) };
  if (body !== undefined) init.body = typeof body === "string" || body instanceof Uint8Array ? body : JSON.stringify(body);
  if (method === "GET" && body === undefined) delete (init.headers as Record<string, string>)["Content-Type"];
  const res = await fetch(`${url}${path}`, init);
  const text = await res.text();
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

export function expectODataError(a: Answer, status: number, code: string): { code: string; message: string } {
  if (a.status !== status || a.body?.error?.code !== code) throw new Error(`expected ${status} ${code}, got ${a.status} ${a.text.slice(0, 300)}`);
  if (a.headers.get("content-type") !== "application/json;charset=utf-8") throw new Error(`content-type ${a.headers.get("content-type")}`);
  return a.body.error;
}

/**
 * The ids the emulator's JSON `$metadata` states: `table(T)` is T's `FMTID:n`, `field(T, F)` its field's `FMFID:n`.
 * The emulator derives computed ids from names (docs/emulator.md, "`$metadata`"), so a test that addresses by id
 * reads it here rather than spelling a number.
 */
export async function metadataIds(url: string, db = DB): Promise<{ table: (table: string) => string; field: (table: string, field: string) => string }> {
  const doc = (await get(url, `/fmi/odata/v4/${encodeURIComponent(db)}/$metadata?$format=json`)).body[db];
  const type = (table: string) => {
    const t = doc[`${table}_`];
    if (t === undefined) throw new Error(`no table ${table} in $metadata`);
    return t;
  };
  return {
    table: (table) => type(table)["@TableID"] as string,
    field: (table, field) => {
      const id = type(table)[field]?.["@FieldID"] as string | undefined;
      if (id === undefined) throw new Error(`no field ${table}::${field} in $metadata`);
      return id;
    },
  };
}
