// The hosted file as OData's read path sees it: one entity set per entity type of `odataModel` (metadata-model.ts,
// the one source of FMTIDs, FMFIDs, keys, Edm types and navigations, so reads address what `$metadata` states);
// values encoded per 1.4; and the adapters `$filter` reads (metadata-filter.ts's tables, FilterRow over stored
// values). Values are read through TableData.valuesOf, the Data API's read path, so calculations are the same.

import { findByName, NameMap } from "../hosted-file/name-map.js";
import type { TableField, TableModel } from "../hosted-file/model.js";
import { relatedRows, relationSteps, type RelationStep } from "../hosted-file/relations.js";
import { schemaGeneration } from "../hosted-file/schema-changes.js";
import type { ContainerStore, HostedDatabase, StoredRecord, TableData } from "../hosted-file/store.js";
import { formatWireTime, isContainerRef, isStoredNumber, type StoredValue } from "../hosted-file/stored-value.js";
import { ExactNumber, numberText, storedNumberOf, type StoredNumber } from "../hosted-file/exact-number.js";
import type { NumberToken } from "../../runtime/core/json-numbers.js";
import { numberJson } from "./exact-values.js";
import { incompatibleTypes } from "./filter-error.js";
import { SPECIAL_COLUMNS, type FilterRow, type FilterTable } from "./filter-schema.js";
import { filterTablesOf } from "./metadata-filter.js";
import { odataModel, propertyOf, type ODataEntityType, type ODataModel } from "./metadata-model.js";
import { ODataError, quoted } from "./odata-error.js";
import type { EntityKey, SetRef } from "./url-path.js";

export interface EntitySet {
  readonly name: string;
  /** The FMTID's number (metadata-model.ts). */
  readonly id: number;
  readonly model: TableModel;
  readonly data: TableData;
  /** The entity type `$metadata` states for this set: the source of its fields, key, ids, types and navigations. */
  readonly type: ODataEntityType;
  /** The entity type's fields, in declaration order (related `T::F` fields are reached by navigation instead). */
  readonly fields: readonly TableField[];
  /** The primary key (1.3's choice), or none: rows are addressed by ROWID. */
  readonly key: TableField | undefined;
}

interface ODataView {
  readonly model: ODataModel;
  readonly sets: readonly EntitySet[];
  readonly filterTables: ReadonlyMap<string, FilterTable>;
  /** The schema generation it was built at (schema-changes.ts). */
  readonly generation: number;
}

// The hosted model changes only through schema changes (schema-changes.ts), which count generations: its OData view
// is built once per model object and generation.
const views = new WeakMap<object, ODataView>();

function viewOf(db: HostedDatabase): ODataView {
  let view = views.get(db.model);
  const generation = schemaGeneration(db.model);
  if (view === undefined || view.generation !== generation) {
    const model = odataModel(db);
    const sets = model.entityTypes.map((type): EntitySet => ({
      name: type.set,
      id: type.tableNumber,
      model: type.table,
      data: db.tables.get(type.set)!,
      type,
      fields: type.properties.map((p) => p.field),
      key: type.key === undefined ? undefined : type.properties.find((p) => p.name === type.key)!.field,
    }));
    view = { model, sets, filterTables: filterTablesOf(model), generation };
    views.set(db.model, view);
  }
  return view;
}

/** The OData view of a hosted database (metadata-model.ts), as `$metadata` states it; cached per hosted model. */
export function odataModelOf(db: HostedDatabase): ODataModel {
  return viewOf(db).model;
}

/** Every entity set of a hosted database, in name order, as `$metadata` lists them (metadata-model.ts). */
export function entitySets(db: HostedDatabase): readonly EntitySet[] {
  return viewOf(db).sets;
}

/** The set a path names, by name (as FileMaker matches names: name-map.ts) or FMTID; unknown → 404 -1020. */
export function findSet(db: HostedDatabase, ref: SetRef): EntitySet {
  const sets = entitySets(db);
  const set = ref.by === "name" ? findByName(sets, ref.name, (s) => s.name) : sets.find((s) => s.id === ref.id);
  if (set) return set;
  const shown = ref.by === "name" ? ref.name : `FMTID:${ref.id}`;
  throw new ODataError(404, "-1020", `Table '${quoted(shown)}' not defined in database`);
}

