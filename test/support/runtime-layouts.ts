import { fileURLToPath } from "node:url";
import { defineLayout, type KindsOf } from "../../src/runtime/index.js";
import {
  Contact,
  Invoice,
  type ContactContainer,
  type ContactFields,
  type ContactInput,
  type ContactPortalInput,
  type ContactPortals,
  type InvoiceContainer,
  type InvoiceFields,
  type InvoiceInput,
  type InvoicePortalInput,
  type InvoicePortals,
} from "../../examples/contacts/generated/index.js";
import type { LayoutDescriptionInput } from "../../src/layout/schema.js";

/**
 * Layout definitions for the runtime tests: `Contact` and `Invoice` are the contacts example's generated
 * modules; hand-written beside them, `Types` has every field type (repetitions, a value list, a container with 2 repetitions), `Weird` has names that need
 * percent-encoding. The `Misdescribed*` definitions deliberately disagree with the emulator's layouts, so
 * that the server (not the runtime's own checks) answers 102, 105 and 500-502.
 *
 * The shapes are type aliases rather than interfaces: `fm.layout()` currently refuses interface-typed
 * definitions (see test/runtime/definition-types.test.ts).
 */

export const EXAMPLE_LAYOUTS = fileURLToPath(new URL("../../examples/contacts/layouts/", import.meta.url));
export const EXAMPLE_SEED = fileURLToPath(new URL("../../examples/contacts/seed.json", import.meta.url));
export const DATABASE = "Contacts";
export const USERNAME = "web";
export const PASSWORD = "secret";

/** Repeating fields: the read shape is a tuple of the whole field; inputs may leave any repetition out. */
export type Reps2<T> = [T, T];
export type Reps3<T> = [T, T, T];
export type RepsInput2<T> = readonly [(T | undefined)?, (T | undefined)?];
export type RepsInput3<T> = readonly [(T | undefined)?, (T | undefined)?, (T | undefined)?];

// ---------------------------------------------------------------- Contacts Web, Invoices Web

// The example's own generated modules: the runtime tests use what the generator writes.
export { Contact, Invoice } from "../../examples/contacts/generated/index.js";
export type { ContactFields, ContactInput, ContactPortalInput, ContactPortals, InvoiceFields, InvoiceInput } from "../../examples/contacts/generated/index.js";

/** The example's shapes as a hand-written definition gives them (its generated module derives them from its spec). */
export type ContactTypes = {
  fields: ContactFields;
  input: ContactInput;
  portals: ContactPortals;
  portalInput: ContactPortalInput;
  containers: ContactContainer;
  kinds: KindsOf<typeof Contact>;
};
export type InvoiceTypes = { fields: InvoiceFields; input: InvoiceInput; portals: InvoicePortals; portalInput: InvoicePortalInput; containers: InvoiceContainer };

/** `Contact` as a hand-written definition would type it: without the generated kinds map. */
export const ContactWithoutKinds = defineLayout<Omit<ContactTypes, "kinds">>(Contact);

// ---------------------------------------------------------------- Types Web (every field type)

export const TYPES_TABLE = "Types";
export const TYPES_LAYOUT = "Types Web";

/** The emulator's description of the "types" layout, in the same database as the contacts. */
export const typesDescription: LayoutDescriptionInput = {
  database: DATABASE,
  layout: TYPES_LAYOUT,
  table: TYPES_TABLE,
  fields: [
    { name: "Serial", type: "number", readOnly: true, autoEnter: "serial" },
    { name: "Text", type: "text" },
    { name: "Number", type: "number" },
    { name: "Date", type: "date" },
    { name: "Time", type: "time" },
    { name: "Timestamp", type: "timestamp" },
    { name: "File", type: "container", repetitions: 2 },
    { name: "Tags", type: "text", repetitions: 3 },
    { name: "Scores", type: "number", repetitions: 2 },
    { name: "Days", type: "date", repetitions: 2 },
    { name: "Color", type: "text", valueList: ["Red", "Green", "Blue"] },
    { name: "Created", type: "timestamp", readOnly: true, autoEnter: "creationTimestamp" },
  ],
};

