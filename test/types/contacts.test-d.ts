/**
 * Compile-time guarantees of generated code, checked by `npm run typecheck` (tsconfig.json includes test/):
 * every `@ts-expect-error` below must be an error, everything else must compile. Written against the committed
 * golden modules of examples/contacts. This file is never run.
 */
import { expectTypeOf } from "vitest";
import { createClient, type FmRecord, type PortalRow, type SortOrder, type SortSpec } from "@fmgen/runtime";
import {
  Contact,
  Invoice,
  type ContactContainer,
  type ContactFieldName,
  type ContactFields,
  type ContactInput,
  type ContactInvoicesRow,
  type ContactPortals,
  type ContactQuery,
  type ContactRecord,
  type ContactSort,
  type InvoiceContainer,
} from "../../examples/contacts/generated/index.js";

const fm = createClient({ server: "http://127.0.0.1:1", database: "Contacts", auth: { username: "u", password: "p" } });
const contacts = fm.layout(Contact);
const invoices = fm.layout(Invoice);

export async function readShapes(): Promise<void> {
  const record = await contacts.get(1);
  expectTypeOf(record).toEqualTypeOf<ContactRecord>();
  expectTypeOf(record).toEqualTypeOf<FmRecord<ContactFields, ContactPortals>>();
  expectTypeOf(record.fieldData["First Name"]).toEqualTypeOf<string>();
  expectTypeOf(record.fieldData.id).toEqualTypeOf<number | null>();
  expectTypeOf(record.fieldData.Status).toEqualTypeOf<"Active" | "Inactive" | "">();
  expectTypeOf(record.fieldData.Birthday).toEqualTypeOf<string | null>();
  expectTypeOf(record.fieldData.Photo).toEqualTypeOf<string | null>();
  expectTypeOf(record.fieldData.Phone).toEqualTypeOf<[string, string, string]>();
  expectTypeOf(record.portalData.Invoices).toEqualTypeOf<PortalRow<ContactInvoicesRow>[]>();
  const row = record.portalData.Invoices[0];
  expectTypeOf(row).toEqualTypeOf<PortalRow<ContactInvoicesRow> | undefined>();
  if (row) {
    expectTypeOf(row["Invoices::Amount"]).toEqualTypeOf<number | null>();
    expectTypeOf(row.recordId).toEqualTypeOf<string>();
  }
  // @ts-expect-error: no such field on the layout
  void record.fieldData.Nickname;
  // @ts-expect-error: no such portal on the layout
  void record.portalData.Payments;
  const invoice = await invoices.get(1);
  // @ts-expect-error: Invoice has no portal at all
  void invoice.portalData.Invoices;
}

export function derivedTypes(): void {
  expectTypeOf<ContactFieldName>().toEqualTypeOf<keyof ContactFields>();
  expectTypeOf<"First Name">().toExtend<ContactFieldName>();
  expectTypeOf<ContactContainer>().toEqualTypeOf<"Photo">();
  expectTypeOf<InvoiceContainer>().toEqualTypeOf<never>();
  // The sort orders: the two, and the names of the file's value lists (its layouts' descriptions name them).
  expectTypeOf<ContactSort>().toEqualTypeOf<SortSpec<ContactFieldName, SortOrder<"Statuses" | "Yes No">>>();
  expectTypeOf<{ "First Name": "Ada"; omit: true }>().toExtend<ContactQuery>();
  // Input: the writable fields only, all optional.
  expectTypeOf<keyof ContactInput>().toEqualTypeOf<"First Name" | "Last Name" | "Email" | "Status" | "Birthday" | "Wake Up" | "Phone" | "Company::Name">();
  expectTypeOf<{}>().toExtend<ContactInput>();
}

export async function createAndEdit(): Promise<void> {
  await contacts.create({ fieldData: { "First Name": "Ada", Status: "Active", Birthday: "1990-01-02", Phone: ["1", undefined, "3"] } });
  await contacts.create({ fieldData: { Email: null, Birthday: null, Status: "" } });
  await contacts.create({ fieldData: { "First Name": "Ada" }, portalData: { Invoices: [{ "Invoices::Amount": 10 }] } });
  await contacts.edit(1, { fieldData: { Phone: ["only the first"] }, modId: "3" });
  await contacts.edit(1, { portalData: { Invoices: [{ recordId: "7", modId: "1", "Invoices::Issued": "2024-01-01" }] } });

  // @ts-expect-error: unknown field name
  await contacts.create({ fieldData: { Nickname: "Ada" } });
  // @ts-expect-error: unknown field name in edit
  await contacts.edit(1, { fieldData: { "first name": "Ada" } });
  // @ts-expect-error: read-only field (auto-entered serial)
  await contacts.create({ fieldData: { id: 5 } });
  // @ts-expect-error: read-only field (creation timestamp)
  await contacts.edit(1, { fieldData: { Created: "2024-01-01T00:00:00" } });
  // @ts-expect-error: container field: only upload() writes it
  await contacts.create({ fieldData: { Photo: "https://example.com/a.png" } });
  // @ts-expect-error: container field in edit
  await contacts.edit(1, { fieldData: { Photo: null } });
  // @ts-expect-error: a number for a text field
  await contacts.create({ fieldData: { "First Name": 42 } });
  // @ts-expect-error: text for a number field
  await invoices.create({ fieldData: { Amount: "12.50" } });
  // @ts-expect-error: not a value of the value list
  await contacts.create({ fieldData: { Status: "Archived" } });
  // @ts-expect-error: more values than repetitions
  await contacts.edit(1, { fieldData: { Phone: ["1", "2", "3", "4"] } });
  // @ts-expect-error: explicit undefined is not a value (exactOptionalPropertyTypes); null clears
  await contacts.edit(1, { fieldData: { Email: undefined } });
  // @ts-expect-error: unknown portal
  await contacts.create({ fieldData: {}, portalData: { Payments: [] } });
  // @ts-expect-error: a read-only portal field name that does not exist on the portal
  await contacts.create({ fieldData: {}, portalData: { Invoices: [{ "Invoices::Total": 1 }] } });
  // @ts-expect-error: a layout without portals takes no portalData
  await invoices.create({ fieldData: {}, portalData: { Invoices: [] } });
}

