import { defineTable, type TableSpec } from "../../../src/runtime/odata/definition.js";
import { Contacts } from "./contacts-table.js";
export interface InvoicesRelations { Contacts: typeof Contacts }
export interface InvoicesRow { n: number | null; Amount: number | null; ContactID: number | null }
export const Invoices = defineTable<InvoicesRow, InvoicesRelations>()({ database: "Contacts", table: "Invoices", key: "n",
  fields: { n: { type: "number" }, Amount: { type: "number" }, ContactID: { type: "number" } }, relations: { Contacts: { table: "Contacts", many: true, target: (): TableSpec => Contacts } } });
export const Other = defineTable<InvoicesRow>()({ database: "Other", table: "X", fields: { n: { type: "number" }, Amount: { type: "number" }, ContactID: { type: "number" } } });
