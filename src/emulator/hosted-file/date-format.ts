import { EmulatorError } from "./fm-error.js";
import { describeInput } from "./input/input-text.js";
import type { FieldType } from "../../layout/schema.js";
import {
  civilFromDays,
  daysFromCivil,
  decodeWireValue,
  encodeWireValue,
  formatWireTime,
  parseWireTime,
  type ContainerRef,
  type DecodeResult,
  type StoredValue,
  type WireValue,
  WIRE_FORM,
} from "./stored-value.js";

/**
 * `dateformats` (docs/emulator.md, "5. `dateformats`"): how one call reads and writes date and timestamp fields.
 * `0` US (the default), `1` the file's locale (the emulator's files are US), `2` ISO 8601. Time fields, and every
 * other type, are the same in all three.
 *
 * | type      | US (0, 1)             | ISO read (2)          | ISO write (2)          |
 * |-----------|-----------------------|-----------------------|------------------------|
 * | date      | `MM/DD/YYYY`          | `YYYY-MM-DD`          | `YYYY-MM-DD`           |
 * | timestamp | `MM/DD/YYYY HH:MM:SS` | `YYYY-MM-DDTHH:MM:SS` | `YYYY-MM-DD HH:MM:SS`  |
 *
 * An ISO write of a timestamp with a `T`, or an ISO date sent without `dateformats: 2` (or a US one with it), does
 * not decode: the field type's validation code (500). Find criteria are read in the call's format.
 */
export type DateFormat = 0 | 1 | 2;

export const US_DATES: DateFormat = 0;
export const ISO_DATES: DateFormat = 2;

const SECONDS_PER_DAY = 86_400;
const FORMATS: Record<string, DateFormat> = { "0": 0, "1": 1, "2": 2 };

function invalid(where: string, raw: unknown): EmulatorError {
  return new EmulatorError(400, "1708", `${where} must be 0 (US), 1 (the file's locale) or 2 (ISO 8601), got ${describeInput(raw)}`);
}

/** `?dateformats=` on list and get: `0`, `1` or `2`; absent means US (given twice: checkQueryNames, 1708). */
export function dateFormatFromQuery(query: URLSearchParams): DateFormat {
  const given = query.get("dateformats");
  if (given === null) return US_DATES;
  const format = FORMATS[given];
  if (format === undefined) throw invalid("dateformats", given);
  return format;
}

/**
 * `"dateformats"` in a find, create or edit body: a number, 0, 1 or 2. The same digit as a string (`"2"`) is
 * accepted too, as clients send it that way (a choice: servers have not been seen refusing it).
 */
export function dateFormatFromBody(raw: unknown): DateFormat {
  if (raw === undefined) return US_DATES;
  const format = typeof raw === "number" || typeof raw === "string" ? FORMATS[String(raw)] : undefined;
  if (format === undefined) throw invalid("dateformats", raw);
  return format;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** `YYYY-MM-DD` -> days since 1970-01-01, or null. */
export function parseIsoDate(text: string): number | null {
  const m = /^\s*(\d{4})-(\d{2})-(\d{2})\s*$/.exec(text);
  return m ? daysFromCivil(Number(m[1]), Number(m[2]), Number(m[3])) : null;
}

export function formatIsoDate(days: number): string {
  const { year, month, day } = civilFromDays(days);
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/**
 * `YYYY-MM-DD HH:MM:SS` -> seconds since the epoch (zone-less), or null. A write takes only the space (real
 * servers reject `T` with 500); a find criterion takes either, since answers carry the `T`.
 */
export function parseIsoTimestamp(text: string, separators: "space" | "space or T"): number | null {
  const m = /^\s*(\d{4}-\d{2}-\d{2})([ T])(.*)$/s.exec(text);
  if (!m || (m[2] === "T" && separators === "space")) return null;
  const days = parseIsoDate(m[1]!);
  const time = parseWireTime(m[3]!);
  return days === null || time === null ? null : days * SECONDS_PER_DAY + time;
}

export function formatIsoTimestamp(seconds: number): string {
  const days = Math.floor(seconds / SECONDS_PER_DAY);
  return `${formatIsoDate(days)}T${formatWireTime(seconds - days * SECONDS_PER_DAY)}`;
}

/** A stored value as a call in this format reads it. */
export function encodeFieldValue(type: FieldType, value: StoredValue, containerUrl: (ref: ContainerRef) => string, format: DateFormat): WireValue {
  if (format === ISO_DATES && typeof value === "number") {
    if (type === "date") return formatIsoDate(value);
    if (type === "timestamp") return formatIsoTimestamp(value);
  }
  return encodeWireValue(type, value, containerUrl);
}

/** The form {@link decodeFieldValue} reads a type in, for error messages: `"MM/DD/YYYY"`, or `"YYYY-MM-DD"` with ISO dates. */
export function fieldValueForm(type: FieldType, format: DateFormat = US_DATES): string {
  if (format === ISO_DATES && type === "date") return '"YYYY-MM-DD"';
  if (format === ISO_DATES && type === "timestamp") return '"YYYY-MM-DD HH:MM:SS"';
  return WIRE_FORM[type];
}

/** A client's value for a field, written in this format ("" always means empty). */
export function decodeFieldValue(type: FieldType, value: unknown, format: DateFormat): DecodeResult {
  if (format !== ISO_DATES || (type !== "date" && type !== "timestamp")) return decodeWireValue(type, value);
  if (typeof value !== "string") return { ok: false };
  if (value === "") return { ok: true, value: null };
  const parsed = type === "date" ? parseIsoDate(value) : parseIsoTimestamp(value, "space");
  return parsed === null ? { ok: false } : { ok: true, value: parsed };
}

/**
 * A date criterion's day or period in ISO form: `YYYY-MM-DD` (a day), `YYYY-MM` (a month), `YYYY` (a year), as
 * inclusive day numbers; null when it is none of them.
 */
export function parseIsoDayRange(text: string): { first: number; last: number } | null {
  const t = text.trim();
  const day = parseIsoDate(t);
  if (day !== null) return { first: day, last: day };
  const month = /^(\d{4})-(\d{2})$/.exec(t);
  if (month) {
    const [y, m] = [Number(month[1]), Number(month[2])];
    const first = daysFromCivil(y, m, 1);
    if (first === null) return null;
    const next = m === 12 ? daysFromCivil(y + 1, 1, 1) : daysFromCivil(y, m + 1, 1);
    return { first, last: (next ?? first + 31) - 1 };
  }
  return null;
}
