import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { DataApi, expectOk, p } from "../../support/data-api-http.js";

// An OData DELETE cascades through the relations' cascadeDelete exactly as a Data API delete does (one hosted
// file, one record delete: hosted-file/cascade.ts): two emulators with the same data, one record deleted through
// each API, and every table read back equal; by key and by $filter. Orders → Lines (cascading) → Parts (cascading);
// Orders → Notes (not cascading: notes stay).

const DB = "Shop";
const LAYOUTS = [
  {
    database: DB,
    layout: "Orders",
    table: "Orders",
    fields: [{ name: "OrderNo", type: "number" }],
    portals: [
      { name: "Lines", table: "Lines", relation: { parentField: "OrderNo", childField: "OrderNo", cascadeDelete: true }, fields: [{ name: "Lines::Item", type: "text" }] },
      { name: "Notes", table: "Notes", relation: { parentField: "OrderNo", childField: "OrderNo" }, fields: [{ name: "Notes::Text", type: "text" }] },
    ],
  },
  {
    database: DB,
    layout: "Lines",
    table: "Lines",
    fields: [
      { name: "LineNo", type: "number" },
      { name: "OrderNo", type: "number" },
      { name: "Item", type: "text" },
    ],
    portals: [{ name: "Parts", table: "Parts", relation: { parentField: "LineNo", childField: "LineNo", cascadeDelete: true }, fields: [{ name: "Parts::Part", type: "text" }] }],
  },
  { database: DB, layout: "Parts", table: "Parts", fields: [{ name: "LineNo", type: "number" }, { name: "Part", type: "text" }] },
  { database: DB, layout: "Notes", table: "Notes", fields: [{ name: "OrderNo", type: "number" }, { name: "Text", type: "text" }] },
];

const RECORDS = {
  Orders: [{ OrderNo: 1 }, { OrderNo: 2 }, { OrderNo: 3 }],
  Lines: [
    { LineNo: 11, OrderNo: 1, Item: "a" },
    { LineNo: 12, OrderNo: 1, Item: "b" },
    { LineNo: 21, OrderNo: 2, Item: "c" },
    { LineNo: 31, OrderNo: 3, Item: "d" },
  ],
  Parts: [
    { LineNo: 11, Part: "p1" },
    { LineNo: 11, Part: "p2" },
    { LineNo: 12, Part: "p3" },
    { LineNo: 21, Part: "p4" },
    { LineNo: 31, Part: "p5" },
  ],
  Notes: [
    { OrderNo: 1, Text: "n1" },
    { OrderNo: 2, Text: "n2" },
  ],
};

const AUTH = `Basic ${Buffer.from("web:secret").toString("base64")}`;
let viaOData: RunningEmulator;
let viaDataApi: RunningEmulator;

const start = () => startEmulator({ layouts: LAYOUTS as never, data: { accounts: [{ username: "web", password: "secret" }], records: RECORDS } });
beforeAll(async () => {
  [viaOData, viaDataApi] = await Promise.all([start(), start()]);
});
afterAll(() => Promise.all([viaOData.close(), viaDataApi.close()]));

async function odata(emu: RunningEmulator, method: string, path: string): Promise<Response> {
  return fetch(`${emu.url}/fmi/odata/v4/${DB}/${path}`, { method, headers: { Authorization: AUTH }, signal: AbortSignal.timeout(10_000) });
}

/** Every table's rows as OData reads them, ROWIDs included, so both emulators can be compared whole. */
async function everything(emu: RunningEmulator): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of ["Orders", "Lines", "Parts", "Notes"]) {
    const res = await odata(emu, "GET", `${table}?$orderby=ROWID`);
    expect(res.status).toBe(200);
    out[table] = ((await res.json()) as { value: Record<string, unknown>[] }).value.map(({ "@id": _id, "@editLink": _e, ...row }) => row);
  }
  return out;
}

async function deleteViaDataApi(layout: string, recordId: number): Promise<void> {
  const api = new DataApi(viaDataApi.url);
  const token = await api.login("web", "secret", DB);
  expectOk(await api.call("DELETE", p`/databases/${DB}/layouts/${layout}/records/${String(recordId)}`, { token }));
}

describe("OData DELETE cascades as a Data API delete does", () => {
  it("by key: order 1 takes its lines and their parts, and leaves its notes", async () => {
    const res = await odata(viaOData, "DELETE", "Orders(1)");
    expect(res.status).toBe(204);
    expect(res.headers.get("fmodata.affected_rows")).toBe("1");
    await deleteViaDataApi("Orders", 1);
    const after = await everything(viaOData);
    expect(after).toEqual(await everything(viaDataApi));
    expect(after.Orders!.map((r: any) => r.OrderNo)).toEqual([2, 3]);
    expect(after.Lines!.map((r: any) => r.LineNo)).toEqual([21, 31]);
    expect(after.Parts!.map((r: any) => r.Part)).toEqual(["p4", "p5"]);
    expect(after.Notes!.map((r: any) => r.Text)).toEqual(["n1", "n2"]);
  });

  it("by $filter: every matching order cascades, with fmodata.affected_rows counting only the matches", async () => {
    const res = await odata(viaOData, "DELETE", "Orders?$filter=OrderNo%20ge%202");
    expect(res.status).toBe(204);
    expect(res.headers.get("fmodata.affected_rows")).toBe("2");
    await deleteViaDataApi("Orders", 2);
    await deleteViaDataApi("Orders", 3);
    const after = await everything(viaOData);
    expect(after).toEqual(await everything(viaDataApi));
    expect(after).toEqual({ Orders: [], Lines: [], Parts: [], Notes: [expect.objectContaining({ Text: "n1" }), expect.objectContaining({ Text: "n2" })] });
  });
});
