import type { FieldSpec, LayoutSpec } from "./definition.js";
import { describe, ENCODERS, exactProblem, INVALID, quoteRaw } from "./codecs.js";
import { parseDecimal, plainDecimal, type Decimal } from "../core/decimal-text.js";
import { getOwn, setOwn } from "../core/own.js";
import { HELPERS_BY_KIND, isCriterion, type HelperName } from "./q.js";

/**
 * Every character that means something in a FileMaker find criterion. The backslash comes first so that
 * escaping never escapes its own escapes.
 */
const FIND_OPERATORS = /[\\=!<>≤≥./?@#*"~{}]/g;

/**
 * Makes a user's text literal in a find criterion: no value can change a query's meaning. Every helper that
 * takes text goes through it; only `q.raw` sends find syntax as written.
 */
export function escapeFindValue(text: string): string {
  // "$&" is the match: each operator gets a backslash before it.
  const escaped = text.replace(FIND_OPERATORS, "\\$&");
  // Whitespace at either end would be trimmed from a criterion: escaped, it stays part of the value. Found with
  // trim, not /^\s+|\s+$/ (quadratic on a long run of inner whitespace); trim strips exactly \s.
  const start = escaped.length - escaped.trimStart().length;
  const end = Math.max(start, escaped.trimEnd().length);
  const literal = (run: string) => run.replace(/./gsu, "\\$&");
  return literal(escaped.slice(0, start)) + escaped.slice(start, end) + literal(escaped.slice(end));
}

/** Thrown by the renderers below; the caller names the layout and field. */
class BadCriterion extends Error {}

/** A finite number in plain decimal notation: FileMaker reads no exponents. */
export function decimal(n: number): string {
  const text = String(n);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!m) return text;
  const digits = m[2]! + (m[3] ?? "");
  const point = 1 + Number(m[4]);
  if (point <= 0) return `${m[1]}0.${"0".repeat(-point)}${digits}`;
  return m[1] + (point >= digits.length ? digits + "0".repeat(point - digits.length) : `${digits.slice(0, point)}.${digits.slice(point)}`);
}

/**
 * A value of a number, date, time or timestamp field as a criterion operand: validated, then written as the
 * server reads it (`MM/DD/YYYY`, `HH:MM:SS`, `MM/DD/YYYY HH:MM:SS`; ISO forms with `ISO_ENCODERS`, for a call sent
 * with `dateformats` 2). It is never text, so it needs no escape.
 */
function operand(spec: FieldSpec, value: unknown, encoders: Encoders): string {
  // An exact field's decimal text, checked as writes check it, in plain notation (FileMaker reads no exponents):
  // every digit as given.
  if (spec.type === "number" && spec.exact) {
    const why = exactProblem(value);
    if (why !== undefined) throw new BadCriterion(`${quoteRaw(value)} is not a valid exact number value: ${why}`);
    return plainDecimal(parseDecimal(value as string, "json") as Decimal);
  }
  // Text is never an operand: it is escaped by exact() or a string helper.
  const wire = spec.type === "text" ? INVALID : encoders[spec.type](value);
  if (wire === INVALID) throw new BadCriterion(`${describe(value)} is not a valid ${spec.type} value`);
  return typeof wire === "number" ? decimal(wire) : wire;
}

/** A plain value, or `q.eq`: "equals exactly"; `null` and `""` find empty fields. */
function exact(spec: FieldSpec, value: unknown, encoders: Encoders): string {
  if (value === null || value === "") return "=";
  if ((spec.type === "text" || spec.type === "container") && typeof value === "string") return `==${escapeFindValue(value)}`;
  // A number is matched whole (`==`), not as a word of its digits; a date, time or timestamp is one value. Anything
  // else (a number for a text field, say) is refused by operand().
  return spec.type === "number" ? `==${operand(spec, value, encoders)}` : operand(spec, value, encoders);
}

