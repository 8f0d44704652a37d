import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultTypeName, LayoutFileError, loadLayoutFile, loadLayouts, parseLayoutDescription } from "../../src/layout/index.js";
import { layoutJsonSchemaText } from "../../src/layout/json-schema.js";

const minimal = { database: "Contacts", layout: "Contacts Web", table: "Contacts", fields: [{ name: "id", type: "number" }] };

describe("layout descriptions", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "fmgen-layout-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("applies defaults: name from the layout, no portals, source kept", () => {
    const d = parseLayoutDescription(minimal, "a.layout.json");
    expect(d).toMatchObject({ name: "ContactsWeb", portals: [], source: "a.layout.json" });
  });

  it.each([
    ["Contacts Web", "ContactsWeb"],
    ["contacts_web", "Contacts_web"],
    ["2024 invoices", "_2024Invoices"],
    ["Ünïcode läyout", "UnicodeLayout"],
    ["日本語", "Layout"],
    ["!!!", "Layout"],
  ])("derives the type name of %j as %j", (layout, name) => {
    expect(defaultTypeName(layout)).toBe(name);
  });

  it("names the file and the JSON path of each problem", () => {
    const bad = { ...minimal, fields: [{ name: "id", type: "number" }, { name: "x", type: "string" }] };
    expect(() => parseLayoutDescription(bad, "bad.layout.json")).toThrowError(/^bad\.layout\.json: fields\[1\]\.type: /);
  });

  it.each([
    ["duplicate field names", { ...minimal, fields: [{ name: "a", type: "text" }, { name: "a", type: "text" }] }, /fields\[1\]\.name: duplicate field name "a"/],
    ["unknown keys", { ...minimal, colour: "red" }, /Unrecognized key/],
    ["portal fields without a TO:: prefix", { ...minimal, portals: [{ name: "P", table: "T", fields: [{ name: "Amount", type: "number" }] }] }, /portals\[0\]\.fields\[0\]\.name: portal field "Amount" must be named/],
    ["autoEnter on the wrong type", { ...minimal, fields: [{ name: "u", type: "number", autoEnter: "uuid" }] }, /fields\[0\]\.autoEnter: autoEnter "uuid" needs a field of type text/],
    ["repetitions below 1", { ...minimal, fields: [{ name: "r", type: "text", repetitions: 0 }] }, /fields\[0\]\.repetitions/],
    ["a name that is not an identifier", { ...minimal, name: "Not An Identifier" }, /name: must be a TypeScript identifier/],
    ["a missing database", { layout: "L", table: "T", fields: [] }, /database/],
  ])("rejects %s", (_label, json, pattern) => {
    expect(() => parseLayoutDescription(json, "x.layout.json")).toThrowError(pattern);
  });

  it("accepts any string as a field name", () => {
    const names = ["First Name", "Company::Name", "a.b", 'q"uote', "émoji 🎉", "1st", "class", "__proto__", "constructor"];
    const d = parseLayoutDescription({ ...minimal, fields: names.map((name) => ({ name, type: "text" })) });
    expect(d.fields.map((f) => f.name)).toEqual(names);
  });

  it("reports invalid JSON with its line and column", async () => {
    const file = join(dir, "broken.layout.json");
    await writeFile(file, '{\n  "database": "x",\n  oops\n}');
    const error = await loadLayoutFile(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LayoutFileError);
    expect((error as Error).message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: invalid JSON at line 3, column 3`));
  });

  it("loads a folder's *.layout.json files in name order and ignores other files", async () => {
    const folder = await mkdtemp(join(dir, "many-"));
    await writeFile(join(folder, "b.layout.json"), JSON.stringify({ ...minimal, layout: "B" }));
    await writeFile(join(folder, "a.layout.json"), JSON.stringify({ ...minimal, layout: "A" }));
    await writeFile(join(folder, "notes.json"), "not a layout");
    const loaded = await loadLayouts([folder]);
    expect(loaded.map((d) => d.layout)).toEqual(["A", "B"]);
  });

  it("names a missing path and an empty folder", async () => {
    await expect(loadLayouts([join(dir, "nope")])).rejects.toThrowError(/nope: no such file or folder/);
    const empty = await mkdtemp(join(dir, "empty-"));
    await expect(loadLayouts([empty])).rejects.toThrowError(/holds no \*\.layout\.json file/);
  });

  it("ships a JSON Schema that matches the zod schema (run `npm run schema` when this fails)", async () => {
    const shipped = await readFile(new URL("../../schema/layout.schema.json", import.meta.url), "utf8");
    expect(shipped).toBe(layoutJsonSchemaText());
  });

  it("validates the bundled example descriptions", async () => {
    const loaded = await loadLayouts(["examples/contacts/layouts"]);
    expect(loaded.map((d) => d.name)).toEqual(["Contact", "Invoice"]);
  });
});