/** 400 8309 for a name the table does not have; `field` is kept for `$expand`'s per-record form of it (2.6). */
export class FieldMissing extends ODataError {
  constructor(readonly field: string) {
    super(400, "8309", `The field named '${quoted(field)}' does not exist in a specified table (9)`);
  }
}

export const fieldMissing = (name: string) => new FieldMissing(name);

/** A field by name (as FileMaker matches names), or `FMFID:n` (1.3), as the entity type states them. */
export function findField(set: EntitySet, name: string): TableField | undefined {
  return propertyOf(set.type, name)?.field;
}

/** The record a key names (2.4); missing → 404 -1023, a literal of the wrong type → 400 8309. */
export function findRecord(set: EntitySet, key: EntityKey): StoredRecord {
  const notFound = () => new ODataError(404, "-1023", "Record not found");
  if (key.kind === "rowid") return set.data.records.get(key.rowid) ?? throwError(notFound());
  if (key.kind === "composite") throw new ODataError(400, "-1002", `Error: syntax error in URL at: '${key.values.length} key values'`);
  const literal = key.value;
  if (set.key === undefined) {
    // A keyless TO is addressed by its ROWID (2.4).
    if (literal.type !== "number") throw incompatibleTypes();
    return set.data.records.get(literal.value) ?? throwError(notFound());
  }
  const field = set.key;
  if ((field.type === "number") !== (literal.type === "number")) throw incompatibleTypes();
  // Looked up through the key's index (store.ts), as a FileMaker server does: a scan from the first row made every
  // call by key cost more the later its row came in the table. The first record in creation order holding the key.
  if (literal.type === "number") {
    // A number key is read from its text, exactly: `T(123456789012345678901234567890)` is that record, not its
    // neighbour; a literal no number field can hold (401 digits) names no record.
    const value = storedNumberOf(literal.text, "lenient");
    if (typeof value === "string") throw notFound();
    return set.data.recordsWithValue(field, value)[0] ?? throwError(notFound());
  }
  return set.data.recordsWithValue(field, literal.value)[0] ?? throwError(notFound());
}

function throwError(error: ODataError): never {
  throw error;
}

/** The key a record is addressed by in `@id`: its key value, or its ROWID when keyless (or the key is empty). */
export function recordKey(set: EntitySet, record: StoredRecord): EntityKey {
  const value = set.key === undefined ? undefined : set.data.valuesOf(record, set.key)[0];
  if (typeof value === "string" && value !== "") return { kind: "single", value: { type: "string", value } };
  // A number key is written digit for digit (`T(123456789012345678901234567890)`), never as a double's exponent.
  if (isStoredNumber(value)) return { kind: "single", value: { type: "number", value: Number(numberText(value)), text: numberText(value) } };
  if (set.key === undefined) return { kind: "single", value: { type: "number", value: record.recordId, text: String(record.recordId) } };
  return { kind: "rowid", rowid: record.recordId };
}

const pad = (n: number) => String(n).padStart(2, "0");

