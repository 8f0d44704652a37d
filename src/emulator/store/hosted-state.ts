// The hosted files' data as the data directory keeps it (data-directory.ts): JSON in the Data API's wire forms, so that
// a later start can read it into descriptions that changed since (a field's values are decoded by its type as it is
// then). What is kept: every table's records (ids, modIds, stored fields), its next record id and serials, the file's
// global values, container files (bytes as blobs), the schema changes made while it ran (replayed in order), and its
// OData webhooks' registrations with the next webhook id (their deliveries waiting are not kept).
import type { FieldType } from "../../layout/schema.js";
import { FILE_GLOBALS } from "../hosted-file/globals.js";
import type { ContainerRef, StoredValue } from "../hosted-file/stored-value.js";
import { decodeWireValue, encodeWireValue, isContainerRef } from "../hosted-file/stored-value.js";
import type { TableField } from "../hosted-file/model.js";
import type { HostedDatabase, StoredRecord, TableData } from "../hosted-file/store.js";

/** A value as kept: the wire form of its type (containers as their file's facts; `null` for empty non-text). */
export type KeptValue = string | number | null | KeptContainer | { readonly text: string };
/** A container value: the file's id, name, type and size (its bytes are blob `i`). */
export interface KeptContainer {
  readonly i: string;
  readonly n: string;
  readonly t: string;
  readonly s: number;
}
/** One record: id, modId, and each stored field's repetitions. */
export type KeptRecord = readonly [recordId: number, modId: number, fields: Readonly<Record<string, readonly KeptValue[]>>];

/** A table's counters: the next record id, each serial field's next value (decimal text: serials run past 2^53). */
export interface KeptCounters {
  readonly next: number;
  readonly serials: Readonly<Record<string, string>>;
}

/** One table, whole (a snapshot's of format 1: each record as a KeptRecord, its fields named in every one). */
export interface KeptTable {
  readonly counters: KeptCounters;
  readonly globals: Readonly<Record<string, readonly KeptValue[]>>;
  readonly records: readonly KeptRecord[];
}

/**
 * One table, whole, as a snapshot of format 2 keeps it: the stored fields named once, then each record as one row,
 * `[recordId, modId, ...a slot per field]`, a slot being the field's value, or an array of them when the field has
 * several repetitions (a KeptValue is never an array). A third of the objects of format 1 to parse at a start.
 */
export interface KeptTableRows {
  readonly counters: KeptCounters;
  readonly globals: Readonly<Record<string, readonly KeptValue[]>>;
  readonly fields: readonly string[];
  readonly rows: readonly KeptRow[];
}
export type KeptRow = readonly [recordId: number, modId: number, ...slots: (KeptValue | readonly KeptValue[])[]];

/** A schema change, as it was asked for (replayed by schema-changes.ts's functions at the next start). */
export type KeptSchemaChange = { readonly op: string } & Readonly<Record<string, unknown>>;

/** An OData webhook's registration, as `Webhook.Add` gave it once checked: what its deliveries are made with. */
export interface KeptWebhook {
  readonly id: number;
  readonly tableName: string;
  /** The URL it POSTs to. */
  readonly webhook: string;
  /** Its endpoint headers, values and all (secrets too: the data directory is the user's own). */
  readonly headers: Readonly<Record<string, string>>;
  readonly queryHeaders: Readonly<Record<string, string>>;
  readonly notifySchemaChanges: boolean;
  readonly select: string;
  readonly filter: string;
  readonly maxFailedAttempts: number;
}

/** A hosted file's webhooks: their registrations and the id the next one gets (ids are never reused). */
export interface KeptWebhooks {
  readonly next: number;
  readonly hooks: readonly KeptWebhook[];
}

/** One hosted file, whole. */
export interface KeptDatabase {
  readonly schema: readonly KeptSchemaChange[];
  /** KeptTableRows as written now; KeptTable in a snapshot of format 1, still read. */
  readonly tables: Readonly<Record<string, KeptTable | KeptTableRows>>;
  /** Absent in a snapshot written before webhooks were kept. */
  readonly webhooks?: KeptWebhooks;
}

/** A snapshot's state: every hosted file. */
export interface KeptState {
  readonly databases: Readonly<Record<string, KeptDatabase>>;
}

