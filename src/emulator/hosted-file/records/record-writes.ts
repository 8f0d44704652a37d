import { randomUUID } from "node:crypto";
import type { EmulatorClock } from "../clock.js";
import { EmulatorError } from "../fm-error.js";
import { describeInput } from "../input/input-text.js";
import { appliesValidation, checkWritable, USER_ENTRY, type EntryOptions } from "./entry-options.js";
import type { LayoutField, TableField } from "../model.js";
import { emptyValues, type GlobalScope, type HostedDatabase, type StoredRecord, type TableData } from "../store.js";
import { emitChange } from "../change-feed.js";
import { FILE_GLOBALS } from "../globals.js";
import { isStoredNumber, type StoredValue } from "../stored-value.js";
import { numberText } from "../exact-number.js";
import { decodeFieldValue, fieldValueForm, US_DATES, type DateFormat } from "../date-format.js";

/** One value to store: a field, a zero-based repetition, the decoded value (a container's file for uploads). */
export interface FieldChange {
  field: TableField;
  repetition: number;
  value: StoredValue;
}

const TYPE_ERROR_CODE = { date: "500", time: "501", number: "502", timestamp: "500", text: "500", container: "102" } as const;

/** How a call's values are read: its `dateformats` for date and timestamp fields (date-format.ts; default US). */
export interface FieldInput {
  dateFormat?: DateFormat;
  /** `options.entrymode` / `prohibitmode` (entry-options.ts); default a user's data entry. */
  entry?: EntryOptions;
}

/**
 * Reads a client's `fieldData` object against the fields a layout (or portal) shows.
 * Throws before anything is stored: unknown field 102, container 102, readOnly 201, wrong type 500/501/502.
 */
export function parseFieldChanges(fields: Map<string, LayoutField>, fieldData: unknown, where: string, input: FieldInput = {}): FieldChange[] {
  if (typeof fieldData !== "object" || fieldData === null || Array.isArray(fieldData)) {
    throw new EmulatorError(400, "1708", `${where} must be an object of field names to values`);
  }
  const changes: FieldChange[] = [];
  const entry = input.entry ?? USER_ENTRY;
  for (const [key, raw] of Object.entries(fieldData)) {
    if (raw === null) throw nullFieldValue(key, where);
    const { layoutField, repetition } = resolveFieldKey(fields, key, where);
    const { field } = layoutField;
    if (field.type === "container") {
      throw new EmulatorError(400, "102", `"${key}" is a container field; set it through the container upload endpoint`);
    }
    checkWritable(field, key, entry);
    const decoded = decodeFieldValue(field.type, raw, input.dateFormat ?? US_DATES);
    if (!decoded.ok) {
      const why = decoded.problem === undefined ? "" : `: ${decoded.problem}`;
      throw new EmulatorError(400, TYPE_ERROR_CODE[field.type], `${describeInput(raw)} is not a valid ${field.type} for "${key}" (expected ${fieldValueForm(field.type, input.dateFormat)})${why}`);
    }
    changes.push({ field, repetition, value: decoded.value });
  }
  return changes;
}

/**
 * JSON `null` as a field value (or a find criterion) is refused, as real servers refuse it: HTTP 400 with the
 * contract's statuses, 500 with real servers' (docs/emulator.md, "1. Requests every client sends"), code 1708, naming
 * the field.
 */
export function nullFieldValue(key: string, where: string): EmulatorError {
  return new EmulatorError(400, "1708", `"${key}" in ${where}: JSON null is not a field value (send "" for an empty one)`, 500);
}

/** `Phone(2)` -> Phone, repetition index 1; a name that itself ends in "(n)" wins over a repetition. */
function resolveFieldKey(fields: Map<string, LayoutField>, key: string, where: string): { layoutField: LayoutField; repetition: number } {
  const exact = fields.get(key);
  if (exact) return { layoutField: exact, repetition: 0 };
  const m = /^(.*)\((\d+)\)$/s.exec(key);
  const base = m ? fields.get(m[1]!) : undefined;
  if (m && base) {
    const n = Number(m[2]);
    if (n >= 1 && n <= base.field.repetitions) return { layoutField: base, repetition: n - 1 };
    throw new EmulatorError(400, "102", `"${base.wireName}" has ${base.field.repetitions} repetition(s); "${key}" is out of range`);
  }
  throw new EmulatorError(400, "102", `field "${key}" is not on ${where}`);
}

