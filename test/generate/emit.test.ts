import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { containerSpecText, emitDefinition, fieldSpecText } from "../../src/generate/emit/definition.js";
import { fieldDocs, readType } from "../../src/generate/emit/field-types.js";
import { emitFields } from "../../src/generate/emit/fields.js";
import { emitIndexFile } from "../../src/generate/emit/index-file.js";
import { emitLayoutModule } from "../../src/generate/emit/layout-module.js";
import { emitSchemasFile } from "../../src/generate/emit/schemas-file.js";
import { generate, joinPrinted, LAYOUT_MODULE_TEMPLATE_FILE, layoutModuleTemplate, parseLayoutModuleTemplate } from "../../src/generate/index.js";
import type { FieldDescription } from "../../src/layout/index.js";
import { layout, layoutPlans, planOf } from "./helpers.js";

const field = (f: Partial<FieldDescription> & Pick<FieldDescription, "type">): FieldDescription => ({ name: "F", ...f });

describe("field types (the value types table)", () => {
  it.each([
    [field({ type: "text" }), "string"],
    [field({ type: "text", valueList: ["Active", "Inactive"] }), '"Active" | "Inactive" | ""'],
    [field({ type: "text", valueList: ["", "x", "x"] }), '"" | "x"'],
    [field({ type: "text", valueList: ['say "hi"'] }), `'say "hi"' | ""`],
    [field({ type: "number" }), "number | null"],
    [field({ type: "date" }), "string | null"],
    [field({ type: "time" }), "string | null"],
    [field({ type: "timestamp" }), "string | null"],
    [field({ type: "container" }), "string | null"],
    [field({ type: "text", repetitions: 3 }), "[string, string, string]"],
    [field({ type: "number", repetitions: 2 }), "[number | null, number | null]"],
    [field({ type: "number", repetitions: 101 }), "(number | null)[]"],
    [field({ type: "number", exact: true }), "string | null"],
    [field({ type: "number", exact: true, repetitions: 2 }), "[string | null, string | null]"],
    [field({ type: "number", exact: false }), "number | null"],
  ])("%j reads as %s", (f, read) => {
    expect(readType(f)).toBe(read);
  });

  it.each([
    [field({ type: "text" }), false, '{ type: "text" }'],
    [field({ type: "number", readOnly: true }), false, '{ type: "number" }'],
    [field({ type: "number", readOnly: true }), true, '{ type: "number", readOnly: true }'],
    [field({ type: "text", repetitions: 3, valueList: ["a", "b"] }), false, '{ type: "text", repetitions: 3, valueList: ["a", "b"] }'],
    [field({ type: "container", repetitions: 1, required: true, unique: true, global: true, description: "x" }), true, '{ type: "container" }'],
    [field({ type: "number", exact: true, repetitions: 2, readOnly: true }), true, '{ type: "number", exact: true, repetitions: 2, readOnly: true }'],
    [field({ type: "number", exact: false }), false, '{ type: "number" }'],
  ])("the runtime spec of %j (readOnly said: %s) is %s", (f, withReadOnly, text) => {
    expect(fieldSpecText(f, withReadOnly)).toBe(text);
  });

  it("documents an exact field's strings as decimal text, after its description", () => {
    expect(fieldDocs(field({ type: "number", exact: true, description: "A key." }))).toBe('A key.\n\nExact number: decimal text with every digit ("-1200.05"), never a rounded JavaScript number.');
    expect(fieldDocs(field({ type: "number" }))).toBeUndefined();
  });

  it.each([
    [field({ type: "container" }), "{}"],
    [field({ type: "container", repetitions: 2, readOnly: true }), "{ repetitions: 2 }"],
  ])("the spec of container %j is %s", (f, text) => {
    expect(containerSpecText(f)).toBe(text);
  });
});

