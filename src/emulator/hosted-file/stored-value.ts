import type { FieldType } from "../../layout/schema.js";
import { NumberToken } from "../../runtime/core/json-numbers.js";
import { isNumericText } from "../../runtime/core/numeric-text.js";
import { ExactNumber, numberText, storedNumberOf, wireNumber, type StoredNumber } from "./exact-number.js";

/**
 * How the emulator keeps one field value (one repetition). Chronological types are numbers so that
 * finds and sorts over many records compare numbers, never re-parse strings:
 * - text: string ("" when empty)
 * - number: StoredNumber | null (exact-number.ts: a double when it holds the value digit for digit, else an
 *   ExactNumber, its decimal text, up to 400 significant digits; docs/emulator.md, "Numbers")
 * - date: days since 1970-01-01 (proleptic Gregorian) | null
 * - time: seconds since midnight | null
 * - timestamp: seconds since 1970-01-01T00:00:00, zone-less | null
 * - container: ContainerRef | null
 */
export type StoredScalar = string | StoredNumber | null;
export interface ContainerRef {
  id: string;
  filename: string;
  contentType: string;
  size: number;
}
export type StoredValue = StoredScalar | ContainerRef;

/** Whether a stored value is a number field's number (a double or an ExactNumber); chronological values are doubles too. */
export function isStoredNumber(value: unknown): value is StoredNumber {
  return typeof value === "number" || value instanceof ExactNumber;
}

/** Whether a stored value is a container's file (the one object a value is besides an ExactNumber). */
export function isContainerRef(value: StoredValue | undefined): value is ContainerRef {
  return typeof value === "object" && value !== null && !(value instanceof ExactNumber);
}

