import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { LayoutDescriptionInput } from "../../src/layout/index.js";
import { formatJson } from "../../src/project/index.js";
import { changeLine, diffDescriptions, mergeByName, mergeLayout, type LiveField, type LiveLayout } from "../../src/pull/index.js";
import { EXAMPLES } from "./helpers.js";

function live(fields: LiveField[], extra: Partial<LiveLayout> = {}): LiveLayout {
  return { database: "Db", layout: "Things", source: "metadata", table: "Things", fields, portals: [], notes: [], ...extra };
}

/** A field as the metadata endpoint tells it: everything told, nothing set. */
function meta(name: string, type: LiveField["type"], extra: Partial<LiveField> = {}): LiveField {
  return { name, type, repetitions: 1, calculated: false, required: false, global: false, autoEnter: false, valueList: null, ...extra };
}

function sampled(name: string, type: LiveField["type"], confidence: "high" | "medium" | "low", samples: unknown[]): LiveField {
  return { name, type, repetitions: 1, confidence, samples, ...(confidence !== "high" ? { reason: "because" } : {}) };
}

function file(fields: LayoutDescriptionInput["fields"], extra: Partial<LayoutDescriptionInput> = {}): LayoutDescriptionInput {
  return { database: "Db", layout: "Things", table: "Things", fields, ...extra };
}

