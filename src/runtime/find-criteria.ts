import type { FieldSpec } from "./definition.js";
import { wireFormat } from "./codecs.js";

/**
 * Every character that means something in a FileMaker find criterion. The backslash comes first so that
 * escaping never escapes its own escapes.
 */
const FIND_OPERATORS = /[\\=!<>≤≥./?@#*"~{}]/g;

/** Makes a user's text literal in a find criterion: no value can change a query's meaning. */
export function escapeFindValue(text: string): string {
  // Whitespace at either end would be trimmed from a criterion: escaped, it stays part of the value.
  return text.replace(FIND_OPERATORS, (c) => `\\${c}`).replace(/^\s+|\s+$/g, (run) => run.replace(/./gsu, (c) => `\\${c}`));
}

/** A plain value in a query means "equals exactly"; `null` finds empty fields. */
export function exactCriterion(spec: FieldSpec, field: string, value: unknown, layout: string): string {
  if (value === null || value === "") return "=";
  try {
    switch (spec.type) {
      case "text":
      case "container":
        if (typeof value === "string") return `==${escapeFindValue(value)}`;
        break;
      case "number":
        // A finite number's text has no find operator ("." alone is not a range).
        if (typeof value === "number" && Number.isFinite(value)) return `==${value}`;
        break;
      case "date":
      case "time":
      case "timestamp":
        if (typeof value === "string") return wireFormat[spec.type](value);
        break;
    }
  } catch {
    // fall through to the error below
  }
  throw new TypeError(`find on layout "${layout}", field "${field}": ${JSON.stringify(value)} is not a valid ${spec.type} value`);
}
