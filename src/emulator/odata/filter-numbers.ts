// `$filter`'s (and `$apply`'s) arithmetic on Edm.Decimal values, exactly (docs/emulator.md, "Numbers over OData"):
// a value is a stored number (a double, or an ExactNumber of up to 400 significant digits: exact-number.ts), and
// `add`, `sub`, `mul`, `mod`, negation, `round`, `floor` and `ceiling` are decimal arithmetic over BigInt, so
// `0.1 add 0.2` is 0.3 and a 58-digit key plus 1 is its neighbour. Whole doubles within 2^53 take the double's own
// (then exact) arithmetic. `div` stays a double's division (a quotient has no end in general), and a result is
// rounded to 400 significant digits; past 10^±400 it is null, as a double's overflow was.

import { MAX_DIGITS } from "../../runtime/core/decimal-text.js";
import { ExactNumber, numberText, storedNumberOf, type StoredNumber } from "../hosted-file/exact-number.js";
import { decimalOf as big, pow10, roundToDigits, type Decimal as Big } from "./apply-decimal.js";

/** A BigInt decimal as a stored number: rounded (half away from zero) to 400 significant digits; null past 10^±400. */
function stored(value: Big): StoredNumber | null {
  if (value.coefficient === 0n) return 0;
  const negative = value.coefficient < 0n;
  const { magnitude, exponent } = roundToDigits(negative ? -value.coefficient : value.coefficient, value.exponent, MAX_DIGITS);
  const read = storedNumberOf(`${negative ? "-" : ""}${magnitude}e${exponent}`, "lenient");
  return typeof read === "string" ? null : read;
}

const safe = (n: number) => Number.isSafeInteger(n);

/** Both operands at the smaller exponent. */
function aligned(a: Big, b: Big): [bigint, bigint, number] {
  const exponent = Math.min(a.exponent, b.exponent);
  return [a.coefficient * pow10(a.exponent - exponent), b.coefficient * pow10(b.exponent - exponent), exponent];
}

/** `a op b` for `add sub mul div mod`; null when the result is no number (a zero divisor, past 10^±400). */
export function arithmetic(op: string, a: StoredNumber, b: StoredNumber): StoredNumber | null {
  if (op === "div") {
    const x = Number(numberText(a));
    const y = Number(numberText(b));
    const q = y === 0 ? Number.NaN : x / y;
    return Number.isFinite(q) ? q + 0 : null;
  }
  if (typeof a === "number" && typeof b === "number" && safe(a) && safe(b)) {
    const fast = op === "add" ? a + b : op === "sub" ? a - b : op === "mul" ? a * b : b === 0 ? Number.NaN : a % b;
    if (safe(fast)) return fast + 0;
    if (Number.isNaN(fast)) return null;
  }
  const x = big(a);
  const y = big(b);
  switch (op) {
    case "add":
    case "sub": {
      const [p, q, exponent] = aligned(x, y);
      return stored({ coefficient: op === "add" ? p + q : p - q, exponent });
    }
    case "mul":
      return stored({ coefficient: x.coefficient * y.coefficient, exponent: x.exponent + y.exponent });
    default: {
      // mod: the remainder of truncated division, its sign the dividend's (as JavaScript's `%`).
      if (y.coefficient === 0n) return null;
      const [p, q, exponent] = aligned(x, y);
      return stored({ coefficient: p % q, exponent });
    }
  }
}

/** `-a`. */
export function negate(a: StoredNumber): StoredNumber {
  if (typeof a === "number") return 0 - a;
  return new ExactNumber(a.text.startsWith("-") ? a.text.slice(1) : `-${a.text}`, { ...a.decimal, negative: !a.decimal.negative });
}

/** `round` (half away from zero), `floor` and `ceiling` to a whole number, exactly. */
export function wholeNumber(method: "round" | "floor" | "ceiling", a: StoredNumber): StoredNumber | null {
  if (typeof a === "number") {
    if (method === "floor") return Math.floor(a) + 0;
    if (method === "ceiling") return Math.ceil(a) + 0;
    return Math.sign(a) * Math.round(Math.abs(a)) + 0;
  }
  const x = big(a);
  if (x.exponent >= 0) return a;
  const unit = pow10(-x.exponent);
  const negative = x.coefficient < 0n;
  const magnitude = negative ? -x.coefficient : x.coefficient;
  let whole = magnitude / unit;
  const rest = magnitude % unit;
  if (rest !== 0n) {
    if (method === "round") whole += rest * 2n >= unit ? 1n : 0n;
    else if ((method === "floor") === negative) whole += 1n;
  }
  return stored({ coefficient: negative ? -whole : whole, exponent: 0 });
}