const contact = layout({
  layout: "Contacts Web",
  name: "Contact",
  description: "People we write to.",
  fields: [
    { name: "id", type: "number", readOnly: true, autoEnter: "serial" },
    { name: "First Name", type: "text", description: "Given name.\nAs written." },
    { name: "Photo", type: "container" },
    { name: "Phone", type: "text", repetitions: 2 },
    { name: "__proto__", type: "text" },
    { name: "toString", type: "date" },
    { name: "Scan", type: "container", readOnly: true, repetitions: 2 },
  ],
  portals: [
    {
      name: "Invoices",
      table: "Invoices",
      fields: [
        { name: "Invoices::Amount", type: "number" },
        { name: "Invoices::Total", type: "number", readOnly: true },
        { name: "Invoices::Scan", type: "container" },
      ],
    },
  ],
});

describe("emitters, one per concept", () => {
  it("definition: the database, layout and base table, the writable fields, the read-only ones and the containers apart, each in order; portals with their own flags", () => {
    expect(emitDefinition(planOf(contact), "Contact", "defineLayout<ContactFields>()(", true)).toBe(
      [
        "/**",
        " * People we write to.",
        " *",
        ' * Layout "Contacts Web" of database "DB" (table "Things").',
        " */",
        "export const Contact = defineLayout<ContactFields>()({",
        '  database: "DB",',
        '  layout: "Contacts Web",',
        '  table: "Things",',
        "  fields: {",
        '    "First Name": { type: "text" },',
        '    Phone: { type: "text", repetitions: 2 },',
        '    ["__proto__"]: { type: "text" },',
        '    toString: { type: "date" },',
        "  },",
        "  readOnly: {",
        '    id: { type: "number" },',
        "  },",
        "  containers: {",
        "    Photo: {},",
        "    Scan: { repetitions: 2 },",
        "  },",
        "  portals: {",
        "    Invoices: {",
        "      fields: {",
        '        "Invoices::Amount": { type: "number" },',
        '        "Invoices::Total": { type: "number", readOnly: true },',
        '        "Invoices::Scan": { type: "container" },',
        "      },",
        "    },",
        "  },",
        "});",
      ].join("\n"),
    );
  });

  it("definition: no group, no portals when there are none, `fields: {}` for no writable field, validate: false when asked", () => {
    const plain = emitDefinition(planOf(layout({ fields: [{ name: "a", type: "number", readOnly: true }] })), "Things", "defineLayout<ThingsFields>()(", false);
    expect(plain).toContain('  fields: {},\n  readOnly: {\n    a: { type: "number" },\n  },\n  validate: false,\n});');
    expect(plain).not.toMatch(/containers|portals/);
    const odd = emitDefinition(planOf(layout({ fields: [], portals: [{ name: "constructor", table: "T", fields: [] }] })), "Things", "f(", true);
    expect(odd).toContain("  portals: {\n    constructor: {\n      fields: {},\n    },\n  },\n");
  });

  it("definition: the object literal really has a `__proto__` property and keeps Object.prototype", () => {
    const text = emitDefinition(planOf(contact), "Contact", "f(", true);
    const literal = text.slice(text.indexOf("f(") + 2, text.lastIndexOf("})") + 1);
    const value = new Function(`return ${literal};`)() as { fields: object };
    expect(Object.keys(value.fields)).toEqual(["First Name", "Phone", "__proto__", "toString"]);
    expect(Object.getPrototypeOf(value.fields)).toBe(Object.prototype);
  });

  it("fields: an interface of every field in description order, quoted keys where needed, JSDoc from descriptions and formats", () => {
    expect(emitFields(planOf(contact), "ContactFields")).toBe(
      [
        '/** fieldData of a record of layout "Contacts Web", decoded. */',
        "export interface ContactFields {",
        "  id: number | null;",
        "  /**",
        "   * Given name.",
        "   * As written.",
        "   */",
        '  "First Name": string;',
        "  /** Container: the URL of its file; write it with upload(). */",
        "  Photo: string | null;",
        "  Phone: [string, string];",
        "  __proto__: string;",
        '  /** ISO date "YYYY-MM-DD". */',
        "  toString: string | null;",
        "  /** Container: the URL of its file; write it with upload(). */",
        "  Scan: [string | null, string | null];",
        "}",
      ].join("\n"),
    );
    expect(emitFields(planOf(layout({ fields: [] })), "ThingsFields")).toBe('/** fieldData of a record of layout "Things", decoded. */\nexport interface ThingsFields {}');
  });

  it("index file: one re-export per module (layouts and databases), in file order; `export {}` with none", () => {
    const template = layoutModuleTemplate();
    const plans = layoutPlans([layout({ layout: "B", fields: [] }), layout({ layout: "A", fields: [] })], template);
    expect(joinPrinted(emitIndexFile([...plans.map((p) => p.fileName), "db.ts"], template))).toBe(`${template.header}\n\nexport * from "./a.js";\nexport * from "./b.js";\nexport * from "./db.js";\n`);
    expect(joinPrinted(emitIndexFile([], template))).toBe(`${template.header}\n\nexport {};\n`);
  });

  it("layout module: the template's declarations in order, per-portal ones per portal, each name derived once, only the imports it uses", () => {
    const template = layoutModuleTemplate();
    const twoPortals = layout({
      name: "Thing",
      fields: [{ name: "a", type: "text" }],
      portals: [
        { name: "P1", table: "T", fields: [{ name: "T::x", type: "text" }] },
        { name: 'P"2', table: "T", fields: [{ name: "T::y", type: "text" }] },
      ],
    });
    const text = joinPrinted(emitLayoutModule(planOf(twoPortals), template));
    const declared = [...text.matchAll(/^export (?:type|interface|const) (\w+)/gm)].map((m) => m[1]);
    expect(declared).toEqual([
      "ThingSpec",
      "ThingFields",
      "Thing",
      "ThingLayout",
      "ThingTypes",
      "ThingInput",
      "ThingP1Row",
      "ThingP2Row",
      "ThingPortals",
      "ThingPortalInput",
      "ThingContainer",
      "ThingFieldName",
      "ThingRecord",
      "ThingSort",
      "ThingCriteria",
      "ThingQuery",
    ]);
    expect(text).toContain('/** A row of portal "P1", decoded. */\nexport type ThingP1Row = ThingTypes["rows"]["P1"];');
    expect(text).toContain(`/** A row of portal 'P"2', decoded. */\nexport type ThingP2Row = ThingTypes["rows"]['P"2'];`);
    expect(text).toContain("export const Thing: ThingLayout = ThingSpec;");
    expect(text).toContain("export interface ThingLayout extends LayoutDefinition<ThingTypes>, Named {}");
    expect(text).toContain("export interface ThingTypes extends TypesOf<typeof ThingSpec> {");
    expect(text).toContain("export interface ThingInput extends InputOf<typeof ThingSpec>, Named {}");
    expect(text).toContain("export interface ThingRecord extends RecordOf<typeof ThingSpec>, Named {}");
    expect(text).toContain("export interface ThingQuery extends QueryOf<typeof ThingSpec>, Named {}");
    expect(text).toContain("/** A field name of the layout: what sort specs and find requests accept. */\nexport type ThingFieldName = keyof ThingFields;");
    // The schema is the schemas module's (emitSchemasFile), and so is the import of its runtime entry.
    expect(text).not.toMatch(/Schema|@fmgen\/runtime\/schema/);
    const noPortals = joinPrinted(emitLayoutModule(planOf(layout({ name: "Plain", fields: [] })), template));
    expect(noPortals).toContain(
      'import {\n  defineLayout,\n  type CriteriaOf,\n  type InputOf,\n  type LayoutDefinition,\n  type Named,\n  type PortalInputOf,\n  type QueryOf,\n  type RecordOf,\n  type SortSpec,\n  type TypesOf,\n} from "@fmgen/runtime";\n\n/** Layout "Things"',
    );
    // An import only a per-portal declaration uses is left out of a module without portals.
    const text2 = readFileSync(LAYOUT_MODULE_TEMPLATE_FILE, "utf8")
      .replace("type RecordOf,", "type PortalRowOf, type RecordOf,")
      .replace('export type LayoutLinesRow = LayoutTypes["rows"]["Lines"];', 'export type LayoutLinesRow = PortalRowOf<typeof LayoutSpec, "Lines">;');
    const portalImport = parseLayoutModuleTemplate(text2);
    expect(joinPrinted(emitLayoutModule(planOf(twoPortals), portalImport))).toContain("type PortalRowOf,");
    expect(joinPrinted(emitLayoutModule(planOf(layout({ name: "Plain", fields: [] })), portalImport))).not.toContain("PortalRowOf");
  });

  it("schemas module: every layout's <Name>Schema, importing the definitions; the barrel does not re-export it", async () => {
    const template = layoutModuleTemplate();
    const layouts = [
      layout({ name: "Thing", fields: [{ name: "a", type: "text" }], portals: [{ name: "P1", table: "T", fields: [{ name: "T::x", type: "text" }] }] }),
      layout({ name: "Other", layout: "Others", fields: [] }),
      // Its file would be schemas.ts: that is taken, so the derived name is suffixed.
      layout({ name: "Schemas", layout: "Schemas", fields: [] }),
    ];
    const plans = layoutPlans(layouts, template);
    expect(plans.map((p) => p.fileName)).toEqual(["other.ts", expect.stringMatching(/^schemas-[0-9a-f]{6}\.ts$/), "thing.ts"]);
    const schemas = joinPrinted(emitSchemasFile(plans, template)!);
    const suffixed = plans[1]!.typeName;
    expect(schemas).toBe(`// Code generated by fmgen. DO NOT EDIT.

import { recordSchema } from "@fmgen/runtime/schema";
import { Other } from "./other.js";
import { ${suffixed} } from "./${plans[1]!.fileName.replace(".ts", ".js")}";
import { Thing } from "./thing.js";

/** The zod schema of a record as the runtime returns it, for checking records that come from elsewhere. */
export const OtherSchema = /* @__PURE__ */ recordSchema(Other);

/** The zod schema of a record as the runtime returns it, for checking records that come from elsewhere. */
export const ${suffixed}Schema = /* @__PURE__ */ recordSchema(${suffixed});

/** The zod schema of a record as the runtime returns it, for checking records that come from elsewhere. */
export const ThingSchema = /* @__PURE__ */ recordSchema(Thing);
`);
    const files = await generate(layouts, { schemas: true });
    expect(files.map((f) => f.path)).toEqual(["db.ts", "index.ts", "other.ts", plans[1]!.fileName, "schemas.ts", "thing.ts"]);
    expect(files.find((f) => f.path === "index.ts")!.contents).not.toContain("./schemas.js");
    for (const file of files.filter((f) => f.path !== "schemas.ts")) expect(file.contents, file.path).not.toMatch(/recordSchema|zod/);
    // No layout, or a template whose declarations all come from the runtime: no schemas module.
    expect(emitSchemasFile([], template)).toBeUndefined();
    const withoutSchema = parseLayoutModuleTemplate(
      readFileSync(LAYOUT_MODULE_TEMPLATE_FILE, "utf8")
        .replace('import { recordSchema } from "@fmgen/runtime/schema";', "")
        .replace(/\n\/\*\*[^\n]*\*\/\nexport const LayoutSchema = [^\n]*\n/, "\n"),
    );
    expect((await generate(layouts, { template: withoutSchema, schemas: true })).map((f) => f.path)).not.toContain("schemas.ts");
  });
});
