/**
 * REFERENCE ONLY, for the property test in wildcard-pattern.test.ts: the emulator's text matchers as they
 * were before wildcard matching stopped using RegExps (src/emulator/find/text-match.ts at commit 1082788),
 * kept verbatim but for imports and exports. Its backtracking RegExps blow up on long values with many `*`,
 * so it is only ever run on short inputs.
 */
import type { StoredScalar } from "../../../src/emulator/hosted-file/stored-value.js";
import { foldCase } from "../../../src/emulator/hosted-file/find/case-fold.js";
import { compareCodePoints } from "../../../src/emulator/hosted-file/find/code-point-order.js";
import type { Comparison, Matcher } from "../../../src/emulator/hosted-file/find/matcher.js";
import { type Token, tokenText, trimTokens } from "../../../src/emulator/hosted-file/find/tokens.js";
import { WORD_CHAR_CLASS, isWordChar } from "../../../src/emulator/hosted-file/find/word-chars.js";

/**
 * Matchers for text (and container file name) fields. All parsing, case folding and RegExp
 * compilation happens here, once per criterion; a matcher only folds the field value and tests it.
 */

type Wildcard = "any" | "one" | "digit";
type PatternItem = { readonly kind: "text"; readonly text: string } | { readonly kind: Wildcard };

const W = WORD_CHAR_CLASS;

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
  return typeof value === "string" ? value : value === null ? "" : String(value);
}

function escapeRegExp(text: string): string {
  // Only syntax characters: `u`-flag patterns reject needless escapes such as `\-`.
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
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

/** RegExp source for pattern items; `*` and `@` stand for runs / single characters of `scope`. */
function patternSource(items: readonly PatternItem[], scope: string): string {
  let source = "";
  for (const item of items) {
    if (item.kind === "text") source += escapeRegExp(item.text);
    else if (item.kind === "any") source += `${scope}*`;
    else if (item.kind === "one") source += scope;
    else source += "[0-9]";
  }
  return source;
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
 * RegExp source matching a criterion word at the start of a field word. Literal runs, `@` and `#`
 * only match word characters, so a leading `*` can always stretch back to the start of the field
 * word: `*son` is just `son` inside any word, and needs no anchor (the anchored, backtracking form is
 * several times slower).
 */
function wordStartSource(word: readonly PatternItem[]): string {
  let stars = 0;
  while (word[stars]?.kind === "any") stars++;
  if (stars === 0) return `(?<!${W})${patternSource(word, W)}`;
  return stars === word.length ? W : patternSource(word.slice(stars), W);
}

/** Every regex must match and every substring occur in the case-folded field value. */
function allOf(regexes: readonly RegExp[], substrings: readonly string[]): Matcher {
  if (regexes.length === 0 && substrings.length === 0) return () => true;
  return (value) => {
    const text = textOfValue(value);
    // Every term needs at least one character, so an empty field never matches.
    if (text === "") return false;
    const folded = foldCase(text);
    for (const regex of regexes) if (!regex.test(folded)) return false;
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
  const regexes = words.map((word) => new RegExp(wordStartSource(word), "u"));
  return allOf(regexes, words.length === 0 ? [...phrases, ...loose] : phrases);
}

/**
 * `=x`: every criterion word equals a whole field word (wildcards allowed); a `"phrase"` must occur
 * as whole words. Without words it falls back to substrings like {@link compileWordSearch}.
 */
export function compileWordEquals(tokens: readonly Token[]): Matcher {
  const { words, phrases, loose } = termsOf(tokens);
  const regexes = [
    ...words.map((word) => new RegExp(`${wordStartSource(word)}(?!${W})`, "u")),
    ...phrases.map((phrase) => new RegExp(`(?<!${W})${escapeRegExp(phrase)}(?!${W})`, "u")),
  ];
  return allOf(regexes, words.length === 0 ? loose : []);
}

/** `==x`: the whole field equals x, case-insensitively; `*` `@` `#` may match any character here. */
export function compileWholeField(tokens: readonly Token[]): Matcher {
  const items = patternOf(tokens);
  if (items.every((item) => item.kind === "text")) {
    const target = items.map((item) => (item.kind === "text" ? item.text : "")).join("");
    return (value) => foldCase(textOfValue(value)) === target;
  }
  const regex = new RegExp(`^${patternSource(items, ".")}$`, "su");
  return (value) => regex.test(foldCase(textOfValue(value)));
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
