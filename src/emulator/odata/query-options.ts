// The query string of an OData request (docs/emulator.md, "Query options") as a typed object.
// Encoding rules are checked on the raw text, as real servers enforce them (2.8), then each value is decoded once.
// `$filter` (top level and inside `$expand(...)`) and `$apply` are kept as decoded text: filter-*.ts parses `$filter`.
// Every pass is linear in the text it reads; nested `$expand` levels re-read their own text, at most MAX_EXPAND_DEPTH
// times, so the whole is linear too.

import { decodeOnce, parseFailure, syntaxError } from "./odata-error.js";

/** A name path: `["name"]`, `["Nav", "Field"]`, or `["*"]`. Quoted names come unquoted. */
export type NamePath = readonly string[];

export interface OrderByItem {
  readonly path: NamePath;
  readonly direction: "asc" | "desc";
}

/** The options that `$expand(...)` may nest (2.6; `$filter`/`$orderby`/`$top` inside: supported, the choice). */
export interface ExpandOptions {
  readonly select?: readonly NamePath[];
  readonly expand?: readonly ExpandItem[];
  /** Raw `$filter` text, decoded once, for filter-*.ts. */
  readonly filter?: string;
  readonly orderby?: readonly OrderByItem[];
  readonly top?: number;
  readonly skip?: number;
  readonly count?: boolean;
}

export interface ExpandItem {
  readonly nav: string;
  readonly options: ExpandOptions;
}

export interface QueryOptions extends ExpandOptions {
  /** Raw `$apply` text, decoded once; apply-parse.ts parses it. */
  readonly apply?: string;
  readonly format?: "json" | "xml";
  readonly schemaversion?: string;
  /** `$skiptoken=s10000t0` (2.5): the records to skip and the `t` number, as the server writes them. */
  readonly skiptoken?: { readonly skip: number; readonly t: number };
  /** Query parameters ignored as real servers ignore them (unknown names, `%24top`), as written. */
  readonly ignored: readonly string[];
}

/** Deepest `$expand` nesting followed; deeper → -1002. */
export const MAX_EXPAND_DEPTH = 10;
/** Most items in one `$select`, `$orderby` or `$expand` list, and most query parameters. */
export const MAX_LIST_ITEMS = 1000;
/** Most segments in one `Nav/…/Field` path. */
const MAX_PATH_SEGMENTS = 10;

type OptionName =
  | "select"
  | "expand"
  | "filter"
  | "orderby"
  | "top"
  | "skip"
  | "count"
  | "apply"
  | "format"
  | "schemaversion"
  | "skiptoken"
  | "search";

const TOP_LEVEL: ReadonlySet<string> = new Set<OptionName>([
  "select",
  "expand",
  "filter",
  "orderby",
  "top",
  "skip",
  "count",
  "apply",
  "format",
  "schemaversion",
  "skiptoken",
  "search",
]);
const IN_EXPAND: ReadonlySet<string> = new Set<OptionName>(["select", "expand", "filter", "orderby", "top", "skip", "count", "search"]);

/**
 * OData 4.01 (section 10, 2024+, which every FMS the emulator stands for is): an option name works with or without
 * `$` and in any case. A name that is percent-encoded (`%24top`) is no option name at all, and is ignored.
 */
function optionName(raw: string, known: ReadonlySet<string>): OptionName | undefined {
  const bare = (raw.startsWith("$") ? raw.slice(1) : raw).toLowerCase();
  return known.has(bare) ? (bare as OptionName) : undefined;
}

/**
 * Parses the raw query string (without the `?`). Throws only ODataError: 400 -1002 with section 9's messages.
 */
