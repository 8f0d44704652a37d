/**
 * What every call that reads records shares, whoever makes it (a layout's client, a find query, the metadata
 * calls): the options of a call, a page of records and how it is sorted, and the checks and the query string of
 * offsets and limits.
 */

/**
 * `"ascend"`, `"descend"`, or the name of a value list of the layout's file: records sort in that list's order. A
 * layout description does not know its file's value list names, so any other string is taken for one (the server
 * answers an unknown name with an error).
 */
export type SortOrder = "ascend" | "descend" | (string & {});
export interface SortSpec<Name extends string = string> {
  fieldName: Name;
  /** Default `"ascend"`, as the Data API's. */
  sortOrder?: SortOrder;
}

export interface DataInfo {
  database: string;
  layout: string;
  table: string;
  totalRecordCount: number;
  foundCount: number;
  returnedCount: number;
}

export interface Page<R> {
  data: R[];
  dataInfo: DataInfo;
}

export interface CallOptions {
  signal?: AbortSignal;
}

/** The query string of a list call: `?_offset=..&_limit=..&_sort=..` and `keys` (string values), or "" with none. */
export function listQuery(options: { offset?: number; limit?: number; sort?: readonly SortSpec[] }, keys?: Record<string, unknown>): string {
  const params = new URLSearchParams(keys as Record<string, string> | undefined);
  for (const key of ["offset", "limit"] as const) {
    const n = options[key];
    if (n !== undefined) params.set(`_${key}`, String(positive(n, key)));
  }
  if (options.sort?.length) params.set("_sort", JSON.stringify(options.sort));
  return params.size ? `?${params}` : "";
}

/** A whole number >= 1 (offsets, limits, page sizes), or a RangeError naming it. */
export function positive(n: number, name: string): number {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`${name} must be a whole number >= 1, got ${n}`);
  return n;
}
