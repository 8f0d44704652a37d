import { describe, expect, it } from "vitest";
import { mergeTable, type LiveTable, type LiveTableField } from "../../src/pull/index.js";
import type { TableDescriptionInput, TableFieldDescription } from "../../src/table/index.js";

// The table merge keeps hand edits as the layout merge does (merge.test.ts): a value the server owns that the file
// changed by hand is kept while the server says what it said at the last pull (the base, from fmgen.pulled.json), and
// gives way once the server changes it; without a base the server wins.

function live(fields: LiveTableField[], extra: Partial<LiveTable> = {}, keyed = true): LiveTable {
  return { table: "T", id: "FMTID:1065089", ...(keyed ? { key: "k" } : {}), fields, relations: [], idsStated: true, protectionStated: true, notes: [], ...extra };
}

const IDS: Record<string, number> = { k: 1, Code: 2, Total: 3, Note: 4 };

/** A field as `$metadata` states it: everything told, nothing set. */
function stated(name: string, type: LiveTableField["type"], extra: Partial<LiveTableField> = {}): LiveTableField {
  return { name, type, id: `FMFID:${IDS[name]}`, notNull: false, readOnly: false, global: false, repetitions: 1, autoEnter: [], ...extra };
}

function file(fields: TableFieldDescription[], extra: Partial<TableDescriptionInput> = {}): TableDescriptionInput {
  return { database: "D", table: "T", id: "FMTID:1065089", key: "k", fields, ...extra };
}

const SERVER = [stated("k", "number", { notNull: true }), stated("Code", "text", { maxLength: 10 }), stated("Total", "number", { readOnly: true }), stated("Note", "text")];
const PULLED: TableFieldDescription[] = [
  { name: "k", type: "number", notNull: true, id: "FMFID:1" },
  { name: "Code", type: "text", maxLength: 10, id: "FMFID:2" },
  { name: "Total", type: "number", readOnly: true, id: "FMFID:3" },
  { name: "Note", type: "text", id: "FMFID:4" },
];

describe("mergeTable with the last pull's $metadata (the base)", () => {
  // The hand edits: Code's maxLength raised, Total no longer read-only, Note retyped and not null.
  const edited = file([
    { name: "k", type: "number", notNull: true, id: "FMFID:1" },
    { name: "Code", type: "text", maxLength: 40, id: "FMFID:2" },
    { name: "Total", type: "number", id: "FMFID:3" },
    { name: "Note", type: "number", notNull: true, id: "FMFID:4" },
  ]);

  it("keeps a hand-set maxLength, readOnly, type and notNull while the server says what it said at the last pull", () => {
    const { description, notes } = mergeTable({ live: live(SERVER), base: live(SERVER), database: "D", file: edited });
    expect(description.fields).toEqual(edited.fields);
    expect(notes.join("\n")).toMatch(/field "Note": your type number is kept \(the server says text, as at the last pull\)/);
  });

  it("takes the server's value when the server changed it since the last pull, hand edit or not", () => {
    const changed = [stated("k", "number", { notNull: true }), stated("Code", "text", { maxLength: 20 }), stated("Total", "text", { readOnly: true, repetitions: 2 }), stated("Note", "date")];
    const { description } = mergeTable({ live: live(changed), base: live(SERVER), database: "D", file: edited });
    expect(description.fields).toEqual([
      { name: "k", type: "number", notNull: true, id: "FMFID:1" },
      { name: "Code", type: "text", maxLength: 20, id: "FMFID:2" },
      // readOnly is the hand edit's still (the server says true, as before); the type and repetitions are the server's.
      { name: "Total", type: "text", repetitions: 2, id: "FMFID:3" },
      { name: "Note", type: "date", notNull: true, id: "FMFID:4" },
    ]);
  });

  it("without a last pull, the server wins for everything it states", () => {
    const { description } = mergeTable({ live: live(SERVER), database: "D", file: edited });
    expect(description.fields).toEqual(PULLED);
  });

  it("keeps a hand-set key the server does not state, and follows a field the server renamed (same id)", () => {
    const keyless = live(SERVER, {}, false);
    const renamed = live([...SERVER.slice(0, 3), { ...stated("Note", "text"), name: "Remark" }], {}, false);
    const { description } = mergeTable({ live: renamed, base: keyless, database: "D", file: { ...edited, key: "Code" } });
    expect(description.key).toBe("Code");
    expect(description.fields.at(-1)).toEqual({ name: "Remark", type: "number", notNull: true, id: "FMFID:4" });
  });
});
