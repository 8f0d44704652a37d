import { describe, expect, it } from "vitest";
import { probeDiagnostics } from "./probe-diagnostics.js";

// What the compiler says at the main misuses of the OData client's types: the type tests (odata-tables.test-d.ts,
// odata-filters.test-d.ts) prove they do not compile; this proves each fails for the reason named there (the field,
// the kind, the relation, the database), not for some other error that would hide a hole. One probe, one program. Its
// tables are written by hand (test/types/odata), without a generated module's named shapes, so that messages show the
// shapes themselves; odata-unknown-field-messages.test.ts checks that a generated module's messages name them.

const probe = `
import { f } from "../../src/runtime/odata/filter.js";
import type { ODataClient } from "../../src/runtime/odata/api.js";
import { Contacts } from "./odata/contacts-table.js";
import { Other } from "./odata/invoices-table.js";
import { Notes } from "./odata/notes-table.js";
import { Ledger } from "./odata/ledger-table.js";
declare const od: ODataClient<"Contacts">;
const c = od.table(Contacts);
const notes = od.table(Notes);
const r = await c.list({ select: ["Age"] });
const g = await c.get(7, { expand: { Invoices: { select: ["Amount"] } } });
export const unknownSelect = c.list({ select: ["Nope"] });
export const unknownFilter = c.list({ filter: f.eq("Nope", 1) });
export const unknownOrderBy = c.list({ orderBy: [["Nope", "asc"]] });
export const textOnNumber = c.list({ filter: f.contains("Age", "1") });
export const numberOnDate = c.list({ filter: f.eq("Birthday", 3) });
export const notADate = notes.list({ filter: f.eq("Due", "yesterday") });
export const unknownRelation = c.get(7, { expand: { Nope: true } });
export const notSelected = r.value[0]!.Birthday;
export const notSelectedInExpand = g.Invoices[0]!.ContactID;
export const readOnlyCreate = c.create({ "First Name": "a", Calc: "x" });
export const readOnlyUpdate = c.update(7, { id: 3 });
export const containerUpdate = c.update(7, { Photo: "x" });
export const requiredMissing = notes.create({ Due: null });
export const numberOnExact = od.table(Ledger).list({ filter: f.eq("Amount", 5) });
export const numberWrittenToExact = od.table(Ledger).update("1", { Amount: 5 });
export const otherDatabase = od.batch((b) => [b.table(Contacts).create({ "First Name": "x" }), b.table(Other).delete({ rowId: 1 })]);
`;

/** Each misuse's messages, joined (a line each), by the name of its probe line. */
function diagnostics(): Map<string, string> {
  const found = new Map<string, string>();
  for (const { name, text } of probeDiagnostics("test/types/odata-messages-probe.ts", probe)) found.set(name, `${found.get(name) ?? ""}${text}\n`);
  return found;
}

/** Each misuse, and what its message must say. */
const EXPECTED: Record<string, string[]> = {
  unknownSelect: [`Type '"Nope"' is not assignable to type '"id" | "First Name" | "Age" | "Birthday" | "Calc" | "Photo"'.`],
  unknownFilter: [`Property 'Nope' is missing in type '{ id: "number"; "First Name": "text"; Age: "number";`],
  unknownOrderBy: [`Type '"Nope"' is not assignable to type '"id" | "First Name" | "Age" | "Birthday" | "Calc" | "Photo"'.`],
  textOnNumber: [`Types of property 'Age' are incompatible.`, `Type '"number"' is not assignable to type '"text"'.`],
  numberOnDate: [`Types of property 'Birthday' are incompatible.`, `Type '"date"' is not assignable to type '"number"'.`],
  notADate: [`Types of property 'Due' are incompatible.`, `Type '"date"' is not assignable to type '"text"'.`],
  unknownRelation: [`'Nope' does not exist in type '{ readonly Invoices?: true | ExpandOptions<`],
  notSelected: [`Property 'Birthday' does not exist on type 'Pick<ContactsRow, "Age">'.`],
  notSelectedInExpand: [`Property 'ContactID' does not exist on type 'Pick<InvoicesRow, "Amount">'.`],
  readOnlyCreate: [`'Calc' does not exist in type '{ "First Name": string; } & { Age?: number | null; Birthday?: string | null; }'.`],
  readOnlyUpdate: [`'id' does not exist in type '{ "First Name"?: string; Age?: number | null; Birthday?: string | null; }'.`],
  containerUpdate: [`'Photo' does not exist in type '{ "First Name"?: string; Age?: number | null; Birthday?: string | null; }'.`],
  requiredMissing: [`Property 'Text' is missing in type '{ Due: null; }' but required in type '{ Text: string; }'.`],
  numberOnExact: [`Types of property 'Amount' are incompatible.`, `Type '"exact number"' is not assignable to type '"number"'.`],
  numberWrittenToExact: [`Type 'number' is not assignable to type 'string'.`],
  otherDatabase: [`is not assignable to parameter of type '"a table of database \\"Other\\", but this client is for database \\"Contacts\\""'.`],
};

describe("compile errors of the OData client's types", () => {
  const found = diagnostics();

  it("are one per misuse, and no other", () => {
    expect([...found.keys()]).toEqual(Object.keys(EXPECTED));
  });

  for (const [name, fragments] of Object.entries(EXPECTED)) {
    it(`${name}: says why`, () => {
      for (const fragment of fragments) expect(found.get(name)).toContain(fragment);
    });
  }
});
