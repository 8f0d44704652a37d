/**
 * A read's query options from the app's (select, expand with its own nested options, filter, orderBy, top, skip,
 * count, specialColumns): every field named by the caller's references (quoted, or FMFID), every literal rendered by
 * its field's kind (filter.ts), the text encoded as wire contract 2.8 demands (query-text.ts). Bad options are a
 * TypeError naming the table and the option.
 */
import { plainDecimal } from "../core/decimal-text.js";
import { getOwn } from "../core/own.js";
import type { ODataCaller } from "./caller.js";
import type { RelationSpec, TableSpec } from "./definition.js";
import { exactInput, renderFilter, type Filter } from "./filter.js";
import { queryString, queryValue } from "./query-text.js";

export interface ReadQueryOptions {
  select?: readonly string[] | undefined;
  expand?: object | undefined;
  filter?: Filter<any> | undefined;
  orderBy?: readonly (string | readonly [string, "asc" | "desc"])[] | undefined;
  top?: number | undefined;
  skip?: number | undefined;
  count?: boolean | undefined;
  specialColumns?: boolean | undefined;
  /** A reference appended to `$orderby` (ROWID, or a key field's reference): `all`'s order, made total. */
  orderTail?: string | undefined;
}

/** `$select=…&$expand=…&…` (encoded), and whether the special columns must be asked for by `Prefer`. */
export function readQuery(caller: ODataCaller, table: TableSpec, options: ReadQueryOptions, what: string): { query: string; preferSpecial: boolean } {
  const parts = optionTexts(caller, table, options, what, 0);
  const special = options.specialColumns === true;
  if (special && parts.select !== undefined) parts.select += ",ROWID,ROWMODID";
  if (options.orderTail !== undefined) parts.orderBy = parts.orderBy ? `${parts.orderBy},${options.orderTail}` : options.orderTail;
  return {
    query: [
      queryString([["$select", parts.select]]),
      // Already encoded: its structure ($, =, ;, parentheses) literal, as servers parse it, each value encoded (2.8).
      parts.expand === undefined ? "" : `$expand=${parts.expand}`,
      queryString([
        ["$filter", parts.filter],
        ["$orderby", parts.orderBy],
        ["$top", parts.top],
        ["$skip", parts.skip],
        ["$count", options.count === true ? "true" : undefined],
      ]),
    ]
      .filter(Boolean)
      .join("&"),
    preferSpecial: special && parts.select === undefined,
  };
}

interface OptionTexts {
  select?: string | undefined;
  /** Encoded (query-text.ts), unlike the others: its structure must stay literal. */
  expand?: string | undefined;
  filter?: string | undefined;
  orderBy?: string | undefined;
  top?: string | undefined;
  skip?: string | undefined;
}

