import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../src/emulator/index.js";
import { DataApi, expectOk, p, type HttpResult } from "../support/data-api-http.js";

// Names are the user's: a table, layout, portal or field may be called "__proto__" (or "constructor",
// "hasOwnProperty"). Every answer carries such names as ordinary keys, seed data keeps them, and nothing on
// Object.prototype changes. Bodies and seed data are JSON text, since only JSON.parse (not an object literal)
// makes "__proto__" an own key, as a client's request does.

const DB = "Proto";
const PROTO = "__proto__";
const ROWS = "constructor";

const LAYOUTS = [
  {
    database: DB,
    layout: PROTO,
    table: PROTO,
    fields: [
      { name: "id", type: "number", autoEnter: "serial", readOnly: true },
      { name: PROTO, type: "text" },
      { name: "constructor", type: "text" },
      { name: "Name", type: "text" },
    ],
    portals: [
      {
        name: PROTO,
        table: ROWS,
        relation: { parentField: "id", childField: "parent" },
        fields: [
          { name: "__proto__::__proto__", type: "text" },
          { name: "__proto__::hasOwnProperty", type: "text" },
        ],
      },
    ],
  },
  { database: DB, layout: ROWS, table: ROWS, fields: [{ name: "parent", type: "number" }, { name: PROTO, type: "text" }] },
];

const SEED = `{
  "accounts": [{ "username": "web", "password": "secret" }],
  "records": {
    "__proto__": [{ "id": 1, "__proto__": "seeded proto", "Name": "first" }],
    "constructor": [{ "parent": 1, "__proto__": "seeded row", "hasOwnProperty": "own" }]
  }
}`;

const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();
let emu: Awaited<ReturnType<typeof startEmulator>>;
let api: DataApi;
let token: string;

beforeAll(async () => {
  emu = await startEmulator({ layouts: LAYOUTS as never, data: JSON.parse(SEED) });
  api = new DataApi(emu.url);
  token = await api.login("web", "secret", DB);
});
afterAll(async () => {
  await emu.close();
  // Whatever the requests held, no object's prototype was touched.
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);
  expect(({} as Record<string, unknown>).x).toBeUndefined();
  expect(({} as Record<string, unknown>).fieldData).toBeUndefined();
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
});

/** An own property, never an inherited one: reading `obj.__proto__` alone cannot tell them apart. */
function own(object: unknown, key: string): any {
  expect(Object.hasOwn(object as object, key), `own key ${JSON.stringify(key)} in ${JSON.stringify(object)}`).toBe(true);
  return Object.getOwnPropertyDescriptor(object, key)!.value;
}

const jsonCall = (method: string, path: string, body: string): Promise<HttpResult> =>
  api.call(method, path, { token, body, headers: { "Content-Type": "application/json" } });

const RECORDS = p`/databases/${DB}/layouts/${PROTO}/records`;

function onlyRecord(res: HttpResult): any {
  const response = expectOk(res);
  expect(response.data).toHaveLength(1);
  return response.data[0];
}

