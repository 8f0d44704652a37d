import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import type { LayoutDescriptionInput } from "../../../src/layout/schema.js";
import type { TableDescriptionInput } from "../../../src/table/schema.js";
import { defineTable, type TableSpec } from "../../../src/runtime/odata/index.js";

// The hosted file of the OData client's tests: Office, described by table descriptions (ids pinned, so that
// entityIds can be tested), with a Contacts layout whose portal joins Contacts to Invoices (the relation both
// navigations follow). Contacts has every kind of field, a calculation and a repeating field; Invoices a serial number
// key; Audit no key (rows by ROWID).

export const DB = "Office";
export const USER = "web";
export const PASSWORD = "s3cret-pa55word";
export const API_KEY = "dk_0123456789abcdefghij";
export const FMID_TOKEN = "fmid-token-abcdefghijklmnop";
const W = 2 ** 32;

const CONTACT_FIELDS = [
  { name: "id", type: "text", autoEnter: "uuid", required: true, unique: true },
  { name: "Name", type: "text" },
  { name: "Age", type: "number" },
  { name: "Born", type: "date" },
  { name: "Alarm", type: "time" },
  { name: "Seen", type: "timestamp" },
  { name: "Photo", type: "container" },
  { name: "Tags", type: "text", repetitions: 2 },
  { name: "Label", type: "text", readOnly: true },
] as const;

export const LAYOUTS: LayoutDescriptionInput[] = [
  {
    database: DB,
    layout: "Contacts Web",
    table: "Contacts",
    fields: CONTACT_FIELDS.map((f) => ({ ...f })),
    portals: [{ name: "Invoices", table: "Invoices", relation: { parentField: "id", childField: "ContactId" }, fields: [{ name: "Invoices::Amount", type: "number" }] }],
  },
];

export const TABLES: TableDescriptionInput[] = [
  {
    database: DB,
    table: "Contacts",
    id: "FMTID:1065089",
    key: "id",
    fields: [
      { name: "id", type: "text", autoEnter: "uuid", notNull: true, id: `FMFID:${1 * W + 1065089}` },
      { name: "Name", type: "text", id: `FMFID:${2 * W + 1065089}` },
      { name: "Age", type: "number", id: `FMFID:${3 * W + 1065089}` },
      { name: "Born", type: "date", id: `FMFID:${4 * W + 1065089}` },
      { name: "Alarm", type: "time", id: `FMFID:${5 * W + 1065089}` },
      { name: "Seen", type: "timestamp", id: `FMFID:${6 * W + 1065089}` },
      { name: "Photo", type: "container", id: `FMFID:${7 * W + 1065089}` },
      { name: "Tags", type: "text", repetitions: 2, id: `FMFID:${8 * W + 1065089}` },
      { name: "Label", type: "text", readOnly: true, id: `FMFID:${9 * W + 1065089}` },
    ],
    relations: [{ name: "Invoices", table: "Invoices", many: true }],
  },
  {
    database: DB,
    table: "Invoices",
    id: "FMTID:1065200",
    key: "InvoiceNo",
    fields: [
      { name: "InvoiceNo", type: "number", autoEnter: "serial", readOnly: true, notNull: true, id: `FMFID:${1 * W + 1065200}` },
      { name: "ContactId", type: "text", id: `FMFID:${2 * W + 1065200}` },
      { name: "Amount", type: "number", id: `FMFID:${3 * W + 1065200}` },
    ],
    relations: [{ name: "Contacts", table: "Contacts", many: true }],
  },
  {
    database: DB,
    table: "Audit",
    fields: [
      { name: "Event", type: "text", notNull: true },
      { name: "Codes", type: "text", repetitions: 2 },
      { name: "N", type: "number" },
    ],
  },
];

// ---- Hand-written definitions, as a generated module writes them.

