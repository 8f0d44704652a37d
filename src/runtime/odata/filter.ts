/**
 * `f`, the typed `$filter` builder. A filter is a tree of what the app asked for (a field, an operator, a value), not
 * text: the client renders it against the table's spec when it sends the request, so that each literal takes its
 * field's form (a date unquoted, a timestamp with its zone, a string quoted with its quotes doubled) and no value can
 * change the expression's meaning. `f.raw` is the only way to write OData syntax by hand.
 *
 * Values are checked where the filter is made (a finite number, a string a URL can carry, null only for eq/ne) and
 * where it is rendered, against the field's kind: a number as plain decimal digits (an exact number field's decimal text
 * digit for digit, never through a double), a date, time or timestamp only when the server's grammar reads it as one (a
 * real calendar day of 0001 to 4000, a time of day), text quoted with `''`.
 *
 * Types: a filter's type says what it needs of the table (`Filter<{ Age: "number" }>`: a field Age of kind number).
 * The need is in a contravariant position, so a filter fits a table (`FilterOf<typeof T>`, `Filter<KindsOf<T>>`)
 * exactly when the table has every field it names, each of a kind the filter accepts: an unknown field, a text function
 * on a number field or a number compared with a date field fails to compile where the filter is passed.
 */
import { parseDecimal, plainDecimal, type Decimal } from "../core/decimal-text.js";
import type { FieldKind } from "../core/field-types.js";

export type Comparison = "eq" | "ne" | "lt" | "le" | "gt" | "ge";
export type TextFunction = "contains" | "startswith" | "endswith";
/**
 * A field's kind as filters see it: its FieldKind, or `"exact number"` for a number field with `exact: true`, whose
 * comparisons take decimal text (a string), not a JavaScript number.
 */
export type FilterKind = FieldKind | "exact number";
/** A value a comparison takes: the TypeScript values the runtime reads (ISO dates, times and timestamps as strings). */
export type FilterValue = string | number | null;

export type FilterNode =
  | { readonly kind: "compare"; readonly op: Comparison; readonly field: string; readonly value: FilterValue }
  | { readonly kind: "text"; readonly fn: TextFunction; readonly field: string; readonly value: string }
  | { readonly kind: "and" | "or"; readonly operands: readonly FilterNode[] }
  | { readonly kind: "not"; readonly operand: FilterNode }
  | { readonly kind: "raw"; readonly text: string };

declare const needs: unique symbol;

/** A `$filter` expression; `N` maps each field it names to the kinds it accepts there. */
export class Filter<N = {}> {
  /** Phantom, contravariant in `N`: never present at run time. */
  declare readonly [needs]: (table: N) => void;
  /** @internal The expression's tree (rendered by the client, against the table's spec). */
  readonly node: FilterNode;
  /** @internal Filters are made by `f`'s helpers. */
  constructor(node: FilterNode) {
    this.node = node;
  }
}

/**
 * The kinds of field a comparison with a value of type `V` fits: a number fits number fields (not exact ones); a string
 * fits text, and date, time, timestamp or exact number fields when it may be one (any `string`, or a literal shaped
 * like an ISO date, time or timestamp, or like a number: `f.eq("Birthday", "yesterday")` does not compile); `null`
 * (emptiness) fits every kind. Not distributive: a value that may be a number or a string fits no field (`never`),
 * since one of the two is refused when sent.
 */
export type KindsAccepting<V> = [Exclude<V, null>] extends [never]
  ? FilterKind
  : [Exclude<V, null>] extends [number]
    ? "number"
    : [Exclude<V, null>] extends [string]
      ? StringKinds<Exclude<V, null>>
      : never;
type StringKinds<S extends string> = string extends S
  ? "text" | "date" | "time" | "timestamp" | "exact number"
  : [S] extends [`${number}-${number}-${number}T${number}:${number}:${number}`]
    ? "text" | "timestamp"
    : [S] extends [`${number}-${number}-${number}`]
      ? "text" | "date"
      : [S] extends [`${number}:${number}:${number}`]
        ? "text" | "time"
        : [S] extends [`${number}`]
          ? "text" | "exact number"
          : "text";
