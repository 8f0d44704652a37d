import { isWordCodePoint } from "./word-chars.js";

/**
 * Wildcard patterns (`*` any run, `@` one character, `#` one digit) matched without backtracking. Every
 * partial match is followed at once (a Thompson simulation over pattern positions), so one value costs at
 * most (value length) x (pattern length) steps, whatever the criterion: a criterion can make a find slow in
 * proportion to its size, never exponentially. Values are read by code points, as `u`-flag RegExps read them.
 */

/** One element of a pattern: a literal code point, or a wildcard. */
export type PatternElement = { readonly kind: "char"; readonly codePoint: number } | { readonly kind: "any" | "one" | "digit" };

/**
 * Where a match may begin or end: only at the edge of the value, at an edge or next to a character that is
 * not a word character (FileMaker's word starts and ends), or anywhere.
 */
export type PatternEdge = "value" | "word" | "anywhere";

export interface PatternOptions {
  /** What `@`, and each character of a `*` run, may stand for. */
  readonly wildcards: "anyChar" | "wordChar";
  readonly start: PatternEdge;
  readonly end: PatternEdge;
}

/** Tests whether a pattern occurs in a value (both already case-folded) within the options' edges. */
export type PatternTest = (text: string) => boolean;

/** The elements of literal text: one per code point. */
export function literalElements(text: string): PatternElement[] {
  return Array.from(text, (char) => ({ kind: "char", codePoint: char.codePointAt(0)! }));
}

export function compilePattern(elements: readonly PatternElement[], options: PatternOptions): PatternTest {
  // A `*` at an edge that may be anywhere can always match nothing: dropping it changes no answer.
  let from = 0;
  let to = elements.length;
  if (options.start === "anywhere") while (from < to && elements[from]!.kind === "any") from++;
  if (options.end === "anywhere") while (to > from && elements[to - 1]!.kind === "any") to--;
  const trimmed = elements.slice(from, to);
  if (trimmed.every((element) => element.kind === "char")) return literalSearch(trimmed, options);
  return withLiteralFilter(trimmed, options, simulation(trimmed, options));
}

const KIND_CHAR = 0;
const KIND_ANY = 1;
const KIND_ONE = 2;
const KIND_DIGIT = 3;

/** Generations past this restart at 0, so that the `seen` marks never overflow. */
const MAX_ROUND = 0x3fffffff;

function simulation(elements: readonly PatternElement[], options: PatternOptions): PatternTest {
  const length = elements.length;
  const kinds = Int8Array.from(elements, (e) => (e.kind === "char" ? KIND_CHAR : e.kind === "any" ? KIND_ANY : e.kind === "one" ? KIND_ONE : KIND_DIGIT));
  const codePoints = Int32Array.from(elements, (e) => (e.kind === "char" ? e.codePoint : -1));
  const inScope = options.wildcards === "anyChar" ? () => true : isWordCodePoint;
  const { start, end } = options;
  // Where a match can begin when nothing is in progress: the next occurrence of a leading literal character.
  const first = elements[0];
  const firstChar = first?.kind === "char" ? String.fromCodePoint(first.codePoint) : null;
  // State s: the first s elements are matched. `seen[s] === round` marks s live at the current position. The
  // buffers are reused from value to value (a matcher runs to completion before the next call).
  const seen = new Int32Array(length + 1);
  let round = 0;
  let live: number[] = [];
  let next: number[] = [];
  // Adds a state and, past each `*` (which may match nothing), the state after it.
  const add = (list: number[], state: number): void => {
    for (let s = state; seen[s] !== round; s++) {
      seen[s] = round;
      list.push(s);
      if (s === length || kinds[s] !== KIND_ANY) return;
    }
  };

  return (text) => {
    if (round >= MAX_ROUND) {
      seen.fill(0);
      round = 0;
    }
    round++;
    live.length = 0;
    let previous = -1;
    for (let position = 0; ; ) {
      if (live.length === 0) {
        if (start === "value" && position > 0) return false;
        if (firstChar !== null && start !== "value") {
          const at = nextWholeOccurrence(text, firstChar, position);
          if (at === -1) return false;
          if (at !== position) {
            previous = codePointBefore(text, at);
            position = at;
          }
        }
      }
      if (start === "anywhere" || position === 0 || (start === "word" && !isWordCodePoint(previous))) add(live, 0);
      if (seen[length] === round && endAllowed(text, position, end)) return true;
      if (position >= text.length) return false;
      const codePoint = text.codePointAt(position)!;
      round++;
      next.length = 0;
      for (let i = 0; i < live.length; i++) {
        const s = live[i]!;
        if (s === length) continue;
        const kind = kinds[s]!;
        if (kind === KIND_ANY) {
          if (inScope(codePoint)) add(next, s);
        } else if (kind === KIND_CHAR ? codePoints[s] === codePoint : kind === KIND_ONE ? inScope(codePoint) : codePoint >= 0x30 && codePoint <= 0x39) {
          add(next, s + 1);
        }
      }
      const swap = live;
      live = next;
      next = swap;
      previous = codePoint;
      position += codePoint > 0xffff ? 2 : 1;
    }
  };
}

