import { describe, expect, it } from "vitest";
import { emitContainers } from "../../src/generate/emit/containers.js";
import { emitDefinition, fieldSpecText } from "../../src/generate/emit/definition.js";
import { inputType, readType } from "../../src/generate/emit/field-types.js";
import { emitFields } from "../../src/generate/emit/fields.js";
import { emitIndexFile } from "../../src/generate/emit/index-file.js";
import { emitInput } from "../../src/generate/emit/input.js";
import { emitKinds } from "../../src/generate/emit/kinds.js";
import { emitLayoutModule } from "../../src/generate/emit/layout-module.js";
import { emitPortalInput } from "../../src/generate/emit/portal-input.js";
import { emitPortalRow } from "../../src/generate/emit/portal-row.js";
import { emitPortalRowInput } from "../../src/generate/emit/portal-row-input.js";
import { emitPortals } from "../../src/generate/emit/portals.js";
import { layoutModuleTemplate, planIdentifiers, printSourceFile } from "../../src/generate/index.js";
import type { FieldDescription } from "../../src/layout/index.js";
import { fillContext, layout, printStatement } from "./helpers.js";

const field = (f: Partial<FieldDescription> & Pick<FieldDescription, "type">): FieldDescription => ({ name: "F", ...f });

describe("field types (DESIGN.md's table)", () => {
  it.each([
    [field({ type: "text" }), "string", "string | null"],
    [field({ type: "text", valueList: ["Active", "Inactive"] }), '"Active" | "Inactive" | ""', '"Active" | "Inactive" | "" | null'],
    [field({ type: "text", valueList: ["", "x", "x"] }), '"" | "x"', '"" | "x" | null'],
    [field({ type: "text", valueList: ['say "hi"'] }), `'say "hi"' | ""`, `'say "hi"' | "" | null`],
    [field({ type: "number" }), "number | null", "number | null"],
    [field({ type: "date" }), "string | null", "string | null"],
    [field({ type: "time" }), "string | null", "string | null"],
    [field({ type: "timestamp" }), "string | null", "string | null"],
    [field({ type: "container" }), "string | null", "string | null"],
    [field({ type: "text", repetitions: 3 }), "[string, string, string]", "readonly [(string | null | undefined)?, (string | null | undefined)?, (string | null | undefined)?]"],
    [field({ type: "number", repetitions: 2 }), "[number | null, number | null]", "readonly [(number | null | undefined)?, (number | null | undefined)?]"],
    [field({ type: "number", repetitions: 101 }), "(number | null)[]", "readonly (number | null | undefined)[]"],
  ])("%j reads as %s and is written as %s", (f, read, input) => {
    expect(readType(f)).toBe(read);
    expect(inputType(f)).toBe(input);
  });

  it.each([
    [field({ type: "text" }), '{ type: "text" }'],
    [field({ type: "number", readOnly: true }), '{ type: "number", readOnly: true }'],
    [field({ type: "text", repetitions: 3, valueList: ["a", "b"] }), '{ type: "text", repetitions: 3, valueList: ["a", "b"] }'],
    [field({ type: "container", repetitions: 1, required: true, unique: true, global: true, description: "x" }), '{ type: "container" }'],
  ])("the runtime spec of %j is %s", (f, text) => {
    expect(fieldSpecText(f)).toBe(text);
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
  ],
  portals: [{ name: "Invoices", table: "Invoices", fields: [{ name: "Invoices::Amount", type: "number" }, { name: "Invoices::Total", type: "number", readOnly: true }] }],
});

describe("emitters, one per concept", () => {
  it("definition: database, layout, field specs in order, a computed __proto__ key, satisfies for Object members, portals", () => {
    expect(printStatement(emitDefinition(fillContext(contact, "definition")))).toBe(
      [
        "/**",
        " * People we write to.",
        " *",
        ' * Layout "Contacts Web" of database "DB" (table "Things").',
        " */",
        "export const Contact = defineLayout<ContactTypes>({",
        '  database: "DB",',
        '  layout: "Contacts Web",',
        "  fields: {",
        '    id: { type: "number", readOnly: true },',
        '    "First Name": { type: "text" },',
        '    Photo: { type: "container" },',
        '    Phone: { type: "text", repetitions: 2 },',
        '    ["__proto__"]: { type: "text" },',
        '    toString: { type: "date" } satisfies FieldSpec,',
        "  },",
        "  portals: {",
        "    Invoices: {",
        "      fields: {",
        '        "Invoices::Amount": { type: "number" },',
        '        "Invoices::Total": { type: "number", readOnly: true },',
        "      },",
        "    },",
        "  },",
        "});",
      ].join("\n"),
    );
    expect(emitDefinition(fillContext(contact, "definition")).runtimeNames).toEqual(["FieldSpec"]);
  });

  it("definition: leaves portals out when there are none, and says satisfies PortalSpec for a portal named constructor", () => {
    const plain = layout({ fields: [{ name: "a", type: "text" }] });
    expect(printStatement(emitDefinition(fillContext(plain, "definition")))).not.toContain("portals");
    const odd = layout({ fields: [], portals: [{ name: "constructor", table: "T", fields: [] }] });
    const text = printStatement(emitDefinition(fillContext(odd, "definition")));
    expect(text).toContain("    constructor: {\n      fields: {},\n    } satisfies PortalSpec,\n");
  });

  it("definition: the object literal really has a `__proto__` property and keeps Object.prototype", () => {
    const text = printStatement(emitDefinition(fillContext(contact, "definition")));
    const literal = text.slice(text.indexOf("({") + 1, text.lastIndexOf("})") + 1).replaceAll(" satisfies FieldSpec", "");
    const value = new Function(`return ${literal};`)() as { fields: object };
    expect(Object.keys(value.fields)).toEqual(["id", "First Name", "Photo", "Phone", "__proto__", "toString"]);
    expect(Object.getPrototypeOf(value.fields)).toBe(Object.prototype);
  });

  it("fields: every field in description order, quoted keys where needed, JSDoc from descriptions and formats", () => {
    expect(printStatement(emitFields(fillContext(contact, "fields")))).toBe(
      [
        '/** fieldData of a record of layout "Contacts Web", decoded. */',
        "export type ContactFields = {",
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
        "};",
      ].join("\n"),
    );
  });

  it("input: writable fields only, optional, null clears, Object members admit the inherited member", () => {
    const text = printStatement(emitInput(fillContext(contact, "input")));
    expect(text).toContain("export type ContactInput = {\n");
    expect(text).not.toMatch(/\bid\?|Photo/);
    expect(text).toContain('  "First Name"?: string | null;\n');
    expect(text).toContain("  Phone?: readonly [(string | null | undefined)?, (string | null | undefined)?];\n");
    expect(text).toContain('  toString?: string | null | Object["toString"];\n');
  });

  it("input: with no writable field, an object that takes no key", () => {
    const readOnly = layout({ fields: [{ name: "c", type: "number", readOnly: true }] });
    expect(printStatement(emitInput(fillContext(readOnly, "input")))).toMatch(/export type ThingsInput = Record<string, never>;$/);
  });

  it("portal rows: read shape, and input with the row ids", () => {
    expect(printStatement(emitPortalRow(fillContext(contact, "portalRow", 0)))).toBe(
      [
        '/** A row of portal "Invoices" (table "Invoices"), decoded. */',
        "export type ContactInvoicesRow = {",
        '  "Invoices::Amount": number | null;',
        '  "Invoices::Total": number | null;',
        "};",
      ].join("\n"),
    );
    const input = printStatement(emitPortalRowInput(fillContext(contact, "portalRowInput", 0)));
    expect(input).toContain('export type ContactInvoicesRowInput = {\n  "Invoices::Amount"?: number | null;\n  /** The row to edit');
    expect(input).not.toContain("Invoices::Total");
    expect(input).toContain("  recordId?: string;\n");
    expect(input).toContain("  modId?: string;\n");
  });

  it("portals and portal input: portal name -> rows", () => {
    const portals = emitPortals(fillContext(contact, "portals"));
    expect(printStatement(portals)).toContain("export type ContactPortals = {\n  Invoices: PortalRow<ContactInvoicesRow>[];\n};");
    expect(portals.runtimeNames).toEqual(["PortalRow"]);
    expect(printStatement(emitPortalInput(fillContext(contact, "portalInput")))).toContain("export type ContactPortalInput = {\n  Invoices?: ContactInvoicesRowInput[];\n};");
  });

  it("portals and portal input of a layout without portals", () => {
    const plain = layout({ fields: [] });
    const portals = emitPortals(fillContext(plain, "portals"));
    expect(printStatement(portals)).toMatch(/export type ThingsPortals = Record<never, never>;$/);
    expect(portals.runtimeNames).toEqual([]);
    expect(printStatement(emitPortalInput(fillContext(plain, "portalInput")))).toMatch(/export type ThingsPortalInput = Record<string, never>;$/);
  });

  it.each([
    [[{ name: "Photo", type: "container" }], '"Photo"'],
    [[{ name: "Photo", type: "container" }, { name: "a", type: "text" }, { name: 'Sc"an', type: "container" }], `"Photo" | 'Sc"an'`],
    [[{ name: "a", type: "text" }], "never"],
  ] as const)("containers of %j: %s", (fields, type) => {
    const text = printStatement(emitContainers(fillContext(layout({ fields: [...fields] }), "containers")));
    expect(text).toMatch(new RegExp(`export type ThingsContainer = ${type.replace(/[|"]/g, "\\$&")};$`));
  });

  it("kinds: every layout field, then every portal field, in description order; a repeated name keeps its first kind", () => {
    const text = printStatement(
      emitKinds(
        fillContext(
          layout({
            fields: [
              { name: "id", type: "number" },
              { name: "Name", type: "text", repetitions: 2 },
              { name: "toString", type: "date" },
              { name: "T::x", type: "time" },
            ],
            portals: [
              { name: "P1", table: "T", fields: [{ name: "T::x", type: "number" }, { name: "T::y", type: "timestamp" }] },
              { name: "P2", table: "U", fields: [{ name: "U::photo", type: "container" }] },
            ],
          }),
          "kinds",
        ),
      ),
    );
    expect(text).toContain(
      'export type ThingsKinds = {\n  id: "number";\n  Name: "text";\n  toString: "date";\n  "T::x": "time";\n  "T::y": "timestamp";\n  "U::photo": "container";\n};',
    );
    expect(printStatement(emitKinds(fillContext(layout({ fields: [] }), "kinds")))).toMatch(/export type ThingsKinds = Record<never, never>;$/);
  });

  it("index file: one re-export per module, in file order; `export {}` with no layout", () => {
    const template = layoutModuleTemplate();
    const plans = planIdentifiers([layout({ layout: "B", fields: [] }), layout({ layout: "A", fields: [] })], template);
    expect(printSourceFile(emitIndexFile(plans, template))).toBe(`${template.header}\n\nexport * from "./a.js";\nexport * from "./b.js";\n`);
    expect(printSourceFile(emitIndexFile([], template))).toBe(`${template.header}\n\nexport {};\n`);
  });

  it("layout module: the template's declarations in order, per-portal ones per portal, only the imports it uses", () => {
    const template = layoutModuleTemplate();
    const twoPortals = layout({
      name: "Thing",
      fields: [{ name: "a", type: "text" }],
      portals: [
        { name: "P1", table: "T", fields: [{ name: "T::x", type: "text" }] },
        { name: "P2", table: "T", fields: [{ name: "T::y", type: "text" }] },
      ],
    });
    const [plan] = planIdentifiers([twoPortals], template);
    const text = printSourceFile(emitLayoutModule(plan!, template));
    const declared = [...text.matchAll(/^export (?:type|const) (\w+)/gm)].map((m) => m[1]);
    expect(declared).toEqual([
      "Thing",
      "ThingTypes",
      "ThingFields",
      "ThingInput",
      "ThingP1Row",
      "ThingP2Row",
      "ThingP1RowInput",
      "ThingP2RowInput",
      "ThingPortals",
      "ThingPortalInput",
      "ThingContainer",
      "ThingKinds",
      "ThingFieldName",
      "ThingRecord",
      "ThingSort",
      "ThingQuery",
      "ThingSchema",
    ]);
    expect(text.startsWith(`${template.header}\n\nimport { defineLayout, type FmRecord, type PortalRow, type QueryOf, type SortSpec } from "@fmgen/runtime";\nimport { recordSchema } from "@fmgen/runtime/schema";\n`)).toBe(true);
    expect(text).toContain("export type ThingRecord = FmRecord<ThingFields, ThingPortals>;");
    expect(text).toContain("/** A field name of the layout: what sort specs and find requests accept. */\nexport type ThingFieldName = keyof ThingFields;");
    const [noPortals] = planIdentifiers([layout({ name: "Plain", fields: [] })], template);
    expect(printSourceFile(emitLayoutModule(noPortals!, template))).toContain(
      'import { defineLayout, type FmRecord, type QueryOf, type SortSpec } from "@fmgen/runtime";\nimport { recordSchema } from "@fmgen/runtime/schema";\n',
    );
  });
});
