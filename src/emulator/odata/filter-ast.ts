// The tree a `$filter` parses to (filter-parser.ts), before any schema is known. `at` is the offset of the node's
// first character in the filter text.

import type { StoredNumber } from "../hosted-file/exact-number.js";

export type ComparisonOperator = "eq" | "ne" | "gt" | "ge" | "lt" | "le";
export type ArithmeticOperator = "add" | "sub" | "mul" | "div" | "mod";

/** The Edm types a field can have and `cast` can name (docs/emulator.md, "`$metadata`"). */
export type EdmType =
  "Edm.String" | "Edm.Decimal" | "Edm.Date" | "Edm.TimeOfDay" | "Edm.DateTimeOffset" | "Edm.Binary" | "Edm.Stream";

export type FilterLiteral =
  | { readonly kind: "string"; readonly value: string }
  /** As written, every digit: a double when it holds the value, else an ExactNumber (exact-number.ts). */
  | { readonly kind: "number"; readonly value: StoredNumber }
  /** `true`/`false`: FileMaker has no boolean; they stand for 1 and 0 (choice of 2.7). */
  | { readonly kind: "boolean"; readonly value: boolean }
  | { readonly kind: "null" }
  /** Epoch ms of the UTC midnight. */
  | { readonly kind: "date"; readonly value: number }
  /** Milliseconds since midnight. */
  | { readonly kind: "timeOfDay"; readonly value: number }
  /** Epoch ms, the zone applied. */
  | { readonly kind: "dateTimeOffset"; readonly value: number };

/** How a field is named: by name (bare, dotted or double-quoted) or by `FMFID:n`. */
export type FieldName = { readonly by: "name"; readonly name: string } | { readonly by: "id"; readonly id: string };

export type FilterNode =
  | { readonly kind: "literal"; readonly literal: FilterLiteral; readonly at: number }
  /** A field of the filtered table, or `navigation/field` of a related one. */
  | { readonly kind: "field"; readonly field: FieldName; readonly navigation?: string; readonly at: number }
  | { readonly kind: "not"; readonly operand: FilterNode; readonly at: number }
  | { readonly kind: "negate"; readonly operand: FilterNode; readonly at: number }
  /** `and`/`or` chains are flat: a thousand-term `or` is one node, not a thousand levels. */
  | {
      readonly kind: "logical";
      readonly op: "and" | "or";
      readonly operands: readonly FilterNode[];
      readonly at: number;
    }
  | {
      readonly kind: "compare";
      readonly op: ComparisonOperator;
      readonly left: FilterNode;
      readonly right: FilterNode;
      readonly at: number;
    }
  | {
      readonly kind: "arithmetic";
      readonly op: ArithmeticOperator;
      readonly left: FilterNode;
      readonly right: FilterNode;
      readonly at: number;
    }
  | { readonly kind: "call"; readonly name: FunctionName; readonly args: readonly FilterNode[]; readonly at: number }
  | { readonly kind: "cast"; readonly operand: FilterNode; readonly target: EdmType; readonly at: number };

/** A field reference of an expression. */
export type FieldNode = Extract<FilterNode, { kind: "field" }>;

/**
 * The expression with every field reference replaced by `map`'s answer (which may throw to refuse it), the rest
 * rebuilt around it: how `$apply` and `$crossjoin` rename or check names before the `$filter` checker sees them.
 */
export function mapFields(node: FilterNode, map: (field: FieldNode) => FilterNode): FilterNode {
  const walk = (n: FilterNode): FilterNode => {
    switch (n.kind) {
      case "field":
        return map(n);
      case "not":
      case "negate":
        return { ...n, operand: walk(n.operand) };
      case "cast":
        return { ...n, operand: walk(n.operand) };
      case "logical":
        return { ...n, operands: n.operands.map(walk) };
      case "compare":
        return { ...n, left: walk(n.left), right: walk(n.right) };
      case "arithmetic":
        return { ...n, left: walk(n.left), right: walk(n.right) };
      case "call":
        return { ...n, args: n.args.map(walk) };
      case "literal":
        return n;
    }
  };
  return walk(node);
}

/** Visits every field reference of an expression, left to right. */
export function forEachField(node: FilterNode, visit: (field: FieldNode) => void): void {
  mapFields(node, (field) => {
    visit(field);
    return field;
  });
}

/** The functions of the `FilterFunctions` annotation (2.7) that the emulator evaluates; `cast` has its own node. */
export type FunctionName =
  | "contains"
  | "endswith"
  | "startswith"
  | "length"
  | "indexof"
  | "substring"
  | "tolower"
  | "toupper"
  | "trim"
  | "concat"
  | "year"
  | "month"
  | "day"
  | "hour"
  | "minute"
  | "second"
  | "date"
  | "time"
  | "totaloffsetminutes"
  | "totalseconds"
  | "now"
  | "mindatetime"
  | "maxdatetime"
  | "round"
  | "floor"
  | "ceiling";

/** Each function's arity: [least, most]. */
export const FUNCTION_ARITY: Readonly<Record<FunctionName, readonly [number, number]>> = {
  contains: [2, 2],
  endswith: [2, 2],
  startswith: [2, 2],
  length: [1, 1],
  indexof: [2, 2],
  substring: [2, 3],
  tolower: [1, 1],
  toupper: [1, 1],
  trim: [1, 1],
  concat: [2, 2],
  year: [1, 1],
  month: [1, 1],
  day: [1, 1],
  hour: [1, 1],
  minute: [1, 1],
  second: [1, 1],
  date: [1, 1],
  time: [1, 1],
  totaloffsetminutes: [1, 1],
  totalseconds: [1, 1],
  now: [0, 0],
  mindatetime: [0, 0],
  maxdatetime: [0, 0],
  round: [1, 1],
  floor: [1, 1],
  ceiling: [1, 1],
};

export const isFunctionName = (name: string): name is FunctionName => Object.hasOwn(FUNCTION_ARITY, name);

/** The types `cast` may name: those of 1.4 that hold a filterable value. */
export const CAST_TARGETS: ReadonlySet<string> = new Set<EdmType>([
  "Edm.String",
  "Edm.Decimal",
  "Edm.Date",
  "Edm.TimeOfDay",
  "Edm.DateTimeOffset",
]);
