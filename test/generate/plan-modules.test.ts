import { describe, expect, it } from "vitest";
import { DatabasePlanError, emitFiles, hashSuffix, IdentifierClashError, TablePlanError } from "../../src/generate/index.js";
import { parseTableDescription, type TableDescriptionInput } from "../../src/table/index.js";
import { layout } from "./helpers.js";

// The precedence across kinds (plan/name-registry.ts, rule 4), where a kind yields until it has no choice left.
const table = (json: Partial<TableDescriptionInput>, source = "t.table.json") => parseTableDescription({ database: "DB", table: "T", fields: [{ name: "id", type: "number" }], ...json }, source);
const named = (name: string, i: number) => layout({ layout: `L${i}`, name, fields: [] }, `l${i}.layout.json`);
const failure = (fn: () => unknown, kind: new (...args: never[]) => Error): string => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(kind);
    return (error as Error).message;
  }
  throw new Error("no error");
};

describe("planModules: names across kinds", () => {
  it("a database module with all its choices taken by layouts is an error", () => {
    const layouts = ["DB", "DBDatabase", `DBDatabase${hashSuffix("DB")}`].map(named);
    expect(failure(() => emitFiles(layouts), DatabasePlanError)).toBe(
      `cannot generate the database modules:\n  database "DB": the names DB, DBDatabase, DBDatabase${hashSuffix("DB")} (or their files) are all taken by layouts; rename a layout ("name")`,
    );
  });

  it("a derived table name with all its choices taken is an error naming who takes them", () => {
    const layouts = ["Contacts", "ContactsTable", `ContactsTable${hashSuffix("DB\u0000Contacts")}`].map(named);
    expect(failure(() => emitFiles(layouts, { tables: [table({ table: "Contacts" })] }), TablePlanError)).toBe(
      `cannot generate the table modules:\n  t.table.json (table "Contacts"): the names Contacts, ContactsTable, ContactsTable${hashSuffix("DB\u0000Contacts")} are all taken (l0.layout.json (layout "L0", name "Contacts")); give it a "name"`,
    );
  });

  it("a yielding table takes the next choice: a table that keeps its name is placed first", () => {
    // Table "Contacts Table" keeps `ContactsTable`, so table "Contacts", yielding to the layout, takes the hash.
    const files = emitFiles([named("Contacts", 0)], { tables: [table({ table: "Contacts" }), table({ table: "Contacts Table" })] });
    const declared = (path: string) => /export const (\w+)/.exec(files.find((f) => f.path === path)!.printed.statements.map((s) => s.text).join("\n"))?.[1];
    expect(declared("contacts.table.ts")).toBe(`ContactsTable${hashSuffix("DB\u0000Contacts")}`);
    expect(declared("contacts-table.table.ts")).toBe("ContactsTable");
  });

  it("reports the earliest kind's problem first: layouts, then tables, then databases", () => {
    const layoutClash = [named("Same", 0), named("Same", 1)];
    const databaseClash = ["DB", "DBDatabase", `DBDatabase${hashSuffix("DB")}`].map((name, i) => named(name, i + 2));
    const tableClash = [table({ table: "A", name: "X" }, "a.table.json"), table({ table: "B", name: "X" }, "b.table.json")];
    expect(() => emitFiles([...layoutClash, ...databaseClash], { tables: tableClash })).toThrow(IdentifierClashError);
    expect(() => emitFiles(databaseClash, { tables: tableClash })).toThrow(TablePlanError);
    expect(() => emitFiles(databaseClash, { tables: [table({ table: "A" })] })).toThrow(DatabasePlanError);
  });
});