function optionTexts(caller: ODataCaller, table: TableSpec, options: ReadQueryOptions, what: string, depth: number): OptionTexts {
  if (typeof options !== "object" || options === null) throw new TypeError(`${what}: the options must be an object`);
  const refs = caller.refs(table);
  const named = (name: unknown, option: string) => {
    if (typeof name !== "string") throw new TypeError(`${what}: ${option} takes field names of table "${table.table}", not ${typeof name}`);
    return refs.ref(name);
  };
  const out: OptionTexts = {};
  if (options.select !== undefined) {
    if (!Array.isArray(options.select) || options.select.length === 0) throw new TypeError(`${what}: select must be a non-empty array of field names of table "${table.table}"`);
    out.select = options.select.map((name) => named(name, "select")).join(",");
  }
  if (options.expand !== undefined) {
    if (typeof options.expand !== "object" || options.expand === null || Array.isArray(options.expand)) throw new TypeError(`${what}: expand must be an object of relation names of table "${table.table}"`);
    if (depth >= 8) throw new TypeError(`${what}: expand nests deeper than 8 levels`);
    const items: string[] = [];
    for (const [name, value] of Object.entries(options.expand)) {
      if (value === undefined || value === false) continue;
      const relation = table.relations ? (getOwn(table.relations, name) as RelationSpec | undefined) : undefined;
      if (!relation) throw new TypeError(`${what}: table "${table.table}" has no relation ${JSON.stringify(name)} to expand`);
      if (!/^[^"'(),;/?#&=$\s]+$/.test(name)) throw new TypeError(`${what}: relation ${JSON.stringify(name)} of table "${table.table}" cannot be named in $expand`);
      if (value === true) {
        items.push(queryValue(name));
        continue;
      }
      const inner = optionTexts(caller, relation.target(), value as ReadQueryOptions, `${what}, expand "${name}"`, depth + 1);
      const nested = (
        [
          ["$select", inner.select],
          ["$filter", inner.filter],
          ["$orderby", inner.orderBy],
          ["$top", inner.top],
          ["$skip", inner.skip],
          ["$expand", inner.expand],
        ] as const
      )
        .filter(([, text]) => text !== undefined)
        .map(([option, text]) => `${option}=${option === "$expand" ? text : queryValue(text!)}`);
      items.push(nested.length ? `${queryValue(name)}(${nested.join(";")})` : queryValue(name));
    }
    if (items.length) out.expand = items.join(",");
  }
  if (options.filter !== undefined) out.filter = renderFilter(options.filter, refs);
  if (options.orderBy !== undefined) {
    if (!Array.isArray(options.orderBy)) throw new TypeError(`${what}: orderBy must be an array of field names or [field, "asc" | "desc"]`);
    out.orderBy = options.orderBy
      .map((item: unknown) => {
        if (Array.isArray(item)) {
          const [name, direction] = item as [unknown, unknown];
          if (direction !== "asc" && direction !== "desc") throw new TypeError(`${what}: orderBy direction must be "asc" or "desc", not ${JSON.stringify(direction)}`);
          return `${named(name, "orderBy")} ${direction}`;
        }
        return named(item, "orderBy");
      })
      .join(",");
  }
  out.top = count(options.top, "top", what);
  out.skip = count(options.skip, "skip", what);
  return out;
}

function count(value: unknown, option: string, what: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) throw new TypeError(`${what}: ${option} must be a whole number, 0 or more, not ${JSON.stringify(value)}`);
  return String(value);
}

/** `(…)` of one row: `(ROWID=n)`, or its key as a literal of the key field's kind (a string quoted, `'` doubled). */
export function rowKey(table: TableSpec, row: unknown, what: string): string {
  if (typeof row === "object" && row !== null) {
    const rowId = (row as { rowId?: unknown }).rowId;
    if (!Number.isSafeInteger(rowId) || (rowId as number) < 1) throw new TypeError(`${what}: { rowId } of table "${table.table}" must be a whole number above 0, not ${JSON.stringify(rowId)}`);
    return `(ROWID=${rowId as number})`;
  }
  if (!table.key) throw new TypeError(`${what}: table "${table.table}" has no key: address its rows by { rowId }`);
  const key = getOwn(table.fields, table.key) as { type?: string; exact?: boolean } | undefined;
  const kind = key?.type;
  // Decimal text, bare and digit for digit (a double would name another row).
  if (kind === "number" && key!.exact === true) return `(${plainDecimal(exactInput(row, `${what}: key "${table.key}" of table "${table.table}"`, "give"))})`;
  if (kind === "number") {
    if (typeof row !== "number" || !Number.isFinite(row)) throw new TypeError(`${what}: key "${table.key}" of table "${table.table}" is a number field: give a number, not ${JSON.stringify(row) ?? typeof row}`);
    return `(${row})`;
  }
  if (typeof row !== "string") throw new TypeError(`${what}: key "${table.key}" of table "${table.table}" takes a string, not ${JSON.stringify(row) ?? typeof row}`);
  return `(${encodeURIComponent(`'${row.replaceAll("'", "''")}'`)})`;
}
