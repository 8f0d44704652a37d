/**
 * Escape- and quote-aware tokenizing of a find criterion. Everything else in the find engine works on
 * these tokens, so an operator is only ever recognized where the user wrote it unescaped.
 */

/** How one character (one Unicode code point) of a criterion was written. */
export type TokenKind =
  /** Unescaped and outside a quoted phrase: may act as an operator or wildcard. */
  | "bare"
  /** Escaped with a backslash, or inside a quoted phrase: always the character itself. */
  | "literal"
  /** The unescaped double quote that opens a phrase. */
  | "open"
  /** The unescaped double quote that closes a phrase. */
  | "close";

export interface Token {
  readonly char: string;
  readonly kind: TokenKind;
}

/**
 * Splits a criterion into tokens. `\x` is the literal `x`; a trailing lone backslash is a literal
 * backslash. Unescaped double quotes pair up left to right into phrases (the characters between them
 * are literal); an unpaired last quote is an ordinary bare character.
 */
export function tokenizeCriterion(criterion: string): Token[] {
  const chars: { char: string; escaped: boolean }[] = [];
  const points = Array.from(criterion);
  for (let i = 0; i < points.length; i++) {
    const char = points[i]!;
    const next = points[i + 1];
    if (char === "\\" && next !== undefined) {
      chars.push({ char: next, escaped: true });
      i++;
    } else {
      chars.push({ char, escaped: char === "\\" });
    }
  }

  let quotes = 0;
  for (const c of chars) if (!c.escaped && c.char === '"') quotes++;
  const pairedQuotes = quotes - (quotes % 2);

  const tokens: Token[] = [];
  let seenQuotes = 0;
  let inPhrase = false;
  for (const { char, escaped } of chars) {
    if (!escaped && char === '"' && seenQuotes < pairedQuotes) {
      tokens.push({ char, kind: inPhrase ? "close" : "open" });
      inPhrase = !inPhrase;
      seenQuotes++;
    } else {
      tokens.push({ char, kind: escaped || inPhrase ? "literal" : "bare" });
    }
  }
  return tokens;
}

/** True when the token is the unescaped character `char` outside any phrase. */
export function isBare(token: Token | undefined, char: string): boolean {
  return token !== undefined && token.kind === "bare" && token.char === char;
}

const WHITESPACE = /^\s$/u;

export function isBareWhitespace(token: Token): boolean {
  return token.kind === "bare" && WHITESPACE.test(token.char);
}

/** Drops unescaped whitespace at both ends (escaped whitespace is content and stays). */
export function trimTokens(tokens: readonly Token[]): Token[] {
  let start = 0;
  let end = tokens.length;
  while (start < end && isBareWhitespace(tokens[start]!)) start++;
  while (end > start && isBareWhitespace(tokens[end - 1]!)) end--;
  return tokens.slice(start, end);
}

/** The characters the tokens stand for, escapes resolved and phrase quotes dropped. */
export function tokenText(tokens: readonly Token[]): string {
  let text = "";
  for (const t of tokens) if (t.kind === "bare" || t.kind === "literal") text += t.char;
  return text;
}