type Need<K extends string, Kinds> = { [P in K]: Kinds };
type NeedsOf<F extends readonly Filter<any>[]> = UnionToIntersection<{ [I in keyof F]: F[I] extends Filter<infer N> ? N : never }[number]>;
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? (unknown extends I ? {} : I) : never;

/** `eq`, `ne`: a value, or `null` (the field is empty, or is not). */
const equality =
  (op: "eq" | "ne", call: string) =>
  <const K extends string, V extends FilterValue>(field: K, value: V): Filter<Need<K, KindsAccepting<V>>> =>
    new Filter({ kind: "compare", op, field: fieldName(field, call), value: literal(value, field, call, true) });
/** `lt`, `le`, `gt`, `ge`: a value; `null` is refused (an order with an empty field holds for no row). */
const order =
  (op: "lt" | "le" | "gt" | "ge", call: string) =>
  <const K extends string, V extends string | number>(field: K, value: V): Filter<Need<K, KindsAccepting<V>>> =>
    new Filter({ kind: "compare", op, field: fieldName(field, call), value: literal(value, field, call, false) });
const text =
  (fn: TextFunction, call: string) =>
  <const K extends string>(field: K, value: string): Filter<Need<K, "text">> => {
    const name = fieldName(field, call);
    if (typeof value !== "string") throw new TypeError(`f.${call}("${name}", …) takes a string, not ${describe(value)}`);
    return new Filter({ kind: "text", fn, field: name, value: wellFormed(value, name, call) });
  };
const combine =
  (kind: "and" | "or") =>
  <const F extends readonly Filter<any>[]>(...filters: F): Filter<NeedsOf<F>> => {
    if (filters.length === 0) throw new TypeError(`f.${kind}() needs at least one filter`);
    const operands = filters.map((filter, i) => nodeOf(filter, `f.${kind}(…) argument ${i + 1}`));
    return new Filter(operands.length === 1 ? operands[0]! : { kind, operands });
  };

/**
 * The `$filter` helpers of OData's list, count, `all`, `updateWhere`, `deleteWhere` and webhooks: each takes a field
 * of the table and a value of its type, and the value is always sent as a literal (quoted, escaped), never as syntax.
 * The table's field types check the names and values at compile time, and the client checks them again at run time.
 *
 * @example
 * <!-- snippet: dir examples/odata -->
 * ```ts
 * import { createODataClient, f } from "@fmgen/runtime/odata";
 * import { Contacts } from "./generated/index.js";
 *
 * const od = createODataClient({ server: "https://fms.example.com", database: "Office", auth: { username: "web", password: process.env.FM_PASSWORD! } });
 * const typed = "Lov"; // what a user typed: a value, never syntax
 * const { value } = await od.table(Contacts).list({
 *   filter: f.and(f.eq("Status", "Active"), f.or(f.startsWith("Last Name", typed), f.gte("Birthday", "1990-01-01"))),
 * });
 * ```
 */
