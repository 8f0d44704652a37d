/**
 * Compile-time guarantees of portals, portal writes and response layouts, checked by `npm run typecheck`: every
 * `@ts-expect-error` below must be an error, everything else must compile. Written against the committed golden
 * modules of examples/contacts and the test layouts of test/support. Never run.
 */
import { expectTypeOf } from "vitest";
import { createClient, type FmRecord, type NewPortalRow, type Page, type PortalInfo, type PortalRow } from "@fmgen/runtime";
import { Contact, type ContactFields, type ContactInvoicesRow, type ContactPortals, type ContactRecord } from "../../examples/contacts/generated/index.js";
import { Customer, Invoice as InvoiceDetail, InvoiceSummary } from "../../examples/invoices/generated/index.js";
import { ContactSummary, ContactWithNotes } from "../support/runtime-layouts.js";

const fm = createClient({ server: "http://127.0.0.1:1", database: "Contacts", auth: { username: "u", password: "p" } });
const contacts = fm.layout(Contact);
const withNotes = fm.layout(ContactWithNotes);

type NotesRow = PortalRow<{ "Notes::Title": string }>;
type InvoicesRow = PortalRow<{ "Invoices::Amount": number | null; "Invoices::Issued": string | null }>;

export async function chosenPortals(): Promise<void> {
  // Without the option: every portal, no portalInfo, the layout's record as before.
  const plain = await withNotes.get(1);
  expectTypeOf(plain.portalData.Invoices).toEqualTypeOf<InvoicesRow[]>();
  expectTypeOf(plain.portalData["Recent Notes"]).toEqualTypeOf<NotesRow[]>();
  // @ts-expect-error: portalInfo comes with the portals option
  void plain.portalInfo;
  expectTypeOf(await contacts.get(1)).toEqualTypeOf<ContactRecord>();

  // With it: exactly the chosen portals, each with its portalInfo.
  const one = await withNotes.get(1, { portals: { Invoices: { offset: 1, limit: 10 } } });
  expectTypeOf(one.portalData.Invoices).toEqualTypeOf<InvoicesRow[]>();
  expectTypeOf(one.portalInfo.Invoices).toEqualTypeOf<PortalInfo>();
  expectTypeOf(one.portalInfo.Invoices.foundCount).toEqualTypeOf<number>();
  // @ts-expect-error: a portal not chosen is not in the result
  void one.portalData["Recent Notes"];
  // @ts-expect-error: nor is its portalInfo
  void one.portalInfo["Recent Notes"];
  expectTypeOf(one.fieldData).toEqualTypeOf<{ "First Name": string; "Last Name": string }>();

  const both = await withNotes.get(1, { portals: { Invoices: true, "Recent Notes": { limit: 5 } } });
  expectTypeOf(both.portalData["Recent Notes"]).toEqualTypeOf<NotesRow[]>();
  const none = await withNotes.get(1, { portals: {} });
  // @ts-expect-error: no portal chosen, none in the result
  void none.portalData.Invoices;

  // Every read takes them.
  const page = await withNotes.list({ limit: 2, portals: { "Recent Notes": true } });
  expectTypeOf(page.data[0]!.portalData["Recent Notes"]).toEqualTypeOf<NotesRow[]>();
  // @ts-expect-error: not chosen
  void page.data[0]!.portalData.Invoices;
  const found = await contacts.find({ query: [{ "First Name": "Ada" }], portals: { Invoices: { limit: 1 } } });
  expectTypeOf(found).toEqualTypeOf<Page<FmRecord<ContactFields, Pick<ContactPortals, "Invoices">> & { portalInfo: { Invoices: PortalInfo } }>>();
  const first = await withNotes.findFirst({ query: [{ "First Name": "Ada" }], portals: { "Recent Notes": true } });
  expectTypeOf(first?.portalData["Recent Notes"]).toEqualTypeOf<NotesRow[] | undefined>();
  const only = await withNotes.findOne({ query: [{ "First Name": "Ada" }], portals: { Invoices: true } });
  // @ts-expect-error: not chosen
  void only.portalData["Recent Notes"];
  for await (const record of withNotes.listAll({ portals: { Invoices: { limit: 1 } } })) {
    expectTypeOf(record.portalInfo.Invoices.returnedCount).toEqualTypeOf<number>();
    // @ts-expect-error: not chosen
    void record.portalData["Recent Notes"];
  }
  for await (const record of withNotes.findAll({ query: [{ "First Name": "Ada" }], portals: { "Recent Notes": true } })) {
    // @ts-expect-error: not chosen
    void record.portalInfo.Invoices;
  }
  const built = await withNotes.query().where({ "First Name": "Ada" }).portals({ "Recent Notes": true }).limit(1).run();
  expectTypeOf(built.data[0]!.portalData["Recent Notes"]).toEqualTypeOf<NotesRow[]>();
  // @ts-expect-error: not chosen through the builder either
  void built.data[0]!.portalData.Invoices;
}

