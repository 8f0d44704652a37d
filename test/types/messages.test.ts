import { describe, expect, it } from "vitest";
import { probeDiagnostics } from "./probe-diagnostics.js";

// What the compiler says where a layout of another database, or a response layout of another table, is used: the
// type tests (database.test-d.ts, database-calls.test-d.ts, portals.test-d.ts) prove these do not compile; this
// proves the message names the problem, in a sentence, under the project's flags (tsconfig.json).

const probe = `
import { createClient } from "@fmgen/runtime";
import { Contact, Contacts } from "../../examples/contacts/generated/index.js";
import { Customer, Invoice, Invoicing } from "../../examples/invoices/generated/index.js";

const auth = { username: "u", password: "p" };
export const wrongDatabase = createClient({ server: "http://127.0.0.1:1", database: Contacts, auth }).layout(Invoice);
export const wrongScriptLayout = createClient({ server: "http://127.0.0.1:1", database: Invoicing, auth }).runScript(Contact, "Send Invoice");
const invoices = createClient({ server: "http://127.0.0.1:1", database: "Invoicing", auth }).layout(Invoice);
export const wrongTable = invoices.get(1, { response: Customer });
export const wrongTableList = invoices.list({ response: Customer, limit: 5 });
export const wrongTableFind = invoices.find({ query: [{ Status: "Open" }], response: Customer });
export const wrongTableFindOne = invoices.findOne({ query: [{ Status: "Open" }], response: Customer });
export const wrongTableFindFirst = invoices.findFirst({ query: [{ Status: "Open" }], response: Customer });
export const wrongTableListAll = invoices.listAll({ response: Customer });
export const wrongTableFindAll = invoices.findAll({ query: [{ Status: "Open" }], response: Customer });
export const wrongTableScripted = invoices.get(1, { response: Customer, script: { name: "Send Invoice" } });
export const wrongResponseDatabase = invoices.get(1, { response: Contact });
`;

const diagnostics = () => probeDiagnostics("test/types/messages-probe.ts", probe).map(({ name, text }) => `${name}\n${text}`);

/** A layout of another database, where a client of a typed database takes one: the layout's type, and the sentence. */
const OTHER_DATABASE = [
  ["wrongDatabase", "fm.layout()", "InvoiceLayout", `"a layout of database \\"Invoicing\\", but this client is for database \\"Contacts\\""`],
  ["wrongScriptLayout", "fm.runScript()", "ContactLayout", `"a layout of database \\"Contacts\\", but this client is for database \\"Invoicing\\""`],
] as const;

/**
 * A response layout of another table (or database) on each read that takes one: the response layout's type, the
 * sentence naming both, and the message's length. It was 850 characters: both overloads' signatures with the options'
 * types in full, `CustomerLayout & "a layout of ..."` and a hint about optional properties. TypeScript still opens with
 * "No overload matches this call" and the overload's signature (a call has a plain overload and a generic one); it
 * lists the plain overload's own failure too when that is as short as the generic's (get, list, listAll), hence two
 * budgets.
 */
const OTHER_TABLE = `"a layout of table \\"Customers\\", not of this layout's table \\"Invoices\\""`;
const BOTH_LISTED = 570;
const ONE_LISTED = 350;
const WRONG_RESPONSE = [
  ["wrongTable", "get()", "CustomerLayout", OTHER_TABLE, BOTH_LISTED],
  ["wrongTableList", "list()", "CustomerLayout", OTHER_TABLE, BOTH_LISTED],
  ["wrongTableFind", "find()", "CustomerLayout", OTHER_TABLE, ONE_LISTED],
  ["wrongTableFindOne", "findOne()", "CustomerLayout", OTHER_TABLE, ONE_LISTED],
  ["wrongTableFindFirst", "findFirst()", "CustomerLayout", OTHER_TABLE, ONE_LISTED],
  ["wrongTableListAll", "listAll()", "CustomerLayout", OTHER_TABLE, BOTH_LISTED],
  ["wrongTableFindAll", "findAll()", "CustomerLayout", OTHER_TABLE, ONE_LISTED],
  ["wrongTableScripted", "get() with a script", "CustomerLayout", OTHER_TABLE, ONE_LISTED],
  ["wrongResponseDatabase", "get()", "ContactLayout", `"a layout of database \\"Contacts\\", not of this layout's database \\"Invoicing\\""`, BOTH_LISTED],
] as const;

describe("compile errors of a layout of another database or table", () => {
  const found = diagnostics();
  const message = (name: string) => (found.find((d) => d.split("\n")[0] === name) ?? "(no error)").split("\n").slice(1).join("\n");

  it("are the ones expected, and no other", () => {
    expect(found.map((d) => d.split("\n")[0])).toEqual(["wrongDatabase", "wrongScriptLayout", ...WRONG_RESPONSE.map(([name]) => name)]);
  });

  it.each(OTHER_DATABASE)("%s: %s of another database says which database each is, naming %s, in a short message", (name, _call, type, sentence) => {
    const text = message(name);
    expect(text).toBe(`Argument of type '${type}' is not assignable to parameter of type '${sentence}'.`);
    expect(text).not.toMatch(/LayoutDefinition<|exactOptionalPropertyTypes/);
    // The OData client's budget for the same mistake with a table (odata-unknown-field-messages.test.ts).
    expect(text.length, text).toBeLessThanOrEqual(400);
  });

  it.each(WRONG_RESPONSE)("%s: %s with a response layout of another table or database says which each is, of %s", (name, _call, type, sentence, budget) => {
    const text = message(name);
    // The sentence is the message's last line, against the response layout's own type (not the layout intersected with it).
    expect(text.split("\n").at(-1)!.trim()).toBe(`Type '${type}' is not assignable to type '${sentence}'.`);
    expect(text).not.toMatch(/exactOptionalPropertyTypes|& "a layout|'never'/);
    expect(text.length, text).toBeLessThanOrEqual(budget);
  });
});
