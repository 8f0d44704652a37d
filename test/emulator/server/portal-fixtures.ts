import type { LayoutDescriptionInput } from "../../../src/layout/schema.js";
import { conformanceSeed, startConformanceEmulator, type Emulator } from "../../support/conformance-emulator.js";
import { CONFORMANCE_LAYOUTS, DataApi, DB } from "../../support/data-api-http.js";

/**
 * Layouts beside the conformance fixtures for the portal, layout.response and portal-write tests
 * (docs/emulator.md, "3. Portals", "4. `layout.response`" and section 7), all in the Contacts database:
 * - "Contact Portals": Contacts with two portals, "Invoices" (table Invoices) and "Recent Notes" (table Notes,
 *   an object name that is not its table's), and a calculation field "Full Name";
 * - "Contact Summary": Contacts with fewer fields and only the Invoices portal (a response layout);
 * The conformance layouts ("Contacts Web", "Invoices", "Notes") stay as they are.
 */
export const PORTALS_LAYOUT = "Contact Portals";
export const SUMMARY_LAYOUT = "Contact Summary";
export const NOTES_PORTAL = "Recent Notes";

export const contactPortals: LayoutDescriptionInput = {
  database: DB,
  layout: PORTALS_LAYOUT,
  table: "Contacts",
  fields: [
    { name: "id", type: "number", readOnly: true, autoEnter: "serial" },
    { name: "First Name", type: "text", required: true },
    { name: "Last Name", type: "text" },
    { name: "Full Name", type: "text", readOnly: true, description: "A calculation: readOnly without autoEnter." },
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
    {
      name: NOTES_PORTAL,
      table: "Notes",
      relation: { parentField: "id", childField: "ContactID" },
      fields: [{ name: "Notes::Title", type: "text" }],
    },
  ],
};

export const contactSummary: LayoutDescriptionInput = {
  database: DB,
  layout: SUMMARY_LAYOUT,
  table: "Contacts",
  fields: [
    { name: "First Name", type: "text", required: true },
    { name: "Email", type: "text", unique: true },
  ],
  portals: [
    {
      name: "Invoices",
      table: "Invoices",
      relation: { parentField: "id", childField: "ContactID", cascadeDelete: true },
      fields: [{ name: "Invoices::Amount", type: "number" }],
    },
  ],
};

/** Alan (record 3) has this many invoices: more than a portal's default 50 rows. */
export const ALAN_INVOICES = 60;

/**
 * The conformance seed plus: Ada (record 1) has 3 notes (Notes records 1-3); Alan (record 3) has 60 invoices
 * (Invoices records 4-63, amounts 1 to 60); Ada keeps her 2 invoices (records 1-2), Grace her 1 (record 3).
 */
export function portalSeed(): ReturnType<typeof conformanceSeed> {
  const seed = conformanceSeed();
  for (let i = 1; i <= ALAN_INVOICES; i++) seed.records.Invoices!.push({ ContactID: 3, Amount: i, Issued: "01/01/2000" });
  seed.records.Notes = [1, 2, 3].map((n) => ({ ContactID: 1, Title: `note ${n}` }));
  return seed;
}

/** An emulator with the conformance layouts and these, on the portal seed. */
export function startPortalEmulator(serverStatuses = false): Promise<{ emu: Emulator; api: DataApi }> {
  return startConformanceEmulator({ layouts: [CONFORMANCE_LAYOUTS, contactPortals, contactSummary], data: portalSeed(), serverStatuses });
}

export const VERSIONS = ["v1", "v2", "vLatest"] as const;
