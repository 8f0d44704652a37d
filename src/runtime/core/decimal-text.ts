// FileMaker numbers as decimal text, for both APIs and the emulator: an `"exact": true` field's values keep every digit
// (docs/reading-and-writing.md, "Exact numbers"). One reader of the text, one canonical form, one rule for when a
// JavaScript number holds a value exactly.

/** The most significant digits an exact value may have: FileMaker indexes the first 400 (Claris). */
export const MAX_DIGITS = 400;
/** The largest decimal exponent of an exact value's first digit, either way: FileMaker's numbers run 10^-400 to 10^400. */
export const MAX_EXPONENT = 400;

/**
 * A decimal value: `digits` × 10^`exponent`, `digits` without leading or trailing zeros (`""` is zero, which is never
 * negative).
 */
export interface Decimal {
  readonly negative: boolean;
  readonly digits: string;
  readonly exponent: number;
}

/**
 * The grammar a text is read with: `json`, a JSON number token (`-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`: what writes
 * take, so that what is sent is the app's text digit for digit); `lenient`, what older servers write in a number field
 * as a string (a `+` sign, leading zeros, `.5` and `5.` allowed; whitespace around it trimmed by the caller).
 */
export type DecimalGrammar = "json" | "lenient";

/** Why a text is not an exact value, in words an error message ends with; undefined when it is one. */
export type DecimalProblem = string;

/**
 * Reads decimal text, each character once (a 60,000-digit token costs one pass). A text outside the grammar, or a
 * value with more than MAX_DIGITS significant digits or beyond 10^±MAX_EXPONENT, is a problem in words.
 */
export function parseDecimal(text: string, grammar: DecimalGrammar): Decimal | DecimalProblem {
  const json = grammar === "json";
  let at = 0;
  let negative = false;
  let c = text.charCodeAt(0);
  if (c === 45 /* - */ || (!json && c === 43) /* + */) {
    negative = c === 45;
    c = text.charCodeAt(++at);
  }
  // The digits before and after the point, leading zeros of the whole skipped.
  const start = at;
  while (c === 48) c = text.charCodeAt(++at);
  const intFrom = at;
  while (c >= 48 && c <= 57) c = text.charCodeAt(++at);
  const intTo = at;
  const intCount = intTo - start;
  if (json && (intCount === 0 || (intCount > 1 && text.charCodeAt(start) === 48))) return NOT_JSON;
  let fracFrom = at;
  let fracTo = at;
  if (c === 46 /* . */) {
    fracFrom = ++at;
    c = text.charCodeAt(at);
    while (c >= 48 && c <= 57) c = text.charCodeAt(++at);
    fracTo = at;
    if (json && fracTo === fracFrom) return NOT_JSON;
  }
  if (intCount === 0 && fracTo === fracFrom) return at === text.length ? "it has no digits" : "it is not a number";
  let exponent = 0;
  if ((c | 32) === 101 /* e, E */) {
    c = text.charCodeAt(++at);
    let expNegative = false;
    if (c === 43 || c === 45) {
      expNegative = c === 45;
      c = text.charCodeAt(++at);
    }
    const expFrom = at;
    // Capped while read: an exponent of a million digits is as far out of range as one of seven.
    while (c >= 48 && c <= 57) {
      if (exponent < 1e7) exponent = exponent * 10 + (c - 48);
      c = text.charCodeAt(++at);
    }
    if (at === expFrom) return json ? NOT_JSON : "its exponent has no digits";
    if (expNegative) exponent = -exponent;
  }
  if (at !== text.length) return json ? NOT_JSON : "it is not a number";
  // Significant digits: the whole's (leading zeros skipped) then the fraction's, trailing zeros dropped.
  let digits = text.slice(intFrom, intTo) + text.slice(fracFrom, fracTo);
  exponent -= fracTo - fracFrom;
  let lead = 0;
  while (digits.charCodeAt(lead) === 48) lead++;
  let end = digits.length;
  while (end > lead && digits.charCodeAt(end - 1) === 48) end--;
  exponent += digits.length - end;
  digits = digits.slice(lead, end);
  if (digits === "") return { negative: false, digits: "", exponent: 0 };
  if (digits.length > MAX_DIGITS) return `it has ${digits.length} significant digits, more than the ${MAX_DIGITS} FileMaker keeps`;
  const first = exponent + digits.length - 1;
  if (first > MAX_EXPONENT || first < -MAX_EXPONENT) return `it is beyond FileMaker's range of numbers (10^-${MAX_EXPONENT} to 10^${MAX_EXPONENT})`;
  return { negative, digits, exponent };
}

const NOT_JSON = 'it is not decimal text (digits, an optional "-", point and exponent, as JSON writes a number: "0.5", not ".5", "5." or "05")';

/**
 * The canonical text of a decimal: no exponent, no leading zeros, no trailing zeros after the point, no point without
 * a fraction, `-` only before a value other than zero (`"-1200.05"`, `"0.001"`, `"0"`). What an exact field reads as.
 */
export function plainDecimal(value: Decimal): string {
  const { digits, exponent } = value;
  if (digits === "") return "0";
  const sign = value.negative ? "-" : "";
  if (exponent >= 0) return sign + digits + "0".repeat(exponent);
  const point = digits.length + exponent;
  return sign + (point > 0 ? `${digits.slice(0, point)}.${digits.slice(point)}` : `0.${"0".repeat(-point)}${digits}`);
}

/** Whether two decimals are the same value. */
export function sameDecimal(a: Decimal, b: Decimal): boolean {
  return a.digits === b.digits && a.exponent === b.exponent && a.negative === b.negative;
}

/**
 * Whether the JavaScript number nearest a JSON number token is the token's value, written back digit for digit: true
 * for `0.1` and `9007199254740993`'s neighbour `9007199254740992`, false for `9007199254740993`, `1e400` and
 * `0.30000000000000001`. The rule a number field without `exact` reads by: a value it cannot hold is an error, never
 * a rounded number.
 */
export function doubleHolds(token: string): boolean {
  // More than 17 significant digits: no double writes back so many (the shortest text of a double has at most 17).
  if (significantDigitsAbove(token, 17)) return false;
  const n = Number(token);
  if (!Number.isFinite(n)) return false;
  const exact = parseDecimal(token, "lenient");
  const held = parseDecimal(String(n), "lenient");
  // A token outside the limits is held when its double writes back the same (1e-401 is not: it reads as 0).
  return typeof exact === "object" ? typeof held === "object" && sameDecimal(exact, held) : false;
}

/** Whether the token's mantissa has more than `limit` digits between its first and last that are not zero. */
function significantDigitsAbove(token: string, limit: number): boolean {
  let first = -1;
  let last = -1;
  let digits = 0;
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if ((c | 32) === 101) break;
    if (c < 48 || c > 57) continue;
    if (c !== 48) {
      if (first < 0) first = digits;
      last = digits;
    }
    digits++;
  }
  return first >= 0 && last - first + 1 > limit;
}

/** Whether a token is short enough that a double holds it, seen without reading it: at most 15 digits, no exponent. */
export function surelyHeld(token: string): boolean {
  if (token.length <= 15) return !/[eE]/.test(token);
  let digits = 0;
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
    else if ((c | 32) === 101) return false;
  }
  return digits <= 15;
}
