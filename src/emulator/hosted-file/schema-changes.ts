// Schema changes to a hosted file while it runs (OData's FileMaker_Tables and FileMaker_Indexes: docs/emulator.md,
// "Schema changes"): tables created and deleted, fields added and deleted, field indexes set. They change the hosted
// file's model and its tables' data in place, so both APIs see them at once; each change counts one schema generation
// and is told to the change feed as a SCHEMA change.
//
// The file's table and field numbers (FMTID, FMFID) are stable: as loaded they follow the names of tables and fields
// (stable-ids.ts), so that inserting, removing or reordering fields or tables in the descriptions moves no other id;
// the first change freezes them, and from then on a new table or field takes the first number of its name's
// sequence that its file (or table) never had, so deleting one renumbers nothing and no number is reused.
// Callers check names and definitions first (odata/schema-api.ts); these functions take valid input only.

import { NameMap } from "./name-map.js";
import { emitChange } from "./change-feed.js";
import type { AutoEnter, FieldType } from "../../layout/schema.js";
import type { DatabaseModel, LayoutField, LayoutModel, PortalModel, TableField, TableModel } from "./model.js";
import { uniqueKey } from "./records/record-writes.js";
import { assignSlots, firstFreeSlot, slotSequence } from "./stable-ids.js";
import { TableData, type ContainerStore, type HostedDatabase } from "./store.js";

/**
 * The lowest table number (FMTID), as FileMaker numbers a file's first table occurrence (docs/emulator.md,
 * "`$metadata`"); computed ones are FIRST_FMTID plus a slot of the table name's sequence.
 */
export const FIRST_FMTID = 1065089;

/** `FMFID:{fieldNo·2^32 + FMTID}` (1.3): exact up to 2^21 fields; computed fieldNos are at most ID_RANGE. */
export function fieldNumberOf(fieldNo: number, tableNumber: number): number {
  return fieldNo * 2 ** 32 + tableNumber;
}

/** A table with its number (FMTID) and its own fields with their field numbers (fieldNo, FMFID's high part). */
export interface NumberedTable {
  readonly table: TableModel;
  readonly tableNumber: number;
  /** In the table's order: the descriptions' declaration order, then fields added by schema changes. */
  readonly fields: readonly { readonly field: TableField; readonly number: number }[];
}

const tableSequence = (name: string) => {
  const slots = slotSequence("FMTID", name);
  return (k: number) => FIRST_FMTID + slots(k);
};
const fieldSequence = (name: string) => {
  const slots = slotSequence("FMFID", name);
  return (k: number) => 1 + slots(k);
};

interface SchemaState {
  /** How many schema changes the file has had. */
  generation: number;
  /** Per table name, how many changes to its definition were made (FileMaker_Tables' ModCount). */
  readonly modCounts: Map<string, number>;
  readonly tables: Map<TableModel, number>;
  readonly fields: Map<TableField, number>;
  /** Every table number the file had since it was frozen, and those pinned FMFIDs name: none is given again. */
  readonly usedTables: Set<number>;
  /** Per table, every field number it had since the file was frozen (and those pinned FMFIDs name in it). */
  readonly usedFields: Map<TableModel, Set<number>>;
  /** Primary keys a change declared (`primary: true`). */
  readonly primary: Map<TableModel, TableField>;
  /** Indexes set (true) or dropped (false) by FileMaker_Indexes. */
  readonly indexed: Map<TableField, boolean>;
  /** `externalSecurePath` as a container field was declared with (kept, not applied: bytes stay in memory). */
  readonly externalPaths: Map<TableField, string>;
}

const states = new WeakMap<DatabaseModel, SchemaState>();

/** Related fields (`T::F`, reached by navigation) are not a table's own and take no field number. */
function ownFields(table: TableModel): TableField[] {
  return [...table.fields.values()].filter((f) => !f.name.includes("::"));
}