export const f = {
  /** Equal: `f.eq("Status", "Active")`. `null` matches an empty field. */
  eq: equality("eq", "eq"),
  /** Not equal; `f.ne("Email", null)`: the field is not empty. */
  ne: equality("ne", "ne"),
  /** Less than: numbers, dates, times and timestamps, as their values order. */
  lt: order("lt", "lt"),
  /** Less than or equal (OData's `le`). */
  lte: order("le", "lte"),
  /** Greater than (OData's `gt`). */
  gt: order("gt", "gt"),
  /** Greater than or equal (OData's `ge`). */
  gte: order("ge", "gte"),
  /** `low <= field <= high`: both bounds of the field's type. */
  between: <const K extends string, V extends string | number>(field: K, low: V, high: V): Filter<Need<K, KindsAccepting<V>>> => {
    const name = fieldName(field, "between");
    return new Filter({
      kind: "and",
      operands: [
        { kind: "compare", op: "ge", field: name, value: literal(low, name, "between", false) },
        { kind: "compare", op: "le", field: name, value: literal(high, name, "between", false) },
      ],
    });
  },
  /** The field is empty (`field eq null`). */
  isNull: <const K extends string>(field: K): Filter<Need<K, FilterKind>> => new Filter({ kind: "compare", op: "eq", field: fieldName(field, "isNull"), value: null }),
  /** The text field contains `value` (case as the server compares it). Text fields only. */
  contains: text("contains", "contains"),
  /** The text field starts with `value`. Text fields only. */
  startsWith: text("startswith", "startsWith"),
  /** The text field ends with `value`. Text fields only. */
  endsWith: text("endswith", "endsWith"),
  /** Every filter given matches (at least one). */
  and: combine("and"),
  /** Any of the filters given matches (at least one). */
  or: combine("or"),
  /** The filter does not match. */
  not: <N>(filter: Filter<N>): Filter<N> => new Filter({ kind: "not", operand: nodeOf(filter, "f.not(…)") }),
  /**
   * OData syntax written by hand, sent as it is: the only way to reach what the helpers do not (functions, arithmetic,
   * navigation). Never build it from user input; pass user values to the helpers.
   */
  raw: (expression: string): Filter<{}> => {
    if (typeof expression !== "string" || expression.trim() === "") throw new TypeError(`f.raw(…) takes a non-empty string, not ${describe(expression)}`);
    return new Filter({ kind: "raw", text: balanced(wellFormed(expression, undefined, "raw")) });
  },
};

function fieldName(field: unknown, call: string): string {
  if (typeof field !== "string" || field === "") throw new TypeError(`f.${call}(…) takes a field name (a non-empty string), not ${describe(field)}`);
  return wellFormed(field, undefined, call);
}

/**
 * A value as a comparison keeps it: a string, a finite number, or (for eq and ne) null; anything else (an object from a
 * request body, NaN, a bigint) is refused where the filter is made, naming the call and the field.
 */
function literal(value: unknown, field: string, call: string, nullable: boolean): FilterValue {
  if (typeof value === "string") return wellFormed(value, field, call);
  if ((value === null && nullable) || (typeof value === "number" && Number.isFinite(value))) return value;
  const takes = nullable ? "a string, a finite number or null" : "a string or a finite number (null: use f.isNull or f.eq)";
  throw new TypeError(`f.${call}("${field}", …) takes ${takes}, not ${describe(value)}`);
}

/**
 * A string a URL can carry: UTF-8 has no form for a lone surrogate (half of a UTF-16 pair), so no server could read
 * it back; refused here, naming where it is, rather than by the URL encoder's bare "URI malformed".
 */
function wellFormed(value: string, field: string | undefined, call: string): string {
  const at = loneSurrogateAt(value);
  if (at < 0) return value;
  const code = value.charCodeAt(at).toString(16).toUpperCase();
  const where = field === undefined ? `f.${call}(…)` : `f.${call}("${field}", …)`;
  throw new TypeError(`${where}: the string holds a lone surrogate (U+${code} at index ${at}), which no URL can carry`);
}

/**
 * A raw expression must stand alone: its quotes closed and its parentheses balanced (outside string literals and
 * quoted names), so that wrapped in parentheses beside other filters (`f.and(f.eq("Owner", me), f.raw(text))`) it
 * cannot close them and escape the `and`.
 */
function balanced(text: string): string {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'" || c === '"') {
      let close = text.indexOf(c, i + 1);
      // In a string literal, '' is a quote; a quoted name has no escape.
      while (c === "'" && close >= 0 && text[close + 1] === "'") close = text.indexOf(c, close + 2);
      if (close < 0) throw new TypeError(`f.raw(…): the ${c === "'" ? "string literal" : "quoted name"} at index ${i} is not closed: a raw expression must stand alone`);
      i = close;
    } else if (c === "(") depth++;
    else if (c === ")" && --depth < 0) throw new TypeError(`f.raw(…): the ")" at index ${i} closes nothing: a raw expression must stand alone (it is wrapped in parentheses beside other filters)`);
  }
  if (depth > 0) throw new TypeError(`f.raw(…): ${depth} "(" not closed: a raw expression must stand alone`);
  return text;
}

