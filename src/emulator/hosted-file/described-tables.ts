import { checkTableDescriptions, tableSource, type TableDescription, type TableFieldDescription } from "../../table/index.js";
import { idNumber } from "../../table/schema.js";
import type { DatabaseModel, TableField, TableModel } from "./model.js";
import { relationSteps } from "./relations.js";

/**
 * Table descriptions (`<Name>.table.json`) in the hosted file: each describes one table (as OData's table occurrence),
 * which is then a hosted table whether or not a layout shows it. A table both described and on layouts is one table:
 * each field must have one type and one number of repetitions in both, and the description lists every field of
 * the table (the layouts' related `T::F` fields aside), so that `$metadata` states the whole table. Validation options
 * accumulate as between layouts (a `notNull` field is `required`). `$metadata` reads the rest (ids, key, comments,
 * relations) from `TableModel.described` (odata/metadata-model.ts).
 *
 * A description's relation names no match fields, and the hosted file joins records only by match fields: a relation
 * joins as a layout's portal `relation` between the same two tables (either way) does, and one with no such portal is
 * an error at start. FileMaker Server names every navigation after the table occurrence it reaches and makes every
 * one a collection, so the emulator refuses a relation named otherwise, or with `many: false`.
 */
export function addTableDescriptions(models: Map<string, DatabaseModel>, descriptions: readonly TableDescription[]): void {
  checkTableDescriptions(descriptions, { otherTables: (database) => new Set(models.get(database)?.tables.keys() ?? []) });
  for (const description of descriptions) {
    let db = models.get(description.database);
    if (!db) models.set(description.database, (db = { name: description.database, tables: new Map(), layouts: new Map() }));
    let table = db.tables.get(description.table);
    if (!table) db.tables.set(description.table, (table = { name: description.table, fields: new Map() }));
    describeTable(table, description);
  }
  for (const description of descriptions) {
    const db = models.get(description.database)!;
    const steps = relationSteps(db).get(description.table);
    description.relations?.forEach((relation, i) => {
      const at = `${tableSource(description)}: relations[${i}]`;
      if (relation.name !== relation.table) {
        throw new Error(`${at}: the emulator names a navigation after the table occurrence it reaches, as FileMaker Server does: name "${relation.name}" is not "${relation.table}"`);
      }
      if (!relation.many) throw new Error(`${at}: the emulator's navigations are all collections, as FileMaker Server's are: "many": false is not emulated`);
      if (!steps?.has(relation.table)) {
        throw new Error(
          `${at}: the relation to "${relation.table}" names no match fields, and no layout has a portal with a relation between "${description.table}" and "${relation.table}" ` +
            "to join them by (the emulator joins a described relation as the layouts' portal relation of the same tables)",
        );
      }
    });
  }
}

function describeTable(table: TableModel, description: TableDescription): void {
  const where = tableSource(description);
  if (table.described) throw new Error(`table "${table.name}" of database "${description.database}" is described by ${table.described.source} and by ${where}`);
  const own = new Set<string>();
  for (const field of description.fields) {
    own.add(field.name);
    const next = tableField(field, where);
    const existing = table.fields.get(field.name);
    if (!existing) {
      table.fields.set(field.name, next);
      continue;
    }
    if (existing.type !== next.type || existing.repetitions !== next.repetitions) {
      throw new Error(
        `field "${field.name}" of table "${table.name}" is ${existing.type} x${existing.repetitions} in ${existing.declaredIn} ` +
          `but ${next.type} x${next.repetitions} in ${where}`,
      );
    }
    existing.readOnly ||= next.readOnly;
    existing.required ||= next.required;
    existing.global ||= next.global;
    if (!existing.autoEnter && next.autoEnter) existing.autoEnter = next.autoEnter;
    for (const key of ["fieldId", "maxLength", "comment"] as const) if (next[key] !== undefined) (existing as Record<typeof key, unknown>)[key] = next[key];
  }
  for (const field of table.fields.values()) {
    if (!own.has(field.name) && !field.name.includes("::")) {
      throw new Error(`field "${field.name}" of table "${table.name}" is in ${field.declaredIn} but not in its table description ${where}, which must list every field of the table`);
    }
  }
  // Fields in the description's order (`$metadata`'s), then the layouts' related fields stored on the table.
  const ordered = [...description.fields.map((f) => table.fields.get(f.name)!), ...[...table.fields.values()].filter((f) => !own.has(f.name))];
  table.fields.clear();
  for (const field of ordered) table.fields.set(field.name, field);
  table.described = {
    source: where,
    ...(description.id !== undefined ? { tableId: idNumber(description.id) } : {}),
    ...(description.key !== undefined ? { key: description.key } : {}),
    ...(description.description !== undefined ? { comment: description.description } : {}),
    ...(description.relations ? { relations: description.relations.map((r) => r.table) } : {}),
  };
}

function tableField(field: TableFieldDescription, where: string): TableField {
  return {
    name: field.name,
    type: field.type,
    repetitions: field.repetitions ?? 1,
    readOnly: field.readOnly ?? false,
    required: field.notNull ?? false,
    unique: false,
    validate: "dataEntry",
    global: field.global ?? false,
    declaredIn: where,
    ...(field.autoEnter ? { autoEnter: field.autoEnter } : {}),
    ...(field.id !== undefined ? { fieldId: idNumber(field.id) } : {}),
    ...(field.maxLength !== undefined ? { maxLength: field.maxLength } : {}),
    ...(field.description !== undefined ? { comment: field.description } : {}),
  };
}
