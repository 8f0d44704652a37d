// The OData write path over the hosted file (docs/emulator.md, "Writes"): create, update (PATCH/PUT) and delete by
// key or by `$filter`. Bodies are decoded per 1.4 into the hosted file's stored form, then written through the
// hosted file's own record writes (records/record-writes.ts: auto-enter, validation, unique, modId bump;
// cascade.ts), the ones the Data API uses, so the two APIs write one hosted file. Each write is one synchronous
// step from the record as it is now (the body is read before), so concurrent requests never lose an update.

import type { EmulatorClock } from "../hosted-file/clock.js";
import { EmulatorError, standardMessage } from "../hosted-file/fm-error.js";
import { globalScopeOf } from "../hosted-file/globals.js";
import type { TableField } from "../hosted-file/model.js";
import { deleteAllWithCascade } from "../hosted-file/cascade.js";
import { holdChanges } from "../hosted-file/change-feed.js";
import { checkWritable, USER_ENTRY } from "../hosted-file/records/entry-options.js";
import { buildEditedRecord, buildNewRecord, commitRecord, type FieldChange } from "../hosted-file/records/record-writes.js";
import type { ContainerStore, HostedDatabase, StoredRecord } from "../hosted-file/store.js";
import { daysFromCivil, type StoredScalar } from "../hosted-file/stored-value.js";
import { NumberToken, parseJsonExactly } from "../../runtime/core/json-numbers.js";
import { findField, findRecord, fieldMissing, filterRow, filterTable, type EntitySet } from "./entity-sets.js";
import { checkContainerAnnotation, containerChange } from "./container-json.js";
import { compileODataFilter } from "./filter.js";
import { bodyNumber } from "./exact-values.js";
import { ODataError, quoted } from "./odata-error.js";
import type { EntityKey } from "./url-path.js";

/** Largest request body a write takes (choice): 10 MB; more is 413. */
export const MAX_WRITE_BODY = 10 * 1024 * 1024;

export interface WriteContext {
  readonly db: HostedDatabase;
  readonly clock: EmulatorClock;
  /** `IEEE754Compatible=true` in the request's Content-Type or Accept (1.4): numbers may come as strings. */
  readonly ieee754: boolean;
  /** The request's instant, for `now()` in `$filter`. */
  readonly now: number;
  /** Where container files written in a body (base64, 3.3) are kept: the hosted file's store, both APIs'. */
  readonly containers: ContainerStore;
}

/**
 * The JSON object a write's body holds; malformed JSON or anything but one object is 400 -1002 (choice). Number tokens
 * a double does not hold are kept as their text (parseJsonExactly: NumberToken), so a number field gets every digit.
 */
export function parseWriteBody(body: Buffer | undefined): Record<string, unknown> {
  const text = body === undefined ? "" : body.toString("utf8").trim();
  if (text === "") throw new ODataError(400, "-1002", "Error: the request body must be a JSON object (it is empty)");
  let parsed: unknown;
  try {
    parsed = parseJsonExactly(text);
  } catch (error) {
    throw new ODataError(400, "-1002", `Error: malformed JSON in the request body (${quoted((error as Error).message)})`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new ODataError(400, "-1002", "Error: the request body must be one JSON object of field names to values");
  }
  return parsed as Record<string, unknown>;
}

const readOnly = (name: string, why: string) => new ODataError(400, "201", `(201): Field cannot be modified: '${quoted(name)}' ${why}`);

/** A field name in a body: exact, `FMFID:n`, or `Name[n]` for one repetition (3.1). */
function resolve(set: EntitySet, key: string): { field: TableField; repetition: number | undefined } {
  const field = findField(set, key);
  if (field) return { field, repetition: undefined };
  const m = /^(.*)\[(\d+)\]$/s.exec(key);
  const base = m ? findField(set, m[1]!) : undefined;
  if (m && base) {
    const n = Number(m[2]);
    if (n < 1 || n > base.repetitions) throw new ODataError(400, "-1002", `Error: '${quoted(m[1]!)}' has ${base.repetitions} repetition(s); '${quoted(key)}' is out of range`);
    return { field: base, repetition: n - 1 };
  }
  throw fieldMissing(key);
}

/**
 * A body's fields as the hosted file's changes, every check done before anything is stored: control annotations
 * (1.7), ROWID/ROWMODID, calculations, globals and protected auto-enter fields (201), unknown names (8309),
 * containers as base64 with their `@com.filemaker.odata.*` annotations (container-json.ts: stored as files), and
 * each value decoded per 1.4 (wrong type: 400 8309).
 */
export function decodeChanges(set: EntitySet, body: Record<string, unknown>, ctx: WriteContext): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const [key, raw] of Object.entries(body)) {
    if (key.startsWith("@")) {
      checkControl(set, key, raw);
      continue;
    }
    if (key.includes("@")) {
      checkContainerAnnotation(key, body, (name) => (name.includes("@") ? undefined : resolve(set, name).field));
      continue;
    }
    if (key === "ROWID" || key === "ROWMODID") throw readOnly(key, "is a special column (2.10)");
    const { field, repetition } = resolve(set, key);
    if (field.global) throw readOnly(key, "is a global field (3.1)");
    try {
      checkWritable(field, key, USER_ENTRY);
    } catch (error) {
      if (error instanceof EmulatorError) throw readOnly(key, field.autoEnter === undefined ? "is a calculation" : "is an auto-enter field that prohibits modification");
      throw error;
    }
    if (field.type === "container") {
      changes.push(containerChange(field, key, repetition, raw, body, { containers: ctx.containers, database: ctx.db.model.name }));
      continue;
    }
    if (Array.isArray(raw)) {
      if (repetition !== undefined || field.repetitions === 1) throw incompatible(key, "an array is a repeating field's value");
      if (raw.length > field.repetitions) throw new ODataError(400, "-1002", `Error: '${quoted(key)}' has ${field.repetitions} repetition(s); ${raw.length} values were sent`);
      raw.forEach((v, i) => changes.push({ field, repetition: i, value: decodeValue(field, key, v, ctx) }));
    } else {
      changes.push({ field, repetition: repetition ?? 0, value: decodeValue(field, key, raw, ctx) });
    }
  }
  return changes;
}

