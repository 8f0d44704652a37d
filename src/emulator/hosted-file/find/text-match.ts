import type { StoredScalar } from "../stored-value.js";
import { numberText } from "../exact-number.js";
import { foldCase } from "./case-fold.js";
import { compareCodePoints } from "./code-point-order.js";
import type { Comparison, Matcher } from "./matcher.js";
import { type Token, tokenText, trimTokens } from "./tokens.js";
import { type PatternEdge, type PatternElement, type PatternTest, compilePattern, literalElements } from "./wildcard-pattern.js";
import { isWordChar } from "./word-chars.js";

/**
 * Matchers for text (and container file name) fields. All parsing, case folding and pattern
 * compilation happens here, once per criterion; a matcher only folds the field value and tests it.
 * Wildcards are matched by {@link compilePattern}, never by a RegExp built from the criterion.
 */

type Wildcard = "any" | "one" | "digit";
type PatternItem = { readonly kind: "text"; readonly text: string } | { readonly kind: Wildcard };

function wildcardOf(token: Token): Wildcard | null {
  if (token.kind !== "bare") return null;
  switch (token.char) {
    case "*":
      return "any";
    case "@":
      return "one";
    case "#":
      return "digit";
    default:
      return null;
  }
}

function textOfValue(value: StoredScalar): string {
  return typeof value === "string" ? value : value === null ? "" : numberText(value);
}

/** Wildcards (bare `*` `@` `#`) and case-folded literal runs; phrase quotes are dropped. */
function patternOf(tokens: readonly Token[]): PatternItem[] {
  const items: PatternItem[] = [];
  let run = "";
  for (const token of tokens) {
    if (token.kind === "open" || token.kind === "close") continue;
    const wildcard = wildcardOf(token);
    if (wildcard === null) {
      run += token.char;
      continue;
    }
    if (run !== "") items.push({ kind: "text", text: foldCase(run) });
    run = "";
    items.push({ kind: wildcard });
  }
  if (run !== "") items.push({ kind: "text", text: foldCase(run) });
  return items;
}

function elementsOf(items: readonly PatternItem[]): PatternElement[] {
  return items.flatMap((item) => (item.kind === "text" ? literalElements(item.text) : [{ kind: item.kind }]));
}

interface Terms {
  /** Criterion words: runs of word characters and wildcards. */
  readonly words: PatternItem[][];
  /** Case-folded contents of the quoted phrases (empty phrases dropped). */
  readonly phrases: string[];
  /** Case-folded, trimmed text between phrases; used only when the criterion has no words. */
  readonly loose: string[];
}

function termsOf(tokens: readonly Token[]): Terms {
  const words: PatternItem[][] = [];
  const phrases: string[] = [];
  const loose: string[] = [];
  let word: Token[] = [];
  let segment: Token[] = [];
  let phrase: string | null = null;
  const endWord = () => {
    if (word.length > 0) words.push(patternOf(word));
    word = [];
  };
  const endSegment = () => {
    const trimmed = trimTokens(segment);
    if (trimmed.length > 0) loose.push(foldCase(tokenText(trimmed)));
    segment = [];
  };
  for (const token of tokens) {
    if (token.kind === "open") {
      endWord();
      endSegment();
      phrase = "";
    } else if (token.kind === "close") {
      if (phrase) phrases.push(foldCase(phrase));
      phrase = null;
    } else if (phrase !== null) {
      phrase += token.char;
    } else {
      segment.push(token);
      if (wildcardOf(token) !== null || isWordChar(token.char)) word.push(token);
      else endWord();
    }
  }
  endWord();
  endSegment();
  return { words, phrases, loose };
}

/**
 * A criterion word at the start of a field word; with `end: "word"`, the whole field word. Literal runs,
 * `@` and `#` only match word characters, so a leading `*` can always stretch back to the start of the field
 * word: `*son` is just `son` inside any word, and needs no start edge; `*` alone is any word character.
 */
