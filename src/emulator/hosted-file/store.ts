import { randomUUID } from "node:crypto";
import { isContainerRef, isStoredNumber, type ContainerRef, type StoredValue } from "./stored-value.js";
import { sameNumber, storedNumberOf, numberText, type StoredNumber } from "./exact-number.js";
import { FieldIndex, lookupCost } from "./field-index.js";
import type { DatabaseModel, LayoutModel, TableField, TableModel } from "./model.js";
import type { NameMap } from "./name-map.js";

/** One stored record: per field, one value per repetition. */
export interface StoredRecord {
  recordId: number;
  modId: number;
  values: Map<string, StoredValue[]>;
}

/**
 * Whose values of global fields a read or write sees: the file's, or one session's (globals.ts has both, and
 * how FileMaker scopes global values). Declared here because a table's {@link TableData.valuesOf} reads
 * through one.
 */
export interface GlobalScope {
  /** The values this scope sees for a global field of a table (undefined: never set, so empty). */
  read(table: TableData, field: string): StoredValue[] | undefined;
  /** Sets (or, with undefined, unsets) the scope's own values of a global field. */
  write(table: TableData, field: string, values: StoredValue[] | undefined): void;
  /** The scope's own values, not a default it falls back to (what an undo restores). */
  own(table: TableData, field: string): StoredValue[] | undefined;
}

/** How a computed field's values are computed in a record (calculations.ts), one per repetition. */
export type ComputeValues = (record: StoredRecord, scope?: GlobalScope) => StoredValue[];

/**
 * Unique validation folds case; joins compare keys as they are; `value` tells text from numbers and keeps empty
 * text (what {@link TableData.recordsWithValue} finds: a record addressed by its key).
 */
export type IndexPurpose = "unique" | "join" | "value";

/** The records of one table, in creation order (FileMaker's unsorted order). */
export class TableData {
  /** Read freely; change only through put/remove, which keep the indexes current. */
  readonly records = new Map<number, StoredRecord>();
  private readonly indexes = new Map<string, FieldIndex>();
  /** How the table's computed fields (those whose model says `computed`) are computed. */
  private readonly computers = new Map<TableField, ComputeValues>();
  /** The file's values of global fields (seed data); sessions read them until they set their own (globals.ts). */
  readonly globals = new Map<string, StoredValue[]>();
  private nextRecordId = 1;
  /** Each serial field's next value, exactly (a serial may pass 2^53: a seed's 58-digit key). */
  private readonly serials = new Map<string, bigint>();
  /**
   * While an atomic changeset runs (records/atomic-changes.ts): told what each put/remove replaces (undefined: the
   * record is new; `removed`: by remove), so that a failing changeset can put every record back.
   */
  journal: ((table: TableData, recordId: number, previous: StoredRecord | undefined, removed: boolean) => void) | undefined;

  /** The table's non-global container fields, whose files the container store keeps while a record holds them. */
  private readonly containerFields: string[];

  /** `containers`: the store whose files this table's container fields hold (none: nothing is counted). */
  constructor(
    readonly model: TableModel,
    readonly containers?: ContainerStore,
  ) {
    this.containerFields = [...model.fields.values()].filter((f) => f.type === "container" && !f.global).map((f) => f.name);
  }

  /** Indexes a (non-global) field for one purpose; each purpose has its own key function. */
  addIndex(field: TableField, purpose: IndexPurpose, keyOf: (value: StoredValue | undefined) => string | undefined): void {
    const name = `${purpose}:${field.name}`;
    // Global and computed values are not the record's stored ones: lookups of them scan instead.
    if (!field.global && !field.computed && !this.indexes.has(name)) this.indexes.set(name, new FieldIndex(field, keyOf));
  }

  /** Sets how a field marked `computed` is computed, before any record is read. */
  compute(field: TableField, values: ComputeValues): void {
    this.computers.set(field, values);
  }

  index(field: TableField, purpose: IndexPurpose): FieldIndex | undefined {
    return this.indexes.get(`${purpose}:${field.name}`);
  }

