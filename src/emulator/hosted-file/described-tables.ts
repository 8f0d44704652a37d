import { checkTableDescriptions, tableSource, type TableDescription, type TableFieldDescription } from "../../table/index.js";
import { idNumber } from "../../table/schema.js";
import { sameSpelling, type DatabaseModel, type DescribedJoin, type TableField, type TableModel } from "./model.js";
import { NameMap } from "./name-map.js";
import { relationSteps } from "./relations.js";

/**
 * Table descriptions (`<Name>.table.json`) in the hosted file: each describes one table (as OData's table occurrence),
 * which is then a hosted table whether or not a layout shows it. A table both described and on layouts is one table:
 * each field must have one type and one number of repetitions in both, and the description lists every field of
 * the table (the layouts' related `T::F` fields aside), so that `$metadata` states the whole table. Validation options
 * accumulate as between layouts (a `notNull` field is `required`). `$metadata` reads the rest (ids, key, comments,
 * relations) from `TableModel.described` (odata/metadata-model.ts).
 *
 * The hosted file joins records only by match fields, which `$metadata` does not state (so a pulled description has
 * none): a relation joins by its `match` fields, else as a layout's portal `relation` between the same two tables
 * (either way) does, else as the other table's relation back with `match`; one with none of these is served (stated
 * in `$metadata`, its navigation reads no rows) and returned as a warning naming the line that joins it, so that a
 * freshly pulled set of descriptions starts. FileMaker Server names every navigation after the table occurrence it
 * reaches and makes every one a collection, so the emulator refuses a relation named otherwise, or with `many: false`.
 * Returns the warnings, for the emulator's log.
 */
export function addTableDescriptions(models: NameMap<DatabaseModel>, descriptions: readonly TableDescription[]): string[] {
  checkTableDescriptions(descriptions, { otherTables: (database) => new Set(models.get(database)?.tables.keys() ?? []) });
  for (const description of descriptions) {
    let db = models.get(description.database);
    if (db) sameSpelling("database", db.name, description.database, "a layout description", tableSource(description));
    if (!db) models.set(description.database, (db = { name: description.database, tables: new NameMap(), layouts: new NameMap() }));
    let table = db.tables.get(description.table);
    if (!table) db.tables.set(description.table, (table = { name: description.table, fields: new NameMap() }));
    sameSpelling(`table of database "${db.name}"`, table.name, description.table, "a layout description", tableSource(description));
    describeTable(table, description);
  }
  for (const description of descriptions) {
    const db = models.get(description.database)!;
    const table = db.tables.get(description.table)!;
    const joins: DescribedJoin[] = [];
    description.relations?.forEach((relation, i) => {
      const at = `${tableSource(description)}: relations[${i}]`;
      if (relation.name !== relation.table) {
        throw new Error(`${at}: the emulator names a navigation after the table occurrence it reaches, as FileMaker Server does: name "${relation.name}" is not "${relation.table}"`);
      }
      if (!relation.many) throw new Error(`${at}: the emulator's navigations are all collections, as FileMaker Server's are: "many": false is not emulated`);
      if (relation.match === undefined) return;
      const field = table.fields.get(relation.match.field);
      if (field === undefined || field.name.includes("::")) throw new Error(`${at}.match.field: "${relation.match.field}" is no field of table "${description.table}"`);
      const related = db.tables.get(relation.table)!.fields.get(relation.match.relatedField);
      if (related === undefined || related.name.includes("::")) throw new Error(`${at}.match.relatedField: "${relation.match.relatedField}" is no field of table "${relation.table}"`);
      joins.push({ field, table: relation.table, relatedField: related });
    });
    if (joins.length > 0) table.described = { ...table.described!, joins };
  }
  // Every join known (portals' and descriptions'), the relations that still join nothing are served, and told.
  const warnings: string[] = [];
  for (const description of descriptions) {
    const steps = relationSteps(models.get(description.database)!).get(description.table);
    description.relations?.forEach((relation, i) => {
      if (steps?.has(relation.table)) return;
      warnings.push(
        `${tableSource(description)}: relations[${i}]: the relation to "${relation.table}" has no match fields (no "match", no layout's portal relation between ` +
          `"${description.table}" and "${relation.table}", no "match" on a relation back): its navigation reads no related rows; ` +
          `add "match": { "field": "<a field of ${description.table}>", "relatedField": "<the field of ${relation.table} it equals>" } to join them`,
      );
    });
  }
  return warnings;
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
    sameSpelling(`field of table "${table.name}"`, existing.name, field.name, existing.declaredIn, where);
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
