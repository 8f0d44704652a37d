// Tokens of a `$filter`, pulled one at a time by the parser so that errors come in text order. One pass, each
// character looked at a bounded number of times; no RegExp.

import { storedNumberOf, type StoredNumber } from "../hosted-file/exact-number.js";
import { syntaxError } from "./odata-error.js";
import { scanDate, scanTime, scanZone } from "./filter-values.js";

export type TokenKind =
  | "word" // a bare name, keyword or function name; dotted `A.B` is one word
  | "quoted" // a double-quoted name
  | "fmfid" // FMFID:n
  | "string"
  | "number"
  | "date"
  | "timeOfDay"
  | "dateTimeOffset"
  | "("
  | ")"
  | ","
  | "/"
  | "-"
  | "end";

export interface Token {
  readonly kind: TokenKind;
  /** The token's value: as written, except for "quoted" and "string" (quotes removed, `''` undone). */
  readonly text: string;
  /** The token as written, to quote in an error. */
  readonly raw: string;
  /** For number, date, time and timestamp tokens (a number's nearest double). */
  readonly value: number;
  /** A number token's value, every digit (up to 400 significant digits, FileMaker's numbers). */
  readonly number?: StoredNumber;
  readonly start: number;
  readonly end: number;
  /** The token with the blanks around it, as the server quotes an operator it refuses (`' in '`). */
  readonly spaced: string;
  /** A word written straight before `(`: a function call. */
  readonly call: boolean;
}

/** Counts the work done, for tests that check parsing stays linear. */
export interface FilterMeter {
  steps: number;
}

const isBlank = (c: number) => c === 32 || c === 9;
const isDigit = (c: number) => c >= 48 && c <= 57;
/** Letters, `_`, and any non-ASCII character (FileMaker names are Unicode). `$` starts `$it`/`$root`, refused later. */
const isWordStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36 || c >= 128;
const isWordPart = (c: number) => isWordStart(c) || isDigit(c);

export class FilterLexer {
  private pos = 0;

  constructor(
    private readonly text: string,
    private readonly meter: FilterMeter = { steps: 0 },
  ) {}

  private skipBlanks(from: number): number {
    let i = from;
    while (isBlank(this.text.charCodeAt(i))) i++;
    this.meter.steps += i - from;
    return i;
  }

  next(): Token {
    const s = this.text;
    const before = this.pos;
    const start = this.skipBlanks(this.pos);
    const make = (kind: TokenKind, end: number, text = s.slice(start, end), value = Number.NaN): Token => {
      const after = this.skipBlanks(end);
      this.pos = end;
      this.meter.steps += end - start + 1;
      return { kind, text, raw: s.slice(start, end), value, start, end, spaced: s.slice(before, after), call: false };
    };
    if (start >= s.length) return make("end", start, "");
    const c = s.charCodeAt(start);
    const ch = s[start] as string;
    if (ch === "(" || ch === ")" || ch === "," || ch === "/") return make(ch, start + 1);
    if (ch === "'") return this.stringLiteral(start, make);
    if (ch === '"') {
      const close = s.indexOf('"', start + 1);
      if (close < 0) throw syntaxError(s.slice(start));
      return make("quoted", close + 1, s.slice(start + 1, close));
    }
    if (ch === "-") {
      return isDigit(s.charCodeAt(start + 1)) ? this.numeric(start, start + 1, make) : make("-", start + 1);
    }
    if (isDigit(c)) return this.numeric(start, start, make);
    if (isWordStart(c)) {
      let end = start + 1;
      for (;;) {
        while (isWordPart(s.charCodeAt(end))) end++;
        if (s[end] === "." && isWordStart(s.charCodeAt(end + 1))) end += 2;
        else break;
      }
      if (s.slice(start, end) === "FMFID" && s[end] === ":" && isDigit(s.charCodeAt(end + 1))) {
        end += 2;
        while (isDigit(s.charCodeAt(end))) end++;
        return make("fmfid", end);
      }
      const token = make("word", end);
      return s[end] === "(" ? { ...token, call: true } : token;
    }
    // `+` (a space the URL layer should have sent as %20), `$`-less garbage, control characters: refused here.
    throw syntaxError(String.fromCodePoint(s.codePointAt(start) ?? c));
  }

  private stringLiteral(start: number, make: (kind: TokenKind, end: number, text?: string) => Token): Token {
    const s = this.text;
    let value = "";
    let i = start + 1;
    for (;;) {
      const close = s.indexOf("'", i);
      if (close < 0) throw syntaxError(s.slice(start));
      value += s.slice(i, close);
      if (s[close + 1] !== "'") return make("string", close + 1, value);
      value += "'";
      i = close + 2;
    }
  }

  /**
   * A number, or (from unsigned digits) a date `YYYY-MM-DD`, a timestamp `YYYY-MM-DDThh:mm[:ss[.f]]` with a zone, or a
   * time `hh:mm[:ss[.f]]`. A timestamp without a zone ends at its date, so the parser refuses its `T…` (2.7, OOGI).
   */
  private numeric(
    start: number,
    digitsFrom: number,
    make: (kind: TokenKind, end: number, text?: string, value?: number) => Token,
  ): Token {
    const s = this.text;
    let end = digitsFrom;
    while (isDigit(s.charCodeAt(end))) end++;
    if (digitsFrom === start && end - start === 4 && s[end] === "-") {
      const date = scanDate(s, start);
      if (!date) throw syntaxError(this.wordAt(start));
      if (s[date.end] === "T") {
        const time = scanTime(s, date.end + 1, 23);
        const zone = time && scanZone(s, time.end);
        if (time && zone) return make("dateTimeOffset", zone.end, undefined, date.ms + time.ms - zone.offsetMs);
      }
      return make("date", date.end, undefined, date.ms);
    }
    if (digitsFrom === start && end - start === 2 && s[end] === ":") {
      const time = scanTime(s, start, 23);
      if (!time) throw syntaxError(this.wordAt(start));
      return make("timeOfDay", time.end, undefined, time.ms);
    }
    if (s[end] === "." && isDigit(s.charCodeAt(end + 1))) {
      end += 2;
      while (isDigit(s.charCodeAt(end))) end++;
    }
    if (
      (s[end] === "e" || s[end] === "E") &&
      (isDigit(s.charCodeAt(end + 1)) || ((s[end + 1] === "+" || s[end + 1] === "-") && isDigit(s.charCodeAt(end + 2))))
    ) {
      end += 2;
      while (isDigit(s.charCodeAt(end))) end++;
    }
    // Read exactly: a literal a double does not hold keeps its digits; one past 400 digits or 10^±400 is refused.
    const number = storedNumberOf(s.slice(start, end), "lenient");
    if (typeof number === "string") throw syntaxError(s.slice(start, end));
    return { ...make("number", end, undefined, Number(s.slice(start, end))), number };
  }

  /** The run of non-blank characters at `i`, to quote a malformed literal. */
  private wordAt(i: number): string {
    let end = i;
    while (end < this.text.length && end - i < 40 && !isBlank(this.text.charCodeAt(end)) && this.text[end] !== ")")
      end++;
    return this.text.slice(i, end);
  }
}