/**
 * Runs the simulation only on values that hold every literal run of the pattern (at the value's edges when
 * the pattern is anchored there): a necessary condition that native string search checks fast, so that most
 * values of a table are refused without stepping through them.
 */
function withLiteralFilter(elements: readonly PatternElement[], options: PatternOptions, test: PatternTest): PatternTest {
  const runs: string[] = [];
  let run = "";
  for (const element of elements) {
    if (element.kind === "char") run += String.fromCodePoint(element.codePoint);
    else if (run !== "") {
      runs.push(run);
      run = "";
    }
  }
  if (run !== "") runs.push(run);
  const prefix = options.start === "value" && elements[0]?.kind === "char" ? runs[0]! : "";
  const suffix = options.end === "value" && elements.at(-1)?.kind === "char" ? runs.at(-1)! : "";
  return (text) => {
    if (!text.startsWith(prefix) || !text.endsWith(suffix)) return false;
    for (const literal of runs) if (!text.includes(literal)) return false;
    return test(text);
  };
}

/** The next index >= `from` where `needle` starts on a code point boundary, or -1. */
function nextWholeOccurrence(text: string, needle: string, from: number): number {
  let at = text.indexOf(needle, from);
  while (at !== -1 && splitsPair(text, at)) at = text.indexOf(needle, at + 1);
  return at;
}

/** A pattern of literal characters only: found with indexOf, each occurrence checked at its edges. */
function literalSearch(elements: readonly PatternElement[], options: PatternOptions): PatternTest {
  // Built one code point at a time: spreading a long criterion into arguments would overflow the stack.
  let needle = "";
  for (const element of elements) needle += String.fromCodePoint(element.kind === "char" ? element.codePoint : 0);
  const { start, end } = options;
  if (start === "value" && end === "value") return (text) => text === needle;
  return (text) => {
    for (let at = text.indexOf(needle); at !== -1; at = at < text.length ? text.indexOf(needle, at + 1) : -1) {
      const after = at + needle.length;
      // A code point is never split: an occurrence inside a surrogate pair is no occurrence.
      if (splitsPair(text, at) || splitsPair(text, after)) continue;
      if (start === "value" && at !== 0) return false;
      if (start === "word" && isWordCodePoint(codePointBefore(text, at))) continue;
      if (endAllowed(text, after, end)) return true;
    }
    return false;
  };
}

function endAllowed(text: string, position: number, end: PatternEdge): boolean {
  if (end === "anywhere" || position >= text.length) return true;
  return end === "word" && !isWordCodePoint(text.codePointAt(position)!);
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/** True when `position` falls between the two halves of a surrogate pair. */
function splitsPair(text: string, position: number): boolean {
  return position > 0 && position < text.length && isHighSurrogate(text.charCodeAt(position - 1)) && isLowSurrogate(text.charCodeAt(position));
}

/** The code point that ends just before `position` (-1 at the start). */
function codePointBefore(text: string, position: number): number {
  if (position === 0) return -1;
  const unit = text.charCodeAt(position - 1);
  if (isLowSurrogate(unit) && position >= 2 && isHighSurrogate(text.charCodeAt(position - 2))) return text.codePointAt(position - 2)!;
  return unit;
}