/** A journal entry: what one group of answered writes changed, table by table. */
export interface KeptChanges {
  readonly db: string;
  /** Schema changes, in the order they were made (before the records below). */
  readonly schema?: readonly KeptSchemaChange[];
  readonly tables?: Readonly<Record<string, { readonly counters: KeptCounters; readonly globals?: KeptTable["globals"]; readonly put: readonly KeptRecord[]; readonly removed: readonly number[] }>>;
  /** Webhooks registered (`put`) and deleted (`removed`, ids) since the entry before, and the next id then. */
  readonly webhooks?: { readonly next: number; readonly put: readonly KeptWebhook[]; readonly removed: readonly number[] };
}

/** A stored value in its kept form. */
export function keptValue(type: FieldType, value: StoredValue): KeptValue {
  if (isContainerRef(value)) return { i: value.id, n: value.filename, t: value.contentType, s: value.size };
  return encodeWireValue(type, value, () => "") as KeptValue;
}

/** A kept value as stored in a field of `type` now; undefined when it no longer decodes (a changed type). */
export function storedValue(type: FieldType, kept: KeptValue): StoredValue | undefined {
  // Empty, in whatever type: "" is how the wire writes every empty value (containers included).
  if (kept === null || kept === "") return type === "text" ? "" : null;
  if (typeof kept === "object" && "i" in kept) return type === "container" ? ({ id: kept.i, filename: kept.n, contentType: kept.t, size: kept.s } satisfies ContainerRef) : undefined;
  if (type === "container") return undefined;
  const decoded = decodeWireValue(type, kept);
  return decoded.ok ? decoded.value : undefined;
}

/** A record in its kept form: the fields its table stores (neither computed nor global). */
export function keptRecord(table: TableData, record: StoredRecord): KeptRecord {
  const fields: Record<string, KeptValue[]> = {};
  for (const [name, values] of record.values) {
    const field = table.model.fields.get(name);
    if (!field || field.computed || field.global) continue;
    const kept = values.map((v) => keptValue(field.type, v));
    // Assigned (fast); a field named "__proto__" is defined, so that it stays a field.
    if (name === "__proto__") Object.defineProperty(fields, name, { value: kept, enumerable: true, configurable: true, writable: true });
    else fields[name] = kept;
  }
  return [record.recordId, record.modId, fields];
}

/** A table's counters in their kept form. */
export function keptCounters(table: TableData): KeptCounters {
  const { nextRecordId, serials } = table.counters();
  return { next: nextRecordId, serials: Object.fromEntries([...serials].map(([field, n]) => [field, String(n)])) };
}

/** The file's values of a table's global fields. */
export function keptGlobals(table: TableData): KeptTable["globals"] {
  const globals: Record<string, KeptValue[]> = {};
  for (const [name, values] of table.globals) {
    const field = table.model.fields.get(name);
    // Defined, so that a global named "__proto__" stays a field.
    if (field) Object.defineProperty(globals, name, { value: values.map((v) => keptValue(field.type, v)), enumerable: true, configurable: true, writable: true });
  }
  return globals;
}

/** Everything of a table, for a snapshot: its stored fields named once, a row per record. */
export function keptTableRows(table: TableData): KeptTableRows {
  const fields = [...table.model.fields.values()].filter((f) => !f.computed && !f.global);
  const rows: KeptRow[] = [];
  for (const record of table.records.values()) {
    const row: (number | KeptValue | KeptValue[])[] = [record.recordId, record.modId];
    for (const field of fields) {
      const values = record.values.get(field.name);
      if (values === undefined) row.push(null);
      else if (values.length === 1) row.push(keptValue(field.type, values[0]!));
      else row.push(values.map((v) => keptValue(field.type, v)));
    }
    rows.push(row as unknown as KeptRow);
  }
  return { counters: keptCounters(table), globals: keptGlobals(table), fields: fields.map((f) => f.name), rows };
}

