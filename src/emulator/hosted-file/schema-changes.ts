// Schema changes to a hosted file while it runs (OData's FileMaker_Tables and FileMaker_Indexes: docs/emulator.md,
// "Schema changes"): tables created and deleted, fields added and deleted, field indexes set. They change the hosted
// file's model and its tables' data in place, so both APIs see them at once; each change counts one schema generation
// and is told to the change feed as a SCHEMA change.
//
// The file's table and field numbers (FMTID, FMFID) are stable: until the first change they follow the model (tables
// by name, fields in declaration order); the first change freezes them, and from then on a new table takes the next
// table number and a new field the next field number of its table, never reused, so deleting one renumbers nothing.
// Callers check names and definitions first (odata/schema-api.ts); these functions take valid input only.

import { emitChange } from "./change-feed.js";
import type { AutoEnter, FieldType } from "../../layout/schema.js";
import type { DatabaseModel, LayoutField, LayoutModel, PortalModel, TableField, TableModel } from "./model.js";
import { uniqueKey } from "./records/record-writes.js";
import { TableData, type ContainerStore, type HostedDatabase } from "./store.js";

/**
 * The first table's number (FMTID), as FileMaker numbers a file's first table occurrence (docs/emulator.md,
 * "`$metadata`").
 */
export const FIRST_FMTID = 1065089;

/** `FMFID:{fieldNo·2^32 + FMTID}` (1.3): exact up to 2^21 fields, far beyond any table. */
export function fieldNumberOf(fieldNo: number, tableNumber: number): number {
  return fieldNo * 2 ** 32 + tableNumber;
}

/** A table with its number (FMTID) and its own fields with their field numbers (fieldNo, 1 first; FMFID's high part). */
export interface NumberedTable {
  readonly table: TableModel;
  readonly tableNumber: number;
  readonly fields: readonly { readonly field: TableField; readonly number: number }[];
}

