import { describe, expect, it } from "vitest";
import type { LayoutDescriptionInput } from "../../src/layout/index.js";
import { diffDescriptions, diffTables, inferLayout, mergeLayout, mergeTable, tablesFromCsdl, type LiveField, type LiveLayout } from "../../src/pull/index.js";
import type { TableDescriptionInput } from "../../src/table/index.js";
import { NumberToken } from "../../src/runtime/core/json-numbers.js";

// `"exact": true` on a number field (docs/describing.md, "Exact numbers"): the file owns it, so both pulls keep it; pull
// proposes it with a note naming the file, the field and the line to add (never sets it) when the evidence says a
// JavaScript number loses digits; a retype away from number drops it, with a note.

const PATH = "layouts/Things.layout.json";

function live(fields: LiveField[], extra: Partial<LiveLayout> = {}): LiveLayout {
  return { database: "Db", layout: "Things", source: "metadata", table: "Things", fields, portals: [], notes: [], ...extra };
}

function meta(name: string, type: LiveField["type"]): LiveField {
  return { name, type, repetitions: 1, calculated: false, required: false, global: false, autoEnter: false, valueList: null };
}

function file(fields: LayoutDescriptionInput["fields"], extra: Partial<LayoutDescriptionInput> = {}): LayoutDescriptionInput {
  return { database: "Db", layout: "Things", table: "Things", fields, ...extra };
}

const record = (recordId: number, fieldData: Record<string, unknown>, portalData: Record<string, Record<string, unknown>[]> = {}) => ({ recordId: String(recordId), modId: "0", fieldData, portalData });

describe("the layout pull keeps a hand-set exact", () => {
  it("from metadata, on the layout's fields and a portal's, with no change to report", () => {
    const server = live([meta("id", "number"), meta("Name", "text")], { portals: [{ name: "Lines", fields: [meta("Lines::Amount", "number")] }] });
    const mine = file([{ name: "id", type: "number", exact: true, readOnly: true }, { name: "Name", type: "text" }], {
      portals: [{ name: "Lines", table: "Lines", fields: [{ name: "Lines::Amount", type: "number", exact: true }] }],
    });
    const { description, notes } = mergeLayout({ live: server, file: mine, base: server, path: PATH });
    expect(description.fields[0]).toEqual({ name: "id", type: "number", readOnly: true, exact: true });
    expect(description.portals![0]!.fields[0]).toEqual({ name: "Lines::Amount", type: "number", exact: true });
    expect(notes.filter((n) => n.includes("exact"))).toEqual([]);
    expect(diffDescriptions(mine, description).filter((c) => c.attribute === "exact")).toEqual([]);
  });

  it("keeps an explicit false as written", () => {
    const { description } = mergeLayout({ live: live([meta("n", "number")]), file: file([{ name: "n", type: "number", exact: false }]), path: PATH });
    expect(description.fields[0]).toEqual({ name: "n", type: "number", exact: false });
  });

  it("drops it, with a note, when the server retypes the field away from number (the retype is the drift line)", () => {
    const mine = file([{ name: "id", type: "number", exact: true }]);
    const { description, notes } = mergeLayout({ live: live([meta("id", "text")]), file: mine, base: live([meta("id", "number")]), path: PATH });
    expect(description.fields[0]).toEqual({ name: "id", type: "text" });
    expect(notes).toContain(`field "id" is now text, so "exact": true is dropped (it applies to number fields only)`);
    expect(diffDescriptions(mine, description).map((c) => [c.kind, c.name, c.breaking])).toEqual([["retyped", "id", true]]);
  });

  it("from sampling, when the sampled values fit the file's number type", () => {
    const sampled = inferLayout("Db", "Things", [record(1, { id: 12345678901234567890123456789 }), record(2, { id: 5 })]);
    const { description, notes } = mergeLayout({ live: sampled, file: file([{ name: "id", type: "number", exact: true }]), path: PATH });
    expect(description.fields[0]).toEqual({ name: "id", type: "number", exact: true });
    expect(notes.filter((n) => n.includes("exact"))).toEqual([]);
  });
});

