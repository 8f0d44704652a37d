import { createODataClient, defineTable, type ODataClient, type ODataClientOptions, type TableSpec } from "../../../src/runtime/odata/index.js";
import { PASSWORD, USER } from "../../emulator/odata/serve-support.js";

// What the odata-calls tests share: table definitions matching serve-support.ts's Office file (Contacts keyed on a
// uuid `id`; Notes keyless, addressed by ROWID), and the scripts the emulator runs for them.

export interface ContactsRow { id: string; Name: string; Age: number | null; Born: string | null; Alarm: string | null; Seen: string | null; Photo: string | null; Tags: [string, string]; Label: string }
export interface ContactsRelations { Notes: typeof Notes }
export const Contacts = defineTable<ContactsRow, ContactsRelations>()({
  database: "Office",
  table: "Contacts",
  key: "id",
  fields: {
    id: { type: "text", notNull: true, autoEnter: "uuid" },
    Name: { type: "text" },
    Age: { type: "number" },
    Born: { type: "date" },
    Alarm: { type: "time" },
    Seen: { type: "timestamp" },
    Photo: { type: "container" },
    Tags: { type: "text", repetitions: 2 },
    Label: { type: "text", readOnly: true },
  },
  relations: { Notes: { table: "Notes", many: true, target: (): TableSpec => Notes } },
});

export interface NotesRow { ContactId: string; Text: string; N: number | null }
export const Notes = defineTable<NotesRow>()({ database: "Office", table: "Notes", fields: { ContactId: { type: "text" }, Text: { type: "text" }, N: { type: "number" } } });

export const Elsewhere = defineTable<NotesRow>()({ database: "Other", table: "Notes", fields: { ContactId: { type: "text" }, Text: { type: "text" }, N: { type: "number" } } });

/** A client of the emulator's Office file, signed in as serve-support's account; close() it after. */
export function officeClient(url: string, options: Omit<Partial<ODataClientOptions<"Office">>, "database"> = {}): ODataClient<"Office"> {
  return createODataClient({ server: url, database: "Office", auth: { username: USER, password: PASSWORD }, ...options });
}