/** `@odata.context` is read and dropped; a type naming another entity type is 400 -1002 (1.7). */
function checkControl(set: EntitySet, key: string, raw: unknown): void {
  const name = key.replace(/^@(odata\.)?/, "");
  if (name === "context" || name === "id" || name === "editLink") return;
  if (name === "type") {
    const type = typeof raw === "string" ? raw.replace(/^#/, "") : "";
    if (type === `${set.name}_` || type.endsWith(`.${set.name}_`)) return;
    throw new ODataError(400, "-1002", `Error: ${key} '${quoted(String(raw))}' is not the entity type ${set.name}_`);
  }
  throw new ODataError(400, "-1002", `Error: the control annotation '${quoted(key)}' is not supported in a request body`);
}

const incompatible = (key: string, why: string) => new ODataError(400, "8309", `incompatible data types: '${quoted(key)}': ${why}`);

/** parseDecimal's problems for decimal text past FileMaker's 400 digits or 10^±400 (decimal-text.ts). */
const OUT_OF_BOUNDS = /significant digits|range of numbers/;

const TIME = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,12})?)?$/;

/** One JSON value as the stored form of its field (1.4); null (and "" for non-text) clears it. */
function decodeValue(field: TableField, key: string, raw: unknown, ctx: WriteContext): StoredScalar {
  if (raw === null) return null;
  const bad = (form: string) => incompatible(key, `${shownValue(raw)} is not ${form}`);
  switch (field.type) {
    case "text":
      if (typeof raw !== "string") throw bad("a string (Edm.String)");
      return raw;
    case "number": {
      // A decimal of up to 400 significant digits, kept digit for digit (exact-values.ts); "" clears it.
      if (raw === "" && ctx.ieee754) return null;
      const n = bodyNumber(raw, ctx.ieee754);
      if (n !== undefined && typeof n === "object" && "problem" in n) {
        // Decimal text past FileMaker's bounds names them; a string that is no number at all is refused as before.
        if (OUT_OF_BOUNDS.test(n.problem)) throw incompatible(key, `${shownValue(raw)} is not a number FileMaker keeps: ${n.problem}`);
      } else if (n !== undefined) return n;
      throw bad(ctx.ieee754 ? "a number or numeric string (Edm.Decimal)" : "a number (Edm.Decimal; strings need IEEE754Compatible=true)");
    }
    case "date": {
      if (typeof raw !== "string") throw bad('"YYYY-MM-DD" (Edm.Date)');
      if (raw === "") return null;
      const d = isoDate(raw);
      if (d === null) throw bad('"YYYY-MM-DD" (Edm.Date)');
      return d;
    }
    case "time": {
      if (typeof raw !== "string") throw bad('"HH:MM:SS" (Edm.TimeOfDay)');
      if (raw === "") return null;
      const t = timeOfDay(raw);
      if (t === null) throw bad('"HH:MM:SS" (Edm.TimeOfDay)');
      return t;
    }
    case "timestamp": {
      if (typeof raw !== "string") throw bad('"YYYY-MM-DDTHH:MM:SSZ" (Edm.DateTimeOffset)');
      if (raw === "") return null;
      const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}(?::\d{2}(?:\.\d{1,12})?)?)(Z|[+-]\d{2}:\d{2})$/i.exec(raw);
      const days = m ? isoDate(m[1]!) : null;
      const time = m ? timeOfDay(m[2]!) : null;
      if (!m || days === null || time === null) throw bad('"YYYY-MM-DDTHH:MM:SSZ" (Edm.DateTimeOffset, with a zone)');
      // Stored timestamps are the server's local time, and the server's zone is UTC (2.7's choice).
      const zone = m[3]!.toUpperCase() === "Z" ? 0 : (m[3]!.startsWith("-") ? -1 : 1) * (Number(m[3]!.slice(1, 3)) * 3600 + Number(m[3]!.slice(4, 6)) * 60);
      return days * 86_400 + time - zone;
    }
    case "container":
      // decodeChanges hands containers to container-json.ts before this.
      throw incompatible(key, "a container takes base64 text");
  }
}

