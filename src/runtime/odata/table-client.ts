/**
 * `od.table(T)`: the calls of one table, each built as an ODataRequest and handed to the client's caller. Reads are
 * idempotent (retried after faults); writes never are. Rows come back decoded by the table's definition (expanded
 * ones by their relation's target).
 */
import { getOwn } from "../core/own.js";
import { pageStream } from "../core/page-stream.js";
import { ProtocolError } from "../core/protocol-errors.js";
import type { TableClient } from "./api.js";
import type { ODataAnswer, ODataCaller } from "./caller.js";
import type { AnyTable, RelationSpec, TableSpec } from "./definition.js";
import { renderFilter, type Filter } from "./filter.js";
import { queryString } from "./query-text.js";
import { readQuery, rowKey, type ReadQueryOptions } from "./read-query.js";
import { hasExactField } from "./values.js";
import { NumberToken } from "../core/json-numbers.js";

/** What a TableClient needs beyond the caller: the calls another module implements (containers). */
export interface TableClientParts {
  upload: (table: TableSpec, ...args: Parameters<TableClient<AnyTable>["upload"]>) => ReturnType<TableClient<AnyTable>["upload"]>;
  download: (table: TableSpec, ...args: Parameters<TableClient<AnyTable>["download"]>) => ReturnType<TableClient<AnyTable>["download"]>;
}

const PAGE_LIMIT = 10_000;

