/**
 * `f`, the typed `$filter` builder. A filter is a tree of what the app asked for (a field, an operator, a value), not
 * text: the client renders it against the table's spec when it sends the request, so that each literal takes its
 * field's form (a date unquoted, a timestamp with its zone, a string quoted with its quotes doubled) and no value can
 * change the expression's meaning. `f.raw` is the only way to write OData syntax by hand.
 *
 * Types: a filter's type says what it needs of the table (`Filter<{ Age: "number" }>`: a field Age of kind number).
 * The need is in a contravariant position, so a filter fits a table (`FilterOf<typeof T>`, `Filter<KindsOf<T>>`)
 * exactly when the table has every field it names, each of a kind the filter accepts: an unknown field, a text function
 * on a number field or a number compared with a date field fails to compile where the filter is passed.
 */
import type { FieldKind } from "../definition.js";
import type { AnyTable, KindsOf } from "./definition.js";

export type Comparison = "eq" | "ne" | "lt" | "le" | "gt" | "ge";
export type TextFunction = "contains" | "startswith" | "endswith";
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

/** A filter of table `D`: what `list`, `count`, `all`, `updateWhere` and `deleteWhere` take (the generated `<Name>Filter`). */
export type FilterOf<D extends AnyTable> = Filter<KindsOf<D>>;

/** The kinds of field a value can be compared with: numbers with number fields, strings with text, dates and times. */
export type KindsAccepting<V> = V extends number ? "number" : V extends string ? "text" | "date" | "time" | "timestamp" : V extends null ? FieldKind : never;
type Need<K extends string, Kinds> = { [P in K]: Kinds };
type NeedsOf<F extends readonly Filter<any>[]> = UnionToIntersection<{ [I in keyof F]: F[I] extends Filter<infer N> ? N : never }[number]>;
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? (unknown extends I ? {} : I) : never;

const compare =
  (op: Comparison) =>
  <const K extends string, V extends FilterValue>(field: K, value: V): Filter<Need<K, KindsAccepting<V>>> =>
    new Filter({ kind: "compare", op, field: fieldName(field, op), value: literal(value, field, op) });
const text =
  (fn: TextFunction) =>
  <const K extends string>(field: K, value: string): Filter<Need<K, "text">> => {
    if (typeof value !== "string") throw new TypeError(`f.${fn}("${fieldName(field, fn)}", …) takes a string, not ${describe(value)}`);
    return new Filter({ kind: "text", fn, field: fieldName(field, fn), value });
  };
const combine =
  (kind: "and" | "or") =>
  <const F extends readonly Filter<any>[]>(...filters: F): Filter<NeedsOf<F>> => {
    if (filters.length === 0) throw new TypeError(`f.${kind}() needs at least one filter`);
    const operands = filters.map((filter, i) => nodeOf(filter, `f.${kind}(…) argument ${i + 1}`));
    return new Filter(operands.length === 1 ? operands[0]! : { kind, operands });
  };

export const f = {
  /** Equal: `f.eq("Status", "Active")`. `null` matches an empty field. */
  eq: compare("eq"),
  /** Not equal. */
  ne: compare("ne"),
  lt: compare("lt"),
  /** Less than or equal (OData's `le`). */
  lte: compare("le"),
  gt: compare("gt"),
  /** Greater than or equal (OData's `ge`). */
  gte: compare("ge"),
  /** `low <= field <= high`. */
  between: <const K extends string, V extends string | number>(field: K, low: V, high: V): Filter<Need<K, KindsAccepting<V>>> =>
    new Filter({
      kind: "and",
      operands: [
        { kind: "compare", op: "ge", field: fieldName(field, "between"), value: literal(low, field, "between") },
        { kind: "compare", op: "le", field, value: literal(high, field, "between") },
      ],
    }),
  /** The field is empty (`field eq null`). */
  isNull: <const K extends string>(field: K): Filter<Need<K, FieldKind>> => new Filter({ kind: "compare", op: "eq", field: fieldName(field, "isNull"), value: null }),
  /** The text field contains `value` (FileMaker compares case-insensitively). Text fields only. */
  contains: text("contains"),
  startsWith: text("startswith"),
  endsWith: text("endswith"),
  and: combine("and"),
  or: combine("or"),
  not: <N>(filter: Filter<N>): Filter<N> => new Filter({ kind: "not", operand: nodeOf(filter, "f.not(…)") }),
  /**
   * OData syntax written by hand, sent as it is: the only way to reach what the helpers do not (functions, arithmetic,
   * navigation). Never build it from user input; pass user values to the helpers.
   */
  raw: (expression: string): Filter<{}> => {
    if (typeof expression !== "string" || expression.trim() === "") throw new TypeError(`f.raw(…) takes a non-empty string, not ${describe(expression)}`);
    return new Filter({ kind: "raw", text: expression });
  },
};

