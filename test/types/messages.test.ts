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
`;

const diagnostics = () => probeDiagnostics("test/types/messages-probe.ts", probe).map(({ name, text }) => `${name}\n${text}`);

/** A layout of another database, where a client of a typed database takes one: the layout's type, and the sentence. */
const OTHER_DATABASE = [
  ["wrongDatabase", "fm.layout()", "InvoiceLayout", `"a layout of database \\"Invoicing\\", but this client is for database \\"Contacts\\""`],
  ["wrongScriptLayout", "fm.runScript()", "ContactLayout", `"a layout of database \\"Contacts\\", but this client is for database \\"Invoicing\\""`],
] as const;

describe("compile errors of a layout of another database or table", () => {
  const found = diagnostics();
  const message = (name: string) => (found.find((d) => d.split("\n")[0] === name) ?? "(no error)").split("\n").slice(1).join("\n");

  it("are the three expected, and no other", () => {
    expect(found.map((d) => d.split("\n")[0])).toEqual(["wrongDatabase", "wrongScriptLayout", "wrongTable"]);
  });

  it.each(OTHER_DATABASE)("%s: %s of another database says which database each is, naming %s, in a short message", (name, _call, type, sentence) => {
    const text = message(name);
    expect(text).toBe(`Argument of type '${type}' is not assignable to parameter of type '${sentence}'.`);
    expect(text).not.toMatch(/LayoutDefinition<|exactOptionalPropertyTypes/);
    // The OData client's budget for the same mistake with a table (odata-unknown-field-messages.test.ts).
    expect(text.length, text).toBeLessThanOrEqual(400);
  });

  it("a response layout of another table says which table each shows", () => {
    expect(message("wrongTable")).toContain(`is not assignable to type '"a layout of table \\"Customers\\", not of this layout's table \\"Invoices\\""'`);
  });
});
