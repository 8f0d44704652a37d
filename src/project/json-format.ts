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
  const out: string[] = [];
  // What is left to write, the next last: a text as it is, or a value at an indentation. A stack of its own, not a
  // recursion: how deep a value goes is the data's to say, not the call stack's.
  const todo: (string | [value: unknown, indent: string])[] = [[value, ""]];
  while (todo.length) {
    const next = todo.pop()!;
    if (typeof next === "string") out.push(next);
    else out.push(print(next[0], next[1], todo));
  }
  return `${out.join("")}\n`;
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

/** A scalar, or an array of scalars, on one line. */
function inline(value: unknown): string {
  return Array.isArray(value) ? `[${value.map((v) => JSON.stringify(v)).join(", ")}]` : (JSON.stringify(value) ?? "null");
}

/**
 * The text that starts `value` at `indent`; what follows it (each member, indented, then the closing line) is pushed
 * on `todo`, last first.
 */
function print(value: unknown, indent: string, todo: (string | [unknown, string])[]): string {
  if (isScalar(value)) return inline(value);
  if (Array.isArray(value) && (value.length === 0 || value.every(isScalar))) return inline(value);
  const pairs: [string | undefined, Json][] = Array.isArray(value) ? value.map((v: Json) => [undefined, v]) : entries(value as object);
  if (pairs.length === 0) return "{}";
  if (!Array.isArray(value) && isLeaf(Object.fromEntries(pairs))) return `{ ${pairs.map(([k, v]) => `${JSON.stringify(k)}: ${inline(v)}`).join(", ")} }`;
  const inner = indent + "  ";
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  todo.push(`\n${indent}${close}`);
  for (let i = pairs.length - 1; i >= 0; i--) {
    const [key, member] = pairs[i]!;
    todo.push([member, inner], `${i ? ",\n" : ""}${inner}${key === undefined ? "" : `${JSON.stringify(key)}: `}`);
  }
  return `${open}\n`;
}