/** The index of the first UTF-16 unit that is half of a surrogate pair without its other half, or -1. */
export function loneSurrogateAt(value: string): number {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
    }
    return i;
  }
  return -1;
}

function nodeOf(filter: unknown, what: string): FilterNode {
  if (filter instanceof Filter) return filter.node;
  throw new TypeError(`${what} must be a filter made by f, not ${describe(filter)}`);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return "a string";
  if (typeof value === "bigint") return "a bigint";
  return typeof value === "object" ? "an object" : typeof value;
}

// ---- Rendering, against a table's spec.

const TEXT_CALLS: Readonly<Record<TextFunction, string>> = { contains: "contains", startswith: "startsWith", endswith: "endsWith" };

/** How a table names its fields in a URL: each field's kind and reference (its quoted name, or its FMFID). */
export interface FilterFields {
  /**
   * The field's kind, whether it is an exact number field, and how the URL names it; throws a TypeError naming the
   * table for a field it does not have.
   */
  field(name: string): { kind: FieldKind; ref: string; exact?: boolean };
}

/** The `$filter` text of a filter (not yet percent-encoded: the client encodes the query as 2.8 of the wire contract says). */
export function renderFilter(filter: Filter<any>, fields: FilterFields): string {
  return render(nodeOf(filter, "filter"), fields, false);
}

function render(node: FilterNode, fields: FilterFields, nested: boolean): string {
  switch (node.kind) {
    case "compare": {
      const field = fields.field(node.field);
      return `${field.ref} ${node.op} ${field.exact === true && field.kind === "number" ? exactText(node.value, node.field) : valueText(node.value, field.kind, node.field)}`;
    }
    case "text": {
      const field = fields.field(node.field);
      if (field.kind !== "text") throw new TypeError(`f.${TEXT_CALLS[node.fn]}("${node.field}", …) needs a text field; "${node.field}" is a ${field.kind} field`);
      return `${node.fn}(${field.ref},${quoted(node.value)})`;
    }
    case "and":
    case "or": {
      const text = node.operands.map((operand) => render(operand, fields, true)).join(` ${node.kind} `);
      return nested ? `(${text})` : text;
    }
    case "not":
      return `not (${render(node.operand, fields, false)})`;
    case "raw":
      return nested ? `(${node.text})` : node.text;
  }
}

/** A literal in its field's form: numbers bare, dates and times unquoted, timestamps with the server's zone, text quoted. */
function valueText(value: FilterValue, kind: FieldKind, field: string): string {
  if (value === null) return "null";
  const wrong = (form: string) => new TypeError(`"${field}" is a ${kind} field: compare it with ${form}, not ${shown(value)}`);
  switch (kind) {
    case "number":
      if (typeof value !== "number") throw wrong("a number");
      return decimalText(value);
    case "text":
      if (typeof value !== "string") throw wrong("a string");
      return quoted(value);
    case "date":
      if (typeof value !== "string" || !isIsoDate(value)) throw wrong('an ISO date "YYYY-MM-DD" (years 0001 to 4000)');
      return value;
    case "time":
      if (typeof value !== "string" || !isIsoTime(value)) throw wrong('a time "HH:MM:SS" (00:00:00 to 23:59:59, fractions allowed)');
      return value;
    case "timestamp": {
      // FileMaker's timestamps have no zone; OData's literals must have one: the server's own, UTC (wire contract 2.7).
      const t = typeof value === "string" ? value.indexOf("T") : -1;
      if (typeof value !== "string" || t !== 10 || !isIsoDate(value.slice(0, t)) || !isIsoTime(value.slice(t + 1)))
        throw wrong('an ISO timestamp "YYYY-MM-DDTHH:MM:SS" (local, no zone, as rows read it)');
      return `${value}Z`;
    }
    case "container":
      throw wrong("null (f.isNull): a container cannot be compared with a value");
  }
}

/**
 * An exact number field's literal: decimal text (`exactInput`), written bare and digit for digit in its canonical form
 * (no exponent: FileMaker's $filter is not known to read one), never through a double.
 */