  /**
   * The records whose field's first repetition is exactly `value` (text and numbers apart; numbers by value, exactly:
   * `1.5` is `1.50`, two 58-digit keys differing in their last digit are two values), in creation order: what addressing a record by its key (OData's `T('k')`) finds. A FileMaker server finds it
   * through the field's index, so this looks it up: the field is indexed on its first lookup (one pass over the
   * table), and put/remove keep the index current from then on (writes, deletes, key changes, and the undo of a
   * failed atomic change, which goes through them). Global and computed values are not the record's stored ones:
   * those fields are scanned. Rows visited count in `lookupCost` (field-index.ts).
   */
  recordsWithValue(field: TableField, value: string | StoredNumber): StoredRecord[] {
    if (field.global || field.computed) {
      lookupCost.ids += this.records.size;
      return [...this.records.values()].filter((r) => sameValue(this.valuesOf(r, field)[0], value));
    }
    const name = `value:${field.name}`;
    let index = this.indexes.get(name);
    if (index === undefined || index.field !== field) {
      index = new FieldIndex(field, (v) => valueKey(field, v));
      for (const record of this.records.values()) index.update(record.recordId, record.values.get(field.name)?.[0]);
      lookupCost.ids += this.records.size;
      this.indexes.set(name, index);
    }
    const key = valueKey(field, value);
    if (key === undefined) return [];
    // The index's key is a candidate's; the stored value itself decides, as the scan it replaces compared it.
    return index.lookup(key).flatMap((id) => {
      const record = this.records.get(id);
      return record !== undefined && sameValue(this.valuesOf(record, field)[0], value) ? [record] : [];
    });
  }

  /** Stores a new or changed record (also after changing one in place) and updates the indexes. */
  put(record: StoredRecord): void {
    const previous = this.records.get(record.recordId);
    this.journal?.(this, record.recordId, previous, false);
    this.records.set(record.recordId, record);
    for (const index of this.indexes.values()) index.update(record.recordId, record.values.get(index.field.name)?.[0]);
    if (this.containers) {
      for (const name of this.containerFields) {
        this.containers.recordHolds(record.values.get(name), 1);
        this.containers.recordHolds(previous?.values.get(name), -1);
      }
    }
  }

  remove(recordId: number): void {
    const previous = this.records.get(recordId);
    if (previous) this.journal?.(this, recordId, previous, true);
    this.records.delete(recordId);
    for (const index of this.indexes.values()) index.remove(recordId);
    if (this.containers && previous) for (const name of this.containerFields) this.containers.recordHolds(previous.values.get(name), -1);
  }

  /** A field was added to the model (schema-changes.ts): a container one counts its records' holds from now on. */
  fieldAdded(field: TableField): void {
    if (field.type === "container" && !field.global && !this.containerFields.includes(field.name)) this.containerFields.push(field.name);
  }

  /**
   * A field is being deleted from the model (schema-changes.ts): every record is stored again without its values
   * (a container's files are let go), then its indexes, file values, serial and computation are forgotten.
   */
  fieldRemoved(field: TableField): void {
    for (const record of [...this.records.values()]) {
      if (!record.values.has(field.name)) continue;
      const values = new Map(record.values);
      values.delete(field.name);
      this.put({ ...record, values });
    }
    for (const [name, index] of this.indexes) if (index.field === field) this.indexes.delete(name);
    const at = this.containerFields.indexOf(field.name);
    if (at !== -1) this.containerFields.splice(at, 1);
    this.globals.delete(field.name);
    this.serials.delete(field.name);
    this.computers.delete(field);
  }

  newRecordId(): number {
    return this.nextRecordId++;
  }

  /** The next record id and serial numbers, to put back when an atomic changeset fails (records/atomic-changes.ts). */
  counters(): { readonly nextRecordId: number; readonly serials: ReadonlyMap<string, bigint> } {
    return { nextRecordId: this.nextRecordId, serials: new Map(this.serials) };
  }

  restoreCounters(saved: { readonly nextRecordId: number; readonly serials: ReadonlyMap<string, bigint> }): void {
    this.nextRecordId = saved.nextRecordId;
    this.serials.clear();
    for (const [k, v] of saved.serials) this.serials.set(k, v);
  }

