import type { AnyDefinition, SortNameOf, SortOrderOf } from "./definition.js";
import { encodeFindRequest } from "./find-criteria.js";
import type { CriteriaOf, QueryOf } from "./find-request.js";
import { setOwn } from "../core/own.js";
import { positive, type CallOptions, type Page, type SortSpec } from "./paging.js";
import { portalKeys, type OnlyPortals, type PortalChoice, type ViewRecord } from "./portal-selection.js";

type Request = Readonly<Record<string, unknown>>;

interface QueryState {
  readonly requests: readonly Request[];
  readonly sort: readonly SortSpec<string, string>[];
  readonly offset?: number;
  readonly limit?: number;
  readonly portals?: object;
}

/** What `run()` sends: the find's options, or a list's when the query has no request. */
export interface QueryOptions<D extends AnyDefinition, P = undefined> {
  /** The find requests: those of `where()` and `or()`, then those of `omit()`. */
  readonly query: readonly QueryOf<D>[];
  /** The sort keys of `sortBy()`, in order. */
  readonly sort: readonly SortSpec<SortNameOf<D>, SortOrderOf<D>>[];
  /** One-based index of the first record, from `offset()`. */
  readonly offset?: number;
  /** Records per page, from `limit()`. */
  readonly limit?: number;
  /**
   * The chosen portals; absent (`never`) for a query without `portals()`. Not `P` itself: under
   * `exactOptionalPropertyTypes`, `portals?: undefined` would say the member may be there holding undefined, which
   * `find()`'s `portals` refuses, so `{ ...query.toFindOptions(), script }` would not compile.
   */
  readonly portals?: Exclude<P, undefined>;
}

/**
 * What a query runs on: the calls of a layout's client it needs (LayoutClient is one). Declared here, so that
 * the client can make queries without the query depending on the client.
 */
export interface QueryTarget<D extends AnyDefinition> {
  readonly definition: D;
  find(options: QueryOptions<D, object> & CallOptions): Promise<Page<unknown>>;
  list(options: Omit<QueryOptions<D, object>, "query"> & CallOptions): Promise<Page<unknown>>;
  findAll(options: Omit<QueryOptions<D, object>, "offset" | "limit"> & StreamQueryOptions & { offset?: number; limit?: number }): AsyncIterable<unknown>;
  listAll(options: Omit<QueryOptions<D, object>, "query"> & StreamQueryOptions): AsyncIterable<unknown>;
}

/** What a query's `all()` takes: the page size it reads by. */
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
export class FindQuery<D extends AnyDefinition, P = undefined> implements AsyncIterable<ViewRecord<D, P>> {
  readonly #client: QueryTarget<D>;
  readonly #state: QueryState;

  /** @internal Queries are made by a layout client's `query()`. */
  constructor(client: QueryTarget<D>, state: QueryState = { requests: [], sort: [] }) {
    this.#client = client;
    // The state itself is private (never frozen: nothing outside reaches it); the arrays it hands out are frozen.
    this.#state = { ...state, requests: Object.freeze([...state.requests]), sort: Object.freeze([...state.sort]) };
    Object.freeze(this);
  }

  /** ANDs criteria into the current find request. After `omit()`, start a find request with `or()` instead. */
  where(criteria: CriteriaOf<D>): FindQuery<D, P> {
    const requests = this.#state.requests;
    const current = requests.at(-1);
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
  or(criteria: CriteriaOf<D>): FindQuery<D, P> {
    return this.#add(criteria, false);
  }

  /** Adds an omit request: records matching it are removed from those found so far. */
  omit(criteria: CriteriaOf<D>): FindQuery<D, P> {
    return this.#add(criteria, true);
  }

  /** Sorts by a field of the layout (after any sort given before), `ascend`, `descend` or in a value list's order. */
  sort(field: SortNameOf<D>, order: SortOrderOf<D> = "ascend"): FindQuery<D, P> {
    if (typeof order !== "string" || order === "") throw new TypeError(`sort order must be "ascend", "descend" or a value list's name, got ${JSON.stringify(order)}`);
    if (!Object.hasOwn(this.#client.definition.fields, field)) throw new TypeError(`sort on layout "${this.#client.definition.layout}": no field "${field}"`);
    return this.#with({ sort: [...this.#state.sort, Object.freeze({ fieldName: field, sortOrder: order })] });
  }

  /** One-based index of the first record. */
  offset(offset: number): FindQuery<D, P> {
    return this.#with({ offset: positive(offset, "offset") });
  }

  /** At most this many records (a page: `run()`; the whole iteration: `all()`). */
  limit(limit: number): FindQuery<D, P> {
    return this.#with({ limit: positive(limit, "limit") });
  }

  /**
   * The portals to return and their rows, as `find()`'s `portals` takes them (checked at once): the records then
   * carry only those portals, with `portalInfo`.
   */
  portals<const Q extends PortalChoice<D>>(portals: Q & OnlyPortals<D, Q>): FindQuery<D, Q> {
    portalKeys("portals()", this.#client.definition, portals);
    return this.#with({ portals }) as FindQuery<D, never>;
  }

  /** One page: the query's offset (default 1) and limit (default 100). No match is an empty page. */
  run(options: CallOptions = {}): Promise<Page<ViewRecord<D, P>>> {
    const call = { ...this.toFindOptions(), ...options } as QueryOptions<D, object>;
    return (call.query.length ? this.#client.find(call) : this.#client.list(call)) as Promise<Page<ViewRecord<D, P>>>;
  }

  /** Every matching record from the offset on (up to the limit), page by page; at most three pages in memory. */
  all(options: StreamQueryOptions = {}): AsyncIterable<ViewRecord<D, P>> {
    const stream = { ...this.toFindOptions(), ...options } as QueryOptions<D, object>;
    return (stream.query.length ? this.#client.findAll(stream) : this.#client.listAll(stream)) as AsyncIterable<ViewRecord<D, P>>;
  }

  /** `for await (const record of query)`: every matching record, page by page, as `all()`. */
  [Symbol.asyncIterator](): AsyncIterator<ViewRecord<D, P>> {
    return this.all()[Symbol.asyncIterator]();
  }

  /** The requests, sort, offset, limit and portals this query sends, as `find()` takes them. */
  toFindOptions(): QueryOptions<D, P> {
    const { requests, sort, offset, limit, portals } = this.#state;
    return Object.freeze({
      query: requests as readonly QueryOf<D>[],
      sort: sort as readonly SortSpec<SortNameOf<D>, SortOrderOf<D>>[],
      ...(offset !== undefined ? { offset } : {}),
      ...(limit !== undefined ? { limit } : {}),
      ...(portals !== undefined ? { portals: portals as Exclude<P, undefined> } : {}),
    });
  }

  #add(criteria: CriteriaOf<D>, omit: boolean): FindQuery<D, P> {
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

  #with(change: Partial<QueryState>): FindQuery<D, P> {
    return new FindQuery(this.#client, { ...this.#state, ...change });
  }
}

