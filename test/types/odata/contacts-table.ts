import { defineTable, type TableSpec } from "../../../src/runtime/odata/definition.js";
import { Invoices } from "./invoices-table.js";
export interface ContactsRelations { Invoices: typeof Invoices }
export interface ContactsRow { id: number | null; "First Name": string; Age: number | null; Birthday: string | null; Calc: string; Photo: string | null }
export const Contacts = defineTable<ContactsRow, ContactsRelations>()({ database: "Contacts", table: "Contacts", key: "id",
  fields: { id: { type: "number", readOnly: true, autoEnter: "serial" }, "First Name": { type: "text", notNull: true }, Age: { type: "number" }, Birthday: { type: "date" }, Calc: { type: "text", readOnly: true }, Photo: { type: "container" } },
  relations: { Invoices: { table: "Invoices", many: true, target: (): TableSpec => Invoices } } });