describe('a table, layout, portal and fields named "__proto__"', () => {
  it("seeded records keep their table and field names; list shows the field and the portal", async () => {
    const res = await api.call("GET", RECORDS, { token });
    const record = onlyRecord(res);
    expect(own(record.fieldData, PROTO)).toBe("seeded proto");
    const rows = own(record.portalData, PROTO);
    expect(rows).toHaveLength(1);
    expect(own(rows[0], "__proto__::__proto__")).toBe("seeded row");
    expect(own(rows[0], "__proto__::hasOwnProperty")).toBe("own");
    expect(res.text).toContain('"portalData":{"__proto__":[{"recordId":"1","__proto__::__proto__":"seeded row","__proto__::hasOwnProperty":"own","modId":"0"}]}');
    expect(own(own(emu.stats().records, DB), PROTO)).toBe(1);
  });

  it("layout metadata lists the field and the portal's fields under the portal's name", async () => {
    const layouts = expectOk(await api.call("GET", p`/databases/${DB}/layouts`, { token })).layouts;
    expect(layouts).toContainEqual({ name: PROTO, table: PROTO });
    const meta = expectOk(await api.call("GET", p`/databases/${DB}/layouts/${PROTO}`, { token }));
    expect(meta.fieldMetaData.map((f: { name: string }) => f.name)).toEqual(["id", PROTO, "constructor", "Name"]);
    expect(own(meta.portalMetaData, PROTO).map((f: { name: string }) => f.name)).toEqual(["__proto__::__proto__", "__proto__::hasOwnProperty"]);
  });

  it("create, get, edit, find and sort carry the names through", async () => {
    const created = expectOk(
      await jsonCall("POST", RECORDS, '{"fieldData":{"__proto__":"created","Name":"second"},"portalData":{"__proto__":[{"__proto__::__proto__":"new row"}]}}'),
    );
    const path = `${RECORDS}/${created.recordId}`;
    let record = onlyRecord(await api.call("GET", path, { token }));
    expect(own(record.fieldData, PROTO)).toBe("created");
    expect(own(own(record.portalData, PROTO)[0], "__proto__::__proto__")).toBe("new row");

    const rowId = own(record.portalData, PROTO)[0].recordId;
    expectOk(await jsonCall("PATCH", path, `{"fieldData":{"__proto__":"edited"},"portalData":{"__proto__":[{"recordId":"${rowId}","__proto__::__proto__":"edited row"}]}}`));
    record = onlyRecord(await api.call("GET", path, { token }));
    expect(own(record.fieldData, PROTO)).toBe("edited");
    expect(own(own(record.portalData, PROTO)[0], "__proto__::__proto__")).toBe("edited row");

    const FIND = p`/databases/${DB}/layouts/${PROTO}/_find`;
    expect(own(onlyRecord(await jsonCall("POST", FIND, '{"query":[{"__proto__":"edited"}]}')).fieldData, "Name")).toBe("second");
    expect(own(onlyRecord(await jsonCall("POST", FIND, '{"query":[{"__proto__::__proto__":"seeded"}]}')).fieldData, "Name")).toBe("first");

    const sorted = expectOk(await api.call("GET", `${RECORDS}?_sort=${encodeURIComponent('[{"fieldName":"__proto__","sortOrder":"descend"}]')}`, { token }));
    expect(sorted.data.map((r: { fieldData: object }) => own(r.fieldData, PROTO))).toEqual(["seeded proto", "edited"]);
    const viaFind = expectOk(await jsonCall("POST", FIND, '{"query":[{"Name":"*"}],"sort":[{"fieldName":"__proto__","sortOrder":"ascend"}]}'));
    expect(viaFind.data.map((r: { fieldData: object }) => own(r.fieldData, PROTO))).toEqual(["edited", "seeded proto"]);

    // The portal's rows live in their own table, under their local names.
    const rows = expectOk(await api.call("GET", p`/databases/${DB}/layouts/${ROWS}/records`, { token })).data;
    expect(rows.map((r: { fieldData: object }) => own(r.fieldData, PROTO))).toEqual(["seeded row", "edited row"]);
  });

  it('a body whose "__proto__" key holds what belongs at the top is not read as if it were there', async () => {
    // "__proto__" is a key of the body like any other, and no call takes it: unknown parameter (960).
    const res = await jsonCall("POST", RECORDS, '{"__proto__":{"fieldData":{"Name":"smuggled"}}}');
    expect({ status: res.status, code: res.code }).toEqual({ status: 400, code: "960" });
    expect(res.text).toContain("Unknown parameter(s): __proto__");
    const find = await jsonCall("POST", p`/databases/${DB}/layouts/${PROTO}/_find`, '{"__proto__":{"query":[{"Name":"first"}]}}');
    expect({ status: find.status, code: find.code }).toEqual({ status: 400, code: "960" });
  });
});

describe("seed data", () => {
  it('checks values under a table and a field named "__proto__" like any other: a bad one is refused by name', async () => {
    const bad = JSON.parse('{"records":{"__proto__":[{"__proto__":true}]}}');
    await expect(startEmulator({ layouts: LAYOUTS as never, data: bad })).rejects.toThrow("records.__proto__[0].__proto__: must be a string or a finite number");
    const unknownField = JSON.parse('{"records":{"__proto__":[{"toString":"x"}]}}');
    await expect(startEmulator({ layouts: LAYOUTS as never, data: unknownField })).rejects.toThrow('table "__proto__" has no such field');
  });
});
