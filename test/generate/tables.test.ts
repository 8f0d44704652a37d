import { describe, expect, it } from "vitest";
import { emitFiles, generate, needsPrettier, prettierFormat, TablePlanError, type GeneratedFile } from "../../src/generate/index.js";
import { parseTableDescription, type TableDescription, type TableDescriptionInput } from "../../src/table/index.js";
import { GOLDEN_SETS, loadSet } from "../golden/golden-sets.js";
import { layout } from "./helpers.js";

type Partial = Omit<TableDescriptionInput, "database" | "table" | "fields"> & { database?: string; table?: string; fields?: TableDescriptionInput["fields"] };

/** A validated table description with defaults for what a test does not care about. */
function table(json: Partial, source = "test.table.json"): TableDescription {
  return parseTableDescription({ database: "DB", table: "Things", fields: [{ name: "a", type: "text" }], ...json }, source);
}

const paths = (files: readonly { path: string }[]) => files.map((f) => f.path);
const contents = (files: readonly GeneratedFile[], path: string) => {
  const file = files.find((f) => f.path === path);
  if (!file) throw new Error(`no ${path} among ${paths(files).join(", ")}`);
  return file.contents;
};
const exportsOf = (text: string) => [...text.matchAll(/^export (?:const|interface|type) ([\w$]+)/gm)].map((m) => m[1]!);