export interface ContactsRow {
  id: string;
  Name: string;
  Age: number | null;
  Born: string | null;
  Alarm: string | null;
  Seen: string | null;
  Photo: string | null;
  Tags: [string, string];
  Label: string;
}
export interface ContactsRelations {
  Invoices: typeof Invoices;
}
export const Contacts = defineTable<ContactsRow, ContactsRelations>()({
  database: "Office",
  table: "Contacts",
  id: "FMTID:1065089",
  key: "id",
  fields: {
    id: { type: "text", notNull: true, autoEnter: "uuid", id: `FMFID:${1 * W + 1065089}` },
    Name: { type: "text", id: `FMFID:${2 * W + 1065089}` },
    Age: { type: "number", id: `FMFID:${3 * W + 1065089}` },
    Born: { type: "date", id: `FMFID:${4 * W + 1065089}` },
    Alarm: { type: "time", id: `FMFID:${5 * W + 1065089}` },
    Seen: { type: "timestamp", id: `FMFID:${6 * W + 1065089}` },
    Photo: { type: "container", id: `FMFID:${7 * W + 1065089}` },
    Tags: { type: "text", repetitions: 2, id: `FMFID:${8 * W + 1065089}` },
    Label: { type: "text", readOnly: true, id: `FMFID:${9 * W + 1065089}` },
  },
  relations: { Invoices: { table: "Invoices", many: true, target: (): TableSpec => Invoices } },
});

export interface InvoicesRow {
  InvoiceNo: number;
  ContactId: string;
  Amount: number | null;
}
export interface InvoicesRelations {
  Contacts: typeof Contacts;
}
export const Invoices = defineTable<InvoicesRow, InvoicesRelations>()({
  database: "Office",
  table: "Invoices",
  id: "FMTID:1065200",
  key: "InvoiceNo",
  fields: {
    InvoiceNo: { type: "number", readOnly: true, notNull: true, autoEnter: "serial", id: `FMFID:${1 * W + 1065200}` },
    ContactId: { type: "text", id: `FMFID:${2 * W + 1065200}` },
    Amount: { type: "number", id: `FMFID:${3 * W + 1065200}` },
  },
  relations: { Contacts: { table: "Contacts", many: true, target: (): TableSpec => Contacts } },
});

export interface AuditRow {
  Event: string;
  Codes: [string, string];
  N: number | null;
}
export const Audit = defineTable<AuditRow>()({
  database: "Office",
  table: "Audit",
  fields: { Event: { type: "text", notNull: true }, Codes: { type: "text", repetitions: 2 }, N: { type: "number" } },
});

export const CONTACTS = [
  { id: "A1", Name: "Ada", Age: 36, Born: "12/10/1815", Alarm: "07:30:00", Seen: "11/27/2026 09:15:00", Tags: "x" },
  { id: "B2", Name: "bob", Age: 41, Born: "", Alarm: "", Seen: "", Tags: "" },
  { id: "C3", Name: "Cy O'Brien", Age: 7.5, Born: "01/01/2020", Alarm: "23:59:59", Seen: "01/01/2020 00:00:00", Tags: "" },
];

export async function startOffice(extra: Partial<Parameters<typeof startEmulator>[0]> = {}, audit = 5): Promise<RunningEmulator> {
  return startEmulator({
    layouts: LAYOUTS,
    tables: TABLES,
    calculations: { Contacts: { Label: (r) => `${String(r.Name)} (${String(r.Age)})` } },
    log: () => {},
    data: {
      accounts: [
        { username: USER, password: PASSWORD },
        { username: "rest", password: "only", privileges: ["fmrest"] },
        { fmid: FMID_TOKEN },
      ],
      records: {
        Contacts: CONTACTS,
        Invoices: [
          { ContactId: "A1", Amount: 10 },
          { ContactId: "A1", Amount: 20.25 },
          { ContactId: "B2", Amount: 5 },
        ],
        Audit: Array.from({ length: audit }, (_, i) => ({ Event: `e${i + 1}`, N: i + 1 })),
      },
    },
    ...extra,
  } as Parameters<typeof startEmulator>[0]);
}
