// The `$filter` pipeline in one call: parse (-1002 on bad syntax), check against the table (8309 on unknown names
// and wrong types), compile to a predicate. Every failure is an ODataError the HTTP layer answers as
// 400 {"error":{"code","message"}}.

import { checkFilter } from "./filter-check.js";
import { compileFilter, type CompileFilterOptions, type FilterPredicate } from "./filter-eval.js";
import { parseFilter } from "./filter-parser.js";
import type { FilterTable } from "./filter-schema.js";

export { ODataError } from "./odata-error.js";
export type { FilterField, FilterRow, FilterTable } from "./filter-schema.js";
export type { FilterPredicate } from "./filter-eval.js";

export function compileODataFilter(
  text: string,
  table: FilterTable,
  options: CompileFilterOptions = {},
): FilterPredicate {
  return compileFilter(checkFilter(parseFilter(text), table), options);
}