interface SchemaState {
  /** How many schema changes the file has had. */
  generation: number;
  /** Per table name, how many changes to its definition were made (FileMaker_Tables' ModCount). */
  readonly modCounts: Map<string, number>;
  readonly tables: Map<TableModel, number>;
  readonly fields: Map<TableField, number>;
  nextTable: number;
  readonly nextField: Map<TableModel, number>;
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

/** The file's tables in table-number order, each with its own fields in field-number (creation) order. */
export function numberedTables(model: DatabaseModel): NumberedTable[] {
  const state = states.get(model);
  if (state === undefined) return numberedAsLoaded(model);
  return [...model.tables.values()]
    .map((table) => ({
      table,
      tableNumber: tableNumber(state, table),
      fields: ownFields(table)
        .map((field) => ({ field, number: fieldNumber(state, table, field) }))
        .sort((a, b) => a.number - b.number),
    }))
    .sort((a, b) => a.tableNumber - b.tableNumber);
}

/**
 * The numbers as loaded. A table description's `id` pins its table's FMTID and a field's `id` its FMFID (its fieldNo
 * is the FMFID's high part); the others count up, tables from FIRST_FMTID in name order (code points: the numbers
 * depend on the set of tables, not on the order files are listed), fields from 1 in declaration order, skipping
 * every pinned FMTID, the table number (low part) of every pinned FMFID and every pinned FMFID, so that no computed
 * id takes one a description states.
 */
function numberedAsLoaded(model: DatabaseModel): NumberedTable[] {
  const pinnedFields = new Set<number>();
  for (const table of model.tables.values()) for (const field of table.fields.values()) if (field.fieldId !== undefined) pinnedFields.add(field.fieldId);
  const byNameOrder = [...model.tables.values()].sort(byName);
  const taken = new Set<number>([...pinnedFields].map((id) => id % 2 ** 32));
  for (const table of byNameOrder) if (table.described?.tableId !== undefined) taken.add(table.described.tableId);
  let next = FIRST_FMTID;
  return byNameOrder
    .map((table): NumberedTable => {
      let tableNo = table.described?.tableId;
      if (tableNo === undefined) {
        while (taken.has(next)) next++;
        tableNo = next++;
      }
      let fieldNo = 0;
      const fields = ownFields(table).map((field) => {
        if (field.fieldId !== undefined) return { field, number: Math.floor(field.fieldId / 2 ** 32) };
        do fieldNo++;
        while (pinnedFields.has(fieldNumberOf(fieldNo, tableNo)));
        return { field, number: fieldNo };
      });
      return { table, tableNumber: tableNo, fields };
    })
    .sort((a, b) => a.tableNumber - b.tableNumber);
}

function tableNumber(state: SchemaState, table: TableModel): number {
  let n = state.tables.get(table);
  if (n === undefined) state.tables.set(table, (n = state.nextTable++));
  return n;
}

function fieldNumber(state: SchemaState, table: TableModel, field: TableField): number {
  let n = state.fields.get(field);
  if (n === undefined) {
    n = state.nextField.get(table) ?? 1;
    state.fields.set(field, n);
    state.nextField.set(table, n + 1);
  }
  return n;
}

/** The state of a file about to change: its numbers frozen as they are now. */
function stateOf(model: DatabaseModel): SchemaState {
  let state = states.get(model);
  if (state !== undefined) return state;
  const numbered = numberedTables(model);
  state = {
    generation: 0,
    modCounts: new Map(),
    tables: new Map(numbered.map((t) => [t.table, t.tableNumber])),
    fields: new Map(numbered.flatMap((t) => t.fields.map((f) => [f.field, f.number] as const))),
    nextTable: Math.max(FIRST_FMTID - 1, ...numbered.map((t) => t.tableNumber)) + 1,
    nextField: new Map(numbered.map((t) => [t.table, Math.max(0, ...t.fields.map((f) => f.number)) + 1])),
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
  readonly name: string;
  readonly type: FieldType;
  readonly repetitions: number;
  /** Text: most characters per repetition (`VARCHAR(n)`). */
  readonly maxLength?: number;
  readonly primary: boolean;
  readonly unique: boolean;
  /** Not empty (`nullable: false`, or primary). */
  readonly required: boolean;
  readonly global: boolean;
  readonly autoEnter?: AutoEnter;
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

/** Creates a table with its fields (no records, no layout); returns its model. */
export function createTable(db: HostedDatabase, containers: ContainerStore | undefined, name: string, fields: readonly FieldDefinition[]): TableModel {
  const state = stateOf(db.model);
  const table: TableModel = { name, fields: new Map() };
  const data = new TableData(table, containers);
  db.model.tables.set(name, table);
  db.tables.set(name, data);
  tableNumber(state, table);
  for (const def of fields) newField(db, table, data, def);
  changed(db, name);
  return table;
}

/** Adds one field to a table; existing records hold its empty value. */
export function addField(db: HostedDatabase, table: TableModel, def: FieldDefinition): TableField {
  stateOf(db.model);
  const field = newField(db, table, db.tables.get(table.name)!, def);
  changed(db, table.name);
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
  state.tables.delete(table);
  state.nextField.delete(table);
  state.primary.delete(table);
  for (const f of table.fields.values()) {
    state.fields.delete(f);
    state.indexed.delete(f);
    state.externalPaths.delete(f);
  }
  reviseLayouts(db.model, (f) => gone.has(f), table);
  changed(db, table.name);
}

/** Sets (FileMaker_Indexes POST) or drops (DELETE) a field's index: `$metadata`'s Index annotation. */
export function setFieldIndex(db: HostedDatabase, table: TableModel, field: TableField, on: boolean): void {
  stateOf(db.model).indexed.set(field, on);
  changed(db, table.name);
}

/**
 * Replaces each layout that shows a gone field or table with one that does not (a new object, so caches kept per
 * layout model are not reused); layouts of a gone table are removed.
 */
function reviseLayouts(model: DatabaseModel, gone: (field: TableField) => boolean, goneTable: TableModel | undefined): void {
  const keep = (fields: Map<string, LayoutField>) => new Map([...fields].filter(([, f]) => !gone(f.field)));
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
