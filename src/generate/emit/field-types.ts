import type { FieldDescription } from "../../layout/index.js";
import type { ObjectTypeMember } from "../print.js";
import { docText, propertyKey, stringLiteral } from "../text.js";

/**
 * The TypeScript type of a field as read (docs/reading-and-writing.md, "Value types"): what `<Name>Fields` says of
 * each field. (The runtime derives the other shapes, such as what create and edit take, from the definition:
 * `ReadValue` in src/runtime/data-api/definition.ts and `InputValue` in src/runtime/core/field-types.ts, which must agree with `readType`.)
 *
 * | type | read |
 * |---|---|
 * | text | `string`; with a value list the union of its values and `""` |
 * | number | `number \| null`; with `exact`, `string \| null` (decimal text, every digit) |
 * | date, time, timestamp | `string \| null` (ISO date, `HH:MM:SS`, ISO timestamp) |
 * | container | `string \| null` (its URL) |
 *
 * A field with n > 1 repetitions reads as a tuple of n values; above `MAX_TUPLE` repetitions, as an array.
 */

export const MAX_TUPLE = 100;

/** What the read type of a field depends on: a layout's field, or a table's (OData, which has no value lists). */
export type TypedField = Pick<FieldDescription, "type" | "repetitions" | "valueList" | "exact">;

function valueListUnion(values: readonly string[]): string {
  const unique = [...new Set([...values, ""])];
  return unique.map(stringLiteral).join(" | ");
}

function readScalar(field: TypedField): string {
  switch (field.type) {
    case "text":
      return field.valueList ? valueListUnion(field.valueList) : "string";
    case "number":
      return field.exact ? "string | null" : "number | null";
    default:
      return "string | null";
  }
}

/** The type of a field in a read shape. */
export function readType(field: TypedField): string {
  const scalar = readScalar(field);
  const n = field.repetitions ?? 1;
  if (n === 1) return scalar;
  if (n <= MAX_TUPLE) return `[${Array.from({ length: n }, () => scalar).join(", ")}]`;
  return `(${scalar})[]`;
}

/** What the strings of a date, time or timestamp field hold, in both APIs. */
export const TEMPORAL_HINTS = {
  date: 'ISO date "YYYY-MM-DD".',
  time: 'Time "HH:MM:SS".',
  timestamp: 'ISO timestamp "YYYY-MM-DDTHH:MM:SS", local time.',
} as const;

const FORMAT_HINTS: Partial<Record<FieldDescription["type"], string>> = { ...TEMPORAL_HINTS, container: "Container: the URL of its file; write it with upload()." };

/** What the strings of an exact number field hold, in both APIs. */
export const EXACT_HINT = 'Exact number: decimal text with every digit ("-1200.05"), never a rounded JavaScript number.';

/** What a field's strings hold, if it reads as strings of a form: a date's, a container's, an exact number's. */
export function formatHint(field: Pick<FieldDescription, "type" | "exact">, hints: Partial<Record<FieldDescription["type"], string>> = FORMAT_HINTS): string {
  return field.type === "number" && field.exact ? EXACT_HINT : (hints[field.type] ?? "");
}

/** JSDoc of a field: its description, then what its strings hold. */
export function fieldDocs(field: FieldDescription): string | undefined {
  const parts = [field.description ? docText(field.description) : "", formatHint(field)].filter(Boolean);
  return parts.length ? parts.join("\n\n") : undefined;
}

/** Members of a read shape: every field, in description order, with its JSDoc (`fieldDocs` for a layout's field). */
export function readMembers<F extends TypedField & { name: string }>(fields: readonly F[], docs: (field: F) => string | undefined): ObjectTypeMember[] {
  return fields.map((field) => ({ key: propertyKey(field.name), type: readType(field), docs: docs(field) }));
}