/** What a later start could not carry over into today's descriptions: one note per field, counted. */
export class CarryNotes {
  readonly #counts = new Map<string, number>();
  note(what: string): void {
    this.#counts.set(what, (this.#counts.get(what) ?? 0) + 1);
  }
  lines(): string[] {
    return [...this.#counts].map(([what, n]) => `${what} (${n} value${n === 1 ? "" : "s"})`);
  }
}

/**
 * Puts a kept record into `table` as today's descriptions shape it: a field no longer there is dropped, a value that
 * no longer decodes by its field's type is left empty (both noted); a field added since is empty.
 */
export function restoreRecord(db: string, table: TableData, kept: KeptRecord, notes: CarryNotes): void {
  const [recordId, modId, fields] = kept;
  const values = new Map<string, StoredValue[]>();
  for (const name of Object.keys(fields)) {
    const field = storedField(db, table, name, notes);
    if (field) values.set(name, restoredRepetitions(db, table, field, fields[name]!, notes));
  }
  table.put({ recordId, modId, values });
}

/** Puts a snapshot's rows into `table`, as {@link restoreRecord} puts each record. */
export function restoreRows(db: string, table: TableData, kept: KeptTableRows, notes: CarryNotes): void {
  // Each column's field, looked up once (undefined: no longer stored, its values noted as dropped row by row).
  const columns = kept.fields.map((name) => {
    const field = table.model.fields.get(name);
    return field && !field.computed && !field.global ? field : undefined;
  });
  for (const row of kept.rows) {
    const values = new Map<string, StoredValue[]>();
    for (let c = 0; c < columns.length; c++) {
      const field = columns[c] ?? storedField(db, table, kept.fields[c]!, notes);
      if (field) values.set(field.name, restoredRepetitions(db, table, field, row[c + 2] as KeptValue | readonly KeptValue[], notes));
    }
    table.put({ recordId: row[0], modId: row[1], values });
  }
}

/** The stored field `name` is now, or undefined (noted) when the table no longer stores one of that name. */
function storedField(db: string, table: TableData, name: string, notes: CarryNotes): TableField | undefined {
  const field = table.model.fields.get(name);
  if (field && !field.computed && !field.global) return field;
  notes.note(`${db}: table "${table.model.name}" no longer has a stored field "${name}": its values were dropped`);
  return undefined;
}

/** A field's kept repetitions (or its one value) as stored now: as many as the field has, each decoded by its type. */
function restoredRepetitions(db: string, table: TableData, field: TableField, kept: KeptValue | readonly KeptValue[], notes: CarryNotes): StoredValue[] {
  const list: readonly KeptValue[] = Array.isArray(kept) ? kept : [kept as KeptValue];
  const repetitions: StoredValue[] = new Array(field.repetitions);
  for (let i = 0; i < field.repetitions; i++) {
    const value = i < list.length ? storedValue(field.type, list[i]!) : null;
    if (value === undefined) notes.note(`${db}: table "${table.model.name}", field "${field.name}" is ${field.type} now: values that are not were left empty`);
    repetitions[i] = value ?? (field.type === "text" ? "" : null);
  }
  if (list.length > field.repetitions) notes.note(`${db}: table "${table.model.name}", field "${field.name}" has ${field.repetitions} repetition(s) now: the others were dropped`);
  return repetitions;
}

/** Sets a table's counters as kept (never below what its records need). */
export function restoreCounters(table: TableData, kept: KeptCounters): void {
  const highest = Math.max(0, ...table.records.keys());
  const serials = new Map<string, bigint>();
  for (const [field, text] of Object.entries(kept.serials)) if (/^-?\d+$/.test(String(text))) serials.set(field, BigInt(text));
  table.restoreCounters({ nextRecordId: Math.max(kept.next, highest + 1), serials });
}

/**
 * Sets a table's file globals as kept (fields that are no longer globals are skipped), through the file's scope, so
 * that a container file a global holds is counted as held (and not dropped as no field's).
 */
export function restoreGlobals(table: TableData, kept: KeptTable["globals"]): void {
  for (const [name, list] of Object.entries(kept)) {
    const field = table.model.fields.get(name);
    if (!field?.global) continue;
    FILE_GLOBALS.write(
      table,
      name,
      list.map((v) => storedValue(field.type, v) ?? null),
    );
  }
}

/** The ids of the container files every kept record and global of `db` holds. */
export function heldContainerIds(db: HostedDatabase): Set<string> {
  const ids = new Set<string>();
  for (const table of db.tables.values()) {
    const add = (values: readonly StoredValue[] | undefined) => {
      for (const v of values ?? []) if (isContainerRef(v)) ids.add(v.id);
    };
    for (const record of table.records.values()) for (const values of record.values.values()) add(values);
    for (const values of table.globals.values()) add(values);
  }
  return ids;
}