export function parseQueryOptions(rawQuery: string): QueryOptions {
  const ignored: string[] = [];
  const values = new Map<OptionName, string>();
  const pieces = rawQuery === "" ? [] : rawQuery.split("&");
  if (pieces.length > MAX_LIST_ITEMS) throw syntaxError(pieces[MAX_LIST_ITEMS]!);
  for (const piece of pieces) {
    if (piece === "") continue;
    const eq = piece.indexOf("=");
    const rawName = eq < 0 ? piece : piece.slice(0, eq);
    const rawValue = eq < 0 ? "" : piece.slice(eq + 1);
    const name = optionName(rawName, TOP_LEVEL);
    if (name === undefined) {
      ignored.push(rawName);
      continue;
    }
    if (name === "search") throw syntaxError(rawName);
    // Duplicates: one value would be dropped (rule one), so -1002 at the second one (choice).
    if (values.has(name)) throw syntaxError(rawName);
    checkEncoding(name, rawValue);
    const value = decodeOnce(rawValue);
    if (value === "") throw syntaxError(`${rawName}=`);
    values.set(name, value);
  }
  const out: Mutable<QueryOptions> = { ...readCommon(values, 1), ignored };
  const apply = values.get("apply");
  // Its grammar, balance included, is apply-parse.ts's: `aggregate(` has its own answer there (2.9).
  if (apply !== undefined) out.apply = apply;
  const format = values.get("format");
  if (format !== undefined) out.format = parseFormat(format);
  const schemaversion = values.get("schemaversion");
  if (schemaversion !== undefined) out.schemaversion = schemaversion;
  const skiptoken = values.get("skiptoken");
  if (skiptoken !== undefined) {
    const m = /^s(\d{1,15})t(\d{1,15})$/.exec(skiptoken);
    if (!m) throw syntaxError(skiptoken);
    out.skiptoken = { skip: Number(m[1]), t: Number(m[2]) };
  }
  return out;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * 2.8: space is `%20` (`+` → -1002 at '+'), `:` of a timestamp is literal (`%3A` → -1002), `,` is literal in
 * `$select`. `$select` holds no timestamp: there `%3A` is the `:` of an `FMFID:` name, which @proofkit/fmodata
 * percent-encodes and FMS takes (its live entity-id tests), so it is decoded like any other escape.
 */
function checkEncoding(name: OptionName, raw: string): void {
  if (raw.includes("+")) throw syntaxError("+");
  const colon = name === "select" ? null : /%3A/i.exec(raw);
  if (colon) throw syntaxError(colon[0]);
  if (name === "select" || name === "expand") {
    const comma = /%2C/i.exec(raw);
    if (comma) throw syntaxError(comma[0]);
  }
}

function readCommon(values: ReadonlyMap<OptionName, string>, depth: number): Mutable<ExpandOptions> {
  const out: Mutable<ExpandOptions> = {};
  const select = values.get("select");
  if (select !== undefined) out.select = parseSelect(select);
  const expand = values.get("expand");
  if (expand !== undefined) out.expand = parseExpand(expand, depth);
  const filter = values.get("filter");
  if (filter !== undefined) out.filter = checkBalanced(filter);
  const orderby = values.get("orderby");
  if (orderby !== undefined) out.orderby = parseOrderBy(orderby);
  const top = values.get("top");
  if (top !== undefined) out.top = parseCount(top);
  const skip = values.get("skip");
  if (skip !== undefined) out.skip = parseCount(skip);
  const count = values.get("count");
  if (count !== undefined) {
    const lower = count.toLowerCase();
    if (lower !== "true" && lower !== "false") throw syntaxError(count);
    out.count = lower === "true";
  }
  return out;
}

function parseCount(text: string): number {
  if (!/^\d{1,15}$/.test(text)) throw syntaxError(text);
  return Number(text);
}

function parseFormat(text: string): "json" | "xml" {
  const lower = text.toLowerCase();
  if (lower === "json" || lower === "application/json") return "json";
  if (lower === "xml" || lower === "application/xml") return "xml";
  throw syntaxError(text);
}

/**
 * Splits at `sep` outside single-quoted strings (`''` inside), double-quoted names and parentheses; one pass.
 * Unbalanced quotes or parentheses → -1002 at the text from where they open.
 */
export function splitTop(text: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote: "'" | '"' | undefined;
  let start = 0;
  let openedAt = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      openedAt = i;
    } else if (c === "(") {
      if (depth === 0) openedAt = i;
      depth++;
    } else if (c === ")") {
      if (depth === 0) throw syntaxError(text.slice(i));
      depth--;
    } else if (c === sep && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
      // An item follows this separator: MAX_LIST_ITEMS before it is one too many.
      if (out.length >= MAX_LIST_ITEMS) throw syntaxError(text.slice(i));
    }
  }
  if (quote !== undefined || depth !== 0) throw syntaxError(text.slice(openedAt));
  out.push(text.slice(start));
  return out;
}