export async function sortAndFind(): Promise<void> {
  await contacts.list({ sort: [{ fieldName: "First Name", sortOrder: "ascend" }] });
  await contacts.find({ query: [{ "First Name": "Ada", Birthday: "1990-01-02" }, { Status: "Inactive", omit: true }] });
  await contacts.find({ query: [{ Phone: "555" }] });
  // Portal fields are on the layout: the runtime finds by them.
  await contacts.find({ query: [{ "Invoices::Amount": 80 }] });

  // @ts-expect-error: sorting on a field not on the layout
  await contacts.list({ sort: [{ fieldName: "Nickname", sortOrder: "ascend" }] });
  // @ts-expect-error: sorting on a field of another layout
  await invoices.list({ sort: [{ fieldName: "First Name", sortOrder: "descend" }] });
  // @ts-expect-error: finding on a field not on the layout
  await contacts.find({ query: [{ Nickname: "Ada" }] });
  // @ts-expect-error: a wrong value type in a find request
  await invoices.find({ query: [{ Amount: "ten" }] });
  // sortOrder is optional (the Data API sorts ascending), ascend, descend, or the name of one of the file's value
  // lists (records follow its order): "Statuses" is Contact's Status field's, "Yes No" Invoice's Paid field's, and
  // either orders any layout of the file.
  await contacts.list({ sort: [{ fieldName: "Email" }, { fieldName: "Status", sortOrder: "Statuses" }] });
  await contacts.list({ sort: [{ fieldName: "Email", sortOrder: "descend" }, { fieldName: "Last Name", sortOrder: "Yes No" }] });
  await invoices.find({ query: [{ Amount: 1 }], sort: [{ fieldName: "Paid", sortOrder: "Statuses" }] });
  await contacts.find({ query: [{ Status: "Active" }], sort: [{ fieldName: "First Name" }] });
  for await (const record of contacts.listAll({ sort: [{ fieldName: "Status", sortOrder: "Statuses" }] })) void record;
  for await (const record of contacts.findAll({ query: [{ Status: "Active" }], sort: [{ fieldName: "Status", sortOrder: "descend" }] })) void record;
  // A typo of ascend, or a list the file's descriptions do not name, does not compile, in every sort spec.
  // @ts-expect-error: "up" is no sort order
  await contacts.list({ sort: [{ fieldName: "Email", sortOrder: "up" }] });
  // @ts-expect-error: a typo of ascend
  await contacts.find({ query: [{ Status: "Active" }], sort: [{ fieldName: "Email", sortOrder: "acsend" }] });
  // @ts-expect-error: a value list the file does not have (the case counts)
  contacts.listAll({ sort: [{ fieldName: "Email", sortOrder: "statuses" }] });
  // @ts-expect-error: "up" in findAll
  contacts.findAll({ query: [{ Status: "Active" }], sort: [{ fieldName: "Email", sortOrder: "up" }] });
  // Without value lists to name, a sort spec takes the two orders only.
  expectTypeOf<SortSpec["sortOrder"]>().toEqualTypeOf<"ascend" | "descend" | undefined>();
  expectTypeOf<SortOrder>().toEqualTypeOf<"ascend" | "descend">();
  // @ts-expect-error: a sort order is a string
  await contacts.list({ sort: [{ fieldName: "Email", sortOrder: 1 }] });
  // @ts-expect-error: a sort names its field
  await contacts.list({ sort: [{ sortOrder: "ascend" }] });
}

export async function upload(data: Blob): Promise<void> {
  await contacts.upload(1, "Photo", data);
  // @ts-expect-error: upload into a text field
  await contacts.upload(1, "First Name", data);
  // @ts-expect-error: upload into a field not on the layout
  await contacts.upload(1, "Avatar", data);
  // @ts-expect-error: Invoice has no container field
  await invoices.upload(1, "Paid", data);
}
