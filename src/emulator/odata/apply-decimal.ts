// Exact decimal arithmetic for `$apply`'s sums and averages (FileMaker's numbers are decimal): a value is a BigInt
// coefficient and a power of ten, read from a number's shortest decimal text (what JavaScript prints for it, which
// is what the hosted file holds), so `0.1 + 0.2` is 0.3 and `1e308 + 1e308` is 2e308, never Infinity.

/** `coefficient × 10^exponent`. */
export interface Decimal {
  readonly coefficient: bigint;
  readonly exponent: number;
}

/** The significant digits an average keeps: FileMaker's default calculation precision (choice: 16). */
export const AVERAGE_DIGITS = 16;

const ZERO: Decimal = { coefficient: 0n, exponent: 0 };
const pow10 = (n: number) => 10n ** BigInt(n);

/** A finite number as the decimal its shortest text writes (`String(0.1)` is "0.1": 0.1 exactly). */
export function decimalOf(value: number): Decimal {
  if (!Number.isFinite(value)) throw new RangeError(`decimalOf: ${value} is not a finite number`);
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(value))!;
  const fraction = match[3] ?? "";
  return { coefficient: BigInt(`${match[1]}${match[2]}${fraction}`), exponent: Number(match[4] ?? 0) - fraction.length };
}

/** The exact sum of finite numbers. */
export function sumDecimals(values: readonly number[]): Decimal {
  let total = ZERO;
  for (const v of values) {
    const d = decimalOf(v);
    const exponent = Math.min(total.exponent, d.exponent);
    total = { coefficient: total.coefficient * pow10(total.exponent - exponent) + d.coefficient * pow10(d.exponent - exponent), exponent };
  }
  return total;
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
  const drop = quotient.toString().length - digits;
  if (drop > 0) {
    const unit = pow10(drop);
    const rest = quotient % unit;
    quotient = quotient / unit + (rest * 2n >= unit ? 1n : 0n);
    exponent += drop;
  }
  return { coefficient: negative ? -quotient : quotient, exponent };
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