const byName = (a: TableModel, b: TableModel) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The file's tables in name order, each with its own fields in the table's order, and their numbers. */
export function numberedTables(model: DatabaseModel): NumberedTable[] {
  const state = states.get(model);
  if (state === undefined) return numberedAsLoaded(model);
  return [...model.tables.values()].sort(byName).map((table) => {
    const tableNo = tableNumber(state, table);
    return { table, tableNumber: tableNo, fields: ownFields(table).map((field) => ({ field, number: fieldNumber(state, table, field) })) };
  });
}

/** Every FMFID a description pins, anywhere in the file. */
function pinnedFieldIds(model: DatabaseModel): Set<number> {
  const pinned = new Set<number>();
  for (const table of model.tables.values()) for (const field of table.fields.values()) if (field.fieldId !== undefined) pinned.add(field.fieldId);
  return pinned;
}

/**
 * The numbers as loaded. A table description's `id` pins its table's FMTID and a field's `id` its FMFID (its fieldNo
 * is the FMFID's high part); the others follow their names (stable-ids.ts): tables take slots of their names'
 * sequences above FIRST_FMTID, fields of their names' sequences from 1, never a pinned FMTID nor the table number
 * (low part) of a pinned FMFID, and never a field number whose FMFID a description pins, so that no computed id
 * takes one a description states. Nothing depends on the order of files, tables or fields.
 */
function numberedAsLoaded(model: DatabaseModel): NumberedTable[] {
  const pinnedFields = pinnedFieldIds(model);
  const tables = [...model.tables.values()].sort(byName);
  const takenTables = new Set<number>([...pinnedFields].map((id) => id % 2 ** 32));
  for (const table of tables) if (table.described?.tableId !== undefined) takenTables.add(table.described.tableId);
  const computed = assignSlots(
    tables.filter((t) => t.described?.tableId === undefined).map((t) => t.name),
    tableSequence,
    (n) => takenTables.has(n),
  );
  return tables.map((table): NumberedTable => {
    const tableNo = table.described?.tableId ?? computed.get(table.name)!;
    const own = ownFields(table);
    const numbers = assignSlots(
      own.filter((f) => f.fieldId === undefined).map((f) => f.name),
      fieldSequence,
      (fieldNo) => pinnedFields.has(fieldNumberOf(fieldNo, tableNo)),
    );
    return { table, tableNumber: tableNo, fields: own.map((field) => ({ field, number: field.fieldId !== undefined ? Math.floor(field.fieldId / 2 ** 32) : numbers.get(field.name)! })) };
  });
}

function tableNumber(state: SchemaState, table: TableModel): number {
  let n = state.tables.get(table);
  if (n === undefined) {
    n = firstFreeSlot(tableSequence(table.name), (t) => state.usedTables.has(t));
    state.tables.set(table, n);
    state.usedTables.add(n);
  }
  return n;
}

function fieldNumber(state: SchemaState, table: TableModel, field: TableField): number {
  let n = state.fields.get(field);
  if (n === undefined) {
    let used = state.usedFields.get(table);
    // A table created while the file runs: its number is no pinned FMFID's low part, so none of them is in it.
    if (used === undefined) state.usedFields.set(table, (used = new Set()));
    n = firstFreeSlot(fieldSequence(field.name), (f) => used.has(f));
    state.fields.set(field, n);
    used.add(n);
  }
  return n;
}

/** The state of a file about to change: its numbers frozen as they are now. */
function stateOf(model: DatabaseModel): SchemaState {
  let state = states.get(model);
  if (state !== undefined) return state;
  const numbered = numberedTables(model);
  const pinned = [...pinnedFieldIds(model)].map((id) => ({ table: id % 2 ** 32, field: Math.floor(id / 2 ** 32) }));
  state = {
    generation: 0,
    modCounts: new Map(),
    tables: new Map(numbered.map((t) => [t.table, t.tableNumber])),
    fields: new Map(numbered.flatMap((t) => t.fields.map((f) => [f.field, f.number] as const))),
    usedTables: new Set([...numbered.map((t) => t.tableNumber), ...pinned.map((p) => p.table)]),
    usedFields: new Map(
      numbered.map((t) => [t.table, new Set([...t.fields.map((f) => f.number), ...pinned.filter((p) => p.table === t.tableNumber).map((p) => p.field)])]),
    ),
    primary: new Map(),
    indexed: new Map(),
    externalPaths: new Map(),
  };
  states.set(model, state);
  return state;
}