/**
 * Builds a new record (auto-enter first, then the client's values) and validates it as `entry` says (a user's data
 * entry or not: entry-options.ts); the caller stores it. `account`: the account name the write's creation and
 * modification account fields get (HostedDatabase.account; none: they stay empty, as for seed data).
 */
export function buildNewRecord(table: TableData, changes: readonly FieldChange[], clock: EmulatorClock, scope: GlobalScope, entry: EntryOptions, account?: string): { record: StoredRecord; globals: Map<string, StoredValue[]> } {
  const record: StoredRecord = { recordId: 0, modId: 0, values: new Map() };
  const now = clock.wallSeconds();
  for (const field of table.model.fields.values()) {
    if (field.global || field.computed) continue;
    const values = emptyValues(field);
    const auto = autoEnterValue(table, field, now, account);
    if (auto !== undefined) values[0] = auto;
    record.values.set(field.name, values);
  }
  const globals = applyChanges(table, record, changes, scope);
  validateRecord(table, record, globals, undefined, scope, entry);
  record.recordId = table.newRecordId();
  return { record, globals };
}

/**
 * Applies an edit to a copy of the record, validates the copy as `entry` says (entry-options.ts), and returns it;
 * nothing is stored yet. `account`, as for buildNewRecord: what modification account fields get.
 */
export function buildEditedRecord(table: TableData, current: StoredRecord, changes: readonly FieldChange[], clock: EmulatorClock, scope: GlobalScope, entry: EntryOptions, account?: string): { record: StoredRecord; globals: Map<string, StoredValue[]> } {
  const built = buildChangedRecord(table, current, changes, clock, scope, account);
  validateRecord(table, built.record, built.globals, current.recordId, scope, entry);
  return built;
}

/**
 * Applies changes to a copy of the record (next modId, modification timestamps and account names) and returns it
 * unvalidated; nothing is stored yet. The stored record is never changed in place: a reader holding it sees it whole.
 */
export function buildChangedRecord(table: TableData, current: StoredRecord, changes: readonly FieldChange[], clock: EmulatorClock, scope: GlobalScope = FILE_GLOBALS, account?: string): { record: StoredRecord; globals: Map<string, StoredValue[]> } {
  const record: StoredRecord = {
    recordId: current.recordId,
    modId: current.modId + 1,
    values: new Map([...current.values].map(([k, v]) => [k, [...v]])),
  };
  const globals = applyChanges(table, record, changes, scope);
  touchModification(table, record, clock, changes, account);
  return { record, globals };
}

/**
 * Sets the modification timestamp and account name fields of a record that has just changed (a copy not yet
 * stored), except one the change writes itself (options.prohibitmode "script"): the value written is the one kept.
 * With no account (a seed's write), a modification account field keeps its value.
 */
function touchModification(table: TableData, record: StoredRecord, clock: EmulatorClock, changes: readonly FieldChange[], account: string | undefined): void {
  const now = clock.wallSeconds();
  for (const field of table.model.fields.values()) {
    const kind = field.autoEnter;
    if (kind !== "modificationTimestamp" && (kind !== "modificationAccount" || account === undefined)) continue;
    if (field.global || changes.some((change) => change.field === field)) continue;
    const values = record.values.get(field.name) ?? emptyValues(field);
    values[0] = kind === "modificationAccount" ? account! : chronological(field, now);
    record.values.set(field.name, values);
  }
}

/**
 * Stores what buildNewRecord/buildEditedRecord produced; global field values go to the scope (a session's). The one
 * place a record is stored, so the one place `db`'s change feed is told (ADD or UPDATE; change-feed.ts): a write of
 * several records that may fail part-way runs inside `holdChanges`. No `db` (a seed, before anyone listens): no one.
 */
