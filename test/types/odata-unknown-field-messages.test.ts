import { describe, expect, it } from "vitest";
import { probeDiagnostics } from "./probe-diagnostics.js";

// What the compiler says about a field, relation or write the table does not take, through the OData client (issue
// 31: such messages printed the runtime's generic types with the whole spec, `FieldNameOf<TableDefinition<{ row: ...;
// spec: ... }>>`). As the Data API's (unknown-field-messages.test.ts), a generated table module names the shapes calls
// check arguments against (`ContactsInsert`, `ContactsFieldName`, ...) and types its definition with them
// (`ContactsDefinition`), so that a message names the table's own type and the field, and stays as short as the Data
// API's. A read-only field is refused as the Data API refuses one: it is not in the write's type. Compiled with the
// project's flags (tsconfig.json) against the OData example's generated modules.


const OTHER_DATABASE = `"a table of database \\"Contacts\\", but this client is for database \\"Office\\""`;

/** Each mistake, the name its message must print, and the field (or relation, or database) it must name. */
const MISTAKES = [
  ["createField", `contacts.create({ "First Name": "a", Emial: "x" })`, "ContactsInsert", "Emial"],
  ["createReadOnly", `contacts.create({ "First Name": "a", Created: "2024-01-01T00:00:00" })`, "ContactsInsert", "Created"],
  ["createContainer", `contacts.create({ "First Name": "a", Photo: "x" })`, "ContactsInsert", "Photo"],
  ["createRequired", `contacts.create({ Email: "x" })`, "ContactsInsert", "First Name"],
  ["updateField", `contacts.update(1, { Emial: "x" })`, "ContactsUpdate", "Emial"],
  ["updateReadOnly", `contacts.update(1, { id: 3 })`, "ContactsUpdate", "id"],
  ["updateWhereField", `contacts.updateWhere(f.eq("Status", "x"), { Emial: "x" })`, "ContactsUpdate", "Emial"],
  ["batchCreate", `od.batch((b) => [b.table(Contacts).create({ "First Name": "a", Emial: "x" })])`, "ContactsInsert", "Emial"],
  ["batchUpdate", `od.batch((b) => [b.table(Invoices).update(1, { InvoiceNo: 2 })])`, "InvoicesUpdate", "InvoiceNo"],
  ["listSelect", `contacts.list({ select: ["Emial"] })`, "ContactsFieldName", "Emial"],
  ["getSelect", `contacts.get(1, { select: ["Emial"] })`, "ContactsFieldName", "Emial"],
  ["allSelect", `contacts.all({ select: ["Emial"] })`, "ContactsFieldName", "Emial"],
  ["orderByName", `contacts.list({ orderBy: ["Emial"] })`, "ContactsFieldName", "Emial"],
  ["orderByPair", `contacts.list({ orderBy: [["Emial", "desc"]] })`, "ContactsFieldName", "Emial"],
  ["listFilter", `contacts.list({ filter: f.eq("Emial", "x") })`, "ContactsKinds", "Emial"],
  ["countFilter", `contacts.count({ filter: f.eq("Emial", "x") })`, "ContactsKinds", "Emial"],
  ["deleteWhereFilter", `contacts.deleteWhere(f.eq("Emial", "x"))`, "ContactsKinds", "Emial"],
  ["filterKind", `contacts.list({ filter: f.contains("id", "1") })`, "ContactsKinds", "id"],
  ["expandRelation", `contacts.list({ expand: { Invoice: true } })`, "ContactsExpand", "Invoice"],
  ["expandSelect", `contacts.list({ expand: { Invoices: { select: ["Amout"] } } })`, "InvoicesFieldName", "Amout"],
  ["relatedSelect", `contacts.related(1, "Invoices", { select: ["Amout"] })`, "InvoicesFieldName", "Amout"],
  ["webhookSelect", `od.webhooks.add({ url: "https://example.com/hook", table: Contacts, select: ["Emial"] })`, "ContactsFieldName", "Emial"],
  // A table of another database (a golden module's): the message says which database each is, as the Data API's says of a layout.
  ["otherTable", `od.table(OtherContacts)`, "ContactsTableDefinition", OTHER_DATABASE],
  ["otherCount", `od.count(OtherContacts)`, "ContactsTableDefinition", OTHER_DATABASE],
  ["otherBatch", `od.batch((b) => [b.table(OtherContacts).delete(1)])`, "ContactsTableDefinition", OTHER_DATABASE],
  ["otherWebhook", `od.webhooks.add({ url: "https://example.com/hook", table: OtherContacts })`, "ContactsTableDefinition", OTHER_DATABASE],
] as const;

const probe = [
  `import { createODataClient, f } from "@fmgen/runtime/odata";`,
  `import { Contacts, Invoices } from "../../examples/odata/generated/index.js";`,
  `import { ContactsTable as OtherContacts } from "../golden/generated/odata/contacts.table.js";`,
  `const od = createODataClient({ server: "http://127.0.0.1:1", database: "Office", auth: { username: "u", password: "p" } });`,
  `const contacts = od.table(Contacts);`,
  ...MISTAKES.map(([name, call]) => `export const ${name} = ${call};`),
  "",
].join("\n");

/** Each diagnostic of the probe: the mistake of its line, and the message's text. */
const diagnostics = () => probeDiagnostics("test/types/odata-unknown-field-probe.ts", probe);

describe("a type error on a field, relation or write the OData table does not take", () => {
  const found = diagnostics();

  it("is one error per mistake, and no other", () => {
    expect(found.map((d) => d.name)).toEqual(MISTAKES.map(([name]) => name));
  });

  it.each(MISTAKES.map(([name, , type, field]) => [name, type, field] as const))("%s names %s and %s, in a short message", (name, type, field) => {
    const { text } = found.find((d) => d.name === name) ?? { text: "(no error)" };
    expect(text).toMatch(new RegExp(`\\b${type}\\b`));
    expect(text).toContain(field);
    expect(text).not.toMatch(/TableDefinition<|TableTypes|InsertOf<|UpdateOf<|FieldNameOf<|KindsOf<|ExpandOf<|FilterOf<|spec:/);
    // The Data API's budget for a call that is not overloaded (unknown-field-messages.test.ts); before, a select's message ran to thousands of characters.
    expect(text.length, text).toBeLessThanOrEqual(400);
  });

  it("says a misspelt field's likely name, as the Data API does", () => {
    expect(found.find((d) => d.name === "createField")?.text).toContain("Did you mean to write 'Email'?");
  });
});