function checkBalanced(text: string): string {
  splitTop(text, "\u0000");
  return text;
}

/**
 * A name path at the start of `text`: `name`, `"quoted name"`, `Nav/Field`. Returns the path and where it ended.
 * A bare `ID` (any case) is FileMaker's parse failure (2.6).
 */
function readPath(text: string, allowStar: boolean): { path: string[]; end: number } {
  const path: string[] = [];
  let i = 0;
  for (;;) {
    if (path.length >= MAX_PATH_SEGMENTS) throw syntaxError(text);
    if (text[i] === '"') {
      const close = text.indexOf('"', i + 1);
      if (close < 0) throw syntaxError(text.slice(i));
      const name = text.slice(i + 1, close);
      if (name === "") throw syntaxError(text.slice(i));
      path.push(name);
      i = close + 1;
    } else if (allowStar && text[i] === "*") {
      path.push("*");
      i++;
    } else {
      const m = /^[^\s,/"()';=&*]+/.exec(text.slice(i));
      if (!m) throw syntaxError(text.slice(i) || text);
      const name = m[0];
      if (/^id$/i.test(name)) throw parseFailure(name);
      if (name.startsWith("$")) throw syntaxError(name);
      path.push(name);
      i += name.length;
    }
    if (text[i] !== "/") return { path, end: i };
    i++;
  }
}

function parseSelect(text: string): NamePath[] {
  return splitTop(text, ",").map((item) => {
    const { path, end } = readPath(item, true);
    if (end !== item.length) throw syntaxError(item.slice(end));
    if (path.includes("*") && path.length > 1) throw syntaxError(item);
    return path;
  });
}

function parseOrderBy(text: string): OrderByItem[] {
  return splitTop(text, ",").map((item) => {
    const { path, end } = readPath(item, false);
    const rest = item.slice(end);
    if (rest === "") return { path, direction: "asc" };
    // No functions (2.6): `tolower(name)` stops at '(' here.
    const m = /^ +(asc|desc)$/i.exec(rest);
    if (!m) throw syntaxError(rest);
    return { path, direction: m[1]!.toLowerCase() as "asc" | "desc" };
  });
}

function parseExpand(text: string, depth: number): ExpandItem[] {
  return splitTop(text, ",").map((item) => {
    let nav: string;
    let i: number;
    if (item.startsWith('"')) {
      const close = item.indexOf('"', 1);
      if (close <= 1) throw syntaxError(item);
      nav = item.slice(1, close);
      i = close + 1;
    } else {
      const m = /^[^\s,/"()';=&*$]+/.exec(item);
      if (!m) throw syntaxError(item || text);
      nav = m[0];
      i = nav.length;
    }
    if (depth > MAX_EXPAND_DEPTH) throw syntaxError(nav);
    if (i === item.length) return { nav, options: {} };
    if (item[i] !== "(" || !item.endsWith(")")) throw syntaxError(item.slice(i));
    return { nav, options: parseNested(item.slice(i + 1, -1), depth + 1) };
  });
}

/** `$select=name;$expand=user_customer($select=name)` inside `$expand(...)`, already decoded. */
function parseNested(text: string, depth: number): ExpandOptions {
  if (text === "") throw syntaxError("()");
  const values = new Map<OptionName, string>();
  for (const piece of splitTop(text, ";")) {
    const eq = piece.indexOf("=");
    if (eq <= 0) throw syntaxError(piece);
    const rawName = piece.slice(0, eq);
    const value = piece.slice(eq + 1);
    const name = optionName(rawName, IN_EXPAND);
    if (name === undefined) throw syntaxError(rawName);
    if (name === "search" || values.has(name)) throw syntaxError(rawName);
    if (value === "") throw syntaxError(piece);
    values.set(name, value);
  }
  return readCommon(values, depth);
}
