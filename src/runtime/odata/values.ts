/**
 * Values between OData's JSON and the app: the app sees exactly the Data API runtime's TypeScript values
 * (docs/odata.md, "Values"; docs/reading-and-writing.md, "Value types"): text a string ("" when empty), number a number
 * or null, date "YYYY-MM-DD", time "HH:MM:SS", timestamp "YYYY-MM-DDTHH:MM:SS" (local, no zone; OData writes it with
 * "Z", the server's zone), each null when empty; a repeating field a tuple of its repetitions; a container, when a
 * `select` names it, the server's string (its bytes in base64) or null (containers are written by `upload` and read by
 * `download`).
 *
 * Numbers: a number field reads as a JavaScript number when one holds the value digit for digit (`doubleHolds`), from a
 * JSON number or a numeric string (a server or proxy that sends them); a longer value (a token parseJson kept as a
 * NumberToken, or a string) is an ODataDecodeError saying to describe the field with `"exact": true`, never a rounded
 * number, and any other text is one too, never NaN. An exact field (`exact: true`) reads as canonical decimal text
 * (decimal-text.ts) whatever form it came in, and takes decimal text only: it is sent as a JSON string, in a body whose
 * Content-Type says `IEEE754Compatible=true` (OData's way for an Edm.Decimal to travel exactly). A read of a table with
 * an exact field asks for `IEEE754Compatible=true` too (client-caller.ts): Edm.Decimal values then come as strings,
 * digit for digit, whatever the server's JSON writer does with long numbers.
 */
import { doubleHolds, parseDecimal, plainDecimal, surelyHeld } from "../core/decimal-text.js";
import type { FieldKind } from "../core/field-types.js";
import { NumberToken } from "../core/json-numbers.js";
import { isNumericText } from "../core/numeric-text.js";
import { getOwn, setOwn } from "../core/own.js";
import type { TableFieldSpec, TableSpec } from "./definition.js";
import { ODataDecodeError, odataError } from "./errors.js";
import { exactInput } from "./filter.js";

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,9})?$/;
const TIMESTAMP = /^(\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,9})?)(Z|[+-]\d\d:\d\d)?$/;


// ---- Reading.

// The usual forms checked by character codes, without a regular expression: "YYYY-MM-DD", "HH:MM:SS" and
// "YYYY-MM-DDTHH:MM:SS" with or without "Z". They accept only what DATE, TIME and TIMESTAMP accept; any other text
// (fractions of a second, an offset, or a wrong value) is left to those, which decide.
/** The two digits at i as a number, or -1. */
function two(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}
const dateAt = (s: string): boolean =>
  two(s, 0) >= 0 && two(s, 2) >= 0 && s[4] === "-" && s[7] === "-" && two(s, 5) > 0 && two(s, 5) < 13 && two(s, 8) > 0 && two(s, 8) < 32;
const timeAt = (s: string, i: number): boolean =>
  s[i + 2] === ":" && s[i + 5] === ":" && two(s, i) >= 0 && two(s, i) < 24 && two(s, i + 3) >= 0 && two(s, i + 3) < 60 && two(s, i + 6) >= 0 && two(s, i + 6) < 60;
const isDate = (s: string) => (s.length === 10 && dateAt(s)) || DATE.test(s);
const isTime = (s: string) => (s.length === 8 && timeAt(s, 0)) || TIME.test(s);
const isTimestamp = (s: string) => ((s.length === 19 || (s.length === 20 && s[19] === "Z")) && dateAt(s) && s[10] === "T" && timeAt(s, 11)) || TIMESTAMP.test(s);

function wrong(table: string, field: string, raw: unknown, expected: string): ODataDecodeError {
  return new ODataDecodeError(table, field, raw, expected);
}

/** Why Infinity (a token such as 1e999999: parseJson does not look for positive exponents, and JSON.parse overflows). */
const OVERFLOW = "it was written with an exponent past a JavaScript number's range (1e309 or more), so its digits are lost";
const LONG = 'a number a JavaScript number holds digit for digit (it has more digits, or is out of its range): describe the field with "exact": true to read it as decimal text';