describe("the Data API pull proposes exact when sampled values have more digits than a double keeps", () => {
  it("says a parsed number may have lost digits: beyond 15 significant digits, or an integer beyond 2^53", () => {
    const sampled = inferLayout("Db", "Things", [
      // A 58-digit Get ( UUIDNumber ) key arrives parsed: JSON.parse has already rounded it.
      record(1, { id: 1.2345678901234568e57, Qty: 1e20, Price: 12.5, Small: 123456789012345 }, { Lines: [{ recordId: "1", modId: "0", "Lines::Amount": 1234567890.1234567 }] }),
    ]);
    const { description, notes } = mergeLayout({ live: sampled, path: PATH });
    expect(description.fields.every((f) => f.exact === undefined)).toBe(true);
    expect(description.portals![0]!.fields[0]!.exact).toBeUndefined();
    const proposals = notes.filter((n) => n.includes('"exact": true'));
    expect(proposals).toEqual([
      `field "id": a sampled value, read as 1.2345678901234568e+57, may have had more digits than the 15 a JavaScript number keeps (it reads with 17 significant digits): if the field holds such values, add "exact": true to fields[0] in ${PATH}`,
      `field "Qty": a sampled value, read as 100000000000000000000, may have had more digits than the 15 a JavaScript number keeps (it is an integer beyond 2^53): if the field holds such values, add "exact": true to fields[1] in ${PATH}`,
      `portal "Lines" field "Lines::Amount": a sampled value, read as 1234567890.1234567, may have had more digits than the 15 a JavaScript number keeps (it reads with 17 significant digits): if the field holds such values, add "exact": true to portals[0].fields[0] in ${PATH}`,
    ]);
  });

  it("says a long JSON number has the digits: the runtime reads it as its token's text, the field a number", () => {
    const key = "1234567890123456789012345678901234567890123456789012345678";
    const sampled = inferLayout("Db", "Things", [record(1, { id: new NumberToken(key), Note: new NumberToken(key) }), record(2, { id: 7, Note: "x" })]);
    expect(sampled.fields.find((f) => f.name === "id")?.type).toBe("number");
    const { description, notes } = mergeLayout({ live: sampled, file: file([{ name: "id", type: "number" }, { name: "Note", type: "text" }]), path: PATH });
    expect(description.fields).toEqual([{ name: "id", type: "number" }, { name: "Note", type: "text" }]);
    expect(notes.filter((n) => n.includes('"exact"'))).toEqual([`field "id": a sampled value has 58 significant digits ("${key}"), more than the 15 a JavaScript number keeps: add "exact": true to fields[0] in ${PATH}`]);
  });

  it("reads a number token the runtime kept (the wire's digits, as text) as a number with its digits, new field or typed", () => {
    const token = new NumberToken("1234567890123456789012345678901234567890123456789012345678");
    const sampled = inferLayout("Db", "Things", [record(1, { id: token }), record(2, { id: 7 })]);
    expect(sampled.fields[0]).toMatchObject({ name: "id", type: "number" });
    for (const mine of [undefined, file([{ name: "id", type: "number" }])]) {
      const { description, notes } = mergeLayout({ live: sampled, ...(mine ? { file: mine } : {}), path: PATH });
      expect(description.fields[0]).toEqual({ name: "id", type: "number" });
      expect(notes.some((n) => n.includes(`"1234567890123456789012345678901234567890123456789012345678"`) && n.includes('add "exact": true'))).toBe(true);
    }
  });

  it("says a numeric string (an old server's number field) has the digits, read from its text", () => {
    const sampled = inferLayout("Db", "Things", [record(1, { id: "12345678901234567890.50" }), record(2, { id: "7" })]);
    const { description, notes } = mergeLayout({ live: sampled, file: file([{ name: "id", type: "number" }]), path: PATH });
    expect(description.fields[0]).toEqual({ name: "id", type: "number" });
    expect(notes).toContain(`field "id": a sampled value has 21 significant digits ("12345678901234567890.50"), more than the 15 a JavaScript number keeps: add "exact": true to fields[0] in ${PATH}`);
  });

  it("proposes nothing within 15 digits, on a field the file types as text, or once the file says exact either way", () => {
    const values = inferLayout("Db", "Things", [record(1, { a: 123456789012345, b: 0.1, c: -1e-7, t: "12345678901234567890" })]);
    expect(mergeLayout({ live: values, path: PATH }).notes.filter((n) => n.includes("exact"))).toEqual([]);
    const long = inferLayout("Db", "Things", [record(1, { id: 1.2345678901234568e57 })]);
    for (const exact of [true, false]) {
      expect(mergeLayout({ live: long, file: file([{ name: "id", type: "number", exact }]), path: PATH }).notes.filter((n) => n.includes("exact"))).toEqual([]);
    }
  });
});

