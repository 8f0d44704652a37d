import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  DatabasePlanError,
  type DatabasePlan,
  emitFiles,
  generate,
  generateFromSettings,
  joinPrinted,
  layoutModuleTemplate,
  planModules,
  prettierFormat,
  resolveGenerateSettings,
} from "../../src/generate/index.js";
import { DatabaseFileError, parseDatabaseDescription, shortHash as hash, type DatabaseDescriptionInput, type LayoutDescription } from "../../src/layout/index.js";
import { layout, layoutPlans } from "./helpers.js";

const template = layoutModuleTemplate();

function plan(layouts: LayoutDescription[], databases: DatabaseDescriptionInput[] = []) {
  return planModules({ layouts, databases: databases.map((d, i) => parseDatabaseDescription(d, `d${i}.database.json`)) }, template)
    .filter((p): p is DatabasePlan => p.kind === "database")
    .sort((a, b) => (a.database < b.database ? -1 : 1));
}

const failure = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DatabasePlanError);
    return (error as Error).message;
  }
  throw new Error("no error");
};

describe("planModules: one database module per database", () => {
  it("plans every database of the layouts and of the descriptions, in name order, scripts in the description's order, each once", () => {
    const plans = plan(
      [layout({ database: "Sales", layout: "Orders", fields: [] }), layout({ database: "Contacts", layout: "People", fields: [] })],
      [{ database: "Sales", scripts: [{ name: "B" }, { name: "A", folder: "F" }, { name: "B", folder: ["G", "H"] }] }, { database: "Archive" }],
    );
    expect(plans.map((p) => [p.database, p.typeName, p.fileName, p.scripts])).toEqual([
      ["Archive", "Archive", "archive.ts", []],
      ["Contacts", "Contacts", "contacts.ts", []],
      ["Sales", "Sales", "sales.ts", ["B", "A"]],
    ]);
  });

  it("takes the scripts of a description whose folders, 6,000 deep, are given by index in folders", () => {
    const depth = 6_000;
    const folders = Array.from({ length: depth }, (_, i) => ({ name: `F${i}`, ...(i ? { in: i - 1 } : {}) }));
    const scripts = Array.from({ length: depth }, (_, i) => ({ name: `S${i}`, folder: i }));
    const [sales] = plan([layout({ database: "Sales", layout: "Orders", fields: [] })], [{ database: "Sales", scripts, folders }]);
    expect(sales!.scripts).toEqual(scripts.map((s) => s.name));
  });

  it("never renames a layout: a database whose name or file a layout takes is <Name>Database, then with a hash; the same in any input order", () => {
    const layouts = [
      layout({ database: "Contacts", layout: "Contacts", fields: [] }, "a.layout.json"),
      layout({ database: "Invoices", layout: "Invoice Lines", name: "InvoicesDatabase", fields: [] }, "b.layout.json"),
      layout({ database: "Invoices", layout: "Invoices", fields: [] }, "c.layout.json"),
      // Only the file clashes: "invoice-x" is this layout's module, and the database "Invoice X" would want it.
      layout({ database: "Invoice X", layout: "Invoice_X", fields: [] }, "d.layout.json"),
      // A database name is PascalCased, like a layout's.
      layout({ database: "defineDatabase", layout: "Other", fields: [] }, "e.layout.json"),
    ];
    const summary = (databases: ReturnType<typeof plan>) => databases.map((p) => [p.database, p.typeName, p.fileName]);
    const expected = [
      ["Contacts", "ContactsDatabase", "contacts-database.ts"],
      ["Invoice X", "InvoiceXDatabase", "invoice-x-database.ts"],
      ["Invoices", `InvoicesDatabase_${hash("Invoices")}`, `invoices-database-${hash("Invoices")}.ts`],
      ["defineDatabase", "DefineDatabase", "define-database.ts"],
    ];
    expect(summary(plan(layouts))).toEqual(expected);
    expect(summary(plan([...layouts].reverse()))).toEqual(expected);
    // The layouts keep their names.
    expect(layoutPlans(layouts, template).map((p) => p.typeName).sort()).toEqual(["Contacts", "Invoice_X", "Invoices", "InvoicesDatabase", "Other"]);
  });

  it("takes the globals of its layouts, portals included, by their qualified names, each once, sorted", () => {
    const [db] = plan([
      layout({
        database: "DB",
        layout: "A",
        table: "Things",
        fields: [
          { name: "gUser", type: "text", global: true },
          { name: "Globals::gDate", type: "date", global: true },
          { name: "Plain", type: "text" },
        ],
        portals: [{ name: "P", table: "Lines", fields: [{ name: "Lines::gRate", type: "number", global: true, repetitions: 2 }] }],
      }),
      layout({ database: "DB", layout: "B", table: "Other", fields: [{ name: "Globals::gDate", type: "date", global: true }, { name: "Things::gUser", type: "text", global: true }] }),
    ]);
    expect(db!.globals.map((g) => [g.name, g.field.type, g.field.repetitions ?? 1])).toEqual([
      ["Globals::gDate", "date", 1],
      ["Lines::gRate", "number", 2],
      ["Things::gUser", "text", 1],
    ]);
  });

  it("refuses two layouts that disagree on a global's type or repetitions, naming both files", () => {
    const message = failure(() =>
      plan([
        layout({ database: "DB", layout: "A", fields: [{ name: "G::g", type: "text", global: true }] }, "layouts/A.layout.json"),
        layout({ database: "DB", layout: "B", fields: [{ name: "G::g", type: "number", global: true }] }, "layouts/B.layout.json"),
        layout({ database: "DB", layout: "C", fields: [{ name: "G::r", type: "text", global: true }, { name: "G::r2", type: "text", global: true }] }, "layouts/C.layout.json"),
        layout({ database: "DB", layout: "D", fields: [{ name: "G::r", type: "text", global: true, repetitions: 3 }] }, "layouts/D.layout.json"),
      ]),
    );
    expect(message).toContain('global field "G::g" is text in layouts/A.layout.json (layout "A") but number in layouts/B.layout.json (layout "B")');
    expect(message).toContain('global field "G::r" is text in layouts/C.layout.json (layout "C") but text with 3 repetitions in layouts/D.layout.json (layout "D")');
  });

  it("refuses a database described twice, naming both files", () => {
    expect(failure(() => plan([], [{ database: "X" }, { database: "X" }]))).toContain('database "X" is described twice: in d0.database.json and in d1.database.json');
  });
});

