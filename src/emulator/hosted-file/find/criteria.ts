import type { FieldType } from "../../../layout/schema.js";
import { fieldValueForm, type DateFormat } from "../date-format.js";
import {
  compileTextComparison,
  compileTextRange,
  compileWholeField,
  compileWordEquals,
  compileWordSearch,
} from "./text-match.js";
import type { Comparison, Matcher } from "./matcher.js";
import { type Token, isBare, tokenText, tokenizeCriterion, trimTokens } from "./tokens.js";
import { type Interval, type TypedFieldType, atOrAfterStart, atOrBeforeEnd, beforeStart, parseTypedOperand } from "./typed-operand.js";
import { isStoredNumber } from "../stored-value.js";

/**
 * Compiles one find criterion (the string a client sent for one field of a find request) into a
 * matcher over stored values. Parsing happens once here; the matcher runs once per record.
 * See docs/emulator.md, "Find semantics".
 */

/** FileMaker error codes for unusable criteria: 500 date, 501 time, 502 number, 1708 unsupported. */
export type FindCriterionErrorCode = "500" | "501" | "502" | "1708";

/** Why a criterion is unusable; `code` is the FileMaker error code the Data API would answer. */
export class FindCriterionError extends Error {
  override readonly name = "FindCriterionError";
  readonly code: FindCriterionErrorCode;

  constructor(code: FindCriterionErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

export interface CriterionContext {
  /** Today, in days since 1970-01-01, from the emulator clock (what `//` means). */
  readonly today: number;
  /** The call's `dateformats`: how date and timestamp criteria are written (default US). */
  readonly dateFormat?: DateFormat;
}

/** Unescaped, these FileMaker operators (duplicates, relaxed search, invalid value) are refused. */
const UNSUPPORTED_OPERATORS = new Set(["!", "~", "?"]);

const matchAll: Matcher = () => true;
const isEmpty: Matcher = (value) => value === null || value === "";
const isNotEmpty: Matcher = (value) => value !== null && value !== "";

export function compileCriterion(criterion: string, type: FieldType, context: CriterionContext): Matcher {
  const tokens = trimTokens(tokenizeCriterion(criterion));
  if (tokens.length === 0) return matchAll;
  for (const token of tokens) {
    if (token.kind === "bare" && UNSUPPORTED_OPERATORS.has(token.char)) {
      throw new FindCriterionError("1708", `operator ${token.char} is not supported by the emulator`);
    }
  }
  if (isExactly(tokens, "=") || isExactly(tokens, "==")) return isEmpty;
  if (isExactly(tokens, "*")) return isNotEmpty;
  if (type === "text" || type === "container") return compileText(tokens);
  return compileTyped(tokens, type, criterion, context);
}

function isExactly(tokens: readonly Token[], operator: string): boolean {
  const chars = Array.from(operator);
  return tokens.length === chars.length && chars.every((char, i) => isBare(tokens[i], char));
}

type Prefix = { operator: "==" | "=" | Comparison; operand: Token[] };

/** A leading `==`, `=`, `<`, `<=`, `>`, `>=`, `≤` or `≥`, and the trimmed rest of the criterion. */
function splitPrefix(tokens: readonly Token[]): Prefix | null {
  const [first, second] = tokens;
  const rest = (length: number) => trimTokens(tokens.slice(length));
  if (isBare(first, "=")) {
    return isBare(second, "=") ? { operator: "==", operand: rest(2) } : { operator: "=", operand: rest(1) };
  }
  if (isBare(first, "<")) {
    return isBare(second, "=") ? { operator: "<=", operand: rest(2) } : { operator: "<", operand: rest(1) };
  }
  if (isBare(first, ">")) {
    return isBare(second, "=") ? { operator: ">=", operand: rest(2) } : { operator: ">", operand: rest(1) };
  }
  if (isBare(first, "≤")) return { operator: "<=", operand: rest(1) };
  if (isBare(first, "≥")) return { operator: ">=", operand: rest(1) };
  return null;
}

/**
 * `a...b` (two or more unescaped dots, at the first such run): the trimmed bounds; an empty bound is
 * open (`...b`, `a...`). Null when there is no range operator, or when both bounds are empty.
 */
function splitRange(tokens: readonly Token[]): { lo: Token[]; hi: Token[] } | null {
  for (let i = 0; i + 1 < tokens.length; i++) {
    if (!isBare(tokens[i], ".") || !isBare(tokens[i + 1], ".")) continue;
    let end = i + 2;
    while (isBare(tokens[end], ".")) end++;
    const lo = trimTokens(tokens.slice(0, i));
    const hi = trimTokens(tokens.slice(end));
    return lo.length === 0 && hi.length === 0 ? null : { lo, hi };
  }
  return null;
}

function compileText(tokens: readonly Token[]): Matcher {
  const prefix = splitPrefix(tokens);
  if (prefix !== null) {
    switch (prefix.operator) {
      case "==":
        return compileWholeField(prefix.operand);
      case "=":
        // `=""` reads like `=`: the empty field.
        return tokenText(prefix.operand) === "" ? isEmpty : compileWordEquals(prefix.operand);
      default:
        // A comparison sign with nothing to compare to is searched for as text.
        return prefix.operand.length === 0
          ? compileWordSearch(tokens)
          : compileTextComparison(prefix.operator, tokenText(prefix.operand));
    }
  }
  const range = splitRange(tokens);
  if (range !== null) {
    return compileTextRange(
      range.lo.length === 0 ? null : tokenText(range.lo),
      range.hi.length === 0 ? null : tokenText(range.hi),
    );
  }
  return compileWordSearch(tokens);
}

const INVALID_CODE: Record<TypedFieldType, FindCriterionErrorCode> = {
  number: "502",
  date: "500",
  time: "501",
  timestamp: "500",
};

function compileTyped(tokens: readonly Token[], type: TypedFieldType, criterion: string, context: CriterionContext): Matcher {
  const read = (operand: readonly Token[]): Interval => {
    const interval = parseTypedOperand(type, tokenText(operand), context.today, context.dateFormat);
    if (interval === null) {
      throw new FindCriterionError(INVALID_CODE[type], `find criterion "${criterion}" is not a valid ${type} (expected ${fieldValueForm(type, context.dateFormat)}, or a range or operator on one)`);
    }
    return interval;
  };

  const prefix = splitPrefix(tokens);
  if (prefix !== null) {
    const x = read(prefix.operand);
    switch (prefix.operator) {
      case "==":
      case "=":
        return (value) => isStoredNumber(value) && atOrAfterStart(value, x) && atOrBeforeEnd(value, x);
      case "<":
        return (value) => isStoredNumber(value) && beforeStart(value, x);
      case "<=":
        return (value) => isStoredNumber(value) && atOrBeforeEnd(value, x);
      case ">":
        return (value) => isStoredNumber(value) && !atOrBeforeEnd(value, x);
      case ">=":
        return (value) => isStoredNumber(value) && atOrAfterStart(value, x);
    }
  }

  const range = splitRange(tokens);
  if (range !== null) {
    const lo = range.lo.length === 0 ? null : read(range.lo);
    const hi = range.hi.length === 0 ? null : read(range.hi);
    return (value) =>
      isStoredNumber(value) && (lo === null || atOrAfterStart(value, lo)) && (hi === null || atOrBeforeEnd(value, hi));
  }

  const x = read(tokens);
  return (value) => isStoredNumber(value) && atOrAfterStart(value, x) && atOrBeforeEnd(value, x);
}
