// A checked `$filter` compiled once into a predicate over rows: each node becomes one closure, so a row costs one
// pass over the tree. Semantics (docs/emulator.md, "The OData API"): text compares by code point, case-sensitively; an
// empty value is null and `''` is empty; `eq null` matches empty; other comparisons with null are false, `ne` is
// `not eq`; a `Nav/Field` comparison holds when some related record satisfies it. Numbers are decimals, compared and
// added exactly (filter-numbers.ts; `div` is a double's).

import { compareCodePoints } from "../hosted-file/find/code-point-order.js";
import { compareNumbers, ExactNumber, numberText, storedNumberOf } from "../hosted-file/exact-number.js";
import { isStoredNumber } from "../hosted-file/stored-value.js";
import { arithmetic, negate, wholeNumber } from "./filter-numbers.js";
import type { CheckedNode, FilterType, FilterValue } from "./filter-check.js";
import type { FilterRow } from "./filter-schema.js";
import {
  dayStart,
  formatDate,
  formatTimeOfDay,
  formatTimestamp,
  parseDate,
  parseTimeOfDay,
  parseTimestamp,
  timeOfDay,
} from "./filter-values.js";

export interface CompileFilterOptions {
  /** The request's instant for `now()`, epoch ms; read once, so every row sees the same now. */
  readonly now?: () => number;
}

export type FilterPredicate = (row: FilterRow) => boolean;

/** The record being filtered, and the related record each navigation property stands at. */
interface Scope {
  readonly row: FilterRow;
  readonly related: ReadonlyMap<string, FilterRow>;
}

type Evaluate = (scope: Scope) => FilterValue;

/** FileMaker's timestamp range (1/1/0001 … 12/31/4000), for mindatetime()/maxdatetime(). */
const MIN_DATETIME = Date.UTC(2000, 0, 1) - 730_119 * 86_400_000;
const MAX_DATETIME = Date.UTC(4000, 11, 31, 23, 59, 59);
const NO_RELATED: ReadonlyMap<string, FilterRow> = new Map();

export function compileFilter(root: CheckedNode, options: CompileFilterOptions = {}): FilterPredicate {
  const now = (options.now ?? Date.now)();
  const evaluate = compileBoolean(root, now);
  return (row) => evaluate({ row, related: NO_RELATED }) === true;
}

/** A checked value expression as a function of a row (`$apply`'s compute and aggregate operands). */
export function compileExpression(root: CheckedNode, options: CompileFilterOptions = {}): (row: FilterRow) => FilterValue {
  const now = (options.now ?? Date.now)();
  const evaluate = root.type === "Boolean" ? compileBoolean(root, now) : compileNode(root, now);
  return (row) => evaluate({ row, related: NO_RELATED });
}

/** A boolean node; a comparison or function naming `Nav/Field` is tried against each related record. */
function compileBoolean(node: CheckedNode, now: number): Evaluate {
  const inner = compileNode(node, now);
  if (node.kind !== "compare" && node.kind !== "call") return inner;
  const navigations = [...navigationsOf(node)];
  if (navigations.length === 0) return inner;
  const some = (scope: Scope, k: number): boolean => {
    if (k === navigations.length) return inner(scope) === true;
    const nav = navigations[k] as string;
    for (const related of scope.row.related?.(nav) ?? []) {
      if (some({ row: scope.row, related: new Map(scope.related).set(nav, related) }, k + 1)) return true;
    }
    return false;
  };
  return (scope) => some(scope, 0);
}

/** The navigation properties a comparison's operands read, not those of boolean sub-expressions (compiled apart). */
function navigationsOf(node: CheckedNode, found = new Set<string>(), top = true): Set<string> {
  if (!top && node.type === "Boolean") return found;
  switch (node.kind) {
    case "field":
      if (node.navigation !== undefined) found.add(node.navigation);
      break;
    case "negate":
    case "cast":
      navigationsOf(node.operand, found, false);
      break;
    case "arithmetic":
    case "compare":
      navigationsOf(node.left, found, false);
      navigationsOf(node.right, found, false);
      break;
    case "call":
      for (const a of node.args) navigationsOf(a, found, false);
      break;
    default:
      break;
  }
  return found;
}

