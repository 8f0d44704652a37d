// Exact decimal arithmetic for `$apply`'s sums and averages (FileMaker's numbers are decimal): a value is a BigInt
// coefficient and a power of ten, read from a stored number's decimal (a double's shortest text, which is what the
// hosted file holds, or an ExactNumber's every digit), so `0.1 + 0.2` is 0.3, `1e308 + 1e308` is 2e308, never
// Infinity, and 58-digit values sum digit for digit.

import { MAX_DIGITS } from "../../runtime/core/decimal-text.js";
import { decimalOf as storedDecimal, storedNumberOf, type StoredNumber } from "../hosted-file/exact-number.js";

/** `coefficient × 10^exponent`. */
export interface Decimal {
  readonly coefficient: bigint;
  readonly exponent: number;
}

/** The significant digits an average keeps: FileMaker's default calculation precision (choice: 16). */
export const AVERAGE_DIGITS = 16;

const ZERO: Decimal = { coefficient: 0n, exponent: 0 };
/** 10^n as a BigInt. */
export const pow10 = (n: number) => 10n ** BigInt(n);

/**
 * A stored number as a decimal: a finite double as the decimal its shortest text writes (`String(0.1)` is "0.1": 0.1
 * exactly), an ExactNumber digit for digit.
 */
export function decimalOf(value: StoredNumber): Decimal {
  if (typeof value === "number" && !Number.isFinite(value)) throw new RangeError(`decimalOf: ${value} is not a finite number`);
  const d = storedDecimal(value);
  return { coefficient: d.digits === "" ? 0n : BigInt(d.negative ? `-${d.digits}` : d.digits), exponent: d.exponent };
}

/** The exact sum of finite stored numbers. */
export function sumDecimals(values: readonly StoredNumber[]): Decimal {
  let total = ZERO;
  for (const v of values) {
    const d = decimalOf(v);
    const exponent = Math.min(total.exponent, d.exponent);
    total = { coefficient: total.coefficient * pow10(total.exponent - exponent) + d.coefficient * pow10(d.exponent - exponent), exponent };
  }
  return total;
}

/**
 * An average: `d / n` (n a whole number ≥ 1) exactly when its decimal ends within FileMaker's 400 digits, else to
 * `digits` significant digits (at least AVERAGE_DIGITS; `$apply` passes the widest value's), the last rounded half
 * away from zero.
 */
export function averageDecimal(d: Decimal, n: number, digits = AVERAGE_DIGITS): Decimal {
  return exactQuotient(d, n) ?? divideDecimal(d, n, Math.max(AVERAGE_DIGITS, digits));
}

/**
 * `d / n` when its decimal ends within MAX_DIGITS significant digits, else undefined. n = 2^a·5^b·m ends iff m
 * divides d, after at most max(a, b) < 4 × (n's digits) more places: that many are tried.
 */
function exactQuotient(d: Decimal, n: number): Decimal | undefined {
  const divisor = BigInt(n);
  const shift = 4 * divisor.toString().length + 2;
  const scaled = d.coefficient * pow10(shift);
  if (scaled % divisor !== 0n) return undefined;
  const quotient: Decimal = { coefficient: scaled / divisor, exponent: d.exponent - shift };
  return significant(quotient) <= MAX_DIGITS ? quotient : undefined;
}

/** Significant digits of a decimal, trailing zeros not counted. */
function significant(d: Decimal): number {
  return (d.coefficient < 0n ? -d.coefficient : d.coefficient).toString().replace(/0+$/, "").length;
}

/** Significant digits of a stored number (an average keeps at least as many as its widest value). */
export function digitsOf(value: StoredNumber): number {
  return storedDecimal(value).digits.length;
}

/**
 * A decimal as a stored number (a double when it holds it, else an ExactNumber of its every digit), or undefined when
 * it is past FileMaker's numbers (more than 400 significant digits, beyond 10^±400): the caller keeps its text.
 */
export function storedOf(d: Decimal): StoredNumber | undefined {
  if (d.coefficient === 0n) return 0;
  const read = storedNumberOf(`${d.coefficient}e${d.exponent}`, "lenient");
  return typeof read === "string" ? undefined : read;
}

/** `d / n` (n a whole number ≥ 1) to `digits` significant digits, the last rounded half away from zero. */
export function divideDecimal(d: Decimal, n: number, digits = AVERAGE_DIGITS): Decimal {
  if (d.coefficient === 0n) return ZERO;
  const negative = d.coefficient < 0n;
  const magnitude = negative ? -d.coefficient : d.coefficient;
  const divisor = BigInt(n);
  // Enough digits in the quotient for the rounding digit: truncation is then exact enough (the dropped part is
  // compared with half a unit of the last digit kept, and a remainder only adds less than one unit below it).
  const shift = Math.max(0, digits + 2 + divisor.toString().length - magnitude.toString().length);
  let quotient = (magnitude * pow10(shift)) / divisor;
  let exponent = d.exponent - shift;
  ({ magnitude: quotient, exponent } = roundToDigits(quotient, exponent, digits));
  return { coefficient: negative ? -quotient : quotient, exponent };
}

/** `magnitude × 10^exponent` (magnitude ≥ 0) to at most `digits` significant digits, the last rounded half away from zero. */
export function roundToDigits(magnitude: bigint, exponent: number, digits: number): { magnitude: bigint; exponent: number } {
  const drop = magnitude.toString().length - digits;
  if (drop <= 0) return { magnitude, exponent };
  const unit = pow10(drop);
  const rest = magnitude % unit;
  return { magnitude: magnitude / unit + (rest * 2n >= unit ? 1n : 0n), exponent: exponent + drop };
}

/** The decimal as JavaScript writes a number: plain from 1e-6 to below 1e21, else `d.ddde±n`; no trailing zeros. */
export function decimalText(d: Decimal): string {
  if (d.coefficient === 0n) return "0";
  let digits = (d.coefficient < 0n ? -d.coefficient : d.coefficient).toString();
  let exponent = d.exponent;
  const trimmed = digits.replace(/0+$/, "");
  exponent += digits.length - trimmed.length;
  digits = trimmed;
  const sign = d.coefficient < 0n ? "-" : "";
  const lead = digits.length - 1 + exponent;
  if (lead >= 21 || lead < -6) return `${sign}${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ""}e${lead > 0 ? "+" : "-"}${Math.abs(lead)}`;
  if (exponent >= 0) return sign + digits + "0".repeat(exponent);
  const point = digits.length + exponent;
  return point > 0 ? `${sign}${digits.slice(0, point)}.${digits.slice(point)}` : `${sign}0.${"0".repeat(-point)}${digits}`;
}
