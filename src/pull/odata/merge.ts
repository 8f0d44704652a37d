import { defaultTableTypeName, tableDescriptionSchema, type TableDescriptionInput, type TableFieldDescription } from "../../table/index.js";
import { formatJsonPath } from "../../project/index.js";
import { DOUBLE_DIGITS } from "../infer.js";
import { decide, keptNote, mergeExact } from "../ownership.js";
import type { LiveTable, LiveTableField } from "./csdl.js";

/**
 * Merges what `$metadata` says of a table occurrence (`live`) into its description file (`file`), so that a pull
 * changes only what changed on the server and keeps what a person wrote.
 *
 * The server owns what it states. Which fields there are, and their names, ids and order (creation order), and the
 * table's name, id and relations follow it (a table or field keeps its FMTID/FMFID when renamed in FileMaker, so the
 * file's entry of the same id follows the new name). Each field's type, repetitions, notNull, readOnly, global and
 * maxLength, and the table's key, follow ownership.ts, as a layout's attributes do: a hand edit is kept while the
 * server still says what it said at the last pull (`base`, from fmgen.pulled.json), and a change on the server wins.
 * The file owns what the server cannot tell: the TypeScript `name` (a renamed table with none gets its old default
 * name, so that the generated exports and the code importing them keep theirs), `$schema`, each `description` it
 * holds (the server's comment fills one the file has not), `exact` (proposed in a note when an `Edm.Decimal` states a
 * `Precision` above 15, never set; dropped, with a note, when the field stops being a number), the auto-enter kind where the server's annotations fit
 * more than one (see csdl.ts), `readOnly` on an auto-entered field (a protected auto-enter that an older server
 * does not mark), a relation's `match` fields (which `$metadata` never states), and, on a server that states no ids
 * (before 22), the ids the file holds.
 */

/** What a pull keeps of a table's `$metadata` as the base of the next: what the merge decides three ways. */
export interface BaseTable {
  table: string;
  id?: string | undefined;
  key?: string | undefined;
  fields: readonly BaseTableField[];
}

export type BaseTableField = Pick<LiveTableField, "name" | "id" | "type" | "notNull" | "readOnly" | "global" | "repetitions" | "maxLength">;

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
  /** What `$metadata` said of the table at the last pull; none: the server's values win. */
  base?: BaseTable | undefined;
  /** `$schema` for a new file. */
  schemaRef?: string | undefined;
  /** `--name`: the TypeScript name to write. */
  name?: string | undefined;
  /** How notes name the file (`tables/Contacts.table.json`); default `the table's file`. */
  shownAs?: string | undefined;
}

export interface TableMergeResult {
  description: TableDescriptionInput;
  /** What the server says that no description holds, and the hand edits kept against it. */
  notes: string[];
  /**
   * What `$metadata` cannot tell and the file may need, each naming the line to add: for the report when the file is
   * written anew or changed, not at every pull.
   */
  advice: string[];
}

export function mergeTable({ live, database, file, base, schemaRef, name, shownAs = "the table's file" }: TableMergeInput): TableMergeResult {
  const notes = [...live.notes];
  const match = fieldMatcher(file?.fields ?? []);
  const matchBase = fieldMatcher(base?.fields ?? []);
  const fields = live.fields.map((field, i) => mergeField(field, match(field), matchBase(field), live.idsStated, notes, `fields[${i}]`, shownAs));
  const renamed = file !== undefined && file.table !== live.table;
  const tsName = name ?? file?.name ?? (renamed ? defaultTableTypeName(file.table) : undefined);
  const description = file?.description ?? live.description;
  const id = live.id ?? (live.idsStated ? undefined : file?.id);
  const key = decide(file ? (file.key ?? null) : undefined, base ? (base.key ?? null) : undefined, live.key ?? null);
  const $schema = file ? file.$schema : schemaRef;
  const merged: TableDescriptionInput = {
    ...($schema !== undefined ? { $schema } : {}),
    database,
    table: live.table,
    ...(tsName !== undefined ? { name: tsName } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(id !== undefined ? { id } : {}),
    ...(key !== null && key !== undefined ? { key } : {}),
    fields,
    ...(live.relations.length > 0 || file?.relations !== undefined ? { relations: live.relations.map((r) => mergeRelation(r, file)) } : {}),
  };
  // A server that marks no protected field cannot say whether an auto-entered one is: the line that says it is.
  const advice: string[] = [];
  if (!live.protectionStated) {
    fields.forEach((field, i) => {
      if (field.autoEnter !== undefined && !field.readOnly && !field.global) {
        advice.push(`field "${field.name}": auto-entered, and $metadata does not say whether it is protected from edits: if it is, add "readOnly": true to fields[${i}] in ${shownAs}`);
      }
    });
  }
  return { description: merged, notes, advice };
}

/** A relation as the server states it, with the match fields the file gives it (`$metadata` states none). */
function mergeRelation(live: { name: string; table: string; many: boolean }, file: TableDescriptionInput | undefined): NonNullable<TableDescriptionInput["relations"]>[number] {
  const match = file?.relations?.find((r) => r.name === live.name && r.table === live.table)?.match;
  return { name: live.name, table: live.table, many: live.many, ...(match !== undefined ? { match } : {}) };
}

function mergeField(live: LiveTableField, file: TableFieldDescription | undefined, base: BaseTableField | undefined, idsStated: boolean, notes: string[], at: string, shownAs: string): TableFieldDescription {
  // Each attribute the server states, three ways (ownership.ts); defaults filled in so that left out and spelled out agree.
  const owned = <T>(of: (field: BaseTableField | TableFieldDescription) => T): T => decide(file ? of(file) : undefined, base ? of(base) : undefined, of(live))!;
  const type = owned((f) => f.type);
  if (type !== live.type) notes.push(keptNote(`field "${live.name}"`, "type", type, live.type));
  const repetitions = owned((f) => f.repetitions ?? 1);
  const notNull = owned((f) => f.notNull ?? false);
  const global = owned((f) => f.global ?? false);
  const maxLength = owned((f) => f.maxLength ?? null);
  const autoEnter = file?.autoEnter !== undefined && live.autoEnter.includes(file.autoEnter) ? file.autoEnter : live.autoEnter[0];
  const readOnly = owned((f) => f.readOnly ?? false) || (file?.readOnly === true && autoEnter !== undefined);
  const id = live.id ?? (idsStated ? undefined : file?.id);
  const description = file?.description ?? live.description;
  const exact = mergeExact(file?.exact, type, `field "${live.name}"`, notes);
  if (exact === undefined && type === "number" && live.precision !== undefined && live.precision > DOUBLE_DIGITS) {
    notes.push(`field "${live.name}": $metadata gives it Precision ${live.precision}, more than the ${DOUBLE_DIGITS} significant digits a JavaScript number keeps: add "exact": true to ${at} in ${shownAs}`);
  }
  return {
    name: live.name,
    type,
    ...(readOnly ? { readOnly: true } : {}),
    ...(global ? { global: true } : {}),
    ...(repetitions > 1 ? { repetitions } : {}),
    ...(notNull ? { notNull: true } : {}),
    ...(maxLength !== null ? { maxLength } : {}),
    ...(autoEnter !== undefined ? { autoEnter } : {}),
    ...(exact !== undefined ? { exact } : {}),
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
