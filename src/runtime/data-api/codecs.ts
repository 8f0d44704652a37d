import type { FieldKind, FieldSpec } from "./definition.js";
import { isNumericText } from "../core/numeric-text.js";
import { getOwn } from "../core/own.js";
import { doubleHolds, parseDecimal, plainDecimal, surelyHeld, type DecimalGrammar } from "../core/decimal-text.js";
import { NumberToken, stringifyJson } from "../core/json-numbers.js";

/** Raised when a wire value does not decode for its field's type; nothing is coerced silently. */
export class DecodeError extends Error {
  // Declared, not defined: each is assigned once below (a defined field would be set twice, and cost bytes twice).
  /** The layout the record was read through. */
  declare readonly layout: string;
  /** The field whose value did not decode. */
  declare readonly field: string;
  /** The record's recordId. */
  declare readonly recordId: string;
  /** The value as it travelled (a number token a JavaScript number cannot hold: its text, a string). */
  declare readonly raw: unknown;
  /** The kind the layout's definition says the field is. */
  declare readonly expected: FieldKind;

  /** `why`: what is wrong with the value, in words the message ends with (a number that would lose digits, say). */
  constructor(layout: string, field: string, recordId: string, raw: unknown, expected: FieldKind, why?: string) {
    super(`layout "${layout}", field "${field}", record ${recordId}: ${quoteRaw(raw)} is not a valid ${expected} value${why ? `: ${why}` : ""}`);
    this.layout = layout;
    this.field = field;
    this.recordId = recordId;
    this.raw = raw instanceof NumberToken ? raw.text : raw;
    this.expected = expected;
    this.name = "DecodeError";
  }
}

const MAX_QUOTED = 120;

/**
 * A server's value, quoted in a message: at most MAX_QUOTED characters of its JSON, whatever it holds (`raw`
 * keeps the value itself), a number token as it travelled. A value too deep for JSON.stringify (100,000 nested
 * arrays) is named by its kind.
 */
