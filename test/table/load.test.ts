import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadLayouts } from "../../src/layout/index.js";
import {
  checkTableDescriptions,
  loadTableFile,
  loadTables,
  parseTableDescription,
  TableFileError,
  tableJsonSchemaText,
  type TableDescriptionInput,
} from "../../src/table/index.js";

// The table description file (`<Name>.table.json`: docs/describing.md, "Table description files (OData)"): one zod
// schema, the shipped JSON Schema generated from it, and the loader (files and folders, checked as one set), each error
// naming the file and the JSON path.

const CONTACTS: TableDescriptionInput = {
  $schema: "../schema/table.schema.json",
  database: "Office",
  table: "Contacts Web",
  key: "id",
  id: "FMTID:1065107",
  description: "People we write to",
  fields: [
    { name: "id", type: "text", notNull: true, autoEnter: "uuid", readOnly: true, id: "FMFID:4296032403" },
    { name: "Name", type: "text", maxLength: 100, description: "Full name" },
    { name: "Tags", type: "text", repetitions: 3 },
    { name: "gUser", type: "text", global: true },
  ],
  relations: [{ name: "Invoices", table: "Invoices", many: true }],
};

const INVOICES: TableDescriptionInput = { database: "Office", table: "Invoices", fields: [{ name: "ContactId", type: "text" }] };

