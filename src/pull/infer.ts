import type { FieldType } from "../layout/index.js";
import { DECODERS, decodeExact, INVALID } from "../runtime/data-api/codecs.js";
import { isNumericText } from "../runtime/core/numeric-text.js";
import { isNumberToken } from "../runtime/core/json-numbers.js";
import type { Confidence, LongNumber } from "./live.js";

/**
 * Type inference from wire values, for servers without the layout metadata endpoint. Each value is classified
 * by what it looks like on the wire (docs/pull.md, "By sampling (servers without the metadata endpoint)"); a field's
 * type is the one class all its non-empty values share, with a confidence:
 * - high: the wire decides. JSON numbers come only from number fields, `/Streaming/` URLs only from containers,
 *   and a value no other type can carry ("Ada", or a date and a time in one field) only from text fields;
 *   dates, times and timestamps once at least CONFIDENT_AFTER values agree.
 * - medium: fewer values than that look like a date, time or timestamp (a text field could hold them), every
 *   value is a numeric string (text holding digits, or a number field of an old server), or JSON numbers and
 *   strings are mixed.
 * - low: only empty values were seen; the field stays text.
 */

export const CONFIDENT_AFTER = 3;

export type WireClass = "empty" | "number" | "numericText" | "date" | "time" | "timestamp" | "container" | "text";

const DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const TIME = /^(\d{1,2}):(\d{2}):(\d{2})(?:\.\d+)?$/;
const CONTAINER_URL = /^https?:\/\/[^/\s]+\/Streaming(?:_SSL)?\/\S+$/;

function isDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [month, day, year] = [+m[1]!, +m[2]!, +m[3]!];
  if (month < 1 || month > 12 || day < 1 || year < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return day <= [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

function isTime(text: string): boolean {
  const m = TIME.exec(text);
  return !!m && +m[1]! <= 23 && +m[2]! <= 59 && +m[3]! <= 59;
}

/** What one wire value looks like. */
export function classifyWireValue(value: unknown): WireClass {
  // A NumberToken: a JSON number too long for a double, read as its text by the runtime (core/json-numbers.ts).
  if (typeof value === "number" || isNumberToken(value)) return "number";
  if (typeof value !== "string") return "text";
  if (value === "") return "empty";
  if (isDate(value)) return "date";
  if (isTime(value)) return "time";
  const space = value.indexOf(" ");
  if (space > 0 && isDate(value.slice(0, space)) && isTime(value.slice(space + 1))) return "timestamp";
  if (CONTAINER_URL.test(value)) return "container";
  if (isNumericText(value.trim())) return "numericText";
  return "text";
}

export interface InferredType {
  type: FieldType;
  confidence: Confidence;
  /** Why the type is not certain (absent for high confidence). */
  reason?: string;
}

/** The type of a field from every wire value seen for it (all repetitions, all sampled records). */
export function inferFieldType(values: readonly unknown[]): InferredType {
  const counts = new Map<WireClass, number>();
  for (const value of values) {
    const kind = classifyWireValue(value);
    if (kind !== "empty") counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  const nonEmpty = [...counts.values()].reduce((a, b) => a + b, 0);
  if (nonEmpty === 0) return { type: "text", confidence: "low", reason: `seen only empty in ${values.length} value${values.length === 1 ? "" : "s"}` };
  const kinds = [...counts.keys()];
  if (kinds.length === 1) {
    const only = kinds[0] as Exclude<WireClass, "empty">;
    switch (only) {
      case "number":
      case "container":
      case "text":
        return { type: only, confidence: "high" };
      case "numericText":
        return { type: "text", confidence: "medium", reason: "every value is a numeric string: text holding digits, or a number field of an old server" };
      default:
        return nonEmpty >= CONFIDENT_AFTER
          ? { type: only as FieldType, confidence: "high" }
          : { type: only as FieldType, confidence: "medium", reason: `only ${nonEmpty} value${nonEmpty === 1 ? "" : "s"}, all ${only}s: a text field could hold them too` };
    }
  }
  if (kinds.every((k) => k === "number" || k === "numericText")) {
    return { type: "number", confidence: "medium", reason: "JSON numbers and numeric strings mixed" };
  }
  // Only a text field carries values of two kinds; a server that sends digits-only text as JSON numbers blurs that.
  if (counts.has("number")) return { type: "text", confidence: "medium", reason: "JSON numbers and strings mixed" };
  return { type: "text", confidence: "high" };
}

/** Significant digits a double keeps for certain: a decimal with more may not survive a trip through one. */
export const DOUBLE_DIGITS = 15;

/** The significant digits of numeric text (`isNumericText`): sign, exponent, leading and trailing zeros left out. */
export function significantDigits(text: string): number {
  const mantissa = text.replace(/^[+-]/, "").replace(/[eE].*$/, "").replace(".", "");
  return mantissa.replace(/^0+/, "").replace(/0+$/, "").length;
}

/** A value a double may not hold (see `LongNumber` in live.ts); undefined for any other value. */
export function longNumber(value: unknown): LongNumber | undefined {
  // The runtime kept the token's digits: certain, as a numeric string is.
  if (isNumberToken(value)) return { text: value.text, digits: significantDigits(value.text), certain: true };
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return undefined;
    const text = String(value);
    const digits = significantDigits(text);
    if (digits > DOUBLE_DIGITS) return { text, digits, certain: false };
    if (Number.isInteger(value) && Math.abs(value) > 2 ** 53) return { text, digits, certain: false, beyondSafe: true };
    return undefined;
  }
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  if (!isNumericText(text)) return undefined;
  const digits = significantDigits(text);
  return digits > DOUBLE_DIGITS ? { text, digits, certain: true } : undefined;
}

/** The first value of `values` a double may not hold, one whose digits the wire carried as text first. */
export function firstLongNumber(values: readonly unknown[]): LongNumber | undefined {
  let found: LongNumber | undefined;
  for (const value of values) {
    const long = longNumber(value);
    if (long?.certain) return long;
    found ??= long;
  }
  return found;
}

/**
 * Whether every value decodes as `type` with the runtime's own codecs (a type from the file is then kept). A number
 * field is read as an exact one would read it: a value with more digits than a double keeps is still a number (the
 * notes propose `exact` for it).
 */
export function decodesAs(type: FieldType, values: readonly unknown[]): boolean {
  // A long token is a number (pull proposes `exact` for it) or digits in a text field; never another type's value. By
  // its brand: pull's copy of the codecs is not the installed runtime's, whose envelopes made the token.
  const decode = type === "number" ? decodeExact : DECODERS[type];
  return values.every((value) => (isNumberToken(value) ? type === "number" || type === "text" : decode(value) !== INVALID));
}

/**
 * Splits wire keys into fields and their repetitions: `F(n)` is repetition n of `F` when `F` is a key too
 * (a field may itself be named `F(2)`). Order: first appearance.
 */
export function groupRepetitions(keys: readonly string[]): Map<string, { keys: string[]; repetitions: number }> {
  const present = new Set(keys);
  const out = new Map<string, { keys: string[]; repetitions: number }>();
  for (const key of keys) {
    const m = /^(.*)\(([1-9]\d*)\)$/.exec(key);
    const base = m && present.has(m[1]!) ? m[1]! : key;
    const n = m && base !== key ? Number(m[2]) : 1;
    const entry = out.get(base) ?? { keys: [], repetitions: 1 };
    entry.keys.push(key);
    entry.repetitions = Math.max(entry.repetitions, n);
    out.set(base, entry);
  }
  return out;
}
