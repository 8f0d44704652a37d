import type { EmulatorClock } from "../clock.js";
import { SCRIPT_ENTRY } from "./entry-options.js";
import { globalScopeOf } from "../globals.js";
import type { LayoutModel } from "../model.js";
import { currentRecord } from "./record-transaction.js";
import { buildNewRecord, commitRecord, type FieldChange } from "./record-writes.js";
import type { HostedDatabase, StoredRecord } from "../store.js";

/**
 * A copy of a record as it is now (docs/emulator.md, "7. Duplicate, delete related rows, edit portal rows, options,
 * upload modId"), in one synchronous step: a new recordId and modId 0; every auto-enter field (serial, UUID,
 * creation and modification stamps and account names) entered as for a new record; every other field of the table (not only the layout's)
 * with the original's values, containers included (they point at the same stored file, which is never changed in
 * place). Related records are not copied. FileMaker's Duplicate Record is not data entry (entry-options.ts): only the
 * fields that validate "always" are checked, so a copy of a record holding a unique value is refused (504) only when
 * that field says "always".
 */
export function writeDuplicate(db: HostedDatabase, layout: LayoutModel, recordId: number, clock: EmulatorClock): StoredRecord {
  const table = db.tables.get(layout.table.name)!;
  const original = currentRecord(table, recordId);
  const changes: FieldChange[] = [];
  for (const field of table.model.fields.values()) {
    if (field.global || field.computed || field.autoEnter !== undefined) continue;
    original.values.get(field.name)?.forEach((value, repetition) => changes.push({ field, repetition, value }));
  }
  const scope = globalScopeOf(db);
  const built = buildNewRecord(table, changes, clock, scope, SCRIPT_ENTRY, db.account);
  commitRecord(table, built, scope, db);
  return built.record;
}
