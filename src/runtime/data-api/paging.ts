/**
 * What every call that reads records shares, whoever makes it (a layout's client, a find query, the metadata
 * calls): the options of a call, a page of records and how it is sorted, and the checks and the query string of
 * offsets and limits.
 */

/**
 * `"ascend"`, `"descend"`, or one of `ValueList`, the names of the file's value lists (a generated definition's are
 * those its descriptions give, `valueListName`): records then sort in that list's order. Any other string, a typo
 * of `ascend` included, does not compile.
 */
export type SortOrder<ValueList extends string = never> = "ascend" | "descend" | ValueList;
/** One sort key of a list or find: a field, and its order (`Order`: the orders it takes; a layout's sort spec, its file's). */
export interface SortSpec<Name extends string = string, Order extends string = SortOrder> {
  /** A field of the layout (or of a portal, `TO::Field`). */
  fieldName: Name;
  /** Default `"ascend"`, as the Data API's. */
  sortOrder?: Order;
}

/** What the server says about a page of records: where they came from and how many there are. */
export interface DataInfo {
  /** The hosted file. */
  database: string;
  /** The layout the records were read through. */
  layout: string;
  /** The layout's base table occurrence. */
  table: string;
  /** Records in the table. */
  totalRecordCount: number;
  /** Records the find matched (every record, for a list): with `offset` and `limit`, what paging needs. */
  foundCount: number;
  /** Records in this page. */
  returnedCount: number;
}

/** One page of records, as list and find resolve to. */
export interface Page<R> {
  /** The records, decoded. */
  data: R[];
  /** Counts and names the server gives with them. */
  dataInfo: DataInfo;
}

/** What every call takes. */
export interface CallOptions {
  /**
   * Aborts the call (a `NetworkError` with reason `aborted`); a request already sent may still take effect on the
   * server.
   */
  signal?: AbortSignal;
}

/** The query string of a list call: `?_offset=..&_limit=..&_sort=..` and `keys` (string values), or "" with none. */
export function listQuery(options: { offset?: number; limit?: number; sort?: readonly SortSpec<string, string>[] }, keys?: Record<string, unknown>): string {
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
