// Number fields over OData, digit for digit (docs/emulator.md, "Numbers over OData"): FileMaker numbers are decimals
// of up to 400 significant digits, kept as the hosted file's StoredNumber (a double when it holds the value, else an
// ExactNumber: exact-number.ts). Here: a body's value read into one, one written back as an answer's JSON, and the
// exact key lookup. Every stored number value is read as possibly an ExactNumber.

import { NumberToken } from "../../runtime/core/json-numbers.js";
import { ExactNumber, numberText, sameNumber, storedNumberOf, wireNumber, type StoredNumber } from "../hosted-file/exact-number.js";
import { lookupCost } from "../hosted-file/field-index.js";
import type { TableField } from "../hosted-file/model.js";
import type { StoredRecord, TableData } from "../hosted-file/store.js";
import type { StoredScalar } from "../hosted-file/stored-value.js";

/** Whether a value is a stored number (a double or an ExactNumber). */
export function isStoredNumber(value: unknown): value is StoredNumber {
  return typeof value === "number" || value instanceof ExactNumber;
}

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
 * A stored number as the hosted file's stored form. The hosted file keeps an ExactNumber in a number field; until
 * its StoredScalar type names ExactNumber (the hosted file's side of issue 35), the type says a scalar.
 */
export function asStored(value: StoredNumber): StoredScalar {
  return value as unknown as StoredScalar;
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

/** A stored number as text (a `$value`, a key literal): canonical, every digit, no exponent. */
export function storedNumberText(value: StoredNumber): string {
  return numberText(value);
}

/**
 * The records whose first value of `field` is the number `value`, exactly. A double goes through the hosted file's
 * value index (store.ts); an ExactNumber is compared here, over the table's records, since the index compares
 * stored values with `===` until the hosted file's side of issue 35 makes it exact (the scan is counted in
 * lookupCost, as the hosted file counts its own).
 */
export function recordsWithNumber(data: TableData, field: TableField, value: StoredNumber): StoredRecord[] {
  if (typeof value === "number") return data.recordsWithValue(field, value);
  const out: StoredRecord[] = [];
  lookupCost.ids += data.records.size;
  for (const record of data.records.values()) {
    const v = data.valuesOf(record, field)[0];
    if (isStoredNumber(v) && sameNumber(v, value)) out.push(record);
  }
  return out;
}
