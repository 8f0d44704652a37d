import { repetitionsOf, type FieldDescription } from "../../layout/index.js";
import type { ObjectTypeMember } from "../print.js";
import { docText, propertyKey, stringLiteral } from "../text.js";

/**
 * The TypeScript type of a field, DESIGN.md's table: what every emitter of a field shape uses.
 *
 * | type | read | write (Input) |
 * |---|---|---|
 * | text | `string`; with a value list the union of its values and `""` | the same, or `null` |
 * | number | `number \| null` | `number \| null` |
 * | date, time, timestamp | `string \| null` (ISO date, `HH:MM:SS`, ISO timestamp) | `string \| null` |
 * | container | `string \| null` (its URL) | not writable: upload() |
 *
 * `null` in an input clears the field. A field with n > 1 repetitions reads as a tuple of n values and is
 * written as a readonly tuple of up to n optional values (a missing or `undefined` one is not sent); above
 * `MAX_TUPLE` repetitions, as arrays.
 */

export const MAX_TUPLE = 100;

/** Read-only and container fields are never written by create or edit. */
export function isWritable(field: FieldDescription): boolean {
  return !field.readOnly && field.type !== "container";
}

function valueListUnion(values: readonly string[]): string {
  const unique = [...new Set([...values, ""])];
  return unique.map(stringLiteral).join(" | ");
}

function readScalar(field: FieldDescription): string {
  switch (field.type) {
    case "text":
      return field.valueList ? valueListUnion(field.valueList) : "string";
    case "number":
      return "number | null";
    default:
      return "string | null";
  }
}

function inputScalar(field: FieldDescription): string {
  return field.type === "text" ? `${readScalar(field)} | null` : readScalar(field);
}

/** The type of a field in a read shape (`Fields`, portal rows). */
export function readType(field: FieldDescription): string {
  const scalar = readScalar(field);
  const n = repetitionsOf(field);
  if (n === 1) return scalar;
  if (n <= MAX_TUPLE) return `[${Array.from({ length: n }, () => scalar).join(", ")}]`;
  return `(${scalar})[]`;
}

/** The type of a writable field in an input shape (the member itself is optional). */
export function inputType(field: FieldDescription): string {
  const scalar = inputScalar(field);
  const n = repetitionsOf(field);
  if (n === 1) return scalar;
  if (n <= MAX_TUPLE) return `readonly [${Array.from({ length: n }, () => `(${scalar} | undefined)?`).join(", ")}]`;
  return `readonly (${scalar} | undefined)[]`;
}

const FORMAT_HINTS: Partial<Record<FieldDescription["type"], string>> = {
  date: 'ISO date "YYYY-MM-DD".',
  time: 'Time "HH:MM:SS".',
  timestamp: 'ISO timestamp "YYYY-MM-DDTHH:MM:SS", local time.',
  container: "Container: the URL of its file; write it with upload().",
};

/** JSDoc of a field: its description, then what its strings hold. */
export function fieldDocs(field: FieldDescription): string | undefined {
  const parts = [field.description ? docText(field.description) : "", FORMAT_HINTS[field.type] ?? ""].filter(Boolean);
  return parts.length ? parts.join("\n\n") : undefined;
}

function member(field: FieldDescription, type: string, optional: boolean): ObjectTypeMember {
  const docs = fieldDocs(field);
  return { key: propertyKey(field.name), type, ...(optional ? { optional } : {}), ...(docs !== undefined ? { docs } : {}) };
}

/** Members of a read shape: every field, in description order. */
export function readMembers(fields: readonly FieldDescription[]): ObjectTypeMember[] {
  return fields.map((field) => member(field, readType(field), false));
}

/**
 * The members TypeScript's `Object` interface declares. An object literal that leaves out an optional member of
 * that name is checked with the member it inherits (`toString: () => string`), so an input type must admit it
 * for such a field to be optional at all. Shared with the definition emitter, which has its own trouble with them.
 */
export const OBJECT_MEMBERS: ReadonlySet<string> = new Set(["constructor", "toString", "toLocaleString", "valueOf", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable"]);

/** Members of an input shape: the writable fields, optional, in description order. */
export function inputMembers(fields: readonly FieldDescription[]): ObjectTypeMember[] {
  return fields.filter(isWritable).map((field) => {
    const type = inputType(field);
    return member(field, OBJECT_MEMBERS.has(field.name) ? `${type} | Object[${stringLiteral(field.name)}]` : type, true);
  });
}