function fieldName(field: unknown, call: string): string {
  if (typeof field !== "string" || field === "") throw new TypeError(`f.${call}(…) takes a field name (a non-empty string), not ${describe(field)}`);
  return field;
}

/** A value as a comparison keeps it: a string, a finite number, or null; anything else (an object from a request body) is refused. */
function literal(value: unknown, field: unknown, call: string): FilterValue {
  if (value === null || typeof value === "string" || (typeof value === "number" && Number.isFinite(value))) return value;
  throw new TypeError(`f.${call}("${String(field)}", …) takes a string, a finite number or null, not ${describe(value)}`);
}

function nodeOf(filter: unknown, what: string): FilterNode {
  if (filter instanceof Filter) return filter.node;
  throw new TypeError(`${what} must be a filter made by f, not ${describe(filter)}`);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number") return String(value);
  return typeof value === "object" ? "an object" : typeof value;
}

// ---- Rendering, against a table's spec.

/** How a table names its fields in a URL: each field's kind and reference (its quoted name, or its FMFID). */
export interface FilterFields {
  /** The field's kind and how the URL names it; throws a TypeError naming the table for a field it does not have. */
  field(name: string): { kind: FieldKind; ref: string };
}

/** The `$filter` text of a filter (not yet percent-encoded: the client encodes the query as 2.8 of the wire contract says). */
export function renderFilter(filter: Filter<any>, fields: FilterFields): string {
  return render(nodeOf(filter, "filter"), fields, false);
}

function render(node: FilterNode, fields: FilterFields, nested: boolean): string {
  switch (node.kind) {
    case "compare": {
      const field = fields.field(node.field);
      return `${field.ref} ${node.op} ${valueText(node.value, field.kind, node.field)}`;
    }
    case "text": {
      const field = fields.field(node.field);
      if (field.kind !== "text") throw new TypeError(`${node.fn}() needs a text field; "${node.field}" is a ${field.kind} field`);
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

const ISO_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const ISO_TIME = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,9})?$/;
const ISO_TIMESTAMP = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,9})?$/;

/** A literal in its field's form: numbers bare, dates and times unquoted, timestamps with the server's zone, text quoted. */
function valueText(value: FilterValue, kind: FieldKind, field: string): string {
  if (value === null) return "null";
  const wrong = (form: string) => new TypeError(`"${field}" is a ${kind} field: compare it with ${form}, not ${JSON.stringify(value)}`);
  switch (kind) {
    case "number":
      if (typeof value !== "number") throw wrong("a number");
      return String(value);
    case "text":
      if (typeof value !== "string") throw wrong("a string");
      return quoted(value);
    case "date":
      if (typeof value !== "string" || !ISO_DATE.test(value)) throw wrong('an ISO date "YYYY-MM-DD"');
      return value;
    case "time":
      if (typeof value !== "string" || !ISO_TIME.test(value)) throw wrong('a time "HH:MM:SS"');
      return value;
    case "timestamp":
      // FileMaker's timestamps have no zone; OData's literals must have one: the server's own, UTC (wire contract 2.7).
      if (typeof value !== "string" || !ISO_TIMESTAMP.test(value)) throw wrong('an ISO timestamp "YYYY-MM-DDTHH:MM:SS"');
      return `${value}Z`;
    case "container":
      throw wrong("null (f.isNull): a container cannot be compared with a value");
  }
}

/** `'text'`, its quotes doubled: the one escape OData string literals have. */
function quoted(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}