/** The argument of a helper that takes a string. */
function string(helper: HelperName, value: unknown): string {
  if (typeof value !== "string") throw new BadCriterion(`q.${helper}() takes a string, got ${describe(value)}`);
  return value;
}

/** The text a text helper takes: a string with at least one character (one that is not whitespace for words). */
function text(helper: HelperName, argument: unknown): string {
  const value = string(helper, argument);
  if ((helper === "words" ? value.trim() : value) === "") throw new BadCriterion(`q.${helper}() needs ${helper === "words" ? "a word" : "some text"}; leave the field out to match every record`);
  return value;
}

type Encoders = typeof ENCODERS;
type Render = (args: readonly unknown[], spec: FieldSpec, encoders: Encoders) => string;
const compare =
  (operator: string): Render =>
  ([value], spec, encoders) =>
    operator + operand(spec, value, encoders);

/** What each helper sends, given its arguments and the field's spec. */
const RENDER: { readonly [H in HelperName]: Render } = Object.freeze({
  eq: ([value], spec, encoders) => exact(spec, value, encoders),
  lt: compare("<"),
  lte: compare("<="),
  gt: compare(">"),
  gte: compare(">="),
  between: ([from, to], spec, encoders) => `${operand(spec, from, encoders)}...${operand(spec, to, encoders)}`,
  // Inner whitespace separates the words; the ends would only be escaped into the first and last word.
  words: ([value]) => escapeFindValue(text("words", value).trim()),
  beginsWith: ([value]) => `==${escapeFindValue(text("beginsWith", value))}*`,
  endsWith: ([value]) => `==*${escapeFindValue(text("endsWith", value))}`,
  contains: ([value]) => `==*${escapeFindValue(text("contains", value))}*`,
  empty: () => "=",
  notEmpty: () => "*",
  raw: ([criterion]) => string("raw", criterion),
});

/** One field's criterion as sent: a plain value ("equals exactly") or a `q` criterion the field's kind allows. */
export function fieldCriterion(spec: FieldSpec, field: string, value: unknown, layout: string, encoders = ENCODERS): string {
  try {
    if (!isCriterion(value)) {
      // Only strings, numbers and null are values; any other object (a look-alike of a criterion) is refused.
      if (typeof value === "object" && value !== null) throw new BadCriterion(`${describe(value)} is not a valid ${spec.type} value (find syntax comes only from the q helpers)`);
      return exact(spec, value, encoders);
    }
    const allowed: Readonly<Partial<Record<HelperName, true>>> = HELPERS_BY_KIND[spec.type];
    if (!allowed[value.helper]) throw new BadCriterion(`q.${value.helper}() does not apply to a ${spec.type} field`);
    return RENDER[value.helper](value.args, spec, encoders);
  } catch (error) {
    if (error instanceof BadCriterion) throw new TypeError(`find on layout "${layout}", field "${field}": ${error.message}`);
    throw error;
  }
}

/**
 * A request as sent: each field's criterion, `omit` as "true"; fields the layout lacks are refused. Dates and
 * timestamps in the form `encoders` write (`ISO_ENCODERS` for a find sent with `dateformats` 2).
 */
export function encodeFindRequest(definition: LayoutSpec, request: Record<string, unknown>, encoders = ENCODERS): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(request)) {
    if (value === undefined) continue;
    if (name === "omit") {
      if (value) out.omit = "true";
      continue;
    }
    const spec = findableSpec(definition, name);
    if (!spec) throw new TypeError(`find on layout "${definition.layout}": no field "${name}"`);
    setOwn(out, name, fieldCriterion(spec, name, value, definition.layout, encoders));
  }
  return out;
}

/** A field of the layout, or else of one of its portals. */
function findableSpec(definition: LayoutSpec, name: string): FieldSpec | undefined {
  let spec = getOwn(definition.fields, name);
  for (const portal of Object.values(definition.portals ?? {})) spec ??= getOwn(portal.fields, name);
  return spec as FieldSpec | undefined;
}
