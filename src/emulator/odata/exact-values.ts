// Number fields over OData, digit for digit (docs/emulator.md, "Numbers over OData"): FileMaker numbers are decimals
// of up to 400 significant digits, kept as the hosted file's StoredNumber (a double when it holds the value, else an
// ExactNumber: exact-number.ts). Here: a body's value read into one, and one written back as an answer's JSON.
// Every stored number value is read as possibly an ExactNumber.

import { NumberToken } from "../../runtime/core/json-numbers.js";
import { numberText, storedNumberOf, wireNumber, type StoredNumber } from "../hosted-file/exact-number.js";
import { isStoredNumber } from "../hosted-file/stored-value.js";

/**
 * A body's value for a number field (1.4): a JSON number as itself (-0 is 0), a token a double does not hold read
 * exactly (`json` grammar), and with `IEEE754Compatible=true` a string (trimmed; the `lenient` grammar). Undefined
 * when the value has none of these forms; `{ problem }` when it has one but is no number FileMaker keeps (401
 * significant digits, `1e999999`), in words.
 */
export function bodyNumber(raw: unknown, ieee754: boolean): StoredNumber | { problem: string } | undefined {
  if (typeof raw === "number") return Number.isFinite(raw) ? raw + 0 : undefined;
  let read: StoredNumber | string;
  if (raw instanceof NumberToken) read = storedNumberOf(raw.text, "json");
  else if (typeof raw === "string" && ieee754) read = storedNumberOf(raw.trim(), "lenient");
  else return undefined;
  return typeof read === "string" ? { problem: read } : read;
}

/**
 * A number field's value (or values) as an answer's JSON: a double as itself and an exact one as its bare token
 * (stringifyJson), or with `IEEE754Compatible=true` (2.1) every number as its canonical text. Anything else (null, a
 * calculation's "?") as it is; a NumberToken (what jsonValue writes for an ExactNumber) as its text under IEEE754.
 */
export function numberJson(value: unknown, ieee754: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => numberJson(v, ieee754));
  // A token jsonValue wrote (entity-sets.ts): its text is already canonical.
  if (value instanceof NumberToken) return ieee754 ? value.text : value;
  if (!isStoredNumber(value)) return value;
  return ieee754 ? numberText(value) : wireNumber(value);
}