/** How many schema changes the file has had (0: as loaded); a SchemaVersion changes with it. */
export function schemaGeneration(model: DatabaseModel): number {
  return states.get(model)?.generation ?? 0;
}

/**
 * How many changes to a table's definition were made while the file ran (FileMaker_Tables' `ModCount`, which a
 * webhook's SCHEMA payload carries: docs/emulator.md, "Webhooks"); a table's name keeps its count after it is deleted.
 */
export function schemaModCount(model: DatabaseModel, table: string): number {
  return states.get(model)?.modCounts.get(table) ?? 0;
}

/** The primary key a schema change declared for a table, if any. */
export function declaredPrimaryKey(model: DatabaseModel, table: TableModel): TableField | undefined {
  return states.get(model)?.primary.get(table);
}

/** Whether FileMaker_Indexes set (true) or dropped (false) a field's index; undefined when it never did. */
export function requestedIndex(model: DatabaseModel, field: TableField): boolean | undefined {
  return states.get(model)?.indexed.get(field);
}

/** The `externalSecurePath` a container field was created with, if any. */
export function externalSecurePathOf(model: DatabaseModel, field: TableField): string | undefined {
  return states.get(model)?.externalPaths.get(field);
}

/** A field as a schema change defines it (odata/schema-api.ts reads it from a request body). */
export interface FieldDefinition {
  /** The field's name. */
  readonly name: string;
  /** Its result type. */
  readonly type: FieldType;
  /** How many repetitions it has (1 to 32000). */
  readonly repetitions: number;
  /** Text: most characters per repetition (`VARCHAR(n)`). */
  readonly maxLength?: number;
  /** The table's primary key (implies unique and required). */
  readonly primary: boolean;
  /** No two records hold the same value. */
  readonly unique: boolean;
  /** Not empty (`nullable: false`, or primary). */
  readonly required: boolean;
  /** One value for the whole file (per session once a session sets it), not per record. */
  readonly global: boolean;
  /** A value the server enters itself (a default such as CURRENT_TIMESTAMP: creationTimestamp). */
  readonly autoEnter?: AutoEnter;
  /** A container's external storage path, as declared (kept, not applied). */
  readonly externalSecurePath?: string;
}

const DECLARED_IN = "a schema change (OData FileMaker_Tables)";

function changed(db: HostedDatabase, table: string): void {
  const state = stateOf(db.model);
  state.generation++;
  state.modCounts.set(table, (state.modCounts.get(table) ?? 0) + 1);
  emitChange(db, { operation: "SCHEMA", table, rowIDs: [] });
}

function newField(db: HostedDatabase, table: TableModel, data: TableData, def: FieldDefinition): TableField {
  const state = stateOf(db.model);
  const field: TableField = {
    name: def.name,
    type: def.type,
    repetitions: def.repetitions,
    readOnly: false,
    required: def.required,
    unique: def.unique,
    // A constraint declared through SQL-like DDL holds for every write, not only data entry (choice).
    validate: def.required || def.unique ? "always" : "dataEntry",
    global: def.global,
    declaredIn: DECLARED_IN,
    ...(def.autoEnter ? { autoEnter: def.autoEnter } : {}),
    ...(def.maxLength !== undefined ? { maxLength: def.maxLength } : {}),
  };
  table.fields.set(field.name, field);
  fieldNumber(state, table, field);
  if (def.primary) state.primary.set(table, field);
  if (def.externalSecurePath !== undefined) state.externalPaths.set(field, def.externalSecurePath);
  data.fieldAdded(field);
  if (field.unique) data.addIndex(field, "unique", uniqueKey);
  return field;
}

/** A schema change as its call gave it (what the data directory keeps, and replays at the next start). */
export type SchemaChange =
  | { readonly op: "createTable"; readonly table: string; readonly fields: readonly FieldDefinition[] }
  | { readonly op: "addField"; readonly table: string; readonly field: FieldDefinition }
  | { readonly op: "deleteField"; readonly table: string; readonly field: string }
  | { readonly op: "deleteTable"; readonly table: string }
  | { readonly op: "setFieldIndex"; readonly table: string; readonly field: string; readonly on: boolean };

