import type { AnyDefinition, FmRecord, FieldsOf, PortalsOf } from "./definition.js";
import { encodeFindRequest } from "./find-criteria.js";
import type { CriteriaOf, QueryOf } from "./find-request.js";
import { setOwn } from "./own.js";
import { positive, type CallOptions, type Page, type SortOrder, type SortSpec } from "./paging.js";

type RecordOf<D extends AnyDefinition> = FmRecord<FieldsOf<D>, PortalsOf<D>>;
type NameOf<D extends AnyDefinition> = keyof FieldsOf<D> & string;
type Request = Readonly<Record<string, unknown>>;

interface QueryState {
  readonly requests: readonly Request[];
  readonly sort: readonly SortSpec[];
  readonly offset?: number;
  readonly limit?: number;
}

/** What `run()` sends: the find's options, or a list's when the query has no request. */
export interface QueryOptions<D extends AnyDefinition> {
  readonly query: readonly QueryOf<D>[];
  readonly sort: readonly SortSpec<NameOf<D>>[];
  readonly offset?: number;
  readonly limit?: number;
}

/**
 * What a query runs on: the calls of a layout's client it needs (LayoutClient is one). Declared here, so that
 * the client can make queries without the query depending on the client.
 */
export interface QueryTarget<D extends AnyDefinition> {
  readonly definition: D;
  find(options: QueryOptions<D> & CallOptions): Promise<Page<RecordOf<D>>>;
  list(options: Omit<QueryOptions<D>, "query"> & CallOptions): Promise<Page<RecordOf<D>>>;
  findAll(options: Omit<QueryOptions<D>, "offset" | "limit"> & StreamQueryOptions & { offset?: number; limit?: number }): AsyncIterable<RecordOf<D>>;
  listAll(options: Omit<QueryOptions<D>, "query"> & StreamQueryOptions): AsyncIterable<RecordOf<D>>;
}

export interface StreamQueryOptions extends CallOptions {
  /** Records fetched per request (default 500, or the query's limit when smaller). */
  pageSize?: number;
}

/**
 * An immutable find query of one layout, built from FileMaker's own model: a list of requests, the fields of
 * one request ANDed, the requests ORed, omit requests applied in order.
 * - `where(criteria)` adds criteria to the current find request (starting the first one);
 * - `or(criteria)` starts another find request;
 * - `omit(criteria)` adds an omit request: it removes its matches from what the requests before it found.
 *
 * Each call returns a new frozen query and checks its criteria at once (unknown fields, helpers that do not
 * apply, values that are not of the field's type throw a TypeError there, before any request). A query with
 * no request lists every record.
 */
export class FindQuery<D extends AnyDefinition> implements AsyncIterable<RecordOf<D>> {
  readonly #client: QueryTarget<D>;
  readonly #state: QueryState;

  constructor(client: QueryTarget<D>, state: QueryState = { requests: [], sort: [] }) {
    this.#client = client;
    this.#state = Object.freeze({ ...state, requests: Object.freeze([...state.requests]), sort: Object.freeze([...state.sort]) });
    Object.freeze(this);
  }

  /** ANDs criteria into the current find request. After `omit()`, start a find request with `or()` instead. */
  where(criteria: CriteriaOf<D>): FindQuery<D> {
    const requests = this.#state.requests;
    const current = requests[requests.length - 1];
    if (current === undefined) return this.#add(criteria, false);
    if (current.omit) {
      throw new TypeError("where() after omit(): FileMaker applies requests in order, so start the next find request with or(), or move where() before omit()");
    }
    const fields = this.#check(criteria);
    for (const name of Object.keys(fields)) {
      if (Object.hasOwn(current, name)) {
        throw new TypeError(`where(): field "${name}" already has a criterion in this request; combine them in one (q.between) or start another request with or()`);
      }
    }
    return this.#with({ requests: [...requests.slice(0, -1), Object.freeze({ ...current, ...fields })] });
  }

  /** Starts another find request: records matching it are found too. */
  or(criteria: CriteriaOf<D>): FindQuery<D> {
    return this.#add(criteria, false);
  }

  /** Adds an omit request: records matching it are removed from those found so far. */
  omit(criteria: CriteriaOf<D>): FindQuery<D> {
    return this.#add(criteria, true);
  }

  /** Sorts by a field of the layout (after any sort given before). */
  sort(field: NameOf<D>, order: SortOrder = "ascend"): FindQuery<D> {
    if (order !== "ascend" && order !== "descend") throw new TypeError(`sort order must be "ascend" or "descend", got ${JSON.stringify(order)}`);
    if (!Object.hasOwn(this.#client.definition.fields, field)) throw new TypeError(`sort on layout "${this.#client.definition.layout}": no field "${field}"`);
    return this.#with({ sort: [...this.#state.sort, Object.freeze({ fieldName: field, sortOrder: order })] });
  }

  /** One-based index of the first record. */
  offset(offset: number): FindQuery<D> {
    return this.#with({ offset: positive(offset, "offset") });
  }

  /** At most this many records (a page: `run()`; the whole iteration: `all()`). */
  limit(limit: number): FindQuery<D> {
    return this.#with({ limit: positive(limit, "limit") });
  }

  /** One page: the query's offset (default 1) and limit (default 100). No match is an empty page. */
  run(options: CallOptions = {}): Promise<Page<RecordOf<D>>> {
    const call = { ...this.toFindOptions(), ...options };
    return call.query.length ? this.#client.find(call) : this.#client.list(call);
  }

  /** Every matching record from the offset on (up to the limit), page by page; at most three pages in memory. */
  all(options: StreamQueryOptions = {}): AsyncIterable<RecordOf<D>> {
    const stream = { ...this.toFindOptions(), ...options };
    return stream.query.length ? this.#client.findAll(stream) : this.#client.listAll(stream);
  }

  [Symbol.asyncIterator](): AsyncIterator<RecordOf<D>> {
    return this.all()[Symbol.asyncIterator]();
  }

  /** The requests, sort, offset and limit this query sends, as `find()` takes them. */
  toFindOptions(): QueryOptions<D> {
    const { requests, sort, offset, limit } = this.#state;
    return Object.freeze({
      query: requests as readonly QueryOf<D>[],
      sort: sort as readonly SortSpec<NameOf<D>>[],
      ...(offset !== undefined ? { offset } : {}),
      ...(limit !== undefined ? { limit } : {}),
    });
  }

  #add(criteria: CriteriaOf<D>, omit: boolean): FindQuery<D> {
    const fields = this.#check(criteria);
    // A request without criteria would match nothing in particular: it is no request at all.
    if (Object.keys(fields).length === 0) return this;
    const request: Request = Object.freeze(omit ? { ...fields, omit: true } : fields);
    return this.#with({ requests: [...this.#state.requests, request] });
  }

  /** The criteria without undefined members, checked against the layout (throws as `find()` would). */
  #check(criteria: CriteriaOf<D>): Record<string, unknown> {
    const fields: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(criteria as Record<string, unknown>)) {
      if (value === undefined) continue;
      if (name === "omit") throw new TypeError(`"omit" is not a criterion here: use omit() for an omit request`);
      setOwn(fields, name, value);
    }
    encodeFindRequest(this.#client.definition, fields);
    return fields;
  }

  #with(change: Partial<QueryState>): FindQuery<D> {
    return new FindQuery(this.#client, { ...this.#state, ...change });
  }
}