export async function portalsTheLayoutLacks(): Promise<void> {
  // @ts-expect-error: a range on a portal the layout lacks
  await contacts.get(1, { portals: { Payments: { limit: 5 } } });
  // @ts-expect-error: beside a portal it has, too
  await contacts.get(1, { portals: { Invoices: true, Payments: true } });
  // @ts-expect-error: on list
  await contacts.list({ portals: { Notes: true } });
  // @ts-expect-error: on find
  await contacts.find({ query: [{ "First Name": "Ada" }], portals: { "Recent Notes": true } });
  // @ts-expect-error: on a stream
  contacts.listAll({ portals: { Payments: true } });
  // @ts-expect-error: in the builder
  contacts.query().portals({ Payments: true });
  // @ts-expect-error: a range is true or { offset, limit }
  await contacts.get(1, { portals: { Invoices: { limit: "5" } } });
  // @ts-expect-error: false is not a choice (leave the portal out)
  await contacts.get(1, { portals: { Invoices: false } });
}

export async function portalRows(): Promise<void> {
  for await (const row of contacts.portalRows(1, "Invoices", { pageSize: 200 })) {
    expectTypeOf(row).toEqualTypeOf<PortalRow<ContactInvoicesRow>>();
    expectTypeOf(row["Invoices::Amount"]).toEqualTypeOf<number | null>();
  }
  for await (const row of withNotes.portalRows(1, "Recent Notes")) expectTypeOf(row).toEqualTypeOf<NotesRow>();
  // @ts-expect-error: a portal the layout lacks
  contacts.portalRows(1, "Payments");
}

export async function portalWrites(): Promise<void> {
  const edited = await contacts.edit(1, { portalData: { Invoices: [{ recordId: "7", modId: "2", "Invoices::Amount": 5 }, { "Invoices::Amount": 6 }] } });
  expectTypeOf(edited.newPortalRecordInfo).toEqualTypeOf<NewPortalRow[] | undefined>();
  expectTypeOf(edited.modId).toEqualTypeOf<string>();
  await contacts.edit(1, { fieldData: {}, deleteRelated: [{ portal: "Invoices", recordId: "7" }] });
  await withNotes.edit(1, { deleteRelated: [{ portal: "Recent Notes", recordId: 3 }] });
  // @ts-expect-error: deleteRelated on a portal the layout lacks
  await contacts.edit(1, { deleteRelated: [{ portal: "Payments", recordId: "7" }] });
  // @ts-expect-error: a table occurrence is not a portal name ("Recent Notes" shows table occurrence Notes)
  await withNotes.edit(1, { deleteRelated: [{ portal: "Notes", recordId: "7" }] });
  // @ts-expect-error: a row needs its recordId
  await contacts.edit(1, { deleteRelated: [{ portal: "Invoices" }] });
}

