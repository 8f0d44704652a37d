import { randomUUID } from "node:crypto";
import type { ContainerRef, StoredValue } from "./stored-value.js";
import { FieldIndex } from "./field-index.js";
import type { DatabaseModel, TableField, TableModel } from "./model.js";

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

/** Unique validation folds case; joins compare keys as they are. */
export type IndexPurpose = "unique" | "join";

/** The records of one table, in creation order (FileMaker's unsorted order). */
export class TableData {
  /** Read freely; change only through put/remove, which keep the indexes current. */
  readonly records = new Map<number, StoredRecord>();
  private readonly indexes = new Map<string, FieldIndex>();
  /** The file's values of global fields (seed data); sessions read them until they set their own (globals.ts). */
  readonly globals = new Map<string, StoredValue[]>();
  private nextRecordId = 1;
  private readonly serials = new Map<string, number>();

  constructor(readonly model: TableModel) {}

  /** Indexes a (non-global) field for one purpose; each purpose has its own key function. */
  addIndex(field: TableField, purpose: IndexPurpose, keyOf: (value: StoredValue | undefined) => string | undefined): void {
    const name = `${purpose}:${field.name}`;
    if (!field.global && !this.indexes.has(name)) this.indexes.set(name, new FieldIndex(field, keyOf));
  }

  index(field: TableField, purpose: IndexPurpose): FieldIndex | undefined {
    return this.indexes.get(`${purpose}:${field.name}`);
  }

  /** Stores a new or changed record (also after changing one in place) and updates the indexes. */
  put(record: StoredRecord): void {
    this.records.set(record.recordId, record);
    for (const index of this.indexes.values()) index.update(record.recordId, record.values.get(index.field.name)?.[0]);
  }

  remove(recordId: number): void {
    this.records.delete(recordId);
    for (const index of this.indexes.values()) index.remove(recordId);
  }

  /**
   * Puts back records removed by a step that then failed, each where it was in creation order (record ids are
   * handed out in creation order): the undo of {@link remove}.
   */
  restore(records: readonly StoredRecord[]): void {
    if (records.length === 0) return;
    for (const record of records) this.put(record);
    const ordered = [...this.records.values()].sort((a, b) => a.recordId - b.recordId);
    this.records.clear();
    for (const record of ordered) this.records.set(record.recordId, record);
  }

  newRecordId(): number {
    return this.nextRecordId++;
  }

  /** Next serial number for a field: one past the highest value it has held. */
  peekSerial(field: string): number {
    return this.serials.get(field) ?? 1;
  }

  noteSerialValue(field: string, value: StoredValue): void {
    const n = typeof value === "number" ? value : typeof value === "string" ? Number(value) : NaN;
    if (Number.isInteger(n) && n >= (this.serials.get(field) ?? 1)) this.serials.set(field, n + 1);
  }

  /**
   * The values of a field in a record; for a global field, those the scope sees (a session's: globals.ts), or
   * without a scope the file's.
   */
  valuesOf(record: StoredRecord, field: TableField, scope?: GlobalScope): StoredValue[] {
    if (field.global) return (scope ? scope.read(this, field.name) : this.globals.get(field.name)) ?? emptyValues(field);
    return record.values.get(field.name) ?? emptyValues(field);
  }
}

export function emptyValues(field: TableField): StoredValue[] {
  return Array.from({ length: field.repetitions }, () => (field.type === "text" ? "" : null));
}

/** A hosted database: its model and its tables' records. */
export interface HostedDatabase {
  model: DatabaseModel;
  tables: Map<string, TableData>;
  /** Whose global field values reads and writes see: a request's session's (globals.ts), else the file's. */
  globals?: GlobalScope;
}

/** Container bytes, addressed by the id that a container field's URL carries. */
export interface StoredFile extends ContainerRef {
  bytes: Uint8Array;
}

export class ContainerStore {
  private readonly files = new Map<string, StoredFile>();

  put(filename: string, contentType: string, bytes: Uint8Array): ContainerRef {
    const id = randomUUID().replaceAll("-", "").toUpperCase();
    const ref: ContainerRef = { id, filename, contentType, size: bytes.byteLength };
    this.files.set(id, { ...ref, bytes });
    return ref;
  }

  get(id: string): StoredFile | undefined {
    return this.files.get(id);
  }
}
