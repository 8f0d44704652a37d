// What the `$filter` checker needs to know of a table (one OData entity set): its fields with their Edm types and
// FMFIDs, and its navigation properties. The emulator builds this from its own model; this folder never imports it.

import type { ExactNumber } from "../hosted-file/exact-number.js";
import type { EdmType } from "./filter-ast.js";

export interface FilterField {
  /** The field's name as `$metadata` spells it; a `$filter` must match it exactly (case-sensitive). */
  readonly name: string;
  readonly type: EdmType;
  /** `FMFID:n`, when the table's `$metadata` gives the field one. */
  readonly id?: string;
}

export interface FilterTable {
  readonly name: string;
  readonly fields: readonly FilterField[];
  /** Navigation properties by name (the related table occurrence's name), for `Nav/Field`. */
  readonly navigation?: ReadonlyMap<string, FilterTable>;
}

/**
 * One record as the evaluator reads it. `value(name)` gives a field's stored value: a string or number for text and
 * number fields; for dates `YYYY-MM-DD`, times `hh:mm:ss`, timestamps `YYYY-MM-DDThh:mm:ss` (local = UTC; a `Z` or
 * offset is honoured); for containers any non-empty value; `null`, `undefined` or `""` when empty. `ROWID` and
 * `ROWMODID` are asked for by those names when the table has no field so named.
 */
export interface FilterRow {
  /** A number field's value may be an ExactNumber (a decimal a double does not hold, exact-number.ts). */
  value(field: string): string | number | ExactNumber | null | undefined;
  /** The related records through a navigation property; none when absent. */
  related?(navigation: string): Iterable<FilterRow>;
}

/** Special columns (2.10): filterable as numbers in every table, unless a field has the name. */
export const SPECIAL_COLUMNS: readonly string[] = ["ROWID", "ROWMODID"];