function compileNode(node: CheckedNode, now: number): Evaluate {
  switch (node.kind) {
    case "const": {
      const value = node.value;
      return () => value;
    }
    case "field":
      return compileField(node.name, node.type, node.navigation);
    case "not": {
      const operand = compileBoolean(node.operand, now);
      return (scope) => operand(scope) !== true;
    }
    case "logical": {
      const operands = node.operands.map((o) => compileBoolean(o, now));
      if (node.op === "and") return (scope) => operands.every((o) => o(scope) === true);
      return (scope) => operands.some((o) => o(scope) === true);
    }
    case "negate": {
      const operand = compileNode(node.operand, now);
      return (scope) => {
        const v = operand(scope);
        return typeof v === "number" ? finite(-v) : v instanceof ExactNumber ? negate(v) : null;
      };
    }
    case "arithmetic":
      return compileArithmetic(node.op, compileNode(node.left, now), compileNode(node.right, now));
    case "compare":
      return compileCompare(node, now);
    case "call":
      return compileCall(
        node.name,
        node.args.map((a) => (a.type === "Boolean" ? compileBoolean(a, now) : compileNode(a, now))),
        node.args[0]?.type,
        now,
      );
    case "cast":
      return compileCast(node.from, node.type, compileNode(node.operand, now));
  }
}

function compileField(name: string, type: FilterType, navigation: string | undefined): Evaluate {
  const convert = FIELD_READERS[type] ?? (() => null);
  if (navigation === undefined) return (scope) => convert(scope.row.value(name));
  return (scope) => {
    const related = scope.related.get(navigation);
    return related ? convert(related.value(name)) : null;
  };
}

type Raw = string | number | ExactNumber | null | undefined;

const textOf = (raw: Raw): string | null => (raw === null || raw === undefined || raw === "" ? null : raw instanceof ExactNumber ? raw.text : String(raw));

const FIELD_READERS: Partial<Record<FilterType, (raw: Raw) => FilterValue>> = {
  "Edm.String": textOf,
  "Edm.Decimal": (raw) => {
    if (typeof raw === "number") return Number.isFinite(raw) ? raw : null;
    if (raw instanceof ExactNumber) return raw;
    // Text (a calculation's, or cast from Edm.String) read as decimal text, every digit.
    const text = textOf(raw)?.trim();
    if (!text || !isDecimalText(text)) return null;
    const n = storedNumberOf(text, "lenient");
    return typeof n === "string" ? null : n;
  },
  "Edm.Date": (raw) => (typeof raw === "string" ? parseDate(raw) : null),
  "Edm.TimeOfDay": (raw) => (typeof raw === "string" ? parseTimeOfDay(raw) : null),
  "Edm.DateTimeOffset": (raw) => (typeof raw === "string" ? parseTimestamp(raw) : null),
  /** Only emptiness is ever asked of a container. */
  "Edm.Binary": (raw) => (textOf(raw) === null ? null : "container"),
};

/** Digits, sign, point and exponent only: `Number()` would also read `0x10`, `0b1` and `Infinity`. */
function isDecimalText(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46 || c === 69 || c === 101)) return false;
  }
  return true;
}

const finite = (n: number): number | null => (Number.isFinite(n) ? n : null);

/** Decimal arithmetic (filter-numbers.ts): add, sub, mul and mod exact, div a double's; null for no number. */
function compileArithmetic(op: string, left: Evaluate, right: Evaluate): Evaluate {
  return (scope) => {
    const a = left(scope);
    const b = right(scope);
    if (typeof a === "number" && !Number.isFinite(a)) return null;
    if (typeof b === "number" && !Number.isFinite(b)) return null;
    return isStoredNumber(a) && isStoredNumber(b) ? arithmetic(op, a, b) : null;
  };
}

/**
 * Strings by Unicode code point (not UTF-16 unit), as the hosted file sorts them; numbers by value, exactly (a 58-digit
 * literal against its neighbour: compareNumbers); false before true.
 */