const observers = new WeakMap<DatabaseModel, Set<(change: SchemaChange) => void>>();
/** Every change made to a model since it was built, replayed ones included, in order (what an export carries). */
const history = new WeakMap<DatabaseModel, SchemaChange[]>();

/** Tells `observer` of each schema change made to `model` from now on; the function returned stops it. */
export function observeSchemaChanges(model: DatabaseModel, observer: (change: SchemaChange) => void): () => void {
  let set = observers.get(model);
  if (!set) observers.set(model, (set = new Set()));
  set.add(observer);
  return () => {
    set.delete(observer);
  };
}

/** The schema changes made to `model` since it was built (a data directory's or a seed's replays, then new ones). */
export function schemaChangesMade(model: DatabaseModel): readonly SchemaChange[] {
  return history.get(model) ?? [];
}

function told(model: DatabaseModel, change: SchemaChange): void {
  const list = history.get(model);
  if (list) list.push(change);
  else history.set(model, [change]);
  for (const observer of observers.get(model) ?? []) observer(change);
}

/**
 * Makes a schema change again (a data directory's, at a later start): undefined once made, or why it is not (a table
 * or field that today's descriptions already have, or no longer have).
 */
export function replaySchemaChange(db: HostedDatabase, containers: ContainerStore | undefined, change: { readonly op: string } & Readonly<Record<string, unknown>>): string | undefined {
  const c = change as SchemaChange;
  const table = "table" in c ? db.model.tables.get(c.table) : undefined;
  switch (c.op) {
    case "createTable":
      if (table) return `table "${c.table}" exists`;
      createTable(db, containers, c.table, c.fields);
      return undefined;
    case "addField":
      if (!table) return `table "${c.table}" is not there`;
      if (table.fields.has(c.field.name)) return `table "${c.table}" has a field "${c.field.name}"`;
      addField(db, table, c.field);
      return undefined;
    case "deleteField": {
      const field = table?.fields.get(c.field);
      if (!table || !field) return `table "${c.table}" has no field "${c.field}"`;
      deleteField(db, table, field);
      return undefined;
    }
    case "deleteTable":
      if (!table) return `table "${c.table}" is not there`;
      deleteTable(db, table);
      return undefined;
    case "setFieldIndex": {
      const field = table?.fields.get(c.field);
      if (!table || !field) return `table "${c.table}" has no field "${c.field}"`;
      setFieldIndex(db, table, field, c.on);
      return undefined;
    }
    default:
      return `a change of an unknown kind ${JSON.stringify((c as { op: unknown }).op)}`;
  }
}

/** Creates a table with its fields (no records, no layout); returns its model. */
export function createTable(db: HostedDatabase, containers: ContainerStore | undefined, name: string, fields: readonly FieldDefinition[]): TableModel {
  const state = stateOf(db.model);
  const table: TableModel = { name, fields: new NameMap() };
  const data = new TableData(table, containers);
  db.model.tables.set(name, table);
  db.tables.set(name, data);
  tableNumber(state, table);
  for (const def of fields) newField(db, table, data, def);
  changed(db, name);
  told(db.model, { op: "createTable", table: name, fields });
  return table;
}

/** Adds one field to a table; existing records hold its empty value. */
export function addField(db: HostedDatabase, table: TableModel, def: FieldDefinition): TableField {
  stateOf(db.model);
  const field = newField(db, table, db.tables.get(table.name)!, def);
  changed(db, table.name);
  told(db.model, { op: "addField", table: table.name, field: def });
  return field;
}

/**
 * Deletes a field and its values. Layouts stop showing it (the Data API answers without it; writing it is 102),
 * a portal joined by it loses its relation, and related fields that show it from other tables (`T::F`) go too.
 */
