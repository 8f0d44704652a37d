import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConformanceEmulator, type Emulator } from "../support/conformance-emulator.js";
import { basic, CONTACTS, DataApi, DB, p, PASSWORD, USER, type HttpResult } from "../support/data-api-http.js";

// A handful of hostile shapes sent to every JSON endpoint, in query parameters and as request targets. Whatever
// each one is answered, it is an envelope with a code that names a client-side problem: never HTTP 5xx, never
// code -1 (an emulator fault), and the emulator keeps answering.

let emu: Emulator;
let api: DataApi;
let token: string;

beforeAll(async () => {
  ({ emu, api } = await startConformanceEmulator());
  token = await api.login();
});
afterAll(async () => {
  await emu.close();
});

const DEEP = 100_000;
const deep = (open: string, inner: string, close: string) => open.repeat(DEEP) + inner + close.repeat(DEEP);

/** JSON text for one value; each is put in every place a request carries a value. */
const HOSTILE_VALUES: string[] = [
  deep("[", "", "]"),
  deep('{"a":', "1", "}"),
  deep('[{"a":', "1", "}]"),
  deep('{"__proto__":', "{}", "}"),
  `[${"[],".repeat(50_000)}[]]`,
  `{${Array.from({ length: 5_000 }, (_, i) => `"k${i}":{"__proto__":[${i}]}`).join(",")}}`,
  "1e400",
  "-0",
  '"\\ud800\\udfff\\udc00"',
  '"\\u0000"',
  JSON.stringify("x".repeat(100_000)),
  JSON.stringify("*".repeat(5_000)),
  JSON.stringify("@#*".repeat(2_000) + "z"),
  JSON.stringify("<=".repeat(1_000) + "..." + "\\".repeat(1_000)),
  JSON.stringify('"'.repeat(1_001)),
  // A malformed number: quadratic for a backtracking number regex (number fields, number criteria).
  JSON.stringify("1".repeat(100_000) + "x"),
  JSON.stringify(" ".repeat(50_000) + "1" + " ".repeat(50_000) + "x"),
  "true",
  "null",
];

const KEYS = ["First Name", "Age", "Birthday", "Last Seen", "Phone(99999999999999999999)", "Phone(-1)", "__proto__", "\ud800", "k".repeat(50_000)];

function bodiesFor(value: string): [string, string, string][] {
  const key = (k: string) => JSON.stringify(k);
  const records = p`/databases/${DB}/layouts/${CONTACTS}/records`;
  const find = p`/databases/${DB}/layouts/${CONTACTS}/_find`;
  const out: [string, string, string][] = [];
  for (const k of KEYS) {
    out.push(["POST", records, `{"fieldData":{"First Name":"Hostile",${key(k)}:${value}}}`]);
    out.push(["PATCH", `${records}/1`, `{"fieldData":{${key(k)}:${value}}}`]);
    out.push(["POST", find, `{"query":[{${key(k)}:${value}}]}`]);
  }
  out.push(
    ["POST", records, `{"fieldData":{"First Name":"Hostile"},"portalData":{"Invoices":[{"Invoices::Amount":${value}}]}}`],
    ["POST", records, `{"fieldData":{"First Name":"Hostile"},"portalData":${value}}`],
    ["PATCH", `${records}/1`, `{"fieldData":{},"portalData":{"Invoices":[{"recordId":${value},"modId":${value}}]}}`],
    ["PATCH", `${records}/1`, `{"fieldData":{"Age":1},"modId":${value}}`],
    ["POST", find, `{"query":${value}}`],
    ["POST", find, `{"query":[{"First Name":"Ada"}],"sort":[{"fieldName":${value},"sortOrder":${value}}]}`],
    ["POST", find, `{"query":[{"First Name":"Ada"}],"offset":${value},"limit":${value}}`],
    ["POST", p`/databases/${DB}/sessions`, `{"fmDataSource":${value}}`],
  );
  return out;
}

function expectNoFault(res: { status: number; code: string | undefined; text: string }, label: string): void {
  expect(res.code, `${label}: ${res.text.slice(0, 300)}`).toBeDefined();
  expect(res.code, `${label}: ${res.text.slice(0, 300)}`).not.toBe("-1");
  expect(res.status, `${label}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
}

describe("hostile JSON values in every place a request carries one", () => {
  it.each(HOSTILE_VALUES.map((value, i) => [i, value.slice(0, 40)]))("value #%i (%s…): never a fault", async (i) => {
    const value = HOSTILE_VALUES[i as number]!;
    for (const [method, path, body] of bodiesFor(value)) {
      const headers: Record<string, string> = { "Content-Type": "application/json" };
      if (path.endsWith("/sessions")) headers.Authorization = basic(USER, PASSWORD);
      const res: HttpResult = await api.call(method, path, { token, body, headers });
      expectNoFault(res, `${method} ${path.slice(0, 80)} ${body.slice(0, 80)}`);
    }
  });
});

describe("hostile query parameters", () => {
  it.each([
    ["_sort 2,000 arrays deep", "_sort", "[".repeat(2_000) + "]".repeat(2_000)],
    ["_sort fieldName an object with __proto__", "_sort", '[{"fieldName":{"__proto__":1},"sortOrder":"ascend"}]'],
    ["_sort on __proto__", "_sort", '[{"fieldName":"__proto__","sortOrder":"ascend"}]'],
    ["_sort on constructor", "_sort", '[{"fieldName":"constructor","sortOrder":"descend"}]'],
    ["_offset 1e309", "_offset", "1e309"],
    ["_limit NUL", "_limit", "\u0000"],
    ["_offset 5,000 nines", "_offset", "9".repeat(5_000)],
  ])("%s: never a fault", async (_label, name, value) => {
    const res = await api.list(token, CONTACTS, { [name]: value });
    expectNoFault(res, `${name}=${value.slice(0, 40)}`);
  });
});

describe("hostile request targets", () => {
  /** Sends one request line with no body over a raw socket; resolves with the status and the envelope's code. */
  function sendTarget(target: string): Promise<{ status: number; code: string | undefined; text: string }> {
    const { hostname, port } = new URL(emu.url);
    return new Promise((resolve) => {
      const socket = connect(Number(port), hostname);
      let received = "";
      const done = () => {
        const text = received.slice(received.indexOf("\r\n\r\n") + 4);
        let code: string | undefined;
        try {
          code = JSON.parse(text).messages[0].code;
        } catch {
          code = undefined;
        }
        resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0), code, text });
      };
      socket.on("data", (chunk) => (received += chunk.toString("latin1")));
      socket.on("close", done);
      socket.on("error", done);
      socket.on("connect", () => socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`));
      setTimeout(() => socket.destroy(), 2_000);
    });
  }

  it.each(["http://[", "http://[::1/fmi/data/vLatest/databases/Contacts/layouts", "//", "http://x:99999/fmi/data/vLatest/", "http://%zz/", "/fmi/data/vLatest/databases/%/layouts", "*"])(
    "GET %s: an envelope with a 4xx code, never a fault",
    async (target) => {
      const res = await sendTarget(target);
      expectNoFault(res, target);
      expect(res.status).toBeGreaterThanOrEqual(400);
    },
  );
});

describe("after all of it", () => {
  it("the emulator still answers, and the seeded records are as they were", async () => {
    const record = (await api.getOk(token, CONTACTS, "2")).fieldData;
    expect({ first: record["First Name"], last: record["Last Name"], age: record.Age }).toEqual({ first: "Grace", last: "Hopper", age: 85 });
  });
});