describe("table modules: planning names", () => {
  it("writes one <kebab>.table.ts per table beside the layout modules, and index.ts re-exports both kinds", async () => {
    const files = await generate([layout({ layout: "Contacts Web", fields: [{ name: "a", type: "text" }] })], { tables: [table({ table: "Contacts Web" }), table({ table: "Invoices" })] });
    expect(paths(files)).toEqual(["contacts-web.table.ts", "contacts-web.ts", "db.ts", "index.ts", "invoices.table.ts"]);
    expect(contents(files, "index.ts")).toContain('export * from "./contacts-web.table.js";\nexport * from "./contacts-web.js";');
    // The layout keeps its names; the table, whose derived name meets them, yields.
    expect(exportsOf(contents(files, "contacts-web.ts"))).toContain("ContactsWeb");
    expect(exportsOf(contents(files, "contacts-web.table.ts"))).toEqual([
      "ContactsWebTable",
      "ContactsWebTableDefinition",
      "ContactsWebTableTypes",
      "ContactsWebTableRow",
      "ContactsWebTableRelations",
      "ContactsWebTableInsert",
      "ContactsWebTableUpdate",
      "ContactsWebTableFieldName",
      "ContactsWebTableKinds",
      "ContactsWebTableFilter",
      "ContactsWebTableExpand",
    ]);
    expect(exportsOf(contents(files, "invoices.table.ts"))[0]).toBe("Invoices");
  });

  it("never changes a layout or database module when tables are added: layouts and databases are planned first", async () => {
    const layouts = [layout({ layout: "Contacts", database: "Contacts", fields: [{ name: "a", type: "text" }] }), layout({ layout: "Invoices", database: "Contacts", name: "Invoice", fields: [{ name: "a", type: "text" }] })];
    const before = await generate(layouts);
    const after = await generate(layouts, { tables: [table({ database: "Contacts", table: "Contacts" }), table({ database: "Contacts", table: "Invoices" }), table({ database: "Contacts", table: "Invoice Lines" })] });
    for (const file of before.filter((f) => f.path !== "index.ts")) expect(contents(after, file.path), file.path).toBe(file.contents);
    // Every exported name is declared once across all modules (index.ts re-exports them all).
    const names = after.filter((f) => f.path !== "index.ts" && f.path !== "schemas.ts").flatMap((f) => exportsOf(f.contents));
    expect(names.length).toBeGreaterThan(20);
    expect(new Set(names).size).toBe(names.length);
    expect(exportsOf(contents(after, "contacts.table.ts"))[0]).toBe("ContactsTable");
    expect(exportsOf(contents(after, "invoices.table.ts"))[0]).toBe("Invoices");
  });

  it("lets a database module yield to a table's explicit name, as it yields to layouts", async () => {
    const layouts = [layout({ layout: "Contact", database: "Contacts", fields: [{ name: "a", type: "text" }] })];
    expect(exportsOf(contents(await generate(layouts), "contacts.ts"))).toEqual(["Contacts"]);
    const files = await generate(layouts, { tables: [table({ database: "Contacts", table: "People", name: "Contacts" })] });
    expect(exportsOf(contents(files, "contacts-database.ts"))).toEqual(["ContactsDatabase"]);
    expect(exportsOf(contents(files, "contacts.table.ts"))[0]).toBe("Contacts");
    // Derived, the same name yields instead.
    const derived = await generate(layouts, { tables: [table({ database: "Contacts", table: "Contacts" })] });
    expect(exportsOf(contents(derived, "contacts.ts"))).toEqual(["Contacts"]);
    expect(exportsOf(contents(derived, "contacts.table.ts"))[0]).toBe("ContactsTable");
  });

  it("suffixes both tables whose derived names clash, by a hash of their own database and table names, in any input order", () => {
    const a = table({ table: "Line Items" }, "a.table.json");
    const b = table({ table: "Line-Items" }, "b.table.json");
    const one = emitFiles([], { tables: [a, b] });
    const two = emitFiles([], { tables: [b, a] });
    expect(paths(one)).toEqual(paths(two));
    expect(paths(one).filter((p) => /^line-items-[0-9a-f]{6}\.table\.ts$/.test(p))).toHaveLength(2);
    // A table alone keeps its name: the suffix depends on which clashes exist.
    expect(paths(emitFiles([], { tables: [a] }))).toContain("line-items.table.ts");
  });

  it("suffixes a derived name that is a runtime import or a reserved word", () => {
    const files = emitFiles([], { tables: [table({ table: "Table Spec" }), table({ table: "NaN" }), table({ table: "Insert Of" })] });
    expect(paths(files).filter((p) => p.endsWith(".table.ts")).every((p) => /-[0-9a-f]{6}\.table\.ts$/.test(p))).toBe(true);
  });

  it("refuses, naming both descriptions: an explicit name another table or a layout claims, two descriptions of one table, a reserved word", () => {
    const clash = () => emitFiles([layout({ layout: "Contacts", fields: [{ name: "a", type: "text" }] }, "contacts.layout.json")], { tables: [table({ table: "People", name: "ContactsFields" }, "people.table.json")] });
    expect(clash).toThrow(TablePlanError);
    expect(clash).toThrow(/"ContactsFields" is claimed by people\.table\.json \(table "People", name "ContactsFields"\) and contacts\.layout\.json \(layout "Contacts"\)/);
    const two = () => emitFiles([], { tables: [table({ table: "A", name: "Same" }, "a.table.json"), table({ table: "B", name: "Same" }, "b.table.json")] });
    expect(two).toThrow(/"Same" is claimed by a\.table\.json .* and b\.table\.json/);
    const imported = () => emitFiles([], { tables: [table({ table: "A", name: "TableSpec" }, "a.table.json")] });
    expect(imported).toThrow(/"TableSpec" is claimed by the runtime import "TableSpec" and a\.table\.json/);
    expect(() => emitFiles([], { tables: [table({ table: "X" }, "a.table.json"), table({ table: "X" }, "b.table.json")] })).toThrow(/table "X" of database "DB" is described twice: in a\.table\.json and in b\.table\.json/);
    expect(() => emitFiles([], { tables: [table({ table: "X", name: "class" }, "a.table.json")] })).toThrow(/a\.table\.json .*: "class" is a reserved word/);
  });

  it("refuses a relation to a table no description describes, naming the description and the missing table", () => {
    const orphan = () => emitFiles([], { tables: [table({ table: "Contacts", relations: [{ name: "Invoices", table: "Invoices", many: true }] }, "contacts.table.json")] });
    expect(orphan).toThrow(TablePlanError);
    expect(orphan).toThrow(/contacts\.table\.json \(table "Contacts"\) relations\[0\] \("Invoices"\) reaches table "Invoices" of database "DB", which no table description describes/);
    // A table of the same name in another database does not count.
    expect(() => emitFiles([], { tables: [table({ table: "Contacts", relations: [{ name: "Invoices", table: "Invoices", many: true }] }), table({ database: "Other", table: "Invoices" })] })).toThrow(TablePlanError);
  });
});