describe("the OData pull", () => {
  const doc = (properties: string) =>
    `<edmx:Edmx xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx"><edmx:DataServices><Schema Namespace="N" Alias="A" xmlns="http://docs.oasis-open.org/odata/ns/edm"><EntityType Name="T_"><Key><PropertyRef Name="k"/></Key>${properties}</EntityType><EntityContainer Name="D"><EntitySet Name="T" EntityType="A.T_"/></EntityContainer></Schema></edmx:DataServices></edmx:Edmx>`;
  const [server] = tablesFromCsdl(
    doc(`<Property Name="k" Type="Edm.Decimal" Precision="58" Nullable="false"/><Property Name="Price" Type="Edm.Decimal" Precision="15"/><Property Name="Ratio" Type="Edm.Double"/><Property Name="Note" Type="Edm.String"/>`),
  );

  it("reads an Edm.Decimal's Precision, and proposes exact above 15 (never sets it), naming the file, field and line", () => {
    expect(server!.fields.map((f) => f.precision)).toEqual([58, 15, undefined, undefined]);
    const { description, notes } = mergeTable({ live: server!, database: "D", shownAs: "tables/T.table.json" });
    expect(description.fields.every((f) => f.exact === undefined)).toBe(true);
    expect(notes.filter((n) => n.includes("exact"))).toEqual([
      `field "k": $metadata gives it Precision 58, more than the 15 significant digits a JavaScript number keeps: add "exact": true to fields[0] in tables/T.table.json`,
    ]);
  });

  it("keeps a hand-set exact (true or false) and then proposes nothing; a retype away from number drops it, with a note", () => {
    const mine: TableDescriptionInput = { database: "D", table: "T", key: "k", fields: [{ name: "k", type: "number", exact: true, notNull: true }, { name: "Price", type: "number", exact: false }, { name: "Ratio", type: "number" }, { name: "Note", type: "text" }] };
    const kept = mergeTable({ live: server!, database: "D", file: mine });
    expect(kept.description.fields.map((f) => f.exact)).toEqual([true, false, undefined, undefined]);
    expect(kept.notes.filter((n) => n.includes("exact"))).toEqual([]);
    expect(diffTables(mine, kept.description)).toEqual([]);

    const [retyped] = tablesFromCsdl(doc(`<Property Name="k" Type="Edm.String" Nullable="false"/><Property Name="Price" Type="Edm.Decimal"/><Property Name="Ratio" Type="Edm.Double"/><Property Name="Note" Type="Edm.String"/>`));
    const dropped = mergeTable({ live: retyped!, database: "D", file: mine });
    expect(dropped.description.fields[0]).toEqual({ name: "k", type: "text", notNull: true });
    expect(dropped.notes).toContain(`field "k" is now text, so "exact": true is dropped (it applies to number fields only)`);
    expect(diffTables(mine, dropped.description).map((c) => [c.kind, c.name])).toEqual([["retyped", "k"]]);
  });
});
