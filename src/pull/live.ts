import type { FieldType } from "../layout/index.js";

/**
 * What the server says about a layout, read from its metadata endpoint or inferred from sampled records, before
 * it is merged with the description file on disk. An attribute left undefined is one the source cannot tell
 * (sampling tells only names, types and repetitions); merge then keeps the file's value.
 */

export type LiveSource = "metadata" | "sample";

/** How sure a sampled type is; metadata types are always certain. */
export type Confidence = "high" | "medium" | "low";

/**
 * A sampled value of a number field that a JavaScript number may not hold: `text` is what was read, `digits` its
 * significant digits. `certain` when the digits reached pull as text: an old server's numeric string, or a JSON
 * number a double cannot hold, which the runtime reads as its token's text (core/json-numbers.ts). A JSON number a
 * double holds digit for digit reaches pull as that number: it is flagged, uncertain, when its shortest form shows more
 * than 15 significant digits or it is an integer beyond 2^53 (`beyondSafe`), as the field may hold longer values than
 * the sample shows.
 */
export interface LongNumber {
  text: string;
  digits: number;
  certain: boolean;
  beyondSafe?: boolean;
}

export interface LiveField {
  name: string;
  type: FieldType;
  repetitions: number;
  /** Sampling only: how sure the type is, and why when it is not certain. */
  confidence?: Confidence;
  reason?: string;
  /** Sampling only: the non-empty wire values seen (a type the file gives is kept when they all decode with it). */
  samples?: readonly unknown[];
  /** Sampling only: a sampled value a JavaScript number may not hold, so pull proposes `"exact": true`. */
  longNumber?: LongNumber;
  /** Metadata only: a calculation or summary field (read-only); a normal field may still be a protected one. */
  calculated?: boolean;
  required?: boolean;
  global?: boolean;
  /** Metadata only: whether the server enters a value (its kind is not in the metadata). */
  autoEnter?: boolean;
  /** Metadata only: the value list's values, `null` for none; undefined when they cannot be read (a dynamic list). */
  valueList?: readonly string[] | null | undefined;
  /** Metadata only: the value list's name, exactly as the server states it; `null` for none. */
  valueListName?: string | null;
}

export interface LivePortal {
  name: string;
  fields: LiveField[];
  /** Sampling only: no portal row was seen, so its fields are unknown. */
  fieldsUnknown?: boolean;
}

export interface LiveLayout {
  database: string;
  layout: string;
  source: LiveSource;
  /** The layout's table occurrence when the server says. */
  table?: string;
  fields: LiveField[];
  portals: LivePortal[];
  /** Sampling only: how many records were read. */
  sampled?: number;
  /** Things the source could not tell or found odd, for the report. */
  notes: string[];
}