const SECONDS_PER_DAY = 86_400;

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  return [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

/** Days since 1970-01-01 for a valid calendar date, else null. */
export function daysFromCivil(year: number, month: number, day: number): number | null {
  if (!Number.isInteger(year) || year < 1 || year > 4000) return null;
  if (!Number.isInteger(month) || month < 1 || month > 12) return null;
  if (!Number.isInteger(day) || day < 1 || day > daysInMonth(year, month)) return null;
  // setUTCFullYear, unlike Date.UTC, keeps years 0..99 as they are.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return Math.round(date.getTime() / 86_400_000);
}

export function civilFromDays(days: number): { year: number; month: number; day: number } {
  const d = new Date(days * 86_400_000);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** "MM/DD/YYYY" (one- or two-digit month and day accepted) -> days, or null when not a date. */
export function parseWireDate(text: string): number | null {
  const m = /^\s*(\d{1,2})\/(\d{1,2})\/(\d{4})\s*$/.exec(text);
  if (!m) return null;
  return daysFromCivil(Number(m[3]), Number(m[1]), Number(m[2]));
}

export function formatWireDate(days: number): string {
  const { year, month, day } = civilFromDays(days);
  return `${pad(month)}/${pad(day)}/${pad(year, 4)}`;
}

/**
 * "HH:MM:SS" or "HH:MM" -> seconds since midnight, or null. A 12-hour time with AM or PM ("9:15:55 PM") is read
 * too, as US input is (docs/emulator.md, "5. `dateformats`").
 */
export function parseWireTime(text: string): number | null {
  // One run of spaces before an optional AM/PM: no two adjacent \s* for a long blank run to backtrack over.
  const m = /^\s*(\d{1,2}):(\d{1,2})(?::(\d{1,2}))?\s*(?:([AaPp])[Mm]\s*)?$/.exec(text);
  if (!m) return null;
  let [h, min, s] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  if (m[4] !== undefined) {
    if (h < 1 || h > 12) return null;
    h = (h % 12) + (m[4].toUpperCase() === "P" ? 12 : 0);
  }
  if (h > 23 || min > 59 || s > 59) return null;
  return h * 3600 + min * 60 + s;
}

export function formatWireTime(seconds: number): string {
  const s = Math.floor(seconds);
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/** "MM/DD/YYYY HH:MM:SS" (or "2/22/2022 9:15:55 PM") -> seconds since the epoch (zone-less), or null. */
export function parseWireTimestamp(text: string): number | null {
  const m = /^\s*(\S+)\s+(\S.*)$/.exec(text);
  if (!m) return null;
  const days = parseWireDate(m[1]!);
  const time = parseWireTime(m[2]!);
  return days === null || time === null ? null : days * SECONDS_PER_DAY + time;
}

export function formatWireTimestamp(seconds: number): string {
  const days = Math.floor(seconds / SECONDS_PER_DAY);
  return `${formatWireDate(days)} ${formatWireTime(seconds - days * SECONDS_PER_DAY)}`;
}

/** Numbers as FileMaker accepts them in a number field: optional sign, digits, one decimal point, exponent. */
export function parseWireNumber(value: string | number): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  const text = value.trim();
  if (!isNumericText(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/** The form a value of each type is written in on the wire (US dates), as error messages name it. */
export const WIRE_FORM: Record<FieldType, string> = {
  text: "a string",
  number: "a number",
  date: '"MM/DD/YYYY"',
  time: '"HH:MM:SS"',
  timestamp: '"MM/DD/YYYY HH:MM:SS"',
  container: "an upload",
};

/** A value as an answer carries it: text, a JSON number, or a NumberToken for a number a double does not hold. */
export type WireValue = string | number | NumberToken;

/**
 * A wire value as a script handler or a calculation reads it (docs/emulator.md, "Numbers"): a number a double does
 * not hold as its decimal text (a string: every digit, which a JavaScript number would round), every other as it is.
 */
export function scriptValue(value: WireValue): string | number {
  return value instanceof NumberToken ? value.text : value;
}

/**
 * Outcome of reading a client-supplied wire value into a field of the given type; `problem`, when there is one, is
 * why a number is not one FileMaker keeps, in words a refusal ends with (decimal-text.ts: more than 400 significant
 * digits, beyond 10^±400).
 */
export type DecodeResult = { ok: true; value: StoredScalar } | { ok: false; problem?: string };

/**
 * A number field's value from a client: a JSON number as it is (`-0` is 0), a NumberToken (a token a double does not
 * hold, parseJson) read by JSON's grammar, a string read leniently (trimmed; `+5`, `.5`, `5.`, `1e3`), each kept
 * exactly (exact-number.ts).
 */
function decodeNumber(value: string | number | NumberToken | ExactNumber): DecodeResult {
  if (value instanceof ExactNumber) return { ok: true, value };
  if (typeof value === "number") return Number.isFinite(value) ? { ok: true, value: value + 0 } : { ok: false };
  const stored = value instanceof NumberToken ? storedNumberOf(value.text, "json") : storedNumberOf(value.trim(), "lenient");
  return typeof stored === "string" ? { ok: false, problem: stored } : { ok: true, value: stored };
}

/**
 * Decodes a value a client sent for a field (create, edit, seed data). "" always means empty. A NumberToken (or an
 * ExactNumber) is a number's text: a text field keeps it as it is written, a number field exactly.
 */
export function decodeWireValue(type: FieldType, value: unknown): DecodeResult {
  const exact = value instanceof NumberToken || value instanceof ExactNumber;
  if (typeof value !== "string" && typeof value !== "number" && !exact) return { ok: false };
  if (type === "text") return { ok: true, value: typeof value === "number" ? String(value) : exact ? value.text : value };
  if (value === "") return { ok: true, value: null };
  if (type === "number") return decodeNumber(value);
  if (exact) return { ok: false };
  let parsed: number | null;
  switch (type) {
    case "date":
      parsed = typeof value === "string" ? parseWireDate(value) : null;
      break;
    case "time":
      parsed = typeof value === "string" ? parseWireTime(value) : null;
      break;
    case "timestamp":
      parsed = typeof value === "string" ? parseWireTimestamp(value) : null;
      break;
    case "container":
      return { ok: false };
  }
  return parsed === null ? { ok: false } : { ok: true, value: parsed };
}

/**
 * The wire form of a stored value: JSON numbers for number fields (a NumberToken for one a double does not hold, which
 * stringifyJson writes as its bare token: answers are written through it), "" for every empty value.
 */
export function encodeWireValue(type: FieldType, value: StoredValue, containerUrl: (ref: ContainerRef) => string): WireValue {
  if (value === null) return "";
  if (isContainerRef(value)) return containerUrl(value);
  // Text in a field of another type is a calculation's invalid result, "?" (calculations.ts), answered as it is.
  if (typeof value === "string") return value;
  if (value instanceof ExactNumber) return type === "number" ? wireNumber(value) : numberText(value);
  switch (type) {
    case "text":
      return String(value);
    case "number":
      return value;
    case "date":
      return formatWireDate(value as number);
    case "time":
      return formatWireTime(value as number);
    case "timestamp":
      return formatWireTimestamp(value as number);
    case "container":
      return "";
  }
}