/** One value as the app sees it, or ODataDecodeError. */
function decodeValue(kind: FieldKind, raw: unknown, table: string, field: string, exact: boolean): unknown {
  switch (kind) {
    case "text":
      if (typeof raw === "string") return raw;
      if (raw === null) return "";
      // A long number token in a text field: its text, digit for digit.
      if (raw instanceof NumberToken) return raw.text;
      throw wrong(table, field, raw, "text");
    case "number": {
      if (exact) return exactValue(raw, table, field);
      if (typeof raw === "number" && Number.isFinite(raw)) return raw === 0 ? 0 : raw;
      if (raw === null || raw === "") return null;
      if (typeof raw === "string") {
        const text = raw.trim();
        if (isNumericText(text)) {
          if (!surelyHeld(text) && !doubleHolds(text)) throw wrong(table, field, raw, LONG);
          const n = Number(text);
          return n === 0 ? 0 : n;
        }
      }
      throw wrong(table, field, raw, raw instanceof NumberToken ? LONG : typeof raw === "number" ? `a number: ${OVERFLOW}` : "a number");
    }
    case "date":
      if (raw === null || raw === "") return null;
      if (typeof raw !== "string" || !isDate(raw)) throw wrong(table, field, raw, 'a date "YYYY-MM-DD"');
      return raw;
    case "time":
      if (raw === null || raw === "") return null;
      if (typeof raw !== "string" || !isTime(raw)) throw wrong(table, field, raw, 'a time "HH:MM:SS"');
      return raw;
    case "timestamp": {
      if (raw === null || raw === "") return null;
      if (typeof raw !== "string" || !isTimestamp(raw)) throw wrong(table, field, raw, 'a timestamp "YYYY-MM-DDTHH:MM:SSZ"');
      // The server's zone is UTC (wire contract 2.7): "Z" is dropped; another offset is taken to UTC.
      const last = raw.charCodeAt(raw.length - 1);
      if (last === 0x5a /* Z */) return raw.slice(0, -1);
      const sign = raw[raw.length - 6];
      // Checked above (a test, no match array): a "+hh:mm"/"-hh:mm" zone is the only way the sixth character from the
      // end is a sign.
      if (sign !== "+" && sign !== "-") return raw;
      if (raw.endsWith("00:00")) return raw.slice(0, -6);
      // An offset the pattern lets through but no clock has ("+03:60") is refused like any other bad value.
      const utc = new Date(raw);
      if (Number.isNaN(utc.getTime())) throw wrong(table, field, raw, 'a timestamp "YYYY-MM-DDTHH:MM:SSZ"');
      return utc.toISOString().slice(0, 19);
    }
    case "container":
      if (raw === null || raw === "") return null;
      if (typeof raw !== "string") throw wrong(table, field, raw, "a container's text");
      return raw;
  }
}

/**
 * An exact number field's value: canonical decimal text (`plainDecimal`) of a JSON number, a long token (NumberToken)
 * or a string (`IEEE754Compatible=true`, or an older server's text, read leniently and trimmed); null when empty. A
 * value of more than 400 digits, beyond 10^±400, or not a number is an ODataDecodeError saying why.
 */
function exactValue(raw: unknown, table: string, field: string): string | null {
  if (raw === null || raw === "") return null;
  const decimal =
    raw instanceof NumberToken
      ? parseDecimal(raw.text, "json")
      : typeof raw === "number" && Number.isFinite(raw)
        ? parseDecimal(String(raw), "lenient")
        : typeof raw === "string"
          ? parseDecimal(raw.trim(), "lenient")
          : typeof raw === "number"
            ? OVERFLOW
            : "it is not a number";
  if (typeof decimal === "string") throw wrong(table, field, raw, `an exact number (decimal text): ${decimal}`);
  return plainDecimal(decimal);
}

/** A field's value as the app sees it: a tuple of its repetitions when it repeats (the wire's array, or one value). */
export function decodeField(spec: TableFieldSpec, raw: unknown, table: string, field: string): unknown {
  const count = spec.repetitions ?? 1;
  const exact = spec.exact === true;
  if (count <= 1) return decodeValue(spec.type, Array.isArray(raw) ? (raw[0] ?? null) : raw, table, field, exact);
  const list: unknown[] = Array.isArray(raw) ? raw : [raw];
  if (list.length > count) throw new ODataDecodeError(table, field, raw, `at most ${count} repetitions`);
  return Array.from({ length: count }, (_, i) => decodeValue(spec.type, list[i] ?? null, table, field, exact));
}

/** Whether a table has an exact number field: its reads ask for `IEEE754Compatible=true`. Worked out once per table. */
export function hasExactField(table: TableSpec): boolean {
  let exact = exactTables.get(table);
  if (exact === undefined) {
    exact = Object.values(table.fields).some((field) => field.type === "number" && field.exact === true);
    exactTables.set(table, exact);
  }
  return exact;
}
const exactTables = new WeakMap<TableSpec, boolean>();

/** The media type of JSON whose Edm.Decimal values may be strings (OData's `IEEE754Compatible=true`). */
export const EXACT_JSON = "application/json;IEEE754Compatible=true";

