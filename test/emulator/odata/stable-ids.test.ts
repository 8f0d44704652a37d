import { describe, expect, it } from "vitest";
import { createState } from "../../../src/emulator/index.js";
import { addField, createTable, deleteField, deleteTable, type FieldDefinition } from "../../../src/emulator/hosted-file/schema-changes.js";
import { assignSlots, slotSequence } from "../../../src/emulator/hosted-file/stable-ids.js";
import { odataModel } from "../../../src/emulator/odata/metadata-model.js";
import type { LayoutDescriptionInput } from "../../../src/layout/schema.js";
import type { TableDescriptionInput } from "../../../src/table/schema.js";

// The hosted file's FMTIDs and FMFIDs (docs/emulator.md, "`$metadata`") come from what names a table or field, not
// from where it stands: inserting a field mid-table, removing one, adding a table or listing the descriptions in
// another order gives every other table and field the id it had, at every start, with nothing kept between starts.

const DB = "Library";
const W = 2 ** 32;

const BOOKS: TableDescriptionInput = {
  database: DB,
  table: "Books",
  key: "id",
  fields: [
    { name: "id", type: "number", autoEnter: "serial", readOnly: true, notNull: true },
    { name: "Title", type: "text" },
    { name: "Author", type: "text" },
    { name: "Genre", type: "text" },
    { name: "Year", type: "number" },
    { name: "Shelf", type: "text" },
  ],
};
const MEMBERS: TableDescriptionInput = { database: DB, table: "Members", fields: [{ name: "Name", type: "text" }, { name: "Joined", type: "date" }] };
const LOANS: TableDescriptionInput = { database: DB, table: "Loans", fields: [{ name: "Due", type: "date" }, { name: "Title", type: "text" }] };

/** The ids `$metadata` states, per table: its FMTID and each field's FMFID, by name. */
async function idsOf(tables: readonly TableDescriptionInput[], layouts: readonly LayoutDescriptionInput[] = []): Promise<Map<string, { table: string; fields: Map<string, string> }>> {
  const state = await createState({ tables, layouts, log: () => {} });
  const model = odataModel(state.databases.get(DB)!);
  return new Map(model.entityTypes.map((t) => [t.set, { table: t.tableId!, fields: new Map(t.properties.map((p) => [p.name, p.fieldId!])) }]));
}

const withField = (table: TableDescriptionInput, at: number, field: TableDescriptionInput["fields"][number]) => ({ ...table, fields: [...table.fields.slice(0, at), field, ...table.fields.slice(at)] });