/** A body's value as an error quotes it: its JSON, the first 60 characters (a long token's too). */
function shownValue(raw: unknown): string {
  const text = raw instanceof NumberToken ? raw.text : JSON.stringify(raw);
  if (text === undefined) return typeof raw;
  return text.slice(0, 60);
}

function isoDate(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  return m ? daysFromCivil(Number(m[1]), Number(m[2]), Number(m[3])) : null;
}

function timeOfDay(text: string): number | null {
  const m = TIME.exec(text);
  if (!m) return null;
  const [h, min, s] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  return h > 23 || min > 59 || s > 59 ? null : h * 3600 + min * 60 + s;
}

/** The hosted file's refusal (validation 500–511, unique 504, …) as section 9's choice: 400, `(code): text`. */
function asODataError(error: unknown): unknown {
  if (!(error instanceof EmulatorError)) return error;
  if (error.code === "101") return new ODataError(404, "-1023", "Record not found");
  return new ODataError(400, error.code, `(${error.code}): ${standardMessage(error.code)}${error.detail ? ` (${quoted(error.detail)})` : ""}`);
}

/** Runs a hosted-file write, its refusals as OData's (asODataError). */
export function hostedWrite<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw asODataError(error);
  }
}

/** `POST /db/T` (3.1): one new record, auto-enter first, then the body's values, validated; returns it stored. */
export function createEntity(set: EntitySet, body: Record<string, unknown>, ctx: WriteContext): StoredRecord {
  const changes = decodeChanges(set, body, ctx);
  return hostedWrite(() => {
    const scope = globalScopeOf(ctx.db);
    const built = buildNewRecord(set.data, changes, ctx.clock, scope, USER_ENTRY, ctx.db.account);
    commitRecord(set.data, built, scope, ctx.db);
    return built.record;
  });
}

/** The records a collection write's `$filter` keeps; no `$filter` is 400 -1002 (3.2's choice). */
export function filteredRecords(set: EntitySet, filter: string | undefined, ctx: WriteContext, method: string): StoredRecord[] {
  if (filter === undefined) throw new ODataError(400, "-1002", `Error: ${method} on a collection needs a $filter`);
  const test = compileODataFilter(filter, filterTable(set, ctx.db), { now: () => ctx.now });
  return [...set.data.records.values()].filter((r) => test(filterRow(set, r, ctx.db)));
}

/**
 * PATCH/PUT (3.2): the body's values into each record, as one step: every record is validated as it is written,
 * and a failure part-way puts back the records already written (all or nothing). Returns the records as stored.
 * The change feed is told of each record (UPDATE) only when all are written.
 */
export function updateEntities(set: EntitySet, records: readonly StoredRecord[], body: Record<string, unknown>, ctx: WriteContext): StoredRecord[] {
  const changes = decodeChanges(set, body, ctx);
  if (changes.length === 0) return [...records];
  const scope = globalScopeOf(ctx.db);
  const previous: StoredRecord[] = [];
  // Held: a failure part-way puts the records back, and tells no one of those already written.
  return holdChanges(ctx.db, () => hostedWrite(() => {
    try {
      return records.map((r) => {
        const current = set.data.records.get(r.recordId) ?? r;
        const built = buildEditedRecord(set.data, current, changes, ctx.clock, scope, USER_ENTRY, ctx.db.account);
        commitRecord(set.data, built, scope, ctx.db);
        previous.push(current);
        return built.record;
      });
    } catch (error) {
      for (const p of previous.reverse()) set.data.put(p);
      throw error;
    }
  }));
}

/** The record a key names, for a write (404 -1023 when missing). */
export function recordToWrite(set: EntitySet, key: EntityKey): StoredRecord {
  return findRecord(set, key);
}

/** DELETE (3.2): the records and their cascades, all or nothing (cascade.ts). */
export function deleteEntities(set: EntitySet, records: readonly StoredRecord[], ctx: WriteContext): void {
  hostedWrite(() => deleteAllWithCascade(ctx.db, records.map((record) => ({ tableName: set.name, record }))));
}
