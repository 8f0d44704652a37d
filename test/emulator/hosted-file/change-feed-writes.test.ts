import { describe, expect, it } from "vitest";
import { createState } from "../../../src/emulator/index.js";
import { deleteWithCascade } from "../../../src/emulator/hosted-file/cascade.js";
import { onChange, type RecordChange } from "../../../src/emulator/hosted-file/change-feed.js";
import { sessionDatabase, SessionGlobals } from "../../../src/emulator/hosted-file/globals.js";
import { writeDuplicate } from "../../../src/emulator/hosted-file/records/record-duplicate.js";
import { writeContainer, writeCreate, writeEdit } from "../../../src/emulator/hosted-file/records/record-transaction.js";
import type { LayoutDescriptionInput } from "../../../src/layout/schema.js";

// The hosted file's record writes tell the change feed (change-feed.ts) of each record they store or remove, once,
// after it is stored, whichever session's view of the file writes; a write that fails tells nothing.

const LAYOUTS: LayoutDescriptionInput[] = [
  {
    database: "Shop",
    layout: "Orders",
    table: "Orders",
    fields: [
      { name: "id", type: "text" },
      { name: "Name", type: "text", unique: true },
      { name: "Scan", type: "container" },
    ],
    portals: [{ name: "Lines", table: "Lines", relation: { parentField: "id", childField: "OrderId", cascadeDelete: true }, fields: [{ name: "Lines::Qty", type: "number" }] }],
  },
  { database: "Shop", layout: "Lines", table: "Lines", fields: [{ name: "OrderId", type: "text" }, { name: "Qty", type: "number" }] },
];

async function shop() {
  const state = await createState({ layouts: LAYOUTS, data: { records: { Orders: [{ id: "o1", Name: "first" }], Lines: [{ OrderId: "o1", Qty: 1 }] } } });
  const db = state.databases.get("Shop")!;
  const seen: RecordChange[] = [];
  onChange(db, (c) => seen.push(c));
  return { state, db, seen, orders: db.model.layouts.get("Orders")!, lines: db.model.layouts.get("Lines")! };
}

describe("record writes tell the change feed", () => {
  it("create with portal rows, edit of a portal row, duplicate, container write: one ADD/UPDATE per stored record", async () => {
    const { state, db, seen, orders } = await shop();
    const created = writeCreate(db, orders, { fieldData: { id: "o2", Name: "second" }, portalData: { Lines: [{ "Lines::Qty": 2 }, { "Lines::Qty": 3 }] } }, state.clock);
    expect(seen).toEqual([
      { operation: "ADD", table: "Orders", rowIDs: [created.recordId] },
      { operation: "ADD", table: "Lines", rowIDs: [2] },
      { operation: "ADD", table: "Lines", rowIDs: [3] },
    ]);
    seen.length = 0;
    writeEdit(db, orders, created.recordId, { fieldData: { Name: "2nd" }, portalData: { Lines: [{ recordId: "2", "Lines::Qty": 5 }] } }, state.clock);
    expect(seen).toEqual([
      { operation: "UPDATE", table: "Orders", rowIDs: [created.recordId] },
      { operation: "UPDATE", table: "Lines", rowIDs: [2] },
    ]);
    seen.length = 0;
    // Name is unique: a duplicate validates only "always" fields, so it is stored.
    const copy = writeDuplicate(db, orders, 1, state.clock);
    writeContainer(db, orders, 1, orders.table.fields.get("Scan")!, 0, () => state.containers.put("Shop", "a.png", "image/png", new Uint8Array([1])), state.clock);
    expect(seen).toEqual([
      { operation: "ADD", table: "Orders", rowIDs: [copy.recordId] },
      { operation: "UPDATE", table: "Orders", rowIDs: [1] },
    ]);
  });

  it("a delete tells each record of its cascade; deleteRelated tells the rows it removes", async () => {
    const { state, db, seen, orders } = await shop();
    writeCreate(db, orders, { fieldData: { id: "o2" }, portalData: { Lines: [{ "Lines::Qty": 2 }] } }, state.clock);
    seen.length = 0;
    writeEdit(db, orders, 2, { fieldData: { deleteRelated: "Lines.2" } }, state.clock);
    expect(seen).toEqual([{ operation: "DELETE", table: "Lines", rowIDs: [2] }]);
    seen.length = 0;
    deleteWithCascade(db, "Orders", db.tables.get("Orders")!.records.get(1)!);
    expect(seen).toEqual([
      { operation: "DELETE", table: "Orders", rowIDs: [1] },
      { operation: "DELETE", table: "Lines", rowIDs: [1] },
    ]);
  });

  it("a write that fails part-way tells nothing; a session's view of the file tells the file's listeners", async () => {
    const { state, db, seen, orders } = await shop();
    // The parent is stored, then its portal row fails (Qty is not a number): both are undone.
    expect(() => writeCreate(db, orders, { fieldData: { id: "o3", Name: "x" }, portalData: { Lines: [{ "Lines::Qty": "many" }] } }, state.clock)).toThrow();
    expect(() => writeCreate(db, orders, { fieldData: { Name: "first" } }, state.clock)).toThrow(/unique/);
    expect(seen).toEqual([]);
    const session = sessionDatabase(db, new SessionGlobals());
    const r = writeCreate(session, orders, { fieldData: { id: "s1" } }, state.clock);
    expect(seen).toEqual([{ operation: "ADD", table: "Orders", rowIDs: [r.recordId] }]);
  });
});