export function tableClient<D extends AnyTable>(caller: ODataCaller, definition: D, parts: TableClientParts): TableClient<D> {
  const table: TableSpec = definition;
  const base = caller.tablePath(table);
  const name = `table "${table.table}"`;
  // Whether the table's rows hold exact number fields: its reads then ask for Edm.Decimal values as strings.
  const exact = hasExactField(table);

  /** An answer's rows, not yet decoded, and its count when it has one. */
  const pageOf = (answer: ODataAnswer, what: string) => {
    const body = answer.json() as { value?: unknown; "@count"?: unknown; "@odata.count"?: unknown } | null;
    if (typeof body !== "object" || body === null || !Array.isArray(body.value)) throw shapeError(answer, what, "has no value array");
    const count = body["@count"] ?? body["@odata.count"];
    if (count instanceof NumberToken) throw shapeError(answer, what, `has a count of ${count.text.slice(0, 40)} rows, more than a JavaScript number holds`);
    return { rows: body.value as unknown[], count: typeof count === "number" ? count : undefined };
  };
  const shapeError = (answer: ODataAnswer, what: string, detail: string) =>
    new ProtocolError(answer.status, "", { method: "GET", path: base }, `${detail} (${what})`);

  const prefer = (special: boolean, extra?: string) => [special ? "fmodata.include-specialcolumns" : undefined, extra].filter(Boolean).join(", ");
  const headers = (special: boolean, extra?: string): Record<string, string> => {
    const value = prefer(special, extra);
    return value ? { Prefer: value } : {};
  };

  /**
   * One page of a collection (paths `T` and `T(k)/Nav`): the rows of one answer. Its nextLink is not followed: the
   * server cuts a page at 10,000 rows whatever `top` asks, and every row is what `all` reads, page by page.
   */
  const listAt = async (path: string, spec: TableSpec, options: ReadQueryOptions & { signal?: AbortSignal }, what: string) => {
    const { query, preferSpecial } = readQuery(caller, spec, options, what);
    const answer = await caller.call({ method: "GET", path, query, headers: headers(preferSpecial), exactAnswer: hasExactField(spec), idempotent: true, signal: options.signal });
    const { rows, count } = pageOf(answer, what);
    const value = rows.map((row) => caller.decodeRow(spec, row, what));
    return count === undefined ? { value } : { value, count };
  };

  const filterText = (filter: unknown, what: string) => {
    if (filter === undefined) throw new TypeError(`${what}: needs a filter (made by f); to change every row, say so with f.raw("true")`);
    return renderFilter(filter as Filter<any>, caller.refs(table));
  };

  /** The `fmodata.affected_rows` header of a write's answer. */
  const affected = (answer: ODataAnswer, what: string) => {
    const text = answer.headers["fmodata.affected_rows"];
    const n = text === undefined ? NaN : Number(text);
    if (!Number.isSafeInteger(n) || n < 0) throw new ProtocolError(answer.status, answer.text().slice(0, 120), { method: what, path: base }, "has no fmodata.affected_rows header with the number of rows changed");
    return n;
  };

  const client: TableClient<AnyTable> = {
    definition,
    list: (options = {}) => listAt(base, table, options as ReadQueryOptions, `${name}: list`) as never,
    get: async (row, options = {}) => {
      const what = `${name}: get`;
      const path = base + rowKey(table, row, what);
      const { query, preferSpecial } = readQuery(caller, table, options as ReadQueryOptions, what);
      const answer = await caller.call({ method: "GET", path, query, headers: headers(preferSpecial), exactAnswer: exact, idempotent: true, signal: options.signal });
      return caller.decodeRow(table, answer.json(), what) as never;
    },
    all: (options = {}) => ({
      async *[Symbol.asyncIterator]() {
        const what = `${name}: all`;
        const { pageSize = 1_000, ...rest } = options as ReadQueryOptions & { pageSize?: number; signal?: AbortSignal };
        if (!Number.isSafeInteger(pageSize) || pageSize < 1 || pageSize > PAGE_LIMIT) throw new TypeError(`${what}: pageSize must be a whole number from 1 to ${PAGE_LIMIT}, not ${JSON.stringify(pageSize)}`);
        // A stable order, so that pages neither skip nor repeat rows: the caller's, then the key (or ROWID) to break ties.
        const orderTail = table.key ? caller.refs(table).ref(table.key) : "ROWID";
        // Each page counts the matches (`$count=true`), so that a page past them is seen (page-stream.ts).
        const read = async (skip: number, top: number) => {
          const { query, preferSpecial } = readQuery(caller, table, { ...rest, orderTail, top, skip, count: true }, what);
          const answer = await caller.call({ method: "GET", path: base, query, headers: headers(preferSpecial), exactAnswer: exact, idempotent: true, signal: rest.signal });
          const { rows, count } = pageOf(answer, what);
          // The answer's text (already decoded to parse it) tells one page from another at no cost.
          return { rows, identity: answer.text(), found: count };
        };
        yield* pageStream({ what, skip: 0, pageSize, limit: Infinity, ahead: 0 }, read, (row) => caller.decodeRow(table, row, what) as never);
      },
    }),
    count: async (options = {}) => {
      const what = `${name}: count`;
      const query = queryString([["$filter", options.filter === undefined ? undefined : renderFilter(options.filter, caller.refs(table))]]);
      const answer = await caller.call({ method: "GET", path: `${base}/$count`, query, idempotent: true, signal: options.signal });
      const text = answer.text().trim();
      if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) throw new ProtocolError(answer.status, text.slice(0, 120), { method: "GET", path: `${base}/$count` }, `is not a count (${what})`);
      return Number(text);
    },
    create: async (row, options = {}) => {
      const what = `${name}: create`;
      const { body, exact: exactBody } = caller.encodeRow(table, row, what);
      const answer = await caller.call({ method: "POST", path: base, body, headers: { Prefer: "return=representation" }, exactAnswer: exact, exactBody, idempotent: false, signal: options.signal });
      if (answer.bytes.length === 0) {
        // A server that left the row out (return=representation ignored): read it where Location says it is.
        const at = /\((ROWID=\d+|[^()]*)\)$/.exec(answer.headers.location ?? "");
        if (!at) throw new ProtocolError(answer.status, "", { method: "POST", path: base }, `holds neither the new row nor its Location (${what})`);
        const again = await caller.call({ method: "GET", path: `${base}(${at[1]})`, exactAnswer: exact, idempotent: true, signal: options.signal });
        return caller.decodeRow(table, again.json(), what) as never;
      }
      return caller.decodeRow(table, answer.json(), what) as never;
    },
    update: async (row, changes, options = {}) => {
      const what = `${name}: update`;
      const path = base + rowKey(table, row, what);
      const { body, exact: exactBody } = caller.encodeRow(table, changes, what);
      await caller.call({ method: "PATCH", path, body, exactBody, idempotent: false, signal: options.signal });
    },
    delete: async (row, options = {}) => {
      const what = `${name}: delete`;
      await caller.call({ method: "DELETE", path: base + rowKey(table, row, what), idempotent: false, signal: options.signal });
    },
    updateWhere: async (filter, changes, options = {}) => {
      const what = `${name}: updateWhere`;
      const query = queryString([["$filter", filterText(filter, what)]]);
      const { body, exact: exactBody } = caller.encodeRow(table, changes, what);
      const answer = await caller.call({ method: "PATCH", path: base, query, body, exactBody, idempotent: false, signal: options.signal });
      return affected(answer, "PATCH");
    },
    deleteWhere: async (filter, options = {}) => {
      const what = `${name}: deleteWhere`;
      const query = queryString([["$filter", filterText(filter, what)]]);
      const answer = await caller.call({ method: "DELETE", path: base, query, idempotent: false, signal: options.signal });
      return affected(answer, "DELETE");
    },
    upload: (...args) => parts.upload(table, ...args),
    download: (...args) => parts.download(table, ...args),
    related: async (row, relationName, options = {}) => {
      const what = `${name}: related "${String(relationName)}"`;
      const relation = table.relations ? (getOwn(table.relations, relationName) as RelationSpec | undefined) : undefined;
      if (!relation || typeof relationName !== "string") throw new TypeError(`${what}: table "${table.table}" has no relation ${JSON.stringify(relationName)}`);
      const path = `${base}${rowKey(table, row, what)}/${encodeURIComponent(relationName)}`;
      return listAt(path, relation.target(), options as ReadQueryOptions, what) as never;
    },
  };
  return client as unknown as TableClient<D>;
}