  /**
   * Puts the records back in this order (ids not stored are skipped; stored ones not listed follow): a removed
   * record put back again takes its old place in creation order, not the end. Indexes are not affected by order.
   */
  restoreOrder(ids: readonly number[]): void {
    const all = new Map(this.records);
    this.records.clear();
    for (const id of ids) {
      const record = all.get(id);
      if (record) {
        this.records.set(id, record);
        all.delete(id);
      }
    }
    for (const [id, record] of all) this.records.set(id, record);
  }

  /**
   * Next serial number for a field: one past the highest whole value it has held, counted exactly (a double up to
   * 2^53, an ExactNumber past it: one past a 58-digit key is that key's last digit plus one).
   */
  peekSerial(field: string): StoredNumber {
    const next = this.serials.get(field) ?? 1n;
    return next <= BigInt(Number.MAX_SAFE_INTEGER) && next >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(next) : (storedNumberOf(String(next)) as StoredNumber);
  }

  /** A record now holds this value in a serial field: a whole number at or past the next serial moves it on. */
  noteSerialValue(field: string, value: StoredValue): void {
    const whole = wholeNumber(value);
    if (whole !== undefined && whole >= (this.serials.get(field) ?? 1n)) this.serials.set(field, whole + 1n);
  }

  /**
   * The values of a field in a record; for a global field, those the scope sees (a session's: globals.ts), or
   * without a scope the file's; for a computed one (a calculation, a joined related field), computed now.
   */
  valuesOf(record: StoredRecord, field: TableField, scope?: GlobalScope): StoredValue[] {
    if (field.computed) return this.computers.get(field)!(record, scope);
    if (field.global) return (scope ? scope.read(this, field.name) : this.globals.get(field.name)) ?? emptyValues(field);
    return record.values.get(field.name) ?? emptyValues(field);
  }
}

/**
 * The `value` index's key of a stored first repetition: text and numbers apart; a field the record does not hold
 * reads as empty (`valuesOf`: "" for text, so `T('')` finds it as the scan did); containers and null are never a key.
 */
function valueKey(field: TableField, value: StoredValue | undefined): string | undefined {
  if (value === undefined) return field.type === "text" ? "s:" : undefined;
  if (value === null || isContainerRef(value)) return undefined;
  // A number by its canonical text: one key per value, every digit of it.
  return isStoredNumber(value) ? `n:${numberText(value)}` : `s:${value}`;
}

/** Whether a stored value is `value`: text as `===` compares it, numbers by value (exactly), never text and a number. */
function sameValue(stored: StoredValue | undefined, value: string | StoredNumber): boolean {
  if (typeof value === "string" || typeof stored === "string") return stored === value;
  return isStoredNumber(stored) && sameNumber(stored, value);
}

/** A serial field's value as a whole number (a number, or text of one: a text serial field), else undefined. */
function wholeNumber(value: StoredValue): bigint | undefined {
  const number = typeof value === "string" ? storedNumberOf(value.trim()) : value;
  if (!isStoredNumber(number)) return undefined;
  const text = numberText(number);
  return /^-?[0-9]+$/.test(text) ? BigInt(text) : undefined;
}

export function emptyValues(field: TableField): StoredValue[] {
  return Array.from({ length: field.repetitions }, () => (field.type === "text" ? "" : null));
}

/** A hosted database: its model and its tables' records. */
export interface HostedDatabase {
  model: DatabaseModel;
  /** By table occurrence name, matched as FileMaker matches names (name-map.ts). */
  tables: NameMap<TableData>;
  /** Whose global field values reads and writes see: a request's session's (globals.ts), else the file's. */
  globals?: GlobalScope;
  /**
   * The account name the request's writes auto-enter (`creationAccount`, `modificationAccount`): its session's, an
   * API key's, an OData sign-in's (sign-ins.ts, enteredAccountName); none (empty values) for seed data.
   */
  account?: string;
}

/** Container bytes, addressed by the id that a container field's URL carries, of one hosted database. */
export interface StoredFile extends ContainerRef {
  bytes: Uint8Array;
  /** The database whose field the file was uploaded into: only that database's URLs serve it. */
  database: string;
}

/** Whether a global scope (a session's values, or the file's) still exists: a session's dies with the session. */
export type ScopeLiveness = (scope: GlobalScope) => boolean;