function isoDate(days: number): string {
  return new Date(days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * A stored value as OData's JSON shows it (1.4): null when empty; dates, times, timestamps (UTC, `Z`) as text; a
 * number a double does not hold as its bare token (NumberToken, every digit).
 */
export function jsonValue(field: TableField, value: StoredValue | StoredNumber | undefined, containers: ContainerStore, database: string): string | number | NumberToken | null {
  if (value === null || value === undefined || value === "") return null;
  if (value instanceof ExactNumber) return numberJson(value, false) as NumberToken;
  if (isContainerRef(value)) {
    // 2.6's choice: a container (only when selected) is its bytes in base64.
    const file = containers.get(database, value.id);
    return file ? Buffer.from(file.bytes).toString("base64") : null;
  }
  // Text in a field of another type is a calculation's invalid result, "?" (calculations.ts), shown as it is.
  if (typeof value === "string") return value;
  switch (field.type) {
    case "text":
      return String(value);
    case "number":
      return value;
    case "date":
      return isoDate(value);
    case "time":
      return formatWireTime(value);
    case "timestamp": {
      const days = Math.floor(value / 86_400);
      const s = value - days * 86_400;
      return `${isoDate(days)}T${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(Math.floor(s % 60))}Z`;
    }
    case "container":
      return null;
  }
}

/** A field's values in a record: one value, or every repetition as an array (2.3's choice). */
export function fieldJson(set: EntitySet, record: StoredRecord, field: TableField, containers: ContainerStore, database: string): unknown {
  const values = set.data.valuesOf(record, field);
  if (field.repetitions === 1) return jsonValue(field, values[0], containers, database);
  return values.map((v) => jsonValue(field, v, containers, database));
}

/**
 * A table's navigation properties (1.3), as the entity type lists them: the table occurrences its relations reach,
 * both ways, named by their table (relations.ts). Several pairs of fields to one table join as one navigation.
 */
export function navigations(db: HostedDatabase, set: EntitySet): NameMap<readonly RelationStep[]> {
  const steps = relationSteps(db.model).get(set.name);
  // By the navigation's name, as FileMaker matches names: `$expand=notes` is the navigation `Notes`.
  const out = new NameMap<readonly RelationStep[]>();
  // A described relation without match fields is a navigation that reaches no rows (described-tables.ts).
  for (const n of set.type.navigation) out.set(n.name, steps?.get(n.name) ?? []);
  return out;
}

/** The records a navigation reaches from one record, in creation order. */
export function relatedRecords(db: HostedDatabase, set: EntitySet, record: StoredRecord, target: EntitySet, steps: readonly RelationStep[]): StoredRecord[] {
  const found = new Map<number, StoredRecord>();
  for (const step of steps) for (const r of relatedRows(step.fromField, step.toField, set.data, record, target.data)) found.set(r.recordId, r);
  return [...found.values()].sort((a, b) => a.recordId - b.recordId);
}

/** A field's FMFID (1.3), as the entity type states it. */
export function fieldId(set: EntitySet, field: TableField): string {
  const property = set.type.properties.find((p) => p.field === field)!;
  return property.fieldId ?? `FMFID:${property.fieldNumber}`;
}

/** What `$filter` checks against (metadata-filter.ts): the set's fields with their Edm types and FMFIDs, and its navigations (one level). */
export function filterTable(set: EntitySet, db: HostedDatabase): FilterTable {
  return viewOf(db).filterTables.get(set.name)!;
}

/** One record as `$filter` reads it (filter-schema.ts): dates `YYYY-MM-DD`, times, zone-less timestamps, numbers. */
export function filterRow(set: EntitySet, record: StoredRecord, db?: HostedDatabase): FilterRow {
  return {
    related(name) {
      if (db === undefined) return [];
      const steps = navigations(db, set).get(name);
      if (steps === undefined) return [];
      const target = findSet(db, { by: "name", name });
      return relatedRecords(db, set, record, target, steps).map((r) => filterRow(target, r));
    },
    value(name) {
      const field = findByName(set.fields, name, (f) => f.name);
      if (field === undefined) {
        if (name === "ROWID") return record.recordId;
        if (name === "ROWMODID") return record.modId;
        return undefined;
      }
      const value = set.data.valuesOf(record, field)[0];
      if (value === null || value === undefined || value === "") return null;
      if (value instanceof ExactNumber) return value;
      if (isContainerRef(value)) return value.id;
      if (typeof value === "string") return value;
      if (field.type === "date") return isoDate(value);
      if (field.type === "time") return formatWireTime(value);
      if (field.type === "timestamp") {
        const days = Math.floor(value / 86_400);
        return `${isoDate(days)}T${formatWireTime(value - days * 86_400)}`;
      }
      return value;
    },
  };
}

/** Whether a name is a special column of this set (2.10): ROWID or ROWMODID, unless a field has the name. */
export function isSpecialColumn(set: EntitySet, name: string): boolean {
  return SPECIAL_COLUMNS.includes(name) && findByName(set.fields, name, (f) => f.name) === undefined;
}
