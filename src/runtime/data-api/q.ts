import type { FieldKind } from "./definition.js";

/**
 * The `q` helpers: the only way FileMaker find syntax gets into a query. Each builds a small criterion object
 * (its helper's name and arguments); the layout client renders it for the field it is given to, escaping every
 * user text with `escapeFindValue` (find-criteria.ts). A plain value in a request means "equals exactly".
 */

/** The name of a `q` helper. */
export type HelperName = "eq" | "lt" | "lte" | "gt" | "gte" | "between" | "words" | "beginsWith" | "endsWith" | "contains" | "empty" | "notEmpty" | "raw";

/**
 * A find criterion built by `q.<helper>(...args)`; `V` is the type of the values it compares with. Only the `q`
 * helpers make criteria: an object of the same shape from anywhere else is refused as a value.
 */
export interface Criterion<H extends HelperName = HelperName, V = unknown> {
  /** The helper that built it (`"gte"`, `"beginsWith"`...). */
  readonly helper: H;
  /** The values given to it. */
  readonly args: readonly V[];
}

type Allowed = Readonly<Partial<Record<HelperName, true>>>;
const ANY_FIELD = Object.freeze({ eq: true, empty: true, notEmpty: true, raw: true } as const);
const ORDERED = Object.freeze({ ...ANY_FIELD, lt: true, lte: true, gt: true, gte: true, between: true } as const);

/**
 * Which helpers apply to which kind of field. The types of find requests derive from this dictionary, and the
 * layout client checks every criterion against it, so the compiler and the runtime cannot disagree. Text fields
 * have no order helpers: FileMaker's text ranges and comparisons (`a...m`, `<m`) stay reachable through `q.raw`.
 */
export const HELPERS_BY_KIND = Object.freeze({
  /**
   * Text fields: equality, emptiness, words, prefixes, suffixes, substrings; no order helpers (`q.raw` reaches
   * FileMaker's text ranges).
   */
  text: Object.freeze({ ...ANY_FIELD, words: true, beginsWith: true, endsWith: true, contains: true } as const),
  /** Number fields: equality, emptiness and order. */
  number: ORDERED,
  /** Date fields (ISO `YYYY-MM-DD`): equality, emptiness and order. */
  date: ORDERED,
  /** Time fields (`HH:MM:SS`): equality, emptiness and order. */
  time: ORDERED,
  /** Timestamp fields (ISO): equality, emptiness and order. */
  timestamp: ORDERED,
  /** Container fields: equality and emptiness. */
  container: ANY_FIELD,
} satisfies Readonly<Record<FieldKind, Allowed>>);

/** The helpers a field of kind `K` takes (a union of kinds takes those of any of them). */
export type HelpersOf<K> = K extends FieldKind ? keyof (typeof HELPERS_BY_KIND)[K] & HelperName : never;

type Assert<T extends true> = T;
/** Compiles only when every helper applies to some kind of field. */
export type EveryHelperApplies = Assert<[Exclude<HelperName, HelpersOf<FieldKind>>] extends [never] ? true : false>;

/** A value that orders: a number, or an ISO date, a time `HH:MM:SS` or an ISO timestamp. */
export type Comparable = number | string;

/**
 * Every criterion the helpers below built, and nothing else: a value shaped like one (`{"helper":"raw","args":["*"]}`
 * parsed from a request body) is not in it, so no data can smuggle find syntax into a query.
 */
const MADE = new WeakSet<object>();

function make<H extends HelperName, V>(helper: H, args: readonly V[]): Criterion<H, V> {
  const criterion = Object.freeze({ helper, args: Object.freeze(args) });
  MADE.add(criterion);
  return criterion;
}

type Builders = { readonly [H in HelperName]: (...args: never[]) => Criterion<H, unknown> };

/**
 * The find helpers: each builds one criterion of a find request, for the kinds of field it applies to
 * (`HELPERS_BY_KIND`), and escapes the values it is given, so that a user's text never becomes find syntax. A plain
 * value in a request means "equals exactly"; only `q.raw` sends FileMaker's find syntax as written.
 *
 * @example
 * ```ts
 * const typed = "Love"; // what a user typed: a value, never find syntax
 * const { data } = await contacts.find({
 *   query: [{ "Last Name": q.beginsWith(typed), Birthday: q.between("1980-01-01", "1989-12-31") }, { Email: q.empty(), omit: true }],
 * });
 * ```
 */
export const q = Object.freeze({
  /** Equals exactly, like a plain value; `null` finds empty fields. */
  eq: <V extends Comparable | null>(value: V): Criterion<"eq", V> => make("eq", [value]),
  /** Less than: numbers numerically, dates, times and timestamps chronologically. */
  lt: <V extends Comparable>(value: V): Criterion<"lt", V> => make("lt", [value]),
  /** Less than or equal. */
  lte: <V extends Comparable>(value: V): Criterion<"lte", V> => make("lte", [value]),
  /** Greater than. */
  gt: <V extends Comparable>(value: V): Criterion<"gt", V> => make("gt", [value]),
  /** Greater than or equal. */
  gte: <V extends Comparable>(value: V): Criterion<"gte", V> => make("gte", [value]),
  /** From `from` to `to`, both included. */
  between: <V extends Comparable>(from: V, to: V): Criterion<"between", V> => make("between", [from, to]),
  /** Every word of `text` starts a word of the field, in any order (FileMaker's default text find). */
  words: (text: string): Criterion<"words", string> => make("words", [text]),
  /** The whole field starts with `text` (case-insensitively, like every text find). */
  beginsWith: (text: string): Criterion<"beginsWith", string> => make("beginsWith", [text]),
  /** The whole field ends with `text`. */
  endsWith: (text: string): Criterion<"endsWith", string> => make("endsWith", [text]),
  /** `text` occurs anywhere in the field, across words too. */
  contains: (text: string): Criterion<"contains", string> => make("contains", [text]),
  /** The field is empty. */
  empty: (): Criterion<"empty", never> => make("empty", []),
  /** The field is not empty. */
  notEmpty: (): Criterion<"notEmpty", never> => make("notEmpty", []),
  /** FileMaker find syntax, sent as written and never escaped: the one way to use operators directly. */
  raw: (criterion: string): Criterion<"raw", string> => make("raw", [criterion]),
} satisfies Builders);

/** True only for a criterion a `q` helper built, never for a look-alike object. */
export function isCriterion(value: unknown): value is Criterion {
  return MADE.has(value as object);
}
