// The semantic check of a parsed `$filter` against a table: every name resolved (unknown → 8309 "The field named
// 'X' does not exist in a specified table (9)"), every operator and function given operands of types it takes
// (otherwise 8309 "incompatible data types"). The result is a tree the evaluator compiles once.

import { findByName } from "../hosted-file/name-map.js";
import type { ExactNumber } from "../hosted-file/exact-number.js";
import type { ArithmeticOperator, ComparisonOperator, EdmType, FilterNode, FunctionName } from "./filter-ast.js";
import { incompatibleTypes, unknownField } from "./filter-error.js";
import { SPECIAL_COLUMNS, type FilterField, type FilterTable } from "./filter-schema.js";

/** The type of a checked expression. Containers (`Edm.Stream` too) are "Edm.Binary"; "Null" is the `null` literal. */
export type FilterType = Exclude<EdmType, "Edm.Stream"> | "Boolean" | "Null";

/**
 * Runtime values: strings, numbers (dates and times as numbers, see filter-values.ts), booleans, null; an Edm.Decimal
 * a double does not hold is an ExactNumber (exact-number.ts), every digit.
 */
export type FilterValue = string | number | ExactNumber | boolean | null;

export type CheckedNode =
  | { readonly kind: "const"; readonly type: FilterType; readonly value: FilterValue; readonly quotedText: boolean }
  | {
      readonly kind: "field";
      readonly type: FilterType;
      readonly name: string;
      readonly navigation: string | undefined;
    }
  | { readonly kind: "not"; readonly type: "Boolean"; readonly operand: CheckedNode }
  | { readonly kind: "negate"; readonly type: FilterType; readonly operand: CheckedNode }
  | {
      readonly kind: "logical";
      readonly type: "Boolean";
      readonly op: "and" | "or";
      readonly operands: readonly CheckedNode[];
    }
  /** `never`: a quoted string against a date, time or timestamp: no error, no row matches (OOGI, 2.7). */
  | {
      readonly kind: "compare";
      readonly type: "Boolean";
      readonly op: ComparisonOperator;
      readonly left: CheckedNode;
      readonly right: CheckedNode;
      readonly never: boolean;
    }
  | {
      readonly kind: "arithmetic";
      readonly type: FilterType;
      readonly op: ArithmeticOperator;
      readonly left: CheckedNode;
      readonly right: CheckedNode;
    }
  | {
      readonly kind: "call";
      readonly type: FilterType;
      readonly name: FunctionName;
      readonly args: readonly CheckedNode[];
    }
  | { readonly kind: "cast"; readonly type: FilterType; readonly from: FilterType; readonly operand: CheckedNode };

const S = "Edm.String";
const D = "Edm.Decimal";
const DATE = "Edm.Date";
const TIME = "Edm.TimeOfDay";
const DTO = "Edm.DateTimeOffset";

/** Each function's parameter types (alternatives per position) and result. */
const SIGNATURES: Readonly<
  Record<FunctionName, { readonly params: readonly (readonly FilterType[])[]; readonly returns: FilterType }>
> = {
  contains: { params: [[S], [S]], returns: "Boolean" },
  endswith: { params: [[S], [S]], returns: "Boolean" },
  startswith: { params: [[S], [S]], returns: "Boolean" },
  length: { params: [[S]], returns: D },
  indexof: { params: [[S], [S]], returns: D },
  substring: { params: [[S], [D], [D]], returns: S },
  tolower: { params: [[S]], returns: S },
  toupper: { params: [[S]], returns: S },
  trim: { params: [[S]], returns: S },
  concat: { params: [[S], [S]], returns: S },
  year: { params: [[DATE, DTO]], returns: D },
  month: { params: [[DATE, DTO]], returns: D },
  day: { params: [[DATE, DTO]], returns: D },
  hour: { params: [[DTO, TIME]], returns: D },
  minute: { params: [[DTO, TIME]], returns: D },
  second: { params: [[DTO, TIME]], returns: D },
  date: { params: [[DTO]], returns: DATE },
  time: { params: [[DTO]], returns: TIME },
  totaloffsetminutes: { params: [[DTO]], returns: D },
  totalseconds: { params: [[TIME]], returns: D },
  now: { params: [], returns: DTO },
  mindatetime: { params: [], returns: DTO },
  maxdatetime: { params: [], returns: DTO },
  round: { params: [[D]], returns: D },
  floor: { params: [[D]], returns: D },
  ceiling: { params: [[D]], returns: D },
};

/** Which casts are defined (1.4's types): anything to text, text to anything, and between dates and timestamps. */
const CASTS: Readonly<Record<string, readonly FilterType[]>> = {
  [S]: [S, D, DATE, TIME, DTO],
  [D]: [S, D],
  [DATE]: [S, DATE, DTO],
  [TIME]: [S, TIME],
  [DTO]: [S, DATE, TIME, DTO],
};

const isTemporal = (t: FilterType) => t === DATE || t === TIME || t === DTO;

export function checkFilter(node: FilterNode, table: FilterTable): CheckedNode {
  const checked = check(node, table);
  if (checked.type !== "Boolean") throw incompatibleTypes();
  return checked;
}

