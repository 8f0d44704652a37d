import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../src/emulator/index.js";
import { lookupCost } from "../../src/emulator/hosted-file/field-index.js";
import { DataApi, expectError, expectOk, p } from "../support/data-api-http.js";

// One edit may write every row of a portal (portalData with recordIds, fieldData.deleteRelated). Before, each row
// was checked by listing the whole portal again (every related id, sorted) and searching it: rows x portal size, so
// 20,000 rows took minutes and held up every other client. The cost is counted, not timed: `lookupCost.ids` counts
// the record ids index lookups and join scans hand out (field-index.ts), and a write of N rows may look at a
// bounded number per row, however large the portal.

const ROWS = 2_000;
/** Ids handed out per written row that the checks allow: a constant, whatever ROWS is. */
const PER_ROW = 4;

const LAYOUTS = [
  {
    database: "Shop",
    layout: "Orders",
    table: "Orders",
    fields: [{ name: "id", type: "number" }],
    portals: [
      {
        name: "Lines",
        table: "Lines",
        relation: { parentField: "id", childField: "OrderID" },
        fields: [{ name: "Lines::Qty", type: "number" }],
      },
    ],
  },
  { database: "Shop", layout: "Lines", table: "Lines", fields: [{ name: "OrderID", type: "number" }, { name: "Qty", type: "number" }] },
];

let emu: Awaited<ReturnType<typeof startEmulator>>;
let api: DataApi;
let token: string;
const orderPath = (id: number) => p`/databases/Shop/layouts/Orders/records/${String(id)}`;

beforeAll(async () => {
  // Order 1 has ROWS lines (records 1..ROWS), order 2 has one line (record ROWS + 1).
  const lines = [...Array.from({ length: ROWS }, (_, i) => ({ OrderID: 1, Qty: i })), { OrderID: 2, Qty: 0 }];
  emu = await startEmulator({ layouts: LAYOUTS as never, data: { accounts: [{ username: "web", password: "secret" }], records: { Orders: [{ id: 1 }, { id: 2 }], Lines: lines } } });
  api = new DataApi(emu.url);
  token = await api.login("web", "secret", "Shop");
});
afterAll(async () => {
  await emu.close();
});

const ids = Array.from({ length: ROWS }, (_, i) => String(i + 1));

/** The ids the write's joins and lookups handed out (the emulator runs in this process). */
async function costOf(write: () => Promise<unknown>): Promise<number> {
  const before = lookupCost.ids;
  await write();
  return lookupCost.ids - before;
}

describe(`a portal write of ${ROWS.toLocaleString("en-US")} rows in one edit`, () => {
  it("edits every row by recordId at a cost per row that does not grow with the portal", async () => {
    const rows = ids.map((recordId) => ({ recordId, "Lines::Qty": 7 }));
    const cost = await costOf(async () => expectOk(await api.call("PATCH", orderPath(1), { token, json: { fieldData: {}, portalData: { Lines: rows } } })));
    expect(cost).toBeLessThanOrEqual(PER_ROW * ROWS);
    const order = expectOk(await api.call("GET", orderPath(1) + `?_limit.Lines=${ROWS}`, { token })).data[0];
    expect(order.portalData.Lines.every((row: { "Lines::Qty": number }) => row["Lines::Qty"] === 7)).toBe(true);
  });

  it("still refuses a row of another record's portal (101) and changes nothing", async () => {
    const rows = [...ids.slice(0, 10).map((recordId) => ({ recordId, "Lines::Qty": 8 })), { recordId: String(ROWS + 1), "Lines::Qty": 8 }];
    expectError(await api.call("PATCH", orderPath(1), { token, json: { fieldData: {}, portalData: { Lines: rows } } }), 404, "101");
    expect(expectOk(await api.call("GET", p`/databases/Shop/layouts/Lines/records/1`, { token })).data[0].fieldData.Qty).toBe(7);
  });

  it("deletes every row through deleteRelated at a cost per row that does not grow with the portal", async () => {
    const deleteRelated = ids.map((id) => `Lines.${id}`);
    const cost = await costOf(async () => expectOk(await api.call("PATCH", orderPath(1), { token, json: { fieldData: { deleteRelated } } })));
    expect(cost).toBeLessThanOrEqual(PER_ROW * ROWS);
    expect(emu.stats().records.Shop!.Lines).toBe(1);
  });
});
