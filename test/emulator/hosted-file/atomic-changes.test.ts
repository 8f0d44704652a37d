import { describe, expect, it } from "vitest";
import { createState } from "../../../src/emulator/index.js";
import { deleteWithCascade } from "../../../src/emulator/hosted-file/cascade.js";
import { onChange, type RecordChange } from "../../../src/emulator/hosted-file/change-feed.js";
import { atomically } from "../../../src/emulator/hosted-file/records/atomic-changes.js";
import { writeContainer, writeCreate, writeEdit } from "../../../src/emulator/hosted-file/records/record-transaction.js";
import type { LayoutDescriptionInput } from "../../../src/layout/schema.js";

// hosted-file/records/atomic-changes.ts: what a `$batch` changeset runs in. A failing step puts back every record,
// index entry, record id, serial number, container hold and global value it changed, and its changes are never told.

const LAYOUTS: LayoutDescriptionInput[] = [
  {
    database: "Shop",
    layout: "Orders",
    table: "Orders",
    fields: [
      { name: "n", type: "number", autoEnter: "serial" },
      { name: "code", type: "text", unique: true },
      { name: "Photo", type: "container" },
      { name: "g", type: "text", global: true },
    ],
    portals: [{ name: "Lines", table: "Lines", relation: { parentField: "code", childField: "code", cascadeDelete: true }, fields: [{ name: "Lines::qty", type: "number" }] }],
  },
  { database: "Shop", layout: "Lines", table: "Lines", fields: [{ name: "code", type: "text" }, { name: "qty", type: "number" }] },
];

async function shop() {
  const state = await createState({
    layouts: LAYOUTS,
    data: { records: { Orders: [{ code: "A" }, { code: "B" }], Lines: [{ code: "A", qty: 1 }, { code: "A", qty: 2 }] } },
  });
  const db = state.databases.get("Shop")!;
  const orders = db.model.layouts.get("Orders")!;
  const table = db.tables.get("Orders")!;
  const lines = db.tables.get("Lines")!;
  const snapshot = () => JSON.stringify([...db.tables].map(([name, t]) => [name, [...t.records.values()].map((r) => [r.recordId, r.modId, [...r.values]]), [...t.globals]]));
  return { state, db, orders, table, lines, snapshot };
}

describe("atomically (hosted-file/records/atomic-changes.ts)", () => {
  it("a failing step leaves no trace: records, cascades, unique index, record ids, serials, globals, containers, change feed", async () => {
    const { state, db, orders, table, snapshot } = await shop();
    const heard: RecordChange[] = [];
    onChange(db, (c) => heard.push(c));
    const before = snapshot();
    const files = state.containers.count();
    expect(() =>
      atomically(db, () => {
        const made = writeCreate(db, orders, { fieldData: { code: "C", g: "global value" } }, state.clock);
        writeEdit(db, orders, 2, { fieldData: { code: "Z" } }, state.clock);
        writeContainer(db, orders, 2, orders.table.fields.get("Photo")!, 0, () => state.containers.put("Shop", "a.png", "image/png", new Uint8Array([1, 2, 3])), state.clock);
        deleteWithCascade(db, "Orders", table.records.get(1)!);
        expect(db.tables.get("Lines")!.records.size).toBe(0);
        // "A" was freed by the delete; "Z" is taken: 504 fails the step.
        writeCreate(db, orders, { fieldData: { code: "Z" } }, state.clock);
      }),
    ).toThrow(/unique|504|Z/i);
    expect(snapshot()).toBe(before);
    expect(heard).toEqual([]);
    await Promise.resolve();
    expect(state.containers.count()).toBe(files);
    // The unique index is as before: "A" and "B" are taken, "Z" and "C" are free; ids and serials continue as before.
    expect(() => writeCreate(db, orders, { fieldData: { code: "B" } }, state.clock)).toThrow();
    const next = writeCreate(db, orders, { fieldData: { code: "Z" } }, state.clock);
    expect(next.recordId).toBe(3);
    expect(next.values.get("n")).toEqual([3]);
  });

  it("a step that returns keeps its writes and tells its changes once it is done", async () => {
    const { state, db, orders } = await shop();
    const heard: string[] = [];
    onChange(db, (c) => heard.push(`${c.operation} ${c.rowIDs.join()}`));
    const id = atomically(db, () => {
      const made = writeCreate(db, orders, { fieldData: { code: "C" } }, state.clock);
      expect(heard).toEqual([]);
      return made.recordId;
    });
    expect(heard).toEqual([`ADD ${id}`]);
    expect(db.tables.get("Orders")!.records.get(id)?.values.get("code")).toEqual(["C"]);
    // The journal is gone: a later failure outside a step undoes nothing of this one.
    expect([...db.tables.values()].every((t) => t.journal === undefined)).toBe(true);
  });
});
