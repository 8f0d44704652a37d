import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConformanceEmulator, type Emulator } from "../support/conformance-emulator.js";
import { basic, CONTACTS, DataApi, DB, expectError, p, PASSWORD, USER, type HttpResult } from "../support/data-api-http.js";

// Deeply nested JSON (100,000 levels) anywhere in a request: refused at the door with 400 / 1708 and a
// message naming where, never an emulator fault (-1, "Maximum call stack size exceeded"), and no table changes.
// Bodies are written as text: 100,000 levels is past what JSON.stringify itself can write.

const DEPTH = 100_000;
const deepArray = (inner = "1") => "[".repeat(DEPTH) + inner + "]".repeat(DEPTH);
const deepObject = (inner = "1") => '{"a":'.repeat(DEPTH) + inner + "}".repeat(DEPTH);

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

const RECORDS = p`/databases/${DB}/layouts/${CONTACTS}/records`;
const FIND = p`/databases/${DB}/layouts/${CONTACTS}/_find`;

const postJson = (method: string, path: string, body: string, headers: Record<string, string> = {}): Promise<HttpResult> =>
  api.call(method, path, { token, body, headers: { "Content-Type": "application/json", ...headers } });

/** Asserts the exact status, code and (part of the) message, and that no table changed. */
async function expectRefused(send: () => Promise<HttpResult>, status: number, code: string, message?: string): Promise<void> {
  const before = await api.snapshotAll(token);
  const res = await send();
  expectError(res, status, code);
  if (message !== undefined) expect(res.body.messages[0]!.message).toContain(message);
  expect(await api.snapshotAll(token)).toEqual(before);
}

const NESTED = "nests arrays and objects deeper than 64 levels";

describe.each([
  ["arrays", deepArray],
  ["objects", deepObject],
])("100,000 levels of %s", (_label, deep) => {
  it("in a fieldData value: create and edit -> 400 / 1708, naming the field", async () => {
    for (const field of ["First Name", "Age", "Birthday"]) {
      const body = `{"fieldData":{${JSON.stringify(field)}:${deep()}}}`;
      const at = `fieldData${/^\w+$/.test(field) ? `.${field}` : `[${JSON.stringify(field)}]`}`;
      await expectRefused(() => postJson("POST", RECORDS, body), 400, "1708", `the body ${NESTED} (at ${at}`);
      await expectRefused(() => postJson("PATCH", `${RECORDS}/1`, body), 400, "1708", `(at ${at}`);
    }
  });

  it("in portalData: a row's value, a row, the rows -> 400 / 1708, naming the portal", async () => {
    for (const portalData of [`{"Invoices":[{"Invoices::Amount":${deep()}}]}`, `{"Invoices":[${deep()}]}`, `{"Invoices":${deep()}}`]) {
      const body = `{"fieldData":{"First Name":"Deep"},"portalData":${portalData}}`;
      await expectRefused(() => postJson("POST", RECORDS, body), 400, "1708", "(at portalData.Invoices");
      await expectRefused(() => postJson("PATCH", `${RECORDS}/1`, body), 400, "1708", "(at portalData.Invoices");
    }
  });

  it("in a find: a criterion, a request, the query, sort, offset and limit -> 400 / 1708", async () => {
    const bodies: [string, string][] = [
      [`{"query":[{"First Name":${deep('"Ada"')}}]}`, 'query[0]["First Name"]'],
      [`{"query":[${deep("{}")}]}`, "query[0]"],
      [`{"query":${deep("{}")}}`, "query"],
      [`{"query":[{"First Name":"Ada"}],"sort":${deep()}}`, "sort"],
      [`{"query":[{"First Name":"Ada"}],"offset":${deep()}}`, "offset"],
      [`{"query":[{"First Name":"Ada"}],"limit":${deep()}}`, "limit"],
    ];
    for (const [body, at] of bodies) await expectRefused(() => postJson("POST", FIND, body), 400, "1708", `(at ${at}`);
  });

  it("in an edit's modId, and in a login body -> 400 / 1708", async () => {
    await expectRefused(() => postJson("PATCH", `${RECORDS}/1`, `{"fieldData":{"Age":1},"modId":${deep()}}`), 400, "1708", "(at modId");
    const login = (body: string) => api.call("POST", p`/databases/${DB}/sessions`, { body, headers: { "Content-Type": "application/json", Authorization: basic(USER, PASSWORD) } });
    await expectRefused(() => login(`{"fmDataSource":${deep()}}`), 400, "1708", "(at fmDataSource");
    await expectRefused(() => login(`{"unrelated":${deep()}}`), 400, "1708", "(at unrelated");
  });
});

describe("_sort on list", () => {
  it("100,000 levels do not fit in a request line: Node's parser refuses the headers -> 431 / 1708", async () => {
    await expectRefused(() => api.list(token, CONTACTS, { _sort: deepArray() }), 431, "1708");
  });

  it("as deep as fits in a request line (2,000 levels of arrays, 300 of objects) -> 400 / 1708, naming _sort", async () => {
    const sort = encodeURIComponent("[".repeat(2_000) + "]".repeat(2_000));
    await expectRefused(() => api.call("GET", `${RECORDS}?_sort=${sort}`, { token }), 400, "1708", `_sort ${NESTED} (at _sort[0][0][0]`);
    const objects = '[{"fieldName":'.repeat(300) + '"Age"' + "}]".repeat(300);
    await expectRefused(() => api.call("GET", `${RECORDS}?_sort=${encodeURIComponent(objects)}`, { token }), 400, "1708", "(at _sort[0].fieldName[0]");
  });
});

describe("just inside the limit", () => {
  it("a value nested 60 levels deep is read as any other wrong value (400 / 500 for a text field), not refused for depth", async () => {
    const body = `{"fieldData":{"First Name":${"[".repeat(60)}${"]".repeat(60)}}}`;
    await expectRefused(() => postJson("POST", RECORDS, body), 400, "500", "an array is not a valid text");
  });
});
