import { defaultTableTypeName, tableDescriptionSchema, type TableDescriptionInput, type TableFieldDescription } from "../../table/index.js";
import { formatJsonPath } from "../../project/index.js";
import type { LiveTable, LiveTableField } from "./csdl.js";

/**
 * Merges what `$metadata` says of a table occurrence (`live`) into its description file (`file`), so that a pull
 * changes only what changed on the server and keeps what a person wrote.
 *
 * The server owns what it states: the table's and its fields' names (a table or field keeps its FMTID/FMFID when
 * renamed in FileMaker, so the file's entry of the same id follows the new name), the fields and their order
 * (creation order), types, repetitions, notNull, read-only and global, maxLength, ids, the key and the relations.
 * The file owns what the server cannot tell: the TypeScript `name` (a renamed table with none gets its old default
 * name, so that the generated exports and the code importing them keep theirs), `$schema`, each `description` it
 * holds (the server's comment fills one the file has not), the auto-enter kind where the server's annotations fit
 * more than one (see csdl.ts), `readOnly` on an auto-entered field (a protected auto-enter that an older server
 * does not mark), and, on a server that states no ids (before 22), the ids the file holds.
 */

/** The file's field that is the server's `live` field: the one of the same id, else of the same name when ids do not tell them apart. */
export function fieldMatcher<F extends { name: string; id?: string | undefined }>(fields: readonly F[]): (live: { name: string; id?: string | undefined }) => F | undefined {
  const byId = new Map(fields.filter((f) => f.id !== undefined).map((f) => [f.id!, f]));
  const byName = new Map(fields.map((f) => [f.name, f]));
  return (live) => {
    const same = live.id !== undefined ? byId.get(live.id) : undefined;
    if (same) return same;
    const named = byName.get(live.name);
    // A field of the same name but another id is another field: the old one was deleted and this one created.
    return named && (named.id === undefined || live.id === undefined) ? named : undefined;
  };
}

export interface TableMergeInput {
  live: LiveTable;
  database: string;
  file?: TableDescriptionInput | undefined;
  /** `$schema` for a new file. */
  schemaRef?: string | undefined;
  /** `--name`: the TypeScript name to write. */
  name?: string | undefined;
}

export function mergeTable({ live, database, file, schemaRef, name }: TableMergeInput): TableDescriptionInput {
  const match = fieldMatcher(file?.fields ?? []);
  const fields = live.fields.map((field) => mergeField(field, match(field), live.idsStated));
  const renamed = file !== undefined && file.table !== live.table;
  const tsName = name ?? file?.name ?? (renamed ? defaultTableTypeName(file.table) : undefined);
  const description = file?.description ?? live.description;
  const id = live.id ?? (live.idsStated ? undefined : file?.id);
  const $schema = file ? file.$schema : schemaRef;
  const merged: TableDescriptionInput = {
    ...($schema !== undefined ? { $schema } : {}),
    database,
    table: live.table,
    ...(tsName !== undefined ? { name: tsName } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(id !== undefined ? { id } : {}),
    ...(live.key !== undefined ? { key: live.key } : {}),
    fields,
    ...(live.relations.length > 0 || file?.relations !== undefined ? { relations: live.relations.map((r) => ({ name: r.name, table: r.table, many: r.many })) } : {}),
  };
  return merged;
}

function mergeField(live: LiveTableField, file: TableFieldDescription | undefined, idsStated: boolean): TableFieldDescription {
  const autoEnter = file?.autoEnter !== undefined && live.autoEnter.includes(file.autoEnter) ? file.autoEnter : live.autoEnter[0];
  const readOnly = live.readOnly || (file?.readOnly === true && autoEnter !== undefined);
  const id = live.id ?? (idsStated ? undefined : file?.id);
  const description = file?.description ?? live.description;
  return {
    name: live.name,
    type: live.type,
    ...(readOnly ? { readOnly: true } : {}),
    ...(live.global ? { global: true } : {}),
    ...(live.repetitions > 1 ? { repetitions: live.repetitions } : {}),
    ...(live.notNull ? { notNull: true } : {}),
    ...(live.maxLength !== undefined ? { maxLength: live.maxLength } : {}),
    ...(autoEnter !== undefined ? { autoEnter } : {}),
    ...(id !== undefined ? { id } : {}),
    ...(description !== undefined ? { description } : {}),
  };
}

/** Why the merged description is not one a file can hold (a key that is a container, say); undefined when it is. */
export function tableProblems(description: TableDescriptionInput): string | undefined {
  const checked = tableDescriptionSchema.safeParse(description);
  if (checked.success) return undefined;
  return checked.error.issues.map((i) => `${formatJsonPath(i.path)}: ${i.message}`).join("; ");
}