/** A value expression (`$apply`'s compute and aggregate operands): checked as `$filter` checks its operands, of any type. */
export function checkExpression(node: FilterNode, table: FilterTable): CheckedNode {
  return check(node, table);
}

function check(node: FilterNode, table: FilterTable): CheckedNode {
  switch (node.kind) {
    case "literal": {
      const l = node.literal;
      switch (l.kind) {
        case "string":
          // FileMaker has no empty-versus-null distinction: '' is the empty value.
          return { kind: "const", type: S, value: l.value === "" ? null : l.value, quotedText: true };
        case "number":
          return { kind: "const", type: D, value: l.value, quotedText: false };
        case "boolean":
          return { kind: "const", type: "Boolean", value: l.value, quotedText: false };
        case "null":
          return { kind: "const", type: "Null", value: null, quotedText: false };
        case "date":
          return { kind: "const", type: DATE, value: l.value, quotedText: false };
        case "timeOfDay":
          return { kind: "const", type: TIME, value: l.value, quotedText: false };
        case "dateTimeOffset":
          return { kind: "const", type: DTO, value: l.value, quotedText: false };
      }
      break;
    }
    case "field":
      return resolveField(node, table);
    case "not":
      return { kind: "not", type: "Boolean", operand: boolean(check(node.operand, table)) };
    case "logical":
      return {
        kind: "logical",
        type: "Boolean",
        op: node.op,
        operands: node.operands.map((o) => boolean(check(o, table))),
      };
    case "negate":
      return { kind: "negate", type: D, operand: expect(check(node.operand, table), [D]) };
    case "arithmetic":
      return {
        kind: "arithmetic",
        type: D,
        op: node.op,
        left: expect(check(node.left, table), [D]),
        right: expect(check(node.right, table), [D]),
      };
    case "compare":
      return compare(node.op, check(node.left, table), check(node.right, table));
    case "call": {
      const signature = SIGNATURES[node.name];
      const args = node.args.map((a, i) => expect(check(a, table), signature.params[i] ?? []));
      return { kind: "call", type: signature.returns, name: node.name, args };
    }
    case "cast": {
      const operand = check(node.operand, table);
      const target = node.target as FilterType;
      if (operand.type !== "Null" && !(CASTS[operand.type] ?? []).includes(target)) throw incompatibleTypes();
      return { kind: "cast", type: target, from: operand.type, operand };
    }
  }
  throw incompatibleTypes();
}

function resolveField(node: Extract<FilterNode, { kind: "field" }>, table: FilterTable): CheckedNode {
  let target = table;
  if (node.navigation !== undefined) {
    const related = table.navigation?.get(node.navigation);
    if (!related) throw unknownField(node.navigation);
    target = related;
  }
  const ref = node.field;
  const field: FilterField | undefined =
    ref.by === "name" ? findByName(target.fields, ref.name, (f) => f.name) : target.fields.find((f) => f.id === ref.id);
  if (field) {
    const type: FilterType = field.type === "Edm.Stream" ? "Edm.Binary" : field.type;
    return { kind: "field", type, name: field.name, navigation: node.navigation };
  }
  if (ref.by === "name" && SPECIAL_COLUMNS.includes(ref.name))
    return { kind: "field", type: D, name: ref.name, navigation: node.navigation };
  throw unknownField(ref.by === "name" ? ref.name : ref.id);
}

/** `true`/`false` stand for 1 and 0 wherever a number is wanted (choice of 2.7). */
function asNumber(node: CheckedNode): CheckedNode {
  return node.kind === "const" && node.type === "Boolean"
    ? { kind: "const", type: D, value: node.value ? 1 : 0, quotedText: false }
    : node;
}

function expect(node: CheckedNode, types: readonly FilterType[]): CheckedNode {
  const n = types.includes(D) ? asNumber(node) : node;
  if (n.type === "Null" || types.includes(n.type)) return n;
  throw incompatibleTypes();
}

function boolean(node: CheckedNode): CheckedNode {
  if (node.type !== "Boolean") throw incompatibleTypes();
  return node;
}

function compare(op: ComparisonOperator, leftIn: CheckedNode, rightIn: CheckedNode): CheckedNode {
  let left = leftIn;
  let right = rightIn;
  if (left.type === D) right = asNumber(right);
  if (right.type === D) left = asNumber(left);
  const make = (never: boolean): CheckedNode => ({ kind: "compare", type: "Boolean", op, left, right, never });
  const l = left.type;
  const r = right.type;
  if (l === "Edm.Binary" || r === "Edm.Binary") {
    // Containers are not compared; only their emptiness can be tested.
    if ((op === "eq" || op === "ne") && (l === "Null" || r === "Null")) return make(false);
    throw incompatibleTypes();
  }
  if (l === "Null" || r === "Null" || l === r) return make(false);
  // A date compares with a timestamp at its UTC midnight: both are epoch milliseconds.
  if ((l === DATE && r === DTO) || (l === DTO && r === DATE)) return make(false);
  const quoted = (n: CheckedNode) => n.kind === "const" && n.quotedText;
  if ((isTemporal(l) && quoted(right)) || (isTemporal(r) && quoted(left))) return make(true);
  throw incompatibleTypes();
}