describe("the database module", () => {
  const layouts = [
    layout({ database: "Contacts", layout: "Contacts Web", name: "Contact", table: "Contacts", fields: [{ name: "gUserId", type: "text", global: true }, { name: "Name", type: "text" }] }),
  ];
  const databases = [parseDatabaseDescription({ database: "Contacts", scripts: [{ name: "Send Invoice", folder: "Billing" }, { name: 'Say "hi"' }] }, "Contacts.database.json")];

  it("exports defineDatabase({ database, scripts, globals }) and the barrel re-exports it", async () => {
    const files = await generate(layouts, { databases });
    expect(files.map((f) => f.path)).toEqual(["contact.ts", "contacts.ts", "index.ts"]);
    expect(files[1]!.contents).toBe(`// Code generated by fmgen. DO NOT EDIT.

import { defineDatabase } from "@fmgen/runtime";

/**
 * Database "Contacts": its scripts and the global fields of its layouts.
 * Pass it to createClient({ database: Contacts }): a script name or global it lacks then fails to compile.
 */
export const Contacts = defineDatabase({
  database: "Contacts",
  scripts: ["Send Invoice", 'Say "hi"'],
  globals: {
    "Contacts::gUserId": { type: "text" },
  },
});
`);
    expect(files[2]!.contents).toContain('export * from "./contact.js";\nexport * from "./contacts.js";\n');
  });

  it("is generated without a database description (no scripts), and is printed as prettier prints it", async () => {
    const files = await generate([layout({ database: "Bare", layout: "Things", fields: [] })]);
    const module = files.find((f) => f.path === "bare.ts")!.contents;
    expect(module).toContain('export const Bare = defineDatabase({\n  database: "Bare",\n  scripts: [],\n  globals: {},\n});\n');
    for (const file of emitFiles(layouts, { databases })) expect(await prettierFormat(joinPrinted(file.printed)), file.path).toBe(joinPrinted(file.printed));
  });

  it("formats a long script list as prettier does", async () => {
    const many = parseDatabaseDescription({ database: "Bare", scripts: Array.from({ length: 20 }, (_, i) => ({ name: `Script number ${i}` })) });
    const files = await generate([layout({ database: "Bare", layout: "Things", fields: [] })], { databases: [many] });
    const module = files.find((f) => f.path === "bare.ts")!.contents;
    expect(module).toContain('  scripts: [\n    "Script number 0",\n');
    expect(await prettierFormat(module)).toBe(module);
  });
});

describe("fmgen generate reads the database descriptions beside the layouts", () => {
  async function project(database: unknown, layoutsEntry: string): Promise<string> {
    const root = await mkdtemp(join(tmpdir(), "fmgen-dbgen-"));
    await mkdir(join(root, "layouts"));
    await writeFile(join(root, "layouts", "Thing.layout.json"), JSON.stringify({ database: "DB", layout: "Things", table: "Things", fields: [{ name: "id", type: "number" }] }));
    await writeFile(join(root, "layouts", "DB.database.json"), JSON.stringify(database));
    await writeFile(join(root, "fmgen.config.json"), JSON.stringify({ layouts: [layoutsEntry], outDir: "generated" }));
    return root;
  }

  it.each([["a folder", "layouts"], ["a glob that matches the database file too", "layouts/*.json"]])("from %s", async (_, entry) => {
    const root = await project({ database: "DB", scripts: [{ name: "Go" }] }, entry);
    const files = await generateFromSettings(await resolveGenerateSettings({ cwd: root, config: join(root, "fmgen.config.json") }));
    expect(files.find((f) => f.path === "db.ts")?.contents).toContain('scripts: ["Go"]');
  });

  it("refuses a malformed database description, naming the file and the path inside it", async () => {
    const root = await project({ database: "DB", scripts: [{ name: "Go", folder: 3 }] }, "layouts");
    const error = await generateFromSettings(await resolveGenerateSettings({ cwd: root, config: join(root, "fmgen.config.json") })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseFileError);
    expect((error as Error).message).toMatch(/DB\.database\.json: scripts\[0\]\.folder: /);
  });
});
