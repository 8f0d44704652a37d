import { defineTable, type TableSpec } from "../../../src/runtime/odata/definition.js";
import { Contacts } from "./contacts-table.js";
/** A note has at most one owner (`many: false`), an auto-entered not-empty key, and a field of every temporal kind. */
export interface NotesRelations { Owner: typeof Contacts }
export interface NotesRow { id: string; Text: string; Due: string | null; At: string | null; Alarm: string | null; Created: string | null }
export const Notes = defineTable<NotesRow, NotesRelations>()({ database: "Contacts", table: "Notes", key: "id",
  fields: { id: { type: "text", notNull: true, autoEnter: "uuid" }, Text: { type: "text", notNull: true }, Due: { type: "date" }, At: { type: "timestamp" }, Alarm: { type: "time" }, Created: { type: "timestamp", readOnly: true, autoEnter: "creationTimestamp" } },
  relations: { Owner: { table: "Contacts", many: false, target: (): TableSpec => Contacts } } });