export type TypesColor = "Red" | "Green" | "Blue" | "";

export type TypesFields = {
  Serial: number | null;
  Text: string;
  Number: number | null;
  Date: string | null;
  Time: string | null;
  Timestamp: string | null;
  File: Reps2<string | null>;
  Tags: Reps3<string>;
  Scores: Reps2<number | null>;
  Days: Reps2<string | null>;
  Color: TypesColor;
  Created: string | null;
};

export type TypesInput = {
  Text?: string | null;
  Number?: number | null;
  Date?: string | null;
  Time?: string | null;
  Timestamp?: string | null;
  Tags?: RepsInput3<string | null>;
  Scores?: RepsInput2<number | null>;
  Days?: RepsInput2<string | null>;
  Color?: TypesColor | null;
};

export type TypesTypes = {
  fields: TypesFields;
  input: TypesInput;
  portals: Record<never, never>;
  portalInput: Record<never, never>;
  containers: "File";
};

export const Types = defineLayout<TypesTypes>({
  layout: TYPES_LAYOUT,
  database: DATABASE,
  fields: {
    Serial: { type: "number", readOnly: true },
    Text: { type: "text" },
    Number: { type: "number" },
    Date: { type: "date" },
    Time: { type: "time" },
    Timestamp: { type: "timestamp" },
    File: { type: "container", repetitions: 2 },
    Tags: { type: "text", repetitions: 3 },
    Scores: { type: "number", repetitions: 2 },
    Days: { type: "date", repetitions: 2 },
    Color: { type: "text", valueList: ["Red", "Green", "Blue"] },
    Created: { type: "timestamp", readOnly: true },
  },
});

// ---------------------------------------------------------------- Wéird / Layout ?# (percent-encoding)

export const WEIRD_DATABASE = "Wéird Data/Base ✓ 100%";
export const WEIRD_LAYOUT = "Wéird / Layout ?#";
export const WEIRD_TEXT = "Näme / ?# 100%";
export const WEIRD_CONTAINER = "Pïc / ✓";
/** A field named like the prototype accessor: an object keyed by names must keep it as an own key. */
export const PROTO = "__proto__";

export const weirdDescription: LayoutDescriptionInput = {
  database: WEIRD_DATABASE,
  layout: WEIRD_LAYOUT,
  table: "Weird Things",
  fields: [
    { name: WEIRD_TEXT, type: "text" },
    { name: WEIRD_CONTAINER, type: "container" },
    { name: PROTO, type: "text" },
  ],
};

export type WeirdFields = { "Näme / ?# 100%": string; "Pïc / ✓": string | null; ["__proto__"]: string };
export type WeirdTypes = {
  fields: WeirdFields;
  input: { "Näme / ?# 100%"?: string | null; ["__proto__"]?: string | null };
  portals: Record<never, never>;
  portalInput: Record<never, never>;
  containers: "Pïc / ✓";
};

export const Weird = defineLayout<WeirdTypes>({
  layout: WEIRD_LAYOUT,
  database: WEIRD_DATABASE,
  fields: {
    [WEIRD_TEXT]: { type: "text" },
    [WEIRD_CONTAINER]: { type: "container" },
    [PROTO]: { type: "text" },
  },
});

// ---------------------------------------------------------------- definitions that disagree with the server

/**
 * `Contacts Web` as a stale description would have it: `Birthday` and `Wake Up` as text (so the runtime
 * sends values the server rejects with 500 / 501), plus a text field and a container that the layout does
 * not have (so the server answers 102).
 */
export type MisdescribedContactTypes = {
  fields: Omit<ContactFields, "Birthday" | "Wake Up"> & { Birthday: string; "Wake Up": string; Ghost: string; "Ghost Photo": string | null };
  input: Omit<ContactInput, "Birthday" | "Wake Up"> & { Birthday?: string; "Wake Up"?: string; Ghost?: string };
  portals: ContactPortals;
  portalInput: ContactPortalInput;
  containers: "Photo" | "Ghost Photo";
};