function exactText(value: FilterValue, field: string): string {
  return value === null ? "null" : plainDecimal(exactInput(value, `"${field}"`, "compare it with"));
}

/**
 * What an exact number field takes from the app (a write, a comparison, a key): decimal text in a JSON number's
 * grammar, strictly (`"007"`, `".5"`, `"5."`, `"+5"` and `""` refused), read; anything else a TypeError naming `where`.
 */
export function exactInput(value: unknown, where: string, verb: string): Decimal {
  const start = `${where} is an exact number field`;
  if (typeof value !== "string") throw new TypeError(`${start}: ${verb} decimal text (a string such as "12345678901234567890"), not ${typeof value === "number" ? `the number ${value}` : describe(value)}`);
  const decimal = parseDecimal(value, "json");
  if (typeof decimal === "string") throw new TypeError(`${start}, and ${shown(value)} is not one of its values: ${decimal}`);
  return decimal;
}

/** A value as an error shows it: JSON, at most 60 characters of a string (a filter value may be a user's long input). */
function shown(value: string | number): string {
  return typeof value === "string" && value.length > 60 ? `${JSON.stringify(value.slice(0, 60))}… (${value.length} characters)` : JSON.stringify(value);
}

/**
 * A number as plain decimal digits: `1e+21` is `1000000000000000000000`, `1e-7` is `0.0000001`, `-0` is `0`. Every
 * grammar of numbers reads these digits as the same double (they are the shortest digits that round-trip, only the
 * point moved), where an exponent (and its `+`, a space in a careless URL decoder) is not known to be read by
 * FileMaker's $filter at all.
 */
export function decimalText(n: number): string {
  if (!Number.isFinite(n)) throw new TypeError(`a filter number must be finite, not ${n}`);
  const text = String(n === 0 ? 0 : n);
  const e = text.indexOf("e");
  if (e < 0) return text;
  const negative = text.startsWith("-");
  const mantissa = text.slice(negative ? 1 : 0, e);
  const point = mantissa.indexOf(".");
  const digits = point < 0 ? mantissa : mantissa.slice(0, point) + mantissa.slice(point + 1);
  const at = (point < 0 ? mantissa.length : point) + Number(text.slice(e + 1));
  const plain =
    at <= 0 ? `0.${"0".repeat(-at)}${digits}` : at >= digits.length ? digits + "0".repeat(at - digits.length) : `${digits.slice(0, at)}.${digits.slice(at)}`;
  return negative ? `-${plain}` : plain;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const DIGITS = /^[0-9]+$/;

/** `YYYY-MM-DD`, a day of FileMaker's calendar (0001-01-01 to 4000-12-31): what the server's grammar reads as a date. */
function isIsoDate(value: string): boolean {
  if (value.length !== 10 || value[4] !== "-" || value[7] !== "-") return false;
  const [y, m, d] = [value.slice(0, 4), value.slice(5, 7), value.slice(8, 10)];
  if (!DIGITS.test(y) || !DIGITS.test(m) || !DIGITS.test(d)) return false;
  const year = Number(y);
  const month = Number(m);
  const day = Number(d);
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const last = month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
  return year >= 1 && year <= 4000 && month >= 1 && month <= 12 && day >= 1 && day <= last;
}

/** `HH:MM:SS` or `HH:MM:SS.fff`, a time of day. */
function isIsoTime(value: string): boolean {
  if (value.length < 8 || value[2] !== ":" || value[5] !== ":") return false;
  const [h, m, sec, fraction] = [value.slice(0, 2), value.slice(3, 5), value.slice(6, 8), value.slice(8)];
  if (!DIGITS.test(h) || !DIGITS.test(m) || !DIGITS.test(sec)) return false;
  if (fraction !== "" && !(fraction[0] === "." && fraction.length <= 10 && DIGITS.test(fraction.slice(1)))) return false;
  return Number(h) <= 23 && Number(m) <= 59 && Number(sec) <= 59;
}

/** `'text'`, its quotes doubled: the one escape OData string literals have. */
function quoted(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}