describe("table descriptions", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "fmgen-table-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("applies defaults: the TypeScript name from the table (PascalCase, bounded), relations kept only when given", () => {
    const d = parseTableDescription(CONTACTS, "c.table.json");
    expect(d).toMatchObject({ name: "ContactsWeb", key: "id", id: "FMTID:1065107", source: "c.table.json", relations: [{ name: "Invoices", table: "Invoices", many: true }] });
    expect(d).not.toHaveProperty("$schema");
    expect(parseTableDescription(INVOICES)).not.toHaveProperty("relations");
    expect(parseTableDescription({ ...INVOICES, name: "Bill" }).name).toBe("Bill");
    expect(parseTableDescription({ ...INVOICES, table: "x".repeat(300) }).name.length).toBeLessThanOrEqual(100);
  });

  it("takes exact on a number field, and documents it in the shipped JSON Schema", () => {
    const d = parseTableDescription({ ...INVOICES, fields: [{ name: "Key", type: "number", exact: true }, { name: "Note", type: "text" }] }, "t.table.json");
    expect(d.fields[0]!.exact).toBe(true);
    expect(tableJsonSchemaText()).toMatch(/"exact": \{\s*"type": "boolean",\s*"description": "[^"]*decimal text/);
  });

  it.each([
    ["wrong type", { ...INVOICES, fields: [{ name: "a", type: "string" }] }, /fields\[0\]\.type: /],
    ["missing fields", { database: "Office", table: "T" }, /fields: /],
    ["no field", { ...INVOICES, fields: [] }, /fields: /],
    ["an unknown key", { ...INVOICES, layout: "L" }, /layout/],
    ["an unknown field key", { ...INVOICES, fields: [{ name: "a", type: "text", required: true }] }, /fields\[0\]: .*required/],
    ["an unknown relation key", { ...INVOICES, relations: [{ name: "A", table: "A", many: true, on: "x" }] }, /relations\[0\]: .*on/],
    ["a relation without many", { ...INVOICES, relations: [{ name: "A", table: "A" }] }, /relations\[0\]\.many: /],
    ["a duplicate field name", { ...INVOICES, fields: [{ name: "a", type: "text" }, { name: "a", type: "number" }] }, /fields\[1\]\.name: duplicate field name "a"/],
    ["a key naming no field", { ...INVOICES, key: "nope" }, /key: names no field of the table: "nope"/],
    ["a repeating key", { ...INVOICES, key: "R", fields: [{ name: "R", type: "text", repetitions: 2 }] }, /key: "R" cannot be the key/],
    ["a duplicate field id", { ...INVOICES, fields: [{ name: "a", type: "text", id: "FMFID:4294967297" }, { name: "b", type: "text", id: "FMFID:4294967297" }] }, /fields\[1\]\.id: duplicate field id/],
    ["a malformed field id", { ...INVOICES, fields: [{ name: "a", type: "text", id: "4294967297" }] }, /fields\[0\]\.id: must be a field id/],
    ["a malformed table id", { ...INVOICES, id: "FMTID:0" }, /^t\.table\.json: id: must be a table id/],
    ["a table id past 32 bits", { ...INVOICES, id: "FMTID:4294967296" }, /id: must be at most FMTID:4294967295/],
    ["a related field name", { ...INVOICES, fields: [{ name: "Other::a", type: "text" }] }, /fields\[0\]\.name: a table's own field/],
    ["maxLength on a number", { ...INVOICES, fields: [{ name: "a", type: "number", maxLength: 3 }] }, /fields\[0\]\.maxLength: maxLength applies to text/],
    ["exact on a text field", { ...INVOICES, fields: [{ name: "a", type: "text", exact: true }] }, /^t\.table\.json: fields\[0\]\.exact: "exact" applies to number fields only, not text/],
    ["an auto-enter that does not fit", { ...INVOICES, fields: [{ name: "a", type: "number", autoEnter: "uuid" }] }, /fields\[0\]\.autoEnter: /],
    ["a duplicate relation", { ...INVOICES, relations: [{ name: "A", table: "A", many: true }, { name: "A", table: "B", many: true }] }, /relations\[1\]\.name: duplicate relation name/],
    ["a relation named like a field", { ...INVOICES, relations: [{ name: "ContactId", table: "A", many: true }] }, /relations\[0\]\.name: "ContactId" is also a field's name/],
    ["a bad TypeScript name", { ...INVOICES, name: "1x" }, /name: must be a TypeScript identifier/],
    // Names a URL path segment or $metadata's XML cannot carry (src/layout/carried-name.ts).
    ["a table named only with dots", { ...INVOICES, table: ".." }, /table: '\.\.' cannot name a table: it is only dots/],
    ["a field name with a noncharacter", { ...INVOICES, fields: [{ name: "a\uFFFFb", type: "text" }] }, /fields\[0\]\.name: .* cannot name a field: it holds the noncharacter U\+FFFF/],
    ["a field name with a lone surrogate", { ...INVOICES, fields: [{ name: "c\uD800d", type: "text" }] }, /fields\[0\]\.name: .* cannot name a field: it holds a lone surrogate U\+D800/],
    ["a relation name with a control character", { ...INVOICES, relations: [{ name: "A\u0001", table: "A", many: true }] }, /relations\[0\]\.name: .* cannot name a relation: it holds a control character U\+0001/],
    ["a relation to a table named with a plane-end noncharacter", { ...INVOICES, relations: [{ name: "A", table: "x\u{1FFFE}", many: true }] }, /relations\[0\]\.table: .* cannot name a table: it holds the noncharacter U\+1FFFE/],
    ["a database named '.'", { ...INVOICES, database: "." }, /database: '\.' cannot name a database: it is only dots/],
  ])("refuses %s, naming the file and the path", (_, json, message) => {
    expect(() => parseTableDescription(json, "t.table.json")).toThrowError(TableFileError);
    expect(() => parseTableDescription(json, "t.table.json")).toThrowError(message);
  });

  it("names bad JSON with its line, and a missing path", async () => {
    const file = join(dir, "broken.table.json");
    await writeFile(file, '{\n  "database": "Office",\n  nope\n}');
    await expect(loadTableFile(file)).rejects.toThrowError(/broken\.table\.json: invalid JSON at line 3/);
    await expect(loadTables([join(dir, "nope")])).rejects.toThrowError(/nope: no such file or folder/);
  });

  it("loads a folder's *.table.json files in name order and ignores other files", async () => {
    const folder = join(dir, "tables");
    await mkdir(folder);
    await writeFile(join(folder, "B.table.json"), JSON.stringify(INVOICES));
    await writeFile(join(folder, "A.table.json"), JSON.stringify(CONTACTS));
    await writeFile(join(folder, "A.layout.json"), "{}");
    const loaded = await loadTables([folder]);
    expect(loaded.map((d) => [d.table, d.source])).toEqual([
      ["Contacts Web", join(folder, "A.table.json")],
      ["Invoices", join(folder, "B.table.json")],
    ]);
    const empty = join(dir, "empty");
    await mkdir(empty);
    await expect(loadTables([empty])).rejects.toThrowError(/holds no \*\.table\.json file/);
  });

  it("shares a folder with layout and database descriptions: a glob gives each loader its own files", async () => {
    const folder = join(dir, "mixed");
    await mkdir(folder);
    await writeFile(join(folder, "Invoices.table.json"), JSON.stringify(INVOICES));
    await writeFile(join(folder, "Invoices.layout.json"), JSON.stringify({ database: "Office", layout: "Invoices", table: "Invoices", fields: [{ name: "ContactId", type: "text" }] }));
    await writeFile(join(folder, "Office.database.json"), JSON.stringify({ database: "Office" }));
    expect((await loadTables([join(folder, "*.json")])).map((t) => t.table)).toEqual(["Invoices"]);
    expect((await loadLayouts([join(folder, "*.json")])).map((l) => l.layout)).toEqual(["Invoices"]);
  });

  it("checks the set: each table once, ids once per database, relations to known tables", () => {
    const a = parseTableDescription(CONTACTS, "a.table.json");
    const b = parseTableDescription(INVOICES, "b.table.json");
    expect(() => checkTableDescriptions([a, b])).not.toThrow();
    expect(() => checkTableDescriptions([a])).toThrowError(/^a\.table\.json: relations\[0\]\.table: names no table of database "Office": "Invoices"/);
    expect(() => checkTableDescriptions([a], { otherTables: () => new Set(["Invoices"]) })).not.toThrow();
    expect(() => checkTableDescriptions([a, b, parseTableDescription(INVOICES, "c.table.json")])).toThrowError(/^c\.table\.json: table: table "Invoices" of database "Office" is also described by b\.table\.json/);
    const sameTableId = parseTableDescription({ ...INVOICES, id: "FMTID:1065107" }, "d.table.json");
    expect(() => checkTableDescriptions([a, sameTableId])).toThrowError(/^d\.table\.json: id: id "FMTID:1065107" is also used by a\.table\.json at id/);
    const sameFieldId = parseTableDescription({ ...INVOICES, fields: [{ name: "x", type: "text", id: "FMFID:4296032403" }] }, "e.table.json");
    expect(() => checkTableDescriptions([a, sameFieldId])).toThrowError(/^e\.table\.json: fields\[0\]\.id: id "FMFID:4296032403" is also used by a\.table\.json at fields\[0\]\.id/);
    // Another database may reuse both the table's name and its ids.
    expect(() => checkTableDescriptions([a, b, { ...parseTableDescription(CONTACTS), database: "Other", relations: [] }])).not.toThrow();
  });

  it("ships a JSON Schema that matches the zod schema (run `npm run schema` when this fails), exported by the package", async () => {
    const shipped = await readFile(new URL("../../schema/table.schema.json", import.meta.url), "utf8");
    expect(shipped).toBe(tableJsonSchemaText());
    const pkg = JSON.parse(await readFile(new URL("../../package.json", import.meta.url), "utf8"));
    expect(pkg.exports["./schema/table.schema.json"]).toBe("./schema/table.schema.json");
  });
});