/** How one member of an answer is read: a field (by its name in the definition), or a relation. */
interface Member {
  name: string;
  field?: TableFieldSpec;
  relation?: RelationSpec;
}
type RelationSpec = NonNullable<TableSpec["relations"]>[string];

/** Per table, the members an answer may hold, keyed as the wire keys them: by name, and by FMFID (`entityIds`). */
const byName = new WeakMap<TableSpec, Map<string, Member>>();
const byFmfid = new WeakMap<TableSpec, Map<string, Member>>();

/** The table's members keyed by the answer's keys: built once per definition (and per id map given). */
function membersOf(table: TableSpec, byId: ReadonlyMap<string, string> | undefined): Map<string, Member> {
  const cache = byId ? byFmfid : byName;
  // Only the id map the caller keeps (fieldIds) is cached: another map is read afresh each time.
  const cached = !byId || byId === idMaps.get(table);
  let members = cached ? cache.get(table) : undefined;
  if (members) return members;
  members = new Map();
  // As before: a key names a field when the id map (if any) or the key itself names one; else a relation by the key.
  const add = (key: string, name: string, field?: unknown) => members!.has(key) || !field || members!.set(key, { name, field: field as TableFieldSpec });
  for (const [id, name] of byId ?? []) add(id, name, getOwn(table.fields, name));
  for (const name of Object.keys(table.fields)) add(name, name, getOwn(table.fields, name));
  for (const name of Object.keys(table.relations ?? {})) members.has(name) || members.set(name, { name, relation: getOwn(table.relations!, name) as RelationSpec });
  // ROWID and ROWMODID are always the special columns, whatever the definition names.
  members.delete("ROWID");
  members.delete("ROWMODID");
  if (cached) cache.set(table, members);
  return members;
}

/**
 * A row as the app sees it: fields by the definition's names (an answer keyed by FMFID mapped back), ROWID and
 * ROWMODID as `rowId` and `modId`, expanded relations decoded by their target's definition (a `many: false` relation
 * as its one row or null). Annotations (`@id`, `Photo@com.filemaker.odata.ContentType`, ...) and members the
 * definition does not know (a field added in FileMaker since the module was generated) are left out.
 */
export function decodeRow(table: TableSpec, row: unknown, byId: ReadonlyMap<string, string> | undefined, what: string, depth = 0): Record<string, unknown> {
  if (typeof row !== "object" || row === null || Array.isArray(row)) throw new ODataDecodeError(table.table, "(row)", row, `a row (a JSON object) in ${what}`);
  const members = membersOf(table, byId);
  const source = row as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const keys = Object.keys(source);
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k]!;
    const raw = source[key];
    const member = members.get(key);
    if (member !== undefined && key.indexOf("@") < 0) {
      if (member.field) {
        setOwn(out, member.name, decodeField(member.field, raw, table.table, member.name));
        continue;
      }
      if (depth > 32) throw new ODataDecodeError(table.table, key, "(nested)", "expanded fewer than 32 levels deep");
      const relation = member.relation!;
      const target = relation.target();
      const rows = Array.isArray(raw) ? raw : raw === null ? [] : [raw];
      const decoded = rows.map((r) => decodeRow(target, r, byId && fieldIds(target), `${what}, relation "${key}"`, depth + 1));
      setOwn(out, key, relation.many ? decoded : (decoded[0] ?? null));
      continue;
    }
    if (key.includes("@")) continue;
    if (key === "ROWID" || key === "ROWMODID") {
      if (typeof raw !== "number") throw new ODataDecodeError(table.table, key, raw, raw instanceof NumberToken ? "a ROWID a JavaScript number holds (a whole number below 2^53)" : "a number");
      out[key === "ROWID" ? "rowId" : "modId"] = raw;
      continue;
    }
    // An expand the server could not do (a field its definition names that the table lacks): the server answers 200 and
    // puts `"error":[{"error":{code,message}}]` where the relation's rows would be (wire contract 2.6). Not data: thrown.
    if (key === "error" && Array.isArray(raw)) {
      const inner = (raw[0] as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
      throw odataError(String(inner?.code ?? "-1"), typeof inner?.message === "string" ? inner.message : "", 200, { method: "GET", path: `${what}: an expanded relation of table "${table.table}"` }, false);
    }
  }
  return out;
}

const idMaps = new WeakMap<TableSpec, ReadonlyMap<string, string>>();

