import { defineTable, type TableSpec } from "../../../src/runtime/odata/definition.js";
/**
 * A table with exact number fields (`exact: true`), as a generated module writes it: their values are decimal text
 * (`string | null` in the row), the key among them; Lines (a relation) has one too, and one number field without.
 */
export interface LinesRow { Big: string | null; N: number | null }
export const Lines = defineTable<LinesRow>()({ database: "Contacts", table: "Lines", fields: { Big: { type: "number", exact: true }, N: { type: "number" } } });
export interface LedgerRelations { Lines: typeof Lines }
export interface LedgerRow { Id: string | null; Amount: string | null; Total: string | null; Plain: number | null; Parts: [string | null, string | null]; Note: string }
export const Ledger = defineTable<LedgerRow, LedgerRelations>()({ database: "Contacts", table: "Ledger", key: "Id",
  fields: { Id: { type: "number", exact: true, notNull: true, readOnly: true, autoEnter: "serial" }, Amount: { type: "number", exact: true, notNull: true }, Total: { type: "number", exact: true, readOnly: true }, Plain: { type: "number" }, Parts: { type: "number", exact: true, repetitions: 2 }, Note: { type: "text" } },
  relations: { Lines: { table: "Lines", many: true, target: (): TableSpec => Lines } } });
