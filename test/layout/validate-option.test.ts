import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LayoutFileError, loadLayoutFile, parseLayoutDescription } from "../../src/layout/index.js";
import { layoutJsonSchemaText } from "../../src/layout/json-schema.js";

// A field's `validate` (docs/describing.md, "Layout description files"): "dataEntry" (the default) or "always", on
// layout fields and portal fields.

const layout = (validate: unknown, portalValidate?: unknown) => ({
  database: "Club",
  layout: "Members",
  table: "Members",
  fields: [
    { name: "Name", type: "text", required: true },
    { name: "Email", type: "text", unique: true, validate },
  ],
  portals: [
    {
      name: "Guests",
      table: "Guests",
      fields: [
        { name: "Guests::Name", type: "text" },
        { name: "Guests::Ticket", type: "text", unique: true, ...(portalValidate === undefined ? {} : { validate: portalValidate }) },
      ],
    },
  ],
});

describe("validate on fields", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "fmgen-validate-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('accepts "dataEntry" and "always" on layout and portal fields, and keeps them as written; absent stays absent', () => {
    for (const when of ["dataEntry", "always"]) {
      const parsed = parseLayoutDescription(layout(when, when), "m.layout.json");
      expect(parsed.fields[1]).toEqual({ name: "Email", type: "text", unique: true, validate: when });
      expect(parsed.portals[0]!.fields[1]).toEqual({ name: "Guests::Ticket", type: "text", unique: true, validate: when });
    }
    const { fields, ...rest } = layout(undefined);
    const parsed = parseLayoutDescription({ ...rest, fields: [fields[0]] }, "m.layout.json");
    expect(parsed.fields[0]).not.toHaveProperty("validate");
  });

  it.each([
    ["a value FileMaker does not have", "never"],
    ["another spelling", "Always"],
    ["the other spelling", "data entry"],
    ["a boolean", true],
    ["null", null],
  ])("refuses %s on a layout field, naming the file and the JSON path", (_label, value) => {
    expect(() => parseLayoutDescription(layout(value), "m.layout.json")).toThrowError(LayoutFileError);
    expect(() => parseLayoutDescription(layout(value), "m.layout.json")).toThrowError(/^m\.layout\.json: fields\[1\]\.validate: .*"dataEntry"\|"always"/);
  });

  it("refuses a bad value on a portal field, naming the file and the JSON path", () => {
    expect(() => parseLayoutDescription(layout("always", "sometimes"), "m.layout.json")).toThrowError(/^m\.layout\.json: portals\[0\]\.fields\[1\]\.validate: /);
  });

  it("names the file read from disk", async () => {
    const file = join(dir, "Members.layout.json");
    await writeFile(file, JSON.stringify(layout("daily")));
    await expect(loadLayoutFile(file)).rejects.toThrowError(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}: fields\\[1\\]\\.validate: `));
  });

  it("is in the shipped JSON Schema, for layout fields and portal fields", () => {
    const schema = JSON.parse(layoutJsonSchemaText()) as Record<string, any>;
    const fieldOf = (node: Record<string, any>) => node.properties.validate as { enum: string[] };
    expect(fieldOf(schema.properties.fields.items).enum).toEqual(["dataEntry", "always"]);
    expect(fieldOf(schema.properties.portals.items.properties.fields.items).enum).toEqual(["dataEntry", "always"]);
  });
});