/** FMFID -> field name, for answers keyed by id (`Prefer: fmodata.entity-ids`). */
export function fieldIds(table: TableSpec): ReadonlyMap<string, string> {
  let map = idMaps.get(table);
  if (!map) {
    const ids = new Map<string, string>();
    for (const [name, field] of Object.entries(table.fields)) if (field.id) ids.set(field.id, name);
    idMaps.set(table, (map = ids));
  }
  return map;
}

// ---- Writing.

/** One value as OData takes it, or a TypeError naming the table and field. */
function encodeValue(kind: FieldKind, value: unknown, where: string, exact: boolean): unknown {
  if (value === null) return null;
  const wrong = (expected: string) =>
    new TypeError(`${where} is a ${kind} field: give it ${expected} or null, not ${value === undefined ? "undefined" : typeof value === "object" ? (Array.isArray(value) ? "an array" : "an object") : JSON.stringify(value)}`);
  // Decimal text, strictly, sent as the app wrote it: a JSON string (EXACT_JSON).
  if (exact && kind === "number") {
    exactInput(value, where, "give it");
    return value;
  }
  switch (kind) {
    case "text":
      if (typeof value !== "string") throw wrong("a string");
      return value;
    case "number":
      if (typeof value === "number" && Number.isFinite(value)) return value;
      throw wrong("a finite number");
    case "date":
      if (typeof value !== "string" || !DATE.test(value)) throw wrong('an ISO date "YYYY-MM-DD"');
      return value;
    case "time":
      if (typeof value !== "string" || !TIME.test(value)) throw wrong('a time "HH:MM:SS"');
      return value;
    case "timestamp": {
      const match = typeof value === "string" ? TIMESTAMP.exec(value) : null;
      if (!match || match[6]) throw wrong('a timestamp "YYYY-MM-DDTHH:MM:SS" (local, without a zone)');
      return `${value as string}Z`;
    }
    case "container":
      throw new TypeError(`${where} is a container field: write it with upload()`);
  }
}

/** A row's JSON, and whether it holds an exact number field's value (then sent as EXACT_JSON). */
export interface EncodedRow {
  body: string;
  exact: boolean;
}

/**
 * A row's JSON for create and update: each field by its name (or FMFID with `entityIds`), unknown and read-only fields
 * and containers refused by name, every value checked against its field's kind. A repeating field takes a tuple: given
 * whole, it is sent as an array; with repetitions left out (`[, "b"]`), each given one as `"Name[n]"`.
 */
export function encodeRow(table: TableSpec, values: object, entityIds: boolean, what: string): EncodedRow {
  if (typeof values !== "object" || values === null || Array.isArray(values)) throw new TypeError(`${what}: the values must be an object of field names, not ${values === null ? "null" : Array.isArray(values) ? "an array" : typeof values}`);
  const out: Record<string, unknown> = {};
  let exact = false;
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const where = `${what}: field "${name}" of table "${table.table}"`;
    const field = getOwn(table.fields, name) as TableFieldSpec | undefined;
    if (!field) throw new TypeError(`${what}: table "${table.table}" has no field ${JSON.stringify(name)}`);
    if (field.readOnly) throw new TypeError(`${where} is read-only (a calculation, summary, global or protected auto-enter field)`);
    if (field.type === "container") throw new TypeError(`${where} is a container field: write it with upload()`);
    let ref = name;
    if (entityIds) {
      if (!field.id) throw new TypeError(`${where} has no FMFID in its definition, which entityIds needs`);
      ref = field.id;
    }
    const count = field.repetitions ?? 1;
    const isExact = field.type === "number" && field.exact === true;
    // A body holds an exact value when it sets one (null clears it: no digits travel).
    if (isExact && value !== null && (!Array.isArray(value) || value.some((v) => v !== null && v !== undefined))) exact = true;
    if (count <= 1) {
      setOwn(out, ref, encodeValue(field.type, value, where, isExact));
      continue;
    }
    if (value === null) {
      setOwn(out, ref, Array.from({ length: count }, () => null));
      continue;
    }
    if (!Array.isArray(value)) throw new TypeError(`${where} repeats ${count} times: give it a tuple (an array of at most ${count} values), not ${typeof value === "object" ? "an object" : JSON.stringify(value)}`);
    if (value.length > count) throw new TypeError(`${where} repeats ${count} times: the array has ${value.length} values`);
    const encoded = Array.from({ length: value.length }, (_, i) => (value[i] === undefined ? undefined : encodeValue(field.type, value[i], `${where} repetition ${i + 1}`, isExact)));
    if (encoded.every((v) => v !== undefined)) setOwn(out, ref, encoded);
    else encoded.forEach((v, i) => v !== undefined && setOwn(out, `${ref}[${i + 1}]`, v));
  }
  return { body: JSON.stringify(out), exact };
}