describe("mergeLayout from metadata", () => {
  it("takes what the server tells and keeps what only a person can say", () => {
    const { description, notes } = mergeLayout({
      live: live(
        [
          meta("id", "number", { autoEnter: true }),
          meta("Name", "text", { required: true }),
          meta("Status", "text", { valueList: ["A", "B"] }),
          meta("Total", "number", { calculated: true }),
          meta("Phone", "text", { repetitions: 2 }),
        ],
        { portals: [{ name: "Lines", fields: [meta("Lines::Qty", "number")] }] },
      ),
      file: file(
        [
          { name: "id", type: "number", readOnly: true, autoEnter: "serial" },
          { name: "Name", type: "text", unique: true, description: "Shown on the badge." },
          { name: "Old", type: "text" },
          { name: "Phone", type: "text" },
        ],
        {
          $schema: "../schema.json",
          name: "Thing",
          description: "Things.",
          folder: "Web/Things",
          portals: [{ name: "Lines", table: "LineItems", relation: { parentField: "id", childField: "ThingID" }, fields: [] }],
        },
      ),
    });
    expect(description).toEqual({
      $schema: "../schema.json",
      database: "Db",
      layout: "Things",
      table: "Things",
      name: "Thing",
      description: "Things.",
      folder: "Web/Things",
      fields: [
        { name: "id", type: "number", readOnly: true, autoEnter: "serial" },
        { name: "Name", type: "text", required: true, unique: true, description: "Shown on the badge." },
        { name: "Status", type: "text", valueList: ["A", "B"] },
        { name: "Total", type: "number", readOnly: true },
        { name: "Phone", type: "text", repetitions: 2 },
      ],
      portals: [{ name: "Lines", table: "LineItems", relation: { parentField: "id", childField: "ThingID" }, fields: [{ name: "Lines::Qty", type: "number" }] }],
    });
    expect(notes).toEqual([]);
  });

  it("keeps a hand-set type, required and value list while the server says what it said at the last pull", () => {
    const server = [meta("Code", "text"), meta("Size", "text", { valueList: ["S", "M"] })];
    const { description, notes } = mergeLayout({
      live: live(server),
      base: live(server),
      file: file([
        { name: "Code", type: "number", required: true },
        { name: "Size", type: "text" },
      ]),
    });
    expect(description.fields).toEqual([
      { name: "Code", type: "number", required: true },
      { name: "Size", type: "text" },
    ]);
    expect(notes.join("\n")).toMatch(/field "Code": your type number is kept \(the server says text/);
  });

  it("takes the server's value when the server changed it since the last pull, hand edit or not", () => {
    const { description } = mergeLayout({
      live: live([meta("Code", "date"), meta("Size", "text", { valueList: ["S", "M", "L"] })]),
      base: live([meta("Code", "text"), meta("Size", "text", { valueList: ["S", "M"] })]),
      file: file([
        { name: "Code", type: "number" },
        { name: "Size", type: "text" },
      ]),
    });
    expect(description.fields).toEqual([
      { name: "Code", type: "date" },
      { name: "Size", type: "text", valueList: ["S", "M", "L"] },
    ]);
  });

  it("without a last pull, the server wins for everything it tells", () => {
    const { description } = mergeLayout({ live: live([meta("Code", "text")]), file: file([{ name: "Code", type: "number", required: true }]) });
    expect(description.fields).toEqual([{ name: "Code", type: "text" }]);
  });

  it("drops what no longer fits: an auto-enter kind the server no longer has or the type refuses, unique on a global, readOnly of a former calculation", () => {
    const { description, notes } = mergeLayout({
      live: live([meta("a", "number"), meta("b", "date", { autoEnter: true }), meta("g", "text", { global: true }), meta("c", "number")]),
      base: live([meta("a", "number", { autoEnter: true }), meta("b", "number", { autoEnter: true }), meta("g", "text"), meta("c", "number", { calculated: true })]),
      file: file([
        { name: "a", type: "number", autoEnter: "serial" },
        { name: "b", type: "number", autoEnter: "serial" },
        { name: "g", type: "text", unique: true },
        { name: "c", type: "number", readOnly: true },
      ]),
    });
    expect(description.fields).toEqual([
      { name: "a", type: "number" },
      { name: "b", type: "date" },
      { name: "g", type: "text", global: true },
      { name: "c", type: "number" },
    ]);
    expect(notes.join("\n")).toMatch(/"a": the server no longer auto-enters/);
    expect(notes.join("\n")).toMatch(/"b": "autoEnter": "serial" does not fit a date field/);
    expect(notes.join("\n")).toMatch(/"g" is global/);
    expect(notes.join("\n")).toMatch(/"c" is no longer a calculation/);
  });

  it("keeps a hand-written validate on layout and portal fields (the metadata cannot tell it), spelled-out default included, whatever else changes; writes none on new fields", () => {
    const { description } = mergeLayout({
      live: live([meta("Email", "text", { required: true }), meta("Code", "number"), meta("New", "text", { required: true })], {
        portals: [{ name: "Guests", fields: [meta("Guests::Ticket", "text"), meta("Guests::Name", "text")] }],
      }),
      base: live([meta("Email", "text"), meta("Code", "text")], { portals: [{ name: "Guests", fields: [meta("Guests::Ticket", "text")] }] }),
      file: file(
        [
          { name: "Email", type: "text", unique: true, validate: "always" },
          { name: "Code", type: "text", required: true, validate: "dataEntry" },
        ],
        { portals: [{ name: "Guests", table: "Guests", fields: [{ name: "Guests::Ticket", type: "text", unique: true, validate: "always" }] }] },
      ),
    });
    expect(description.fields).toEqual([
      { name: "Email", type: "text", required: true, unique: true, validate: "always" },
      { name: "Code", type: "number", required: true, validate: "dataEntry" },
      { name: "New", type: "text", required: true },
    ]);
    expect(description.portals![0]!.fields).toEqual([
      { name: "Guests::Ticket", type: "text", unique: true, validate: "always" },
      { name: "Guests::Name", type: "text" },
    ]);
    // Nothing to report for it: the server says nothing about it.
    const before = file([{ name: "Email", type: "text", unique: true, validate: "always" }]);
    expect(diffDescriptions(before, mergeLayout({ live: live([meta("Email", "text")]), file: before }).description)).toEqual([]);
  });

  it("keeps defaults the file spells out, and writes none it does not", () => {
    const { description } = mergeLayout({ live: live([meta("a", "text")]), file: file([{ name: "a", type: "text", required: false, repetitions: 1 }]) });
    expect(description.fields).toEqual([{ name: "a", type: "text", required: false, repetitions: 1 }]);
  });

  it("names what a new file needs by hand: auto-enter kinds, portal tables and relations, the table", () => {
    const { table: _table, ...noTable } = live([meta("id", "number", { autoEnter: true })], { layout: "Things Web", portals: [{ name: "P", fields: [meta("Items::x", "text")] }] });
    const { description, notes } = mergeLayout({ live: noTable, schemaRef: "../node_modules/fmgen/schema/layout.schema.json" });
    expect(description).toMatchObject({ $schema: "../node_modules/fmgen/schema/layout.schema.json", table: "Things Web", portals: [{ name: "P", table: "Items", fields: [{ name: "Items::x", type: "text" }] }] });
    const text = notes.join("\n");
    expect(text).toMatch(/the server does not say the layout's table; "table" is set to the layout name/);
    expect(text).toMatch(/field "id": the server auto-enters a value; set "autoEnter"/);
    expect(text).toMatch(/portal "P": its table is not in the metadata; "table" is set to "Items"/);
    expect(text).toMatch(/portal "P": add "relation" by hand/);
  });
});

describe("mergeLayout from sampled records", () => {
  const sample = (fields: LiveField[]): LiveLayout => ({ ...live(fields), source: "sample", sampled: 4 });

  it("keeps the file's type while every value fits it, and reports uncertain fields", () => {
    const { description, uncertain } = mergeLayout({
      live: sample([sampled("Photo", "text", "low", []), sampled("Code", "text", "medium", ["0123"]), sampled("Wake", "time", "medium", ["07:00:00"])]),
      file: file([
        { name: "Photo", type: "container", description: "kept" },
        { name: "Code", type: "text", required: true },
        { name: "Wake", type: "time" },
      ]),
    });
    expect(description.fields).toEqual([
      { name: "Photo", type: "container", description: "kept" },
      { name: "Code", type: "text", required: true },
      { name: "Wake", type: "time" },
    ]);
    expect(uncertain.map((u) => [u.field, u.type, u.inferred, u.confidence])).toEqual([
      ["Photo", "container", "text", "low"],
      ["Code", "text", "text", "medium"],
      ["Wake", "time", "time", "medium"],
    ]);
  });

  it("retypes when the values contradict the file, or when the file still has the last pull's type and the inference is certain", () => {
    const { description } = mergeLayout({
      live: sample([sampled("When", "text", "high", ["soon"]), sampled("Photo", "container", "high", ["http://h/Streaming/x.png"]), sampled("Kept", "container", "high", ["http://h/Streaming/y.png"])]),
      // The last pull wrote When as date and Photo as text (seen only empty); Kept was container, then set to text by hand.
      base: sample([sampled("When", "date", "high", []), sampled("Photo", "text", "low", []), sampled("Kept", "container", "high", [])]),
      file: file([
        { name: "When", type: "date" },
        { name: "Photo", type: "text" },
        { name: "Kept", type: "text" },
      ]),
    });
    expect(description.fields).toEqual([
      { name: "When", type: "text" },
      { name: "Photo", type: "container" },
      { name: "Kept", type: "text" },
    ]);
  });
});

describe("mergeByName", () => {
  it("keeps the file's order and puts a new item after the one it follows on the server", () => {
    const order = (liveNames: string[], fileNames: string[]) => mergeByName(liveNames.map((name) => ({ name })), fileNames.map((name) => ({ name }))).map(([l]) => l.name);
    expect(order(["a", "b", "c"], ["c", "a", "b"])).toEqual(["c", "a", "b"]);
    expect(order(["new", "a", "b", "x", "y", "c"], ["a", "b", "c"])).toEqual(["new", "a", "b", "x", "y", "c"]);
    expect(order(["a", "c"], ["a", "b", "c"])).toEqual(["a", "c"]);
  });
});

describe("diffDescriptions: what changed, and what breaks compiled code", () => {
  it("names added, removed and retyped fields and portals, with breaking marks", () => {
    const before = file(
      [
        { name: "a", type: "text" },
        { name: "b", type: "number" },
        { name: "c", type: "text", valueList: ["x", "y"] },
        { name: "d", type: "text" },
      ],
      { portals: [{ name: "Old", table: "T", fields: [] }] },
    );
    const after = file(
      [
        { name: "a", type: "date" },
        { name: "c", type: "text", valueList: ["x", "y", "z"] },
        { name: "d", type: "text", required: true },
        { name: "e", type: "text" },
        { name: "f", type: "number", required: true },
      ],
      { portals: [{ name: "New", table: "T", fields: [{ name: "T::x", type: "text" }] }] },
    );
    const lines = diffDescriptions(before, after).map(changeLine);
    expect(lines).toEqual([
      '~ field "a": retyped text -> date  [breaking]',
      '~ field "c": valueList "x", "y" -> "x", "y", "z"',
      '~ field "d": required false -> true  [breaking]',
      '+ field "e" (text)',
      '+ field "f" (number)  [breaking]',
      '- field "b" (number)  [breaking]',
      '+ portal "New" (1 field)',
      '- portal "Old" (0 fields)  [breaking]',
    ]);
  });

  it("finds nothing between a description and itself", () => {
    const json = JSON.parse(readFileSync(join(EXAMPLES, "contacts/layouts/Contact.layout.json"), "utf8"));
    expect(diffDescriptions(json, json)).toEqual([]);
  });
});

describe("formatJson: one deterministic layout for every file fmgen writes", () => {
  it.each(["contacts/layouts/Contact.layout.json", "contacts/layouts/Invoice.layout.json", "invoices/layouts/Customer.layout.json", "invoices/layouts/Invoice.layout.json", "contacts/fmgen.config.json", "contacts/fmgen.pulled.json"])(
    "prints examples/%s exactly as committed",
    (path) => {
      const text = readFileSync(join(EXAMPLES, path), "utf8");
      expect(formatJson(JSON.parse(text))).toBe(text);
    },
  );

  it("puts scalar-only objects and arrays on one line, nests the rest with two spaces, and ends with a newline", () => {
    expect(formatJson({ a: 1, b: [1, "x"], c: { d: null }, e: [], f: {}, g: [{ h: true }], skip: undefined })).toBe(
      '{\n  "a": 1,\n  "b": [1, "x"],\n  "c": { "d": null },\n  "e": [],\n  "f": {},\n  "g": [\n    { "h": true }\n  ]\n}\n',
    );
  });
});
