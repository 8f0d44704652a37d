import { describe, expect, it } from "vitest";
import { probeDiagnostics } from "./probe-diagnostics.js";

// What the compiler says about a field, portal or sort the layout does not have (issue 22: such messages printed the
// runtime's generic types with the whole spec, `LayoutDefinition<SpecTypes<ContactFields, { readonly database: ...`).
// A generated module names the shapes calls check arguments against (`ContactInput`, `ContactQuery`, ...: interfaces,
// which the compiler prints by name) and types its definition with them (`ContactLayout`), so that a message names
// the layout's own type and stays short. Compiled with the project's flags (tsconfig.json) against the examples'
// generated modules, as messages.test.ts does.


/** Each mistake, the name its message must print, and whether its call is overloaded (the message then lists each overload). */
const MISTAKES = [
  ["createField", `contacts.create({ fieldData: { Nmae: "x" } })`, "'ContactInput'", false],
  ["editField", `contacts.edit(1, { fieldData: { Nmae: "x" } })`, "'ContactInput'", false],
  ["findField", `contacts.find({ query: [{ Nmae: "x" }] })`, "'ContactQuery'", true],
  ["findOneField", `contacts.findOne({ query: [{ Nmae: "x" }] })`, "'ContactQuery'", true],
  ["findAllField", `contacts.findAll({ query: [{ Nmae: "x" }] })`, "'ContactQuery'", true],
  ["whereField", `contacts.query().where({ Nmae: "x" })`, "'ContactCriteria'", false],
  ["findSort", `contacts.find({ query: [{ Email: "x" }], sort: [{ fieldName: "Nmae", sortOrder: "ascend" }] })`, "'keyof ContactFields'", true],
  ["listSort", `contacts.list({ sort: [{ fieldName: "Nmae" }] })`, "'keyof ContactFields'", true],
  ["builderSort", `contacts.query().where({ Email: "x" }).sort("Nmae")`, "'keyof ContactFields'", false],
  ["createPortal", `contacts.create({ fieldData: {}, portalData: { Nope: [] } })`, "'ContactPortalInput'", false],
  ["editPortal", `contacts.edit(1, { portalData: { Nope: [] } })`, "'ContactPortalInput'", false],
  // A portal row's fields are printed (a portal shows few fields), not named: see `createPortalField` below.
  ["createPortalField", `contacts.create({ fieldData: {}, portalData: { Invoices: [{ "Invoices::Nope": 1 }] } })`, `'{ "Invoices::Amount"?: number | null; "Invoices::Issued"?: string | null; } & RowIds'`, false],
  ["downloadField", `contacts.download(1, "NotAContainer")`, `'"Photo"'`, false],
  ["uploadField", `contacts.upload(1, "Email", new Blob([]))`, `'"Photo"'`, false],
  ["invoiceCreate", `invoices.create({ fieldData: { Nmae: 1 } })`, "'InvoiceInput'", false],
  ["invoiceFind", `invoices.find({ query: [{ Nmae: 1 }] })`, "'InvoiceQuery'", true],
] as const;

const probe = [
  `import { createClient } from "@fmgen/runtime";`,
  `import { Contact, Contacts } from "../../examples/contacts/generated/index.js";`,
  `import { Invoice } from "../../examples/invoices/generated/index.js";`,
  `const auth = { username: "u", password: "p" };`,
  `const contacts = createClient({ server: "http://127.0.0.1:1", database: Contacts, auth }).layout(Contact);`,
  `const invoices = createClient({ server: "http://127.0.0.1:1", database: "Invoicing", auth }).layout(Invoice);`,
  ...MISTAKES.map(([name, call]) => `export const ${name} = ${call};`),
  "",
].join("\n");

/** Each diagnostic of the probe: the mistake of its line, and the message's text. */
const diagnostics = () => probeDiagnostics("test/types/unknown-field-probe.ts", probe);

describe("a type error on a field, portal or sort the layout lacks", () => {
  const found = diagnostics();

  it("is one error per mistake, and no other", () => {
    expect(found.map((d) => d.name)).toEqual(MISTAKES.map(([name]) => name));
  });

  it.each(MISTAKES.map(([name, , type, overloaded]) => [name, type, overloaded] as const))("%s names %s, in a short message", (name, type, overloaded) => {
    const { text } = found.find((d) => d.name === name) ?? { text: "(no error)" };
    expect(text).toContain(`type ${type}`);
    expect(text).not.toMatch(/SpecTypes<|LayoutDefinition<|CriteriaShape<|QueryOf<|InputOf</);
    // An overloaded call's message shows each overload's signature and error: its definition by name (ContactLayout). Before, one such message was 1,811 characters.
    if (overloaded) {
      expect(text).toContain("ContactLayout".replace("Contact", name.startsWith("invoice") ? "Invoice" : "Contact"));
      expect(text.length, text).toBeLessThanOrEqual(700);
    } else expect(text.length, text).toBeLessThanOrEqual(400);
  });
});
