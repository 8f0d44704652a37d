/**
 * The read shapes of a table: what `select`, `expand`, `orderBy` and `specialColumns` ask for, and the row type each
 * answer has. Type-level only.
 */
import type { AnyTable, FieldNameOf, FilterOf, OrderBy, RelationNameOf, RelationsOf, RowOf, TableTypesKey } from "./definition.js";

/**
 * A row as `select` and `expand` shape it: only the selected fields (every field without `select`), plus each
 * expanded relation's rows, shaped by their own options, an array for a `many` relation.
 */
export type ShapedRow<D extends AnyTable, Sel, Exp> = ([Sel] extends [readonly (infer F)[]] ? Pick<RowOf<D>, F & keyof RowOf<D>> : RowOf<D>) & ExpandedOf<D, Exp>;
type ExpandedOf<D extends AnyTable, Exp> = [Exp] extends [object]
  ? {
      -readonly [R in keyof Exp & RelationNameOf<D>]: RelationsOf<D>[R] extends infer T extends AnyTable
        ? ShapedRow<T, OptionOf<Exp[R], "select">, OptionOf<Exp[R], "expand">>[] extends infer Rows
          ? D[TableTypesKey]["spec"] extends { readonly relations: { readonly [_ in R]: { readonly many: false } } }
            ? ShapedRow<T, OptionOf<Exp[R], "select">, OptionOf<Exp[R], "expand">> | null
            : Rows
          : never
        : never;
    }
  : {};
type OptionOf<O, K extends string> = O extends { readonly [_ in K]?: infer V } ? (undefined extends V ? Exclude<V, undefined> : V) : undefined;


/** What every OData call takes. */
export interface CallOptions {
  /**
   * Aborts the call (a `NetworkError` with reason `aborted`); a request already sent may still take effect on the
   * server.
   */
  signal?: AbortSignal;
}

/** An orderBy item of table `D`. */
export type OrderByOf<D extends AnyTable> = OrderBy<FieldNameOf<D>>;

/** A row's special columns, on request (`specialColumns: true`): FileMaker's ROWID and ROWMODID. */
export interface SpecialColumns {
  /** FileMaker's ROWID: the row's internal id, what `{ rowId }` references take. */
  rowId: number;
  /** FileMaker's ROWMODID: how many times the row was modified. */
  modId: number;
}

/** What `get` takes: the shape of the row to read. */
export interface ReadOptions<S, E, Sc extends boolean | undefined> {
  /** Only these fields come back, and only they are on the row's type. */
  select?: S;
  /** Related rows to bring with each row: per relation, `true` or its own select, filter, orderBy, top and expand. */
  expand?: E;
  /** The row's ROWID and ROWMODID as `rowId` and `modId`. */
  specialColumns?: Sc;
  /** Aborts the call (a `NetworkError` with reason `aborted`). */
  signal?: AbortSignal;
}

/**
 * What `list` takes: which rows (`filter`, `orderBy`, `top`, `skip`), their shape (`select`, `expand`,
 * `specialColumns`) and `count`.
 */
export interface ListOptions<D extends AnyTable, S, E, Sc extends boolean | undefined> extends ReadOptions<S, E, Sc> {
  /** Only the rows this filter matches: built with the `f` helpers, typed by the table's fields. */
  filter?: FilterOf<D>;
  /** Sort keys, first the most significant: a field (ascending) or `[field, "asc" | "desc"]`. */
  // By the field names' type, not OrderByOf<D>: a message then names the table's `<Name>FieldName`.
  orderBy?: readonly OrderBy<FieldNameOf<D>>[];
  /** At most this many rows (OData's `$top`). */
  top?: number;
  /** Skip this many rows first (OData's `$skip`). */
  skip?: number;
  /** Also count every row the filter matches (`$count=true`), whatever `top` and `skip`. */
  count?: boolean;
}

/** What `all` takes: `list`'s options without paging (it pages by itself), and the page size. */
export interface AllOptions<D extends AnyTable, S, E, Sc extends boolean | undefined> extends Omit<ListOptions<D, S, E, Sc>, "top" | "skip" | "count"> {
  /** Rows fetched per request (default 1,000): memory stays bounded by one page. */
  pageSize?: number;
}


/** What `list` resolves to: OData's `value` array, and the count when asked. */
export interface ListResult<Row> {
  /** The rows of this page. */
  value: Row[];
  /** The number of rows the filter matches, when `count: true` asked for it. */
  count?: number;
}

/** A row as returned, shaped by `select` and `expand`, with the special columns when asked. */
export type RowResult<D extends AnyTable, S, E, Sc> = ShapedRow<D, S, E> & (Sc extends true ? SpecialColumns : {});