export function commitRecord(table: TableData, built: { record: StoredRecord; globals: Map<string, StoredValue[]> }, scope: GlobalScope = FILE_GLOBALS, db?: HostedDatabase): void {
  const existed = table.records.has(built.record.recordId);
  table.put(built.record);
  for (const [name, values] of built.globals) scope.write(table, name, values);
  for (const field of table.model.fields.values()) {
    if (field.autoEnter === "serial") table.noteSerialValue(field.name, built.record.values.get(field.name)?.[0] ?? null);
  }
  if (db) emitChange(db, { operation: existed ? "UPDATE" : "ADD", table: table.model.name, rowIDs: [built.record.recordId] });
}

function applyChanges(table: TableData, record: StoredRecord, changes: readonly FieldChange[], scope: GlobalScope): Map<string, StoredValue[]> {
  const globals = new Map<string, StoredValue[]>();
  for (const { field, repetition, value } of changes) {
    let values: StoredValue[];
    if (field.global) {
      values = globals.get(field.name) ?? [...(scope.read(table, field.name) ?? emptyValues(field))];
      globals.set(field.name, values);
    } else {
      values = record.values.get(field.name) ?? emptyValues(field);
      record.values.set(field.name, values);
    }
    values[repetition] = field.type === "text" && value === null ? "" : value;
  }
  return globals;
}

function autoEnterValue(table: TableData, field: TableField, now: number, account: string | undefined): StoredValue | undefined {
  switch (field.autoEnter) {
    case "serial": {
      // Only peeked: commitRecord advances the serial, so a rejected create consumes no number.
      const next = table.peekSerial(field.name);
      return field.type === "number" ? next : numberText(next);
    }
    case "uuid":
      return randomUUID().toUpperCase();
    case "creationTimestamp":
    case "modificationTimestamp":
      return chronological(field, now);
    // FileMaker's Get ( AccountName ) of the write: none (a seed) leaves the field empty.
    case "creationAccount":
    case "modificationAccount":
      return account;
    default:
      return undefined;
  }
}

/** A timestamp auto-enter on a date or time field keeps only its part. */
function chronological(field: TableField, wallSeconds: number): number {
  if (field.type === "date") return Math.floor(wallSeconds / 86_400);
  if (field.type === "time") return wallSeconds % 86_400;
  return wallSeconds;
}

function isEmpty(value: StoredValue | undefined): boolean {
  return value === null || value === undefined || value === "";
}

/**
 * Unique validation compares text case-insensitively, as FileMaker's default index does, and numbers by value,
 * exactly: their canonical decimal text (`1.50` is `1.5`; two 58-digit keys differing in the last digit differ).
 */
export function uniqueKey(value: StoredValue | undefined): string | undefined {
  if (isEmpty(value)) return undefined;
  if (typeof value === "string") return value.toLowerCase();
  return isStoredNumber(value) ? numberText(value) : JSON.stringify(value);
}

/**
 * Required (509), unique (504) and maximum length (511) validation of a whole record, as FileMaker does on commit, of the fields whose
 * validation applies to this write (`appliesValidation`: "always" fields on every write, the others on data entry).
 */
function validateRecord(table: TableData, record: StoredRecord, globals: Map<string, StoredValue[]>, selfId: number | undefined, scope: GlobalScope, entry: EntryOptions): void {
  for (const field of table.model.fields.values()) {
    // A computed field (a calculation, a joined related field) is not the record's to validate.
    if (!(field.required || field.unique || field.maxLength !== undefined) || field.computed || !appliesValidation(field, entry)) continue;
    const values = field.global ? (globals.get(field.name) ?? scope.read(table, field.name)) : record.values.get(field.name);
    const first = values?.[0];
    if (field.required && isEmpty(first)) throw new EmulatorError(400, "509", `"${field.name}" requires a value`);
    // A table description's maxLength: FileMaker's "maximum number of characters" validation, counted in characters.
    const long = field.maxLength === undefined ? undefined : values?.find((v) => typeof v === "string" && [...v].length > field.maxLength!);
    if (long !== undefined) throw new EmulatorError(400, "511", `"${field.name}" holds at most ${field.maxLength} characters`);
    const index = field.unique ? table.index(field, "unique") : undefined;
    const key = index?.key(first);
    if (index && key !== undefined) {
      const other = index.lookup(key).find((id) => id !== selfId);
      if (other !== undefined) throw new EmulatorError(400, "504", `"${field.name}" must be unique; record ${other} already holds this value`);
    }
  }
}