export async function responseLayouts(): Promise<void> {
  const summary = await contacts.get(1, { response: ContactSummary });
  expectTypeOf(summary.fieldData).toEqualTypeOf<{ "First Name": string; Email: string }>();
  expectTypeOf(summary.portalData.Invoices).toEqualTypeOf<PortalRow<{ "Invoices::Amount": number | null }>[]>();
  // @ts-expect-error: a field of the request layout that the response layout does not show
  void summary.fieldData["Last Name"];
  // @ts-expect-error: nor its portal fields
  void summary.portalData.Invoices[0]!["Invoices::Issued"];

  const page = await withNotes.find({ query: [{ "Last Name": "Lovelace" }], response: ContactSummary, portals: { Invoices: { limit: 1 } } });
  expectTypeOf(page.data[0]!.portalInfo.Invoices).toEqualTypeOf<PortalInfo>();
  // @ts-expect-error: portals name the response layout's portals: it has no "Recent Notes"
  await withNotes.find({ query: [{ "Last Name": "Lovelace" }], response: ContactSummary, portals: { "Recent Notes": true } });
  // @ts-expect-error: find criteria stay the request layout's ("Email" is not on Contact Portals)
  await withNotes.find({ query: [{ Email: "x" }], response: ContactSummary });
  for await (const record of contacts.listAll({ response: ContactSummary })) {
    // @ts-expect-error: read with the request layout's field name
    void record.fieldData.Status;
  }
  const listed = await contacts.list({ response: ContactSummary });
  expectTypeOf(listed.data[0]!.fieldData.Email).toEqualTypeOf<string>();

  // A response layout of another database: a compile error where both types say which database.
  const Mine = { ...Contact, database: "Contacts" as const };
  const Elsewhere = { ...ContactSummary, database: "Elsewhere" as const };
  const mine = fm.layout(Mine);
  // @ts-expect-error: another database
  await mine.get(1, { response: Elsewhere });
  // @ts-expect-error: another database, on a list too
  await mine.list({ response: Elsewhere });
  // @ts-expect-error: and a find
  await mine.find({ query: [{ "First Name": "Ada" }], response: Elsewhere });
  await mine.get(1, { response: { ...ContactSummary, database: "Contacts" as const } });
  // A generated definition keeps its spec's database as a literal type: the check applies to it too.
  // @ts-expect-error: contacts is of database "Contacts"
  await contacts.get(1, { response: Elsewhere });
  // Two generated definitions of different databases (Contacts, Invoicing).
  // @ts-expect-error: InvoiceSummary is a layout of "Invoicing"
  await contacts.find({ query: [{ "First Name": "Ada" }], response: InvoiceSummary });
  // Where a type does not say (a plain string), the runtime checks (a TypeError).
  const Unsaid = { ...ContactSummary, database: "Elsewhere" as string };
  await contacts.get(1, { response: Unsaid });
}

export async function responseLayoutsOfAnotherTable(): Promise<void> {
  // Generated definitions carry their base table (`table` in the spec): a response layout of another table is a
  // compile error (the server would answer it with an error).
  const invoices = createClient({ server: "http://127.0.0.1:1", database: "Invoicing", auth: { username: "u", password: "p" } }).layout(InvoiceDetail);
  const summaries = await invoices.find({ query: [{ Number: "1" }], response: InvoiceSummary });
  expectTypeOf(summaries.data[0]!.fieldData.Total).toEqualTypeOf<number | null>();
  // @ts-expect-error: Customer shows table "Customers", not "Invoices"
  await invoices.find({ query: [{ Number: "1" }], response: Customer });
  // @ts-expect-error: on a get too
  await invoices.get(1, { response: Customer });
  // @ts-expect-error: on a list
  await invoices.list({ response: Customer });
  // @ts-expect-error: and on a findOne, with portals
  await invoices.findOne({ query: [{ Number: "1" }], response: Customer, portals: {} });
  // A definition whose type does not say its table (hand-written: ContactSummary) is left to the server.
  await contacts.get(1, { response: ContactSummary });
}