export const MisdescribedContact = defineLayout<MisdescribedContactTypes>({
  layout: "Contacts Web",
  database: DATABASE,
  fields: {
    ...Contact.fields,
    Birthday: { type: "text" },
    "Wake Up": { type: "text" },
    Ghost: { type: "text" },
    "Ghost Photo": { type: "container" },
  },
  portals: Contact.portals!,
});

/** `Invoices Web` with `Amount` as text: the server answers 502 for a value that is not a number. */
export type MisdescribedInvoiceTypes = {
  fields: Omit<InvoiceFields, "Amount"> & { Amount: string };
  input: Omit<InvoiceInput, "Amount"> & { Amount?: string };
  portals: Record<never, never>;
  portalInput: Record<never, never>;
  containers: never;
};

export const MisdescribedInvoice = defineLayout<MisdescribedInvoiceTypes>({
  ...Invoice,
  fields: { ...Invoice.fields, Amount: { type: "text" } },
});

/** A layout the server does not have (105). */
export const MissingLayout = defineLayout<ContactTypes>({ ...Contact, layout: "No Such Layout" });

// ---------------------------------------------------------------- Contact Portals, Contact Summary (portals, layout.response)

export const PORTALS_LAYOUT = "Contact Portals";
export const SUMMARY_LAYOUT = "Contact Summary";
/** A portal whose object name is not its table occurrence's ("Notes"). */
export const NOTES_PORTAL = "Recent Notes";

/** Contacts with two portals: "Invoices" (table Invoices) and "Recent Notes" (table Notes, joined on ContactID). */
export const contactPortalsDescription: LayoutDescriptionInput = {
  database: DATABASE,
  layout: PORTALS_LAYOUT,
  table: "Contacts",
  fields: [
    { name: "First Name", type: "text" },
    { name: "Last Name", type: "text" },
  ],
  portals: [
    {
      name: "Invoices",
      table: "Invoices",
      relation: { parentField: "id", childField: "ContactID", cascadeDelete: true },
      fields: [
        { name: "Invoices::Amount", type: "number" },
        { name: "Invoices::Issued", type: "date" },
      ],
    },
    { name: NOTES_PORTAL, table: "Notes", relation: { parentField: "id", childField: "ContactID" }, fields: [{ name: "Notes::Title", type: "text" }] },
  ],
};

/** Contacts with fewer fields and one portal of fewer fields: a response layout for Contacts Web and Contact Portals. */
export const contactSummaryDescription: LayoutDescriptionInput = {
  database: DATABASE,
  layout: SUMMARY_LAYOUT,
  table: "Contacts",
  fields: [
    { name: "First Name", type: "text" },
    { name: "Email", type: "text" },
  ],
  portals: [{ name: "Invoices", table: "Invoices", relation: { parentField: "id", childField: "ContactID" }, fields: [{ name: "Invoices::Amount", type: "number" }] }],
};

/** "Contact Portals" as a generated module defines it (its shapes derived from the spec). */
export const ContactWithNotes = defineLayout<{ "First Name": string; "Last Name": string }>()({
  database: "Contacts",
  layout: "Contact Portals",
  fields: { "First Name": { type: "text" }, "Last Name": { type: "text" } },
  portals: {
    Invoices: { fields: { "Invoices::Amount": { type: "number" }, "Invoices::Issued": { type: "date" } } },
    "Recent Notes": { fields: { "Notes::Title": { type: "text" } } },
  },
});

/** "Contact Summary" as a generated module defines it. */
export const ContactSummary = defineLayout<{ "First Name": string; Email: string }>()({
  database: "Contacts",
  layout: "Contact Summary",
  fields: { "First Name": { type: "text" }, Email: { type: "text" } },
  portals: { Invoices: { fields: { "Invoices::Amount": { type: "number" } } } },
});
