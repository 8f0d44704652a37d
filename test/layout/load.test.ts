import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultTypeName, layoutDescriptionSchema, LayoutFileError, loadLayoutFile, loadLayouts, parseLayoutDescription, TYPESCRIPT_IDENTIFIER } from "../../src/layout/index.js";
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

  it("takes as name exactly what TYPESCRIPT_IDENTIFIER (fmgen pull --name's check) takes", () => {
    for (const name of ["Contact", "_2024Invoices", "$x", "a_b$9", "Not An Identifier", "2024", "", "Ünïcode", "a-b", "a.b"]) {
      expect(layoutDescriptionSchema.safeParse({ ...minimal, name }).success, name).toBe(TYPESCRIPT_IDENTIFIER.test(name));
    }
    // Every default name is one, so a description without a name could always have said it.
    for (const layout of ["Contacts Web", "2024 invoices", "日本語", "!!!"]) expect(TYPESCRIPT_IDENTIFIER.test(defaultTypeName(layout)), layout).toBe(true);
  });

  it("names the file and the JSON path of each problem", () => {
    const bad = { ...minimal, fields: [{ name: "id", type: "number" }, { name: "x", type: "string" }] };
    expect(() => parseLayoutDescription(bad, "bad.layout.json")).toThrowError(/^bad\.layout\.json: fields\[1\]\.type: /);
  });

  it.each([
    ["duplicate field names", { ...minimal, fields: [{ name: "a", type: "text" }, { name: "a", type: "text" }] }, /fields\[1\]\.name: duplicate field name "a"/],
    ["duplicate field names in a portal", { ...minimal, portals: [{ name: "P", table: "T", fields: [{ name: "T::a", type: "text" }, { name: "T::a", type: "number" }] }] }, /portals\[0\]\.fields\[1\]\.name: duplicate field name "T::a"/],
    ["duplicate portal names", { ...minimal, portals: [{ name: "P", table: "T", fields: [] }, { name: "P", table: "U", fields: [] }] }, /portals\[1\]\.name: duplicate portal name "P"/],
    ["unknown keys", { ...minimal, colour: "red" }, /Unrecognized key/],
    ["portal fields without a TO:: prefix", { ...minimal, portals: [{ name: "P", table: "T", fields: [{ name: "Amount", type: "number" }] }] }, /portals\[0\]\.fields\[0\]\.name: portal field "Amount" must be named/],
    ["autoEnter on the wrong type", { ...minimal, fields: [{ name: "u", type: "number", autoEnter: "uuid" }] }, /fields\[0\]\.autoEnter: autoEnter "uuid" needs a field of type text/],
    ["repetitions below 1", { ...minimal, fields: [{ name: "r", type: "text", repetitions: 0 }] }, /fields\[0\]\.repetitions/],
    ["a name that is not an identifier", { ...minimal, name: "Not An Identifier" }, /name: must be a TypeScript identifier/],
    ["a missing database", { layout: "L", table: "T", fields: [] }, /database/],
    // Names a URL path segment or $metadata's XML cannot carry (src/layout/carried-name.ts).
    ["a layout named only with dots", { ...minimal, layout: ".." }, /layout: '\.\.' cannot name a layout: it is only dots/],
    ["a table named with U+FDD0", { ...minimal, table: "T\uFDD0" }, /table: .* cannot name a table: it holds the noncharacter U\+FDD0/],
    ["a database name with a lone surrogate", { ...minimal, database: "c\uDC00d" }, /database: .* cannot name a database: it holds a lone surrogate U\+DC00/],
    ["a portal table named '.'", { ...minimal, portals: [{ name: "P", table: ".", fields: [] }] }, /portals\[0\]\.table: '\.' cannot name a table: it is only dots/],
    // `exact` (decimal text, every digit) is a number field's: other types already travel as text or cannot hold digits.
    ["exact on a text field", { ...minimal, fields: [{ name: "id", type: "number" }, { name: "Code", type: "text", exact: true }] }, /^x\.layout\.json: fields\[1\]\.exact: "exact" applies to number fields only, not text/],
    ["exact on a portal's timestamp field", { ...minimal, portals: [{ name: "P", table: "T", fields: [{ name: "T::When", type: "timestamp", exact: true }] }] }, /portals\[0\]\.fields\[0\]\.exact: "exact" applies to number fields only, not timestamp/],
    ["exact that is not a boolean", { ...minimal, fields: [{ name: "id", type: "number", exact: "yes" }] }, /fields\[0\]\.exact: /],
  ])("rejects %s", (_label, json, pattern) => {
    expect(() => parseLayoutDescription(json, "x.layout.json")).toThrowError(pattern);
  });

  it("takes exact on number fields, of the layout and of its portals", () => {
    const d = parseLayoutDescription(
      { ...minimal, fields: [{ name: "id", type: "number", exact: true }, { name: "n", type: "number", exact: false }], portals: [{ name: "P", table: "T", fields: [{ name: "T::Amount", type: "number", exact: true }] }] },
      "x.layout.json",
    );
    expect(d.fields.map((f) => f.exact)).toEqual([true, false]);
    expect(d.portals[0]!.fields[0]!.exact).toBe(true);
    // false is the default, and says nothing a text field cannot say.
    expect(() => parseLayoutDescription({ ...minimal, fields: [{ name: "t", type: "text", exact: false }] }, "x.layout.json")).not.toThrow();
  });

  it("documents exact in the shipped JSON Schema", () => {
    expect(JSON.stringify(JSON.parse(layoutJsonSchemaText()))).toMatch(/"exact":\{"type":"boolean","description":"[^"]*decimal text/);
  });

  describe("wire keys: a field named like a repetition of another field", () => {
    const text = (name: string) => ({ name, type: "text" });
    const reps = (name: string, repetitions: number) => ({ name, type: "text", repetitions });
    const portal = (name: string, fields: object[]) => ({ name, table: "T", fields });
    const refusal = (json: object) => {
      try {
        parseLayoutDescription(json, "Contact.layout.json");
      } catch (error) {
        expect(error).toBeInstanceOf(LayoutFileError);
        return (error as Error).message;
      }
      throw new Error("the description was accepted");
    };
    const why = (key: string, n: number, base: string) =>
      `servers read "${key}" as repetition ${n} of "${base}", so one key would name both fields (writes and finds on one reach the other); rename one of them in FileMaker, or take one off the layout`;

    it('refuses "Phone(2)" beside "Phone" with 2 repetitions, naming the file and both fields', () => {
      const json = { ...minimal, fields: [text("id"), text("Name"), reps("Phone", 2), text("Email"), text("Phone(2)")] };
      expect(refusal(json)).toBe(`Contact.layout.json: fields[4] "Phone(2)" has the wire key of repetition 2 of fields[2] "Phone": ${why("Phone(2)", 2, "Phone")}`);
    });

    it('refuses "Phone(1)" beside any field "Phone", repeating or not: servers read "Phone(1)" as its first repetition', () => {
      expect(refusal({ ...minimal, fields: [text("Phone(1)"), text("Phone")] })).toBe(
        `Contact.layout.json: fields[0] "Phone(1)" has the wire key of repetition 1 of fields[1] "Phone": ${why("Phone(1)", 1, "Phone")}`,
      );
      expect(refusal({ ...minimal, fields: [reps("Phone", 3), text("Phone(1)")] })).toMatch(/^Contact\.layout\.json: fields\[1\] "Phone\(1\)" has the wire key of repetition 1 of fields\[0\] "Phone"/);
    });

    it("reads the digits as a number, as servers do: \"Phone(02)\" is repetition 2", () => {
      expect(refusal({ ...minimal, fields: [reps("Phone", 2), text("Phone(02)")] })).toMatch(/^Contact\.layout\.json: fields\[1\] "Phone\(02\)" has the wire key of repetition 2 of fields\[0\] "Phone"/);
    });

    it("refuses the clash inside one portal, across portals, and between a portal and the layout (finds name them all alike)", () => {
      const inPortal = { ...minimal, portals: [portal("Lines", [reps("Lines::Qty", 3), text("Lines::Qty(3)")])] };
      expect(refusal(inPortal)).toMatch(/^Contact\.layout\.json: portals\[0\]\.fields\[1\] "Lines::Qty\(3\)" has the wire key of repetition 3 of portals\[0\]\.fields\[0\] "Lines::Qty": /);
      const acrossPortals = { ...minimal, portals: [portal("A", [reps("Lines::Qty", 2)]), portal("B", [text("Lines::Qty(2)")])] };
      expect(refusal(acrossPortals)).toMatch(/^Contact\.layout\.json: portals\[1\]\.fields\[0\] "Lines::Qty\(2\)" has the wire key of repetition 2 of portals\[0\]\.fields\[0\] "Lines::Qty": /);
      const portalOnLayout = { ...minimal, fields: [text("id"), reps("Lines::Qty", 2)], portals: [portal("Lines", [text("Lines::Qty(2)")])] };
      expect(refusal(portalOnLayout)).toMatch(/^Contact\.layout\.json: portals\[0\]\.fields\[0\] "Lines::Qty\(2\)" has the wire key of repetition 2 of fields\[1\] "Lines::Qty": /);
      const layoutOnPortal = { ...minimal, fields: [text("id"), text("Lines::Qty(2)")], portals: [portal("Lines", [reps("Lines::Qty", 2)])] };
      expect(refusal(layoutOnPortal)).toMatch(/^Contact\.layout\.json: fields\[1\] "Lines::Qty\(2\)" has the wire key of repetition 2 of portals\[0\]\.fields\[0\] "Lines::Qty": /);
    });

    it("lists every clash, in one error", () => {
      const json = { ...minimal, fields: [reps("Phone", 3), text("Phone(2)"), text("Phone(3)")] };
      expect(refusal(json)).toBe(
        `Contact.layout.json: fields[1] "Phone(2)" has the wire key of repetition 2 of fields[0] "Phone": ${why("Phone(2)", 2, "Phone")}; ` +
          `fields[2] "Phone(3)" has the wire key of repetition 3 of fields[0] "Phone": ${why("Phone(3)", 3, "Phone")}`,
      );
    });

    it("accepts names that are no repetition's key: beyond the repetitions, repetition zero, no base field, the same field on the layout and in a portal", () => {
      const json = {
        ...minimal,
        fields: [reps("Phone", 2), text("Phone(3)"), text("Phone(0)"), text("Tag(2)"), text("Note()"), text("Lines::Qty")],
        portals: [portal("Lines", [text("Lines::Qty")])],
      };
      expect(parseLayoutDescription(json).fields.map((f) => f.name)).toEqual(["Phone", "Phone(3)", "Phone(0)", "Tag(2)", "Note()", "Lines::Qty"]);
    });
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
