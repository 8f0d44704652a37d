/**
 * The one JSON layout fmgen writes (descriptions, fmgen.config.json, fmgen.pulled.json): 2-space indentation,
 * keys in the order the object was built, LF line endings, a trailing newline, and every object or array that
 * holds only scalars (or arrays of scalars) on one line. So one field is one line, and a change to a field is
 * a one-line diff:
 *
 *     "fields": [
 *       { "name": "id", "type": "number", "readOnly": true },
 *       { "name": "Status", "type": "text", "valueList": ["Active", "Inactive"] }
 *     ]
 */
export function formatJson(value: unknown): string {
  return `${print(value, "")}\n`;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isScalar(value: unknown): boolean {
  return value === null || typeof value !== "object";
}

function isLeaf(value: object): boolean {
  return Object.values(value).every((v) => isScalar(v) || (Array.isArray(v) && v.every(isScalar)));
}

function entries(value: object): [string, Json][] {
  // Absent optional properties are left out, as JSON.stringify does.
  return Object.entries(value).filter(([, v]) => v !== undefined) as [string, Json][];
}

function print(value: unknown, indent: string): string {
  if (isScalar(value)) return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    if (value.every(isScalar)) return `[${value.map((v) => JSON.stringify(v)).join(", ")}]`;
    const inner = indent + "  ";
    return `[\n${value.map((v) => inner + print(v, inner)).join(",\n")}\n${indent}]`;
  }
  const pairs = entries(value as object);
  if (pairs.length === 0) return "{}";
  if (isLeaf(Object.fromEntries(pairs))) return `{ ${pairs.map(([k, v]) => `${JSON.stringify(k)}: ${print(v, "")}`).join(", ")} }`;
  const inner = indent + "  ";
  return `{\n${pairs.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${print(v, inner)}`).join(",\n")}\n${indent}}`;
}