export function deleteField(db: HostedDatabase, table: TableModel, field: TableField): void {
  const state = stateOf(db.model);
  const gone = new Set<TableField>([field]);
  for (const other of db.model.tables.values()) {
    const shown = other.fields.get(`${table.name}::${field.name}`);
    if (shown?.computed?.kind === "related") gone.add(shown);
  }
  for (const other of db.model.tables.values()) {
    for (const f of [...other.fields.values()]) {
      if (!gone.has(f)) continue;
      db.tables.get(other.name)!.fieldRemoved(f);
      other.fields.delete(f.name);
      state.fields.delete(f);
      state.indexed.delete(f);
      state.externalPaths.delete(f);
      if (state.primary.get(other) === f) state.primary.delete(other);
    }
  }
  reviseLayouts(db.model, (f) => gone.has(f), undefined);
  changed(db, table.name);
  told(db.model, { op: "deleteField", table: table.name, field: field.name });
}

/**
 * Deletes a table and its records. Its layouts go (the Data API answers 105 for them), and so do portals that
 * show it and related fields that show its fields from other tables.
 */
export function deleteTable(db: HostedDatabase, table: TableModel): void {
  const state = stateOf(db.model);
  const data = db.tables.get(table.name)!;
  // Every record let go (remove releases its container files), so the store drops files only this table held.
  for (const id of [...data.records.keys()]) data.remove(id);
  const gone = new Set<TableField>(table.fields.values());
  for (const other of db.model.tables.values()) {
    if (other === table) continue;
    for (const f of [...other.fields.values()]) {
      if (f.computed?.kind !== "related" || !f.name.startsWith(`${table.name}::`)) continue;
      db.tables.get(other.name)!.fieldRemoved(f);
      other.fields.delete(f.name);
      state.fields.delete(f);
      gone.add(f);
    }
  }
  db.model.tables.delete(table.name);
  db.tables.delete(table.name);
  // Its number stays used (never given again); its fields' numbers go with it, as a new table has a new number.
  state.tables.delete(table);
  state.usedFields.delete(table);
  state.primary.delete(table);
  for (const f of table.fields.values()) {
    state.fields.delete(f);
    state.indexed.delete(f);
    state.externalPaths.delete(f);
  }
  reviseLayouts(db.model, (f) => gone.has(f), table);
  changed(db, table.name);
  told(db.model, { op: "deleteTable", table: table.name });
}

/** Sets (FileMaker_Indexes POST) or drops (DELETE) a field's index: `$metadata`'s Index annotation. */
export function setFieldIndex(db: HostedDatabase, table: TableModel, field: TableField, on: boolean): void {
  stateOf(db.model).indexed.set(field, on);
  changed(db, table.name);
  told(db.model, { op: "setFieldIndex", table: table.name, field: field.name, on });
}

/**
 * Replaces each layout that shows a gone field or table with one that does not (a new object, so caches kept per
 * layout model are not reused); layouts of a gone table are removed.
 */
function reviseLayouts(model: DatabaseModel, gone: (field: TableField) => boolean, goneTable: TableModel | undefined): void {
  const keep = (fields: NameMap<LayoutField>) => new NameMap([...fields].filter(([, f]) => !gone(f.field)));
  for (const [name, layout] of [...model.layouts]) {
    if (layout.table === goneTable) {
      model.layouts.delete(name);
      continue;
    }
    const touched =
      [...layout.fields.values()].some((f) => gone(f.field)) ||
      layout.portals.some((p) => p.table === goneTable || [...p.fields.values()].some((f) => gone(f.field)) || (p.relation !== undefined && (gone(p.relation.parentField) || gone(p.relation.childField))));
    if (!touched) continue;
    const portals = layout.portals
      .filter((p) => p.table !== goneTable)
      .map((p): PortalModel => {
        const revised: PortalModel = { name: p.name, table: p.table, fields: keep(p.fields) };
        if (p.relation !== undefined && !gone(p.relation.parentField) && !gone(p.relation.childField)) revised.relation = p.relation;
        return revised;
      });
    const revised: LayoutModel = { description: layout.description, table: layout.table, fields: keep(layout.fields), portals };
    model.layouts.set(name, revised);
  }
}