describe("FMTIDs and FMFIDs do not move when the descriptions change around them", () => {
  it("a field inserted mid-table and a table added leave every other table's and field's id as it was", async () => {
    const before = await idsOf([BOOKS, MEMBERS]);
    // "Pages" before "Genre", and a new table "Authors", whose name sorts first.
    const authors: TableDescriptionInput = { database: DB, table: "Authors", fields: [{ name: "Name", type: "text" }] };
    const after = await idsOf([withField(BOOKS, 3, { name: "Pages", type: "number" }), authors, MEMBERS]);
    for (const [table, { table: tableId, fields }] of before) {
      expect(after.get(table)!.table, table).toBe(tableId);
      for (const [field, fieldId] of fields) expect(after.get(table)!.fields.get(field), `${table}::${field}`).toBe(fieldId);
    }
    // The new ones are new: no id a table or field had before.
    const old = new Set([...before.values()].flatMap((t) => [t.table, ...t.fields.values()]));
    expect(old.has(after.get("Books")!.fields.get("Pages")!)).toBe(false);
    expect(old.has(after.get("Authors")!.table)).toBe(false);
    // Properties still come in the description's order.
    expect([...after.get("Books")!.fields.keys()]).toEqual(["id", "Title", "Author", "Pages", "Genre", "Year", "Shelf"]);
  });

  it("a field or table removed leaves the others' ids; the order of fields and of descriptions changes none", async () => {
    const before = await idsOf([BOOKS, MEMBERS, LOANS]);
    const removed = await idsOf([{ ...BOOKS, fields: BOOKS.fields.filter((f) => f.name !== "Title") }, LOANS]);
    expect(removed.get("Loans")).toEqual(before.get("Loans"));
    for (const [field, id] of removed.get("Books")!.fields) expect(id, field).toBe(before.get("Books")!.fields.get(field));
    const shuffled = await idsOf([LOANS, { ...MEMBERS, fields: [...MEMBERS.fields].reverse() }, { ...BOOKS, fields: [...BOOKS.fields].reverse() }]);
    for (const [table, ids] of before) {
      expect(shuffled.get(table)!.table).toBe(ids.table);
      expect(new Map([...shuffled.get(table)!.fields].sort())).toEqual(new Map([...ids.fields].sort()));
    }
  });

  it("keeps FMFID's form (fieldNo·2^32 + FMTID), ids unique in the file, and a description's id pinning its own", async () => {
    const pinned: TableDescriptionInput = { ...MEMBERS, id: "FMTID:1065089", fields: [{ ...MEMBERS.fields[0]!, id: `FMFID:${7 * W + 1065089}` }, MEMBERS.fields[1]!] };
    const ids = await idsOf([BOOKS, pinned, LOANS]);
    expect(ids.get("Members")!.table).toBe("FMTID:1065089");
    expect(ids.get("Members")!.fields.get("Name")).toBe(`FMFID:${7 * W + 1065089}`);
    const all = [...ids.values()].flatMap((t) => [...t.fields.values()]);
    expect(new Set(all).size).toBe(all.length);
    expect(new Set([...ids.values()].map((t) => t.table)).size).toBe(ids.size);
    for (const { table, fields } of ids.values()) {
      const tableNo = Number(table.slice("FMTID:".length));
      expect(tableNo).toBeGreaterThanOrEqual(1065089);
      expect(tableNo).toBeLessThan(2 ** 32);
      for (const id of fields.values()) {
        const n = Number(id.slice("FMFID:".length));
        expect(Number.isSafeInteger(n)).toBe(true);
        expect(n % W).toBe(tableNo);
        expect(Math.floor(n / W)).toBeGreaterThanOrEqual(1);
      }
    }
    // The same names on a layout instead of a description: the same ids (they follow names, not the source).
    const layout: LayoutDescriptionInput = { database: DB, layout: "Loans", table: "Loans", fields: LOANS.fields.map((f) => ({ name: f.name, type: f.type })) };
    expect((await idsOf([BOOKS], [layout])).get("Loans")).toEqual((await idsOf([BOOKS, LOANS])).get("Loans"));
  });

  it("a computed id steps aside for one a description pins, anywhere in the file", async () => {
    const before = await idsOf([BOOKS, MEMBERS]);
    const genre = before.get("Books")!.fields.get("Genre")!;
    const books = before.get("Books")!.table;
    // Members takes Books' FMTID; Shelf is pinned to Genre's FMFID.
    const after = await idsOf([{ ...BOOKS, fields: BOOKS.fields.map((f) => (f.name === "Shelf" ? { ...f, id: genre } : f)) }, { ...MEMBERS, id: books }]);
    expect(after.get("Members")!.table).toBe(books);
    expect(after.get("Books")!.table).not.toBe(books);
    const moved = await idsOf([{ ...BOOKS, id: books, fields: BOOKS.fields.map((f) => (f.name === "Shelf" ? { ...f, id: genre } : f)) }, MEMBERS]);
    expect(moved.get("Books")!.fields.get("Shelf")).toBe(genre);
    expect(moved.get("Books")!.fields.get("Genre")).not.toBe(genre);
    for (const f of ["id", "Title", "Author", "Year"]) expect(moved.get("Books")!.fields.get(f), f).toBe(before.get("Books")!.fields.get(f));
    // A pinned FMFID's table part is kept from computed FMTIDs too.
    const low = (await idsOf([{ ...MEMBERS, fields: [{ ...MEMBERS.fields[0]!, id: `FMFID:${3 * W + Number(books.slice("FMTID:".length))}` }, MEMBERS.fields[1]!] }, BOOKS])).get("Books")!.table;
    expect(low).not.toBe(books);
  });

  it("schema changes give fresh ids that never repeat one the file had, and leave the others where they were", async () => {
    const state = await createState({ tables: [BOOKS, MEMBERS], log: () => {} });
    const db = state.databases.get(DB)!;
    const ids = () => new Map(odataModel(db).entityTypes.map((t) => [t.set, { table: t.tableId!, fields: new Map(t.properties.map((p) => [p.name, p.fieldId!])) }]));
    const seen = new Set([...ids().values()].flatMap((t) => [t.table, ...t.fields.values()]));
    const def = (name: string): FieldDefinition => ({ name, type: "text", repetitions: 1, primary: false, unique: false, required: false, global: false });
    const books = db.model.tables.get("Books")!;
    const genre = ids().get("Books")!.fields.get("Genre")!;
    deleteField(db, books, books.fields.get("Genre")!);
    addField(db, books, def("Genre"));
    const again = ids().get("Books")!.fields.get("Genre")!;
    expect(seen.has(again)).toBe(false);
    expect(again).not.toBe(genre);
    seen.add(again);
    const members = ids().get("Members")!.table;
    deleteTable(db, db.model.tables.get("Members")!);
    createTable(db, state.containers, "Members", [def("Name")]);
    expect(ids().get("Members")!.table).not.toBe(members);
    expect(seen.has(ids().get("Members")!.table)).toBe(false);
    // The rest kept theirs.
    const now = ids().get("Books")!;
    for (const f of ["id", "Title", "Author", "Year", "Shelf"]) expect(seen.has(now.fields.get(f)!), f).toBe(true);
    expect([...now.fields.keys()]).toEqual(["id", "Title", "Author", "Year", "Shelf", "Genre"]);
  });
});