export function quoteRaw(raw: unknown): string {
  let text: string;
  const token = raw instanceof NumberToken;
  try {
    text = typeof raw === "string" ? JSON.stringify(raw.slice(0, MAX_QUOTED + 1)) : token ? raw.text.slice(0, MAX_QUOTED + 1) : String(stringifyJson(raw));
  } catch {
    return `${Array.isArray(raw) ? "an array" : "an object"} nested too deep to quote`;
  }
  const length = typeof raw === "string" ? raw.length : token ? raw.text.length : text.length;
  return length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}… (${length} characters)` : text;
}

const pad = (n: number) => String(n).padStart(2, "0");

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Written so that NaN (a non-digit in the fast paths) fails every comparison. */
function validDate(y: number, m: number, d: number): boolean {
  if (!(m >= 1 && m <= 12 && d >= 1 && y >= 1 && y <= 4000)) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return d <= (m === 2 && leap ? 29 : DAYS_IN_MONTH[m - 1]!);
}

/** Given digits only (never negative), or NaN: an upper bound each suffices, and NaN fails it. */
function validTime(h: number, m: number, s: number): boolean {
  return h <= 23 && m <= 59 && s < 60;
}

const WIRE_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const WIRE_TIME = /^(\d{1,2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_TIME = /^(\d{2}):(\d{2}):(\d{2})$/;

/** The digit at `i` (0-9), or NaN: lets the canonical wire forms decode without a regex. */
function digit(text: string, i: number): number {
  const c = text.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : NaN;
}

const two = (text: string, i: number) => digit(text, i) * 10 + digit(text, i + 1);

/** What a decoder returns for a wire value that does not decode: the caller reports it with its field and record. */
export const INVALID: unique symbol = Symbol("invalid");
function decodeDate(raw: string): string | typeof INVALID {
  // Fast path for what servers send: "MM/DD/YYYY" exactly.
  if (raw.length === 10 && raw.charCodeAt(2) === 47 && raw.charCodeAt(5) === 47) {
    const year = two(raw, 6) * 100 + two(raw, 8);
    if (validDate(year, two(raw, 0), two(raw, 3))) return `${raw.slice(6)}-${raw.slice(0, 2)}-${raw.slice(3, 5)}`;
  }
  const m = WIRE_DATE.exec(raw);
  if (!m || !validDate(+m[3]!, +m[1]!, +m[2]!)) return INVALID;
  return `${m[3]}-${pad(+m[1]!)}-${pad(+m[2]!)}`;
}

function decodeTime(raw: string): string | typeof INVALID {
  // Fast path for "HH:MM:SS" exactly.
  if (raw.length === 8 && raw.charCodeAt(2) === 58 && raw.charCodeAt(5) === 58 && validTime(two(raw, 0), two(raw, 3), two(raw, 6))) return raw;
  const m = WIRE_TIME.exec(raw);
  if (!m || !validTime(+m[1]!, +m[2]!, Math.floor(+(m[3] ?? 0)))) return INVALID;
  return `${pad(+m[1]!)}:${m[2]}:${pad(Math.floor(+(m[3] ?? 0)))}`;
}

function decodeTimestamp(raw: string): string | typeof INVALID {
  const space = raw.indexOf(" ");
  if (space < 0) return INVALID;
  const date = decodeDate(raw.slice(0, space));
  const time = decodeTime(raw.slice(space + 1).trim());
  return date === INVALID || time === INVALID ? INVALID : `${date}T${time}`;
}

/**
 * Wire value -> TypeScript value, one function per field kind (docs/reading-and-writing.md, "Value types"); INVALID
 * when the value does not decode. Separate functions, not one switch, so that a compiled record decoder calls each
 * directly.
 */
export const DECODERS: Readonly<Record<FieldKind, (raw: unknown) => unknown>> = {
  // Some servers send numbers for text fields that hold digits only (a long run of them as a number token); text stays
  // text.
  text: (raw) => (typeof raw === "string" ? raw : typeof raw === "number" ? String(raw) : raw instanceof NumberToken ? raw.text : INVALID),
  // `+ 0` reads -0 as 0. A number token (digits a double cannot hold) is INVALID: never a rounded number. Older servers
  // send numbers as numeric strings, with whitespace around them at times: read only when a double holds them.
  number: (raw) => (typeof raw === "number" ? (Number.isFinite(raw) ? raw + 0 : INVALID) : raw === "" ? null : typeof raw === "string" ? numericString(raw.trim()) : INVALID),
  date: (raw) => (raw === "" ? null : typeof raw === "string" ? decodeDate(raw) : INVALID),
  time: (raw) => (raw === "" ? null : typeof raw === "string" ? decodeTime(raw) : INVALID),
  timestamp: (raw) => (raw === "" ? null : typeof raw === "string" ? decodeTimestamp(raw) : INVALID),
  container: (raw) => (raw === "" ? null : typeof raw === "string" ? raw : INVALID),
};

/** An older server's numeric string as a number, when a double holds it digit for digit. */
function numericString(text: string): number | typeof INVALID {
  return isNumericText(text) && (surelyHeld(text) || doubleHolds(text)) ? Number(text) + 0 : INVALID;
}

/** Decimal text in its canonical form (`plainDecimal`), or INVALID when the text is not an exact value. */
function canonical(text: string, grammar: DecimalGrammar): string | typeof INVALID {
  const decimal = parseDecimal(text, grammar);
  return typeof decimal === "string" ? INVALID : plainDecimal(decimal);
}

/**
 * Wire value -> decimal text, for a number field with `exact: true` (docs/reading-and-writing.md, "Exact numbers"):
 * a number token or a short number as its canonical text, a numeric string (older servers) likewise, `""` null.
 */
export function decodeExact(raw: unknown): string | null | typeof INVALID {
  if (typeof raw === "number") return Number.isFinite(raw) ? canonical(String(raw), "lenient") : INVALID;
  if (raw instanceof NumberToken) return canonical(raw.text, "json");
  if (raw === "") return null;
  return typeof raw === "string" ? canonical(raw.trim(), "lenient") : INVALID;
}

/** What a number that does not fit a double is told. */
const NOT_HELD = 'it has more digits than a JavaScript number holds; describe the field with "exact": true to read it as decimal text, every digit kept';

/**
 * Why a wire value of a number field did not decode, in words a DecodeError ends with; undefined when its kind says
 * enough (an object for a number). Worked out only once a value has failed.
 */
export function whyNotNumber(raw: unknown, exact: boolean | undefined): string | undefined {
  const text = raw instanceof NumberToken ? raw.text : typeof raw === "string" ? raw.trim() : undefined;
  if (text === undefined) return undefined;
  const decimal = parseDecimal(text, raw instanceof NumberToken ? "json" : "lenient");
  if (typeof decimal === "string") return decimal;
  return exact ? undefined : NOT_HELD;
}

/**
 * Why a value is not one an exact field takes, in words; undefined when it is decimal text (JSON's grammar: what is
 * sent is the app's text, digit for digit).
 */
export function exactProblem(value: unknown): string | undefined {
  if (typeof value === "number") return 'an exact field takes decimal text (a string such as "12.50"), not a JavaScript number, which may have lost digits already';
  if (typeof value !== "string") return "an exact field takes decimal text (a string)";
  const decimal = parseDecimal(value, "json");
  return typeof decimal === "string" ? decimal : undefined;
}

function encodeDate(iso: string): string | typeof INVALID {
  const m = ISO_DATE.exec(iso);
  return m && validDate(+m[1]!, +m[2]!, +m[3]!) ? `${m[2]}/${m[3]}/${m[1]}` : INVALID;
}

function encodeTime(value: string): string | typeof INVALID {
  const m = ISO_TIME.exec(value);
  return m && validTime(+m[1]!, +m[2]!, +m[3]!) ? value : INVALID;
}

function encodeTimestamp(iso: string): string | typeof INVALID {
  const at = iso.indexOf("T");
  if (at < 0) return INVALID;
  const date = encodeDate(iso.slice(0, at));
  const time = encodeTime(iso.slice(at + 1));
  return date === INVALID || time === INVALID ? INVALID : `${date} ${time}`;
}

/**
 * TypeScript value -> wire value, one function per field kind; INVALID when the value is not one of the kind.
 * (`null`, which clears a field, is the caller's.) Finds use them too: criteria for dates use the wire format.
 */
export const ENCODERS: Readonly<Record<FieldKind, (value: unknown) => string | number | typeof INVALID>> = {
  text: (value) => (typeof value === "string" ? value : INVALID),
  number: (value) => (typeof value === "number" && Number.isFinite(value) ? value : INVALID),
  date: (value) => (typeof value === "string" ? encodeDate(value) : INVALID),
  time: (value) => (typeof value === "string" ? encodeTime(value) : INVALID),
  timestamp: (value) => (typeof value === "string" ? encodeTimestamp(value) : INVALID),
  container: () => INVALID,
};

/** The wire key of repetition `index` (0-based) of field `name`: `F`, then `F(2)`... */
export function repetitionKey(name: string, index: number): string {
  return index === 0 ? name : `${name}(${index + 1})`;
}

/** A field's value as a request body holds it: an exact field's as a NumberToken, which stringifyJson writes bare. */
export type WireValue = string | number | NumberToken;

/**
 * Encodes a partial input object to wire fieldData; unknown, read-only and container fields are refused. An exact
 * field's decimal text travels as a NumberToken: the body must be written with stringifyJson.
 */
export function encodeFields(specs: Readonly<Record<string, FieldSpec>>, input: Record<string, unknown>, layout: string, encoders = ENCODERS): Record<string, WireValue> {
  const out: Record<string, WireValue> = Object.create(null);
  for (const name of Object.keys(input)) {
    const value = input[name];
    if (value === undefined) continue;
    const spec = getOwn(specs, name) as FieldSpec | undefined;
    if (!spec) throw new TypeError(`layout "${layout}" has no field "${name}"`);
    if (spec.readOnly || spec.type === "container") {
      throw new TypeError(`layout "${layout}", field "${name}" is ${spec.type === "container" ? "a container (use upload)" : "read-only"}`);
    }
    const exact = spec.type === "number" && spec.exact;
    const encodeAt = (v: unknown, key: string) => {
      if (exact && v !== null) {
        const why = exactProblem(v);
        if (why !== undefined) throw new TypeError(`layout "${layout}", field "${key}": ${quoteRaw(v)} is not a valid exact number value: ${why}`);
        out[key] = new NumberToken(v as string);
        return;
      }
      const wire = v === null ? "" : encoders[spec.type](v);
      if (wire === INVALID) throw new TypeError(`layout "${layout}", field "${key}": ${describe(v)} is not a valid ${spec.type} value${ISO_FORM[spec.type] ? ` (expected "${ISO_FORM[spec.type]}")` : ""}`);
      out[key] = wire;
    };
    const reps = spec.repetitions ?? 1;
    if (reps === 1) encodeAt(value, name);
    else {
      if (!Array.isArray(value) || value.length > reps) throw new TypeError(`layout "${layout}", field "${name}" takes an array of up to ${reps} repetitions`);
      value.forEach((v, i) => v !== undefined && encodeAt(v, repetitionKey(name, i)));
    }
  }
  return out;
}

/** The ISO form each chronological kind takes, for error messages. */
export const ISO_FORM: Partial<Record<FieldKind, string>> = { date: "YYYY-MM-DD", time: "HH:MM:SS", timestamp: "YYYY-MM-DDTHH:MM:SS" };

/** A value as an error message quotes it: strings quoted, numbers and null as written, anything else by its type. */
export function describe(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : typeof value === "number" || value === null ? String(value) : typeof value;
}