describe("table modules: the emitted text", () => {
  const contactsJson: Partial = {
    database: "Contacts",
    table: "Contacts",
    id: "FMTID:1065089",
    key: "id",
    description: "People. */ end",
    fields: [
      { name: "id", type: "number", readOnly: true, notNull: true, autoEnter: "serial", id: "FMFID:4296032385" },
      { name: "First Name", type: "text", notNull: true, maxLength: 20 },
      { name: "Tags", type: "text", repetitions: 2 },
      { name: "g", type: "text", global: true },
      { name: "__proto__", type: "date" },
      { name: "Photo", type: "container" },
    ],
    relations: [
      { name: "Invoices", table: "Invoices", many: true },
      { name: "Parent", table: "Contacts", many: false },
    ],
  };
  const contacts = table(contactsJson);
  const invoices = table({ database: "Contacts", table: "Invoices", fields: [{ name: "n", type: "number" }], relations: [{ name: "Contacts", table: "Contacts", many: true }] });

  it("writes an exact number field as decimal text in the row and exact: true in the spec", async () => {
    const ledger = table({ database: "Contacts", table: "Ledger", fields: [{ name: "Key", type: "number", exact: true, description: "A key." }, { name: "Amount", type: "number" }] });
    const text = contents(await generate([], { tables: [ledger] }), "ledger.table.ts");
    expect(text).toContain('    Key: { type: "number", exact: true },\n    Amount: { type: "number" },');
    expect(text).toContain('  /**\n   * A key.\n   *\n   * Exact number: decimal text with every digit ("-1200.05"), never a rounded JavaScript number.\n   */\n  Key: string | null;\n  Amount: number | null;');
  });

  it("states each fact once: the spec (kinds, read-only, repetitions, notNull, auto-enter, ids, relations as typed thunks), the row's types, the relations' interface", async () => {
    const text = contents(await generate([], { tables: [contacts, invoices] }), "contacts.table.ts");
    expect(text).toContain(
      [
        'import { Invoices } from "./invoices.table.js";',
        "",
        '/** The spec of table "Contacts": the runtime derives its shapes from it. od.table() takes Contacts. */',
        "const ContactsSpec = defineTable<ContactsRow, ContactsRelations>()({",
        '  database: "Contacts",',
        '  table: "Contacts",',
        '  id: "FMTID:1065089",',
        '  key: "id",',
        "  fields: {",
        '    id: { type: "number", readOnly: true, notNull: true, autoEnter: "serial", id: "FMFID:4296032385" },',
        '    "First Name": { type: "text", notNull: true },',
        '    Tags: { type: "text", repetitions: 2 },',
        '    g: { type: "text", readOnly: true },',
        '    ["__proto__"]: { type: "date" },',
        '    Photo: { type: "container" },',
        "  },",
        "  relations: {",
        '    Invoices: { table: "Invoices", many: true, target: (): TableSpec => Invoices },',
        '    Parent: { table: "Contacts", many: false, target: (): TableSpec => Contacts },',
        "  },",
        "});",
        "",
        "/**",
        " * People. *\\/ end",
        " *",
        ' * Table "Contacts" of database "Contacts" (FMTID:1065089): pass it to od.table().',
        " */",
        "export const Contacts: ContactsDefinition = ContactsSpec;",
        "",
        "/** The type of the table definition: the table's shapes, by name. */",
        "export interface ContactsDefinition extends TableDefinition<ContactsTypes>, Record<never, never> {}",
      ].join("\n"),
    );
    expect(text).toMatch(/export interface ContactsRow \{\n {2}id: number \| null;\n {2}\/\*\* At most 20 characters\. \*\/\n {2}"First Name": string;\n {2}Tags: \[string, string\];\n {2}\/\*\* Global: one value shared by every row\. \*\/\n {2}g: string;\n {2}\/\*\* ISO date "YYYY-MM-DD"\. \*\/\n {2}__proto__: string \| null;\n/);
    expect(text).toContain("export interface ContactsRelations {\n  Invoices: typeof Invoices;\n  Parent: typeof Contacts;\n}");
    // Each shape calls check, by its name: what compiler messages print (test/types/odata-unknown-field-messages.test.ts).
    expect(text).toContain(
      "export interface ContactsTypes extends TableTypesOf<typeof ContactsSpec> {\n  insert: ContactsInsert;\n  update: ContactsUpdate;\n  names: ContactsFieldName;\n  kinds: ContactsKinds;\n  filter: ContactsFilter;\n  expand: ContactsExpand;\n}",
    );
    expect(text).toContain("export interface ContactsInsert extends InsertOf<typeof ContactsSpec>, Record<never, never> {}");
    expect(text).toContain("export interface ContactsUpdate extends UpdateOf<typeof ContactsSpec>, Record<never, never> {}");
    expect(text).toContain("export type ContactsFieldName = keyof ContactsRow & string;");
    expect(text).toContain("export interface ContactsKinds extends KindsOf<typeof ContactsSpec>, Record<never, never> {}");
    expect(text).toContain("export type ContactsFilter = Filter<ContactsKinds>;");
    expect(text).toContain("export interface ContactsExpand extends ExpandOf<typeof ContactsSpec>, Record<never, never> {}");
    expect(text).not.toMatch(/from "@fmgen\/runtime"/);
    expect(await prettierFormat(text)).toBe(text);
  });

  it("imports only what it uses (no TableSpec without relations; no related module for a relation to itself) and writes imports with importExtension", async () => {
    const plain = contents(await generate([], { tables: [table({ table: "Plain" })] }), "plain.table.ts");
    expect(plain).toContain(
      'import {\n  defineTable,\n  type ExpandOf,\n  type Filter,\n  type InsertOf,\n  type KindsOf,\n  type TableDefinition,\n  type TableTypesOf,\n  type UpdateOf,\n} from "@fmgen/runtime/odata";\n\n',
    );
    expect(plain).toContain("export interface PlainRelations {}");
    expect(plain).not.toContain("relations: {");
    const self = table({ table: "Tree", relations: [{ name: "Parent", table: "Tree", many: false }] });
    expect(contents(await generate([], { tables: [self] }), "tree.table.ts")).not.toMatch(/from "\.\//);
    const ts = await generate([], { tables: [contacts, invoices], importExtension: ".ts" });
    expect(contents(ts, "contacts.table.ts")).toContain('import { Invoices } from "./invoices.table.ts";');
    expect(contents(ts, "index.ts")).toContain('export * from "./contacts.table.ts";');
  });

  it("prints an ordinary table module in prettier's layout, so that formatting runs prettier on none of its statements", () => {
    const kinds = ["text", "number", "date", "timestamp"] as const;
    const fields = Array.from({ length: 40 }, (_, j) => ({ name: `Field ${j}`, type: kinds[j % 4]!, id: `FMFID:${(j + 10) * 2 ** 32 + 1065089}`, ...(j % 3 ? {} : { notNull: true }) }));
    const files = emitFiles([], { tables: [table({ ...contactsJson, fields: [...contactsJson.fields!, ...fields] }), invoices] });
    const statements = files.filter((f) => f.path.endsWith(".table.ts")).flatMap((f) => f.printed.statements);
    expect(statements.length).toBeGreaterThan(10);
    expect(statements.filter((s) => needsPrettier(s.text)).map((s) => s.text.slice(0, 60))).toEqual([]);
  });

  it("is deterministic: the same descriptions in any order give the same bytes", async () => {
    const { layouts, databases, tables } = await loadSet(GOLDEN_SETS.odata);
    const first = await generate(layouts, { databases, tables });
    const second = await generate([...layouts].reverse(), { databases, tables: [...tables].reverse() });
    expect(second).toEqual(first);
    expect(tables.length).toBeGreaterThan(5);
  });
});

describe("table modules at run time", () => {
  it("load (the odata golden set, through index.ts): each definition is its description, relations' targets resolve across modules that import each other", async () => {
    const generated = (await import("../golden/generated/odata/index.js")) as Record<string, unknown>;
    const { tables } = await loadSet(GOLDEN_SETS.odata);
    const definitions = Object.values(generated).filter((v): v is { database: string; table: string; fields: object; relations?: Record<string, { table: string; target: () => { table: string } }> } => typeof v === "object" && v !== null && "fields" in v && !("layout" in v) && "table" in v);
    expect(definitions.map((d) => `${d.database}/${d.table}`).sort()).toEqual(tables.map((t) => `${t.database}/${t.table}`).sort());
    for (const description of tables) {
      const definition = definitions.find((d) => d.database === description.database && d.table === description.table)!;
      expect(Object.keys(definition.fields), description.table).toEqual(description.fields.map((f) => f.name));
      expect(Object.keys(definition.relations ?? {}), description.table).toEqual((description.relations ?? []).map((r) => r.name));
      for (const relation of description.relations ?? []) {
        const target = Object.getOwnPropertyDescriptor(definition.relations, relation.name)!.value as { target: () => { table: string } };
        expect(target.target().table, `${description.table} -> ${relation.name}`).toBe(relation.table);
      }
    }
    // A table named "__proto__" is an export like any other, and its "__proto__" relation an own property.
    expect(Object.hasOwn(generated, "__proto__")).toBe(true);
    expect(Reflect.get(generated, "__proto__")).toMatchObject({ table: "__proto__" });
  });
});