export function compareValues(a: Exclude<FilterValue, null>, b: Exclude<FilterValue, null>): number {
  if (typeof a === "string" && typeof b === "string") return compareCodePoints(a, b);
  if (isStoredNumber(a) && isStoredNumber(b) && (a instanceof ExactNumber || b instanceof ExactNumber)) return compareNumbers(a, b);
  const x = Number(a);
  const y = Number(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function compileCompare(node: Extract<CheckedNode, { kind: "compare" }>, now: number): Evaluate {
  if (node.never) return () => false;
  const left = node.left.type === "Boolean" ? compileBoolean(node.left, now) : compileNode(node.left, now);
  const right = node.right.type === "Boolean" ? compileBoolean(node.right, now) : compileNode(node.right, now);
  const test = (a: FilterValue, b: FilterValue): boolean => {
    if (a === null || b === null) {
      if (node.op === "eq") return a === b;
      if (node.op === "ne") return a !== b;
      return false;
    }
    const c = compareValues(a, b);
    switch (node.op) {
      case "eq":
        return c === 0;
      case "ne":
        return c !== 0;
      case "gt":
        return c > 0;
      case "ge":
        return c >= 0;
      case "lt":
        return c < 0;
      case "le":
        return c <= 0;
    }
  };
  return (scope) => test(left(scope), right(scope));
}

/** Text arguments: an empty (null) value reads as "" (FileMaker has no null text); a "" result is empty again. */
const text = (v: FilterValue): string => (v === null ? "" : String(v));
const emptyIsNull = (s: string): string | null => (s === "" ? null : s);
const codePointLength = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

function compileCall(
  name: string,
  args: readonly Evaluate[],
  firstType: FilterType | undefined,
  now: number,
): Evaluate {
  const [a = () => null, b = () => null, c] = args;
  const num =
    (f: (x: number) => number): Evaluate =>
    (scope) => {
      const v = a(scope);
      return typeof v === "number" ? finite(f(v)) : null;
    };
  const utc = (f: (d: Date) => number): Evaluate => num((ms) => f(new Date(ms)));
  // On a timestamp, the clock time of its (UTC) day; a time field is kept whole (FileMaker times may pass 24:00).
  const clock = firstType === "Edm.DateTimeOffset" ? timeOfDay : (ms: number) => ms;
  switch (name) {
    case "contains":
      return (s) => text(a(s)).includes(text(b(s)));
    case "startswith":
      return (s) => text(a(s)).startsWith(text(b(s)));
    case "endswith":
      return (s) => text(a(s)).endsWith(text(b(s)));
    case "length":
      return (s) => codePointLength(text(a(s)));
    case "indexof":
      return (s) => {
        const hay = text(a(s));
        const at = hay.indexOf(text(b(s)));
        return at < 0 ? -1 : codePointLength(hay.slice(0, at));
      };
    case "substring":
      return (s) => {
        const start = b(s);
        const length = c ? c(s) : null;
        if (typeof start !== "number" || (c && typeof length !== "number")) return null;
        const points = Array.from(text(a(s)));
        const from = Math.max(0, Math.floor(start));
        const to = typeof length === "number" ? from + Math.max(0, Math.floor(length)) : points.length;
        return emptyIsNull(points.slice(from, to).join(""));
      };
    case "tolower":
      return (s) => emptyIsNull(text(a(s)).toLowerCase());
    case "toupper":
      return (s) => emptyIsNull(text(a(s)).toUpperCase());
    case "trim":
      return (s) => emptyIsNull(text(a(s)).trim());
    case "concat":
      return (s) => emptyIsNull(text(a(s)) + text(b(s)));
    case "year":
      return utc((d) => d.getUTCFullYear());
    case "month":
      return utc((d) => d.getUTCMonth() + 1);
    case "day":
      return utc((d) => d.getUTCDate());
    case "hour":
      return num((ms) => Math.floor(clock(ms) / 3_600_000));
    case "minute":
      return num((ms) => Math.floor(clock(ms) / 60_000) % 60);
    case "second":
      return num((ms) => Math.floor(clock(ms) / 1000) % 60);
    case "date":
      return num(dayStart);
    case "time":
      return num(timeOfDay);
    case "totaloffsetminutes":
      return num(() => 0);
    case "totalseconds":
      return num((ms) => ms / 1000);
    case "now":
      return () => now;
    case "mindatetime":
      return () => MIN_DATETIME;
    case "maxdatetime":
      return () => MAX_DATETIME;
    case "round":
    case "floor":
    case "ceiling":
      // Exactly, an ExactNumber too (filter-numbers.ts); round is half away from zero.
      return (scope) => {
        const v = a(scope);
        if (typeof v === "number" && !Number.isFinite(v)) return null;
        return isStoredNumber(v) ? wholeNumber(name, v) : null;
      };
    default:
      throw new Error(`compileCall: no evaluator for the function ${name}`);
  }
}

function compileCast(from: FilterType, to: FilterType, operand: Evaluate): Evaluate {
  const convert = castFunction(from, to);
  return (scope) => {
    const v = operand(scope);
    return v === null ? null : convert(v);
  };
}

function castFunction(from: FilterType, to: FilterType): (v: FilterValue) => FilterValue {
  if (from === to || from === "Null") return (v) => v;
  if (to === "Edm.String") {
    if (from === "Edm.Date") return (v) => formatDate(v as number);
    if (from === "Edm.TimeOfDay") return (v) => formatTimeOfDay(v as number);
    if (from === "Edm.DateTimeOffset") return (v) => formatTimestamp(v as number);
    // A number as its text, every digit (an ExactNumber's canonical text; a double as JavaScript writes it).
    return (v) => (v instanceof ExactNumber ? numberText(v) : String(v));
  }
  if (from === "Edm.String") return (v) => FIELD_READERS[to]?.(v as string) ?? null;
  if (from === "Edm.DateTimeOffset" && to === "Edm.Date") return (v) => dayStart(v as number);
  if (from === "Edm.DateTimeOffset" && to === "Edm.TimeOfDay") return (v) => timeOfDay(v as number);
  if (from === "Edm.Date" && to === "Edm.DateTimeOffset") return (v) => v;
  throw new Error(`compileCast: no cast from ${from} to ${to} (filter-check.ts should have refused it)`);
}