describe("assignSlots: where two names' sequences meet", () => {
  // Eight slots for six names: their sequences meet often, which real ranges make rare.
  const RANGE = 8;
  const NAMES = ["Genre", "Pages", "Title", "Year", "id", "Ünïcode"];
  const sequenceOf = (name: string) => slotSequence("test", name, RANGE);
  const permutations = (items: readonly string[]): string[][] => (items.length <= 1 ? [[...items]] : items.flatMap((x, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [x, ...rest])));
  const sorted = (m: Map<string, number>) => [...m].sort(([a], [b]) => (a < b ? -1 : 1));

  it("gives the same slots whatever order the names come in, each name one slot of its own sequence", () => {
    const first = assignSlots(NAMES, sequenceOf, () => false, RANGE);
    expect(new Set(first.values()).size).toBe(NAMES.length);
    for (const order of permutations(NAMES)) expect(sorted(assignSlots(order, sequenceOf, () => false, RANGE))).toEqual(sorted(first));
    // No name and slot would both rather have each other: a slot earlier in a name's sequence than its own is held
    // by a name that reached it no later (and, at the same step, sorts first).
    const stepOf = (name: string, slot: number) => Array.from({ length: RANGE }, (_, k) => sequenceOf(name)(k)).indexOf(slot);
    const holderOf = new Map([...first].map(([n, s]) => [s, n]));
    for (const [name, slot] of first) {
      for (let k = 0; k < stepOf(name, slot); k++) {
        const holder = holderOf.get(sequenceOf(name)(k))!;
        const theirs = stepOf(holder, sequenceOf(name)(k));
        expect(theirs < k || (theirs === k && holder < name), `${name} at ${k}`).toBe(true);
      }
    }
  });

  it("skips unavailable slots, and refuses more names than slots", () => {
    const slots = assignSlots(NAMES, sequenceOf, (s) => s === 0 || s === 1, RANGE);
    expect([...slots.values()].filter((s) => s < 2)).toEqual([]);
    expect(new Set(slots.values()).size).toBe(NAMES.length);
    expect(() => assignSlots([...NAMES, "a", "b", "c"], sequenceOf, () => false, RANGE)).toThrow("more names than the 8 numbers they are drawn from");
  });
});
