// JSON with numbers kept digit for digit, for both APIs and the emulator. `JSON.parse` reads every number token
// through a double, so a 58-digit `Get ( UUIDNumber )` key comes back as another number, and `JSON.stringify`
// writes one the same way. Node 20 has neither `JSON.rawJSON` nor the reviver's source text, so a token a double
// cannot hold is carried as a NumberToken: parseJson makes one, stringifyJson writes one as its token.
import { doubleHolds, surelyHeld } from "./decimal-text.js";

/**
 * The brand every NumberToken carries: a registered symbol, so that code holding another copy of this module (the CLI's
 * pull reads answers through the installed runtime package) still knows one (`isNumberToken`).
 */
const BRAND = Symbol.for("fmgen.NumberToken");

/** A JSON number token kept as its text: what a double could not hold (read), or an exact field's value (written). */
export class NumberToken {
  /** `text`: a JSON number token, digit for digit (`"12345678901234567890123"`). */
  constructor(readonly text: string) {}

  /** @internal The brand `isNumberToken` looks for. */
  get [BRAND](): true {
    return true;
  }

  /** Marked text, which stringifyJson writes back as the bare token. */
  toJSON(): string {
    return PREFIX + this.text;
  }
}

/**
 * What a NumberToken's text travels behind inside the parser and JSON.stringify: NUL and a key made when the module
 * loads, so that no text a server or an app sends can pass for a number (JSON.stringify writes NUL as `\u0000`).
 */
const PREFIX = `\u0000fmgen-number-${randomKey()}:`;
const QUOTED_PREFIX = JSON.stringify(PREFIX).slice(1, -1);
const MARKED = new RegExp(`"${QUOTED_PREFIX.replace(/\\/g, "\\\\")}([-+.0-9eE]+)"`, "g");

function randomKey(): string {
  const bytes = new Uint8Array(12);
  // getRandomValues is there on every runtime the package names, in insecure contexts too (a Web Viewer's page).
  if (typeof crypto === "object" && typeof crypto.getRandomValues === "function") crypto.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Whether a text may hold a number token a double does not hold digit for digit: a run of 16 digits or points (16 or
 * more significant digits), or a negative exponent after a digit (`1e-400` would read as 0). Far cheaper than the
 * parse: one character in 16 is looked at (any run of 16 holds one of them), and two native searches for `e-` and
 * `E-`; an answer with neither is parsed by JSON.parse alone. (Digits inside strings count too: the full scan then
 * finds no number to keep.) A positive exponent past a double's range (`1e400`) is not looked for: it reads as
 * Infinity, which every decoder refuses, since no FileMaker server writes numbers with an exponent.
 */
function mayHoldLong(text: string): boolean {
  const length = text.length;
  for (let i = 15; i < length; i += 16) {
    if (!digitOrPoint(text.charCodeAt(i))) continue;
    let from = i;
    while (from > 0 && digitOrPoint(text.charCodeAt(from - 1))) from--;
    let to = i;
    while (to + 1 < length && digitOrPoint(text.charCodeAt(to + 1))) to++;
    if (to - from >= 15) return true;
  }
  for (const exponent of ["e-", "E-"]) {
    for (let at = text.indexOf(exponent); at > 0; at = text.indexOf(exponent, at + 2)) {
      const before = text.charCodeAt(at - 1);
      if (before >= 48 && before <= 57) return true;
    }
  }
  return false;
}

const digitOrPoint = (c: number) => (c >= 48 && c <= 57) || c === 46;

/** A JSON number token; no two of its parts can match the same characters, so it never backtracks. */
const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$/;

/**
 * JSON.parse, but each number token a JavaScript number would not hold digit for digit (`doubleHolds`) is a
 * NumberToken of its text. Throws as JSON.parse does on text that is not JSON.
 */
export function parseJson(text: string): unknown {
  if (!mayHoldLong(text)) return JSON.parse(text);
  const marked = markLongNumbers(text);
  return marked === undefined ? JSON.parse(text) : parseMarked(text, marked);
}

/**
 * The marked text parsed. Text that is not JSON throws JSON.parse's own SyntaxError for the text as it came, so that a
 * message quoting it never shows the marked text (whose key would let a sender forge a token).
 */
function parseMarked(text: string, marked: string): unknown {
  try {
    return JSON.parse(marked, revive);
  } catch (error) {
    JSON.parse(text);
    throw error;
  }
}

/**
 * parseJson without the look before the parse: every text is scanned for long tokens, positive exponents past a
 * double's range (`1e999999`) too, so that each is a NumberToken of its text. For what reads requests rather than
 * answers (the emulator), where a body's every value must be named as it was sent, and bodies are small.
 */
export function parseJsonExactly(text: string): unknown {
  const marked = markLongNumbers(text);
  return marked === undefined ? JSON.parse(text) : parseMarked(text, marked);
}

function revive(_key: string, value: unknown): unknown {
  return typeof value === "string" && value.charCodeAt(0) === 0 && value.startsWith(PREFIX) ? new NumberToken(value.slice(PREFIX.length)) : value;
}

/**
 * The text with each long number token written as a marked string, or undefined when it has none. Reads each
 * character once: strings are skipped to their closing quote, tokens read whole. Text that is not JSON is left for
 * JSON.parse to refuse.
 */
function markLongNumbers(text: string): string | undefined {
  let out: string[] | undefined;
  let copied = 0;
  const length = text.length;
  let at = 0;
  while (at < length) {
    const c = text.charCodeAt(at);
    if (c === 34 /* " */) {
      at = stringEnd(text, at);
      continue;
    }
    if (c === 45 || (c >= 48 && c <= 57)) {
      const from = at;
      for (let d = c; d === 45 || d === 43 || d === 46 || (d >= 48 && d <= 57) || (d | 32) === 101; d = text.charCodeAt(++at));
      const token = text.slice(from, at);
      // Only a well-formed token is marked: anything else stays for JSON.parse to refuse.
      if (!surelyHeld(token) && JSON_NUMBER.test(token) && !doubleHolds(token)) {
        (out ??= []).push(text.slice(copied, from), `"${QUOTED_PREFIX}${token}"`);
        copied = at;
      }
      continue;
    }
    at++;
  }
  if (out === undefined) return undefined;
  out.push(text.slice(copied));
  return out.join("");
}

/** The index just past the string that opens at `at` (or the text's end when it never closes). */
function stringEnd(text: string, at: number): number {
  for (;;) {
    const quote = text.indexOf('"', at + 1);
    if (quote < 0) return text.length;
    // Escaped when an odd number of backslashes stand before it.
    let slashes = 0;
    while (text.charCodeAt(quote - 1 - slashes) === 92) slashes++;
    if (slashes % 2 === 0) return quote + 1;
    at = quote;
  }
}

/** Whether a value is a NumberToken, of this copy of the module or another. */
export function isNumberToken(value: unknown): value is NumberToken {
  return typeof value === "object" && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true;
}

/** JSON.stringify, with each NumberToken written as its bare token, digit for digit. */
export function stringifyJson(value: unknown): string {
  const json = JSON.stringify(value);
  return json !== undefined && json.includes(QUOTED_PREFIX) ? json.replace(MARKED, "$1") : json;
}