function wordTest(word: readonly PatternItem[], end: PatternEdge): PatternTest {
  let stars = 0;
  while (word[stars]?.kind === "any") stars++;
  if (stars === 0) return compilePattern(elementsOf(word), { wildcards: "wordChar", start: "word", end });
  const rest: PatternElement[] = stars === word.length ? [{ kind: "one" }] : elementsOf(word.slice(stars));
  return compilePattern(rest, { wildcards: "wordChar", start: "anywhere", end });
}

/** Every test must pass and every substring occur in the case-folded field value. */
function allOf(tests: readonly PatternTest[], substrings: readonly string[]): Matcher {
  if (tests.length === 0 && substrings.length === 0) return () => true;
  return (value) => {
    const text = textOfValue(value);
    // Every term needs at least one character, so an empty field never matches.
    if (text === "") return false;
    const folded = foldCase(text);
    for (const test of tests) if (!test(folded)) return false;
    for (const substring of substrings) if (!folded.includes(substring)) return false;
    return true;
  };
}

/**
 * A plain criterion (`abc def`): every criterion word matches the start of some field word
 * (wildcards `*` `@` `#` stay inside that field word), every `"phrase"` occurs as a substring.
 *
 * A criterion without any word characters (`-`, `\*`, `\@\@`) cannot be matched word-wise, since
 * fields are split at exactly those characters; it is looked up as a case-insensitive substring
 * instead, which is how FileMaker finds punctuation closely enough for an emulator.
 */
export function compileWordSearch(tokens: readonly Token[]): Matcher {
  const { words, phrases, loose } = termsOf(tokens);
  return allOf(
    words.map((word) => wordTest(word, "anywhere")),
    words.length === 0 ? [...phrases, ...loose] : phrases,
  );
}

/**
 * `=x`: every criterion word equals a whole field word (wildcards allowed); a `"phrase"` must occur
 * as whole words. Without words it falls back to substrings like {@link compileWordSearch}.
 */
export function compileWordEquals(tokens: readonly Token[]): Matcher {
  const { words, phrases, loose } = termsOf(tokens);
  const tests = [
    ...words.map((word) => wordTest(word, "word")),
    ...phrases.map((phrase) => compilePattern(literalElements(phrase), { wildcards: "wordChar", start: "word", end: "word" })),
  ];
  return allOf(tests, words.length === 0 ? loose : []);
}

/** `==x`: the whole field equals x, case-insensitively; `*` `@` `#` may match any character here. */
export function compileWholeField(tokens: readonly Token[]): Matcher {
  const items = patternOf(tokens);
  if (items.every((item) => item.kind === "text")) {
    const target = items.map((item) => (item.kind === "text" ? item.text : "")).join("");
    return (value) => foldCase(textOfValue(value)) === target;
  }
  const test = compilePattern(elementsOf(items), { wildcards: "anyChar", start: "value", end: "value" });
  return (value) => test(foldCase(textOfValue(value)));
}

/** `<x` etc.: the whole case-folded field against x, by code points. Empty fields never match. */
export function compileTextComparison(comparison: Comparison, operand: string): Matcher {
  const x = foldCase(operand);
  const test = (value: StoredScalar, accept: (order: number) => boolean) => {
    const text = textOfValue(value);
    return text !== "" && accept(compareCodePoints(foldCase(text), x));
  };
  switch (comparison) {
    case "<":
      return (value) => test(value, (order) => order < 0);
    case "<=":
      return (value) => test(value, (order) => order <= 0);
    case ">":
      return (value) => test(value, (order) => order > 0);
    case ">=":
      return (value) => test(value, (order) => order >= 0);
  }
}

/** `a...b`: lo <= field <= hi by code points of the case-folded strings; null bounds are open. */
export function compileTextRange(lo: string | null, hi: string | null): Matcher {
  const from = lo === null ? null : foldCase(lo);
  const to = hi === null ? null : foldCase(hi);
  return (value) => {
    const text = textOfValue(value);
    if (text === "") return false;
    const folded = foldCase(text);
    return (from === null || compareCodePoints(folded, from) >= 0) && (to === null || compareCodePoints(folded, to) <= 0);
  };
}