interface StoredEntry {
  file: StoredFile;
  /** How many repetitions of stored records hold the file (kept by TableData.put / remove). */
  records: number;
  /** Global fields whose values were set to the file, by scope; checked against the scope's current values. */
  globals: { scope: GlobalScope; table: TableData; field: string }[];
}

/**
 * Container files, each held while a record's field, or a live scope's global field, holds it. Records count
 * their holds as they are stored and removed (TableData); a global field's value is noted when it is written and
 * checked when asked. A file no field holds is never served, and it is dropped once the synchronous write that
 * let go of it has finished (a microtask), so a write that fails and is undone within its step finds its files
 * still there. Files held only by a session's global field are checked again at each upload and each count.
 */
export class ContainerStore {
  private readonly files = new Map<string, StoredEntry>();
  /** Files that may have lost their last holder, checked by {@link collect}. */
  private readonly candidates = new Set<string>();
  private collecting = false;

  constructor(private readonly scopeLive: ScopeLiveness = () => true) {}

  /** Keeps an uploaded file for `database`; dropped again unless a field holds it by the end of the write. */
  put(database: string, filename: string, contentType: string, bytes: Uint8Array): ContainerRef {
    const id = randomUUID().replaceAll("-", "").toUpperCase();
    const ref: ContainerRef = { id, filename, contentType, size: bytes.byteLength };
    this.files.set(id, { file: { ...ref, bytes, database }, records: 0, globals: [] });
    this.candidates.add(id);
    this.scheduleCollect();
    return ref;
  }

  /** Puts back a file a data directory kept, under its own id (dropped again unless a field holds it by the end of the step). */
  restoreFile(database: string, ref: ContainerRef, bytes: Uint8Array): void {
    this.files.set(ref.id, { file: { ...ref, bytes, database }, records: 0, globals: [] });
    this.candidates.add(ref.id);
    this.scheduleCollect();
  }

  /** The file of that id, whoever holds it (what a data directory writes as the file's bytes). */
  fileOf(id: string): StoredFile | undefined {
    return this.files.get(id)?.file;
  }

  /** The file of that id, if it belongs to `database` and a field still holds it. */
  get(database: string, id: string): StoredFile | undefined {
    const entry = this.files.get(id);
    return entry && entry.file.database === database && this.held(entry) ? entry.file : undefined;
  }

  /** How many files the store keeps, once those no field holds are dropped. */
  count(): number {
    this.collect();
    return this.files.size;
  }

  /** A stored record's repetitions now hold these values (`+1`) or no longer do (`-1`). */
  recordHolds(values: readonly StoredValue[] | undefined, change: 1 | -1): void {
    for (const value of values ?? []) {
      if (!isContainerRef(value)) continue;
      const entry = this.files.get(value.id);
      if (!entry) continue;
      entry.records += change;
      if (entry.records === 0) {
        this.candidates.add(value.id);
        this.scheduleCollect();
      }
    }
  }

  /** A scope's global field was set to these values (the ones it held before are checked when asked). */
  globalHolds(scope: GlobalScope, table: TableData, field: string, values: readonly StoredValue[] | undefined): void {
    for (const value of values ?? []) {
      if (!isContainerRef(value)) continue;
      const entry = this.files.get(value.id);
      if (entry && !entry.globals.some((g) => g.scope === scope && g.table === table && g.field === field)) entry.globals.push({ scope, table, field });
    }
  }

  private held(entry: StoredEntry): boolean {
    if (entry.records > 0) return true;
    entry.globals = entry.globals.filter(({ scope, table, field }) => this.scopeLive(scope) && (scope.own(table, field) ?? []).some((v) => isContainerRef(v) && v.id === entry.file.id));
    return entry.globals.length > 0;
  }

  private scheduleCollect(): void {
    if (this.collecting) return;
    this.collecting = true;
    queueMicrotask(() => this.collect());
  }

  /** Drops the candidates no field holds. */
  private collect(): void {
    this.collecting = false;
    for (const id of this.candidates) {
      const entry = this.files.get(id);
      if (entry && !this.held(entry)) this.files.delete(id);
      if (!entry || entry.records > 0 || !this.files.has(id)) this.candidates.delete(id);
    }
  }
}

/** The table a layout shows. */
export function tableOf(db: HostedDatabase, layout: LayoutModel): TableData {
  return db.tables.get(layout.table.name)!;
}
