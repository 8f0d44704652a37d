// A number field's value as the hosted file keeps it: FileMaker numbers are decimal, up to 400 significant digits. A
// value a JavaScript number holds digit for digit is kept as that number (every fast path compares numbers); any
// other is an ExactNumber, its canonical decimal text. Both APIs read and write numbers through here.
import { doubleHolds, parseDecimal, plainDecimal, type Decimal, type DecimalGrammar } from "../../runtime/core/decimal-text.js";
import { NumberToken } from "../../runtime/core/json-numbers.js";

/** A number a double does not hold: its canonical decimal text (`plainDecimal`) and that text read. */
export class ExactNumber {
  constructor(
    readonly text: string,
    readonly decimal: Decimal,
  ) {}

  /** What JSON.stringify writes for it (a seed or a log): its bare digits, through stringifyJson. */
  toJSON(): unknown {
    return new NumberToken(this.text).toJSON();
  }
}

/** A number field's stored value. */
export type StoredNumber = number | ExactNumber;

/**
 * A number's text (a client's JSON token, a string in a number field, a seed's value) as stored, or the reason it is
 * not a number FileMaker keeps. `-0` is 0; a text whose double holds it is that double.
 */
export function storedNumberOf(text: string, grammar: DecimalGrammar = "lenient"): StoredNumber | string {
  const decimal = parseDecimal(text, grammar);
  if (typeof decimal === "string") return decimal;
  const plain = plainDecimal(decimal);
  if (doubleHolds(plain)) return Number(plain) + 0;
  return new ExactNumber(plain, decimal);
}

/** The decimal a stored number is (a double: the one its shortest text writes, which is what was stored). */
export function decimalOf(value: StoredNumber): Decimal {
  if (value instanceof ExactNumber) return value.decimal;
  return parseDecimal(String(value), "lenient") as Decimal;
}

/** The canonical decimal text of a stored number (`"0.1"`, `"1000000000000000000000"`, never an exponent). */
export function numberText(value: StoredNumber): string {
  if (value instanceof ExactNumber) return value.text;
  const text = String(value);
  return text.includes("e") ? plainDecimal(decimalOf(value)) : text;
}

/** A stored number as an answer's JSON writes it (through stringifyJson): a double as itself, an exact one as its token. */
export function wireNumber(value: StoredNumber): number | NumberToken {
  return value instanceof ExactNumber ? new NumberToken(value.text) : value;
}

/** Orders two stored numbers by value, exactly: negative, zero or positive as `a - b` would be. */
export function compareNumbers(a: StoredNumber, b: StoredNumber): number {
  if (typeof a === "number" && typeof b === "number") return a < b ? -1 : a > b ? 1 : 0;
  return compareDecimals(decimalOf(a), decimalOf(b));
}

/** Whether two stored numbers are the same value. */
export function sameNumber(a: StoredNumber, b: StoredNumber): boolean {
  return compareNumbers(a, b) === 0;
}

function compareDecimals(a: Decimal, b: Decimal): number {
  const signA = a.digits === "" ? 0 : a.negative ? -1 : 1;
  const signB = b.digits === "" ? 0 : b.negative ? -1 : 1;
  if (signA !== signB || signA === 0) return signA - signB;
  return signA * compareMagnitudes(a, b) || 0;
}

/** |a| against |b|, both not zero: by the place of the first digit, then digit by digit. */
function compareMagnitudes(a: Decimal, b: Decimal): number {
  const firstA = a.exponent + a.digits.length;
  const firstB = b.exponent + b.digits.length;
  if (firstA !== firstB) return firstA < firstB ? -1 : 1;
  const length = Math.max(a.digits.length, b.digits.length);
  const da = a.digits.padEnd(length, "0");
  const db = b.digits.padEnd(length, "0");
  return da < db ? -1 : da > db ? 1 : 0;
}
