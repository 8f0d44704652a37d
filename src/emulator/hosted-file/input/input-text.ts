import { NumberToken } from "../../../runtime/core/json-numbers.js";

/**
 * A client's input, quoted in an error message: short, whatever the input. Never JSON.stringify of the
 * input itself, which recurses (a deeply nested value exhausts the stack) and copies it whole.
 */

const MAX_QUOTED_CHARS = 80;

/** `text`, cut to a length an error message can quote. */
export function shorten(text: string): string {
  return text.length > MAX_QUOTED_CHARS ? `${text.slice(0, MAX_QUOTED_CHARS)}…` : text;
}

/** `"text"` (shortened), a number or literal as written (a long number token shortened too), or what kind of value it is. */
export function describeInput(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(shorten(value));
  if (value instanceof NumberToken) return shorten(value.text);
  if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value);
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return "nothing";
}

/** A path into a JSON value: `fieldData["First Name"][0]`, `portalData.Invoices[0]`. */
export function describePath(path: readonly (string | number)[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(key)) out += out === "" ? key : `.${key}`;
    else out += `[${JSON.stringify(shorten(key))}]`;
  }
  return out;
}
