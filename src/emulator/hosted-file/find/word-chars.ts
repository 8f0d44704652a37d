/**
 * What a "word" is for find purposes: a maximal run of letters, digits, marks, `_` and apostrophes.
 * Every other character separates words.
 */

/** RegExp character class (for `u`-flag patterns) matching one word character. */
export const WORD_CHAR_CLASS = "[\\p{L}\\p{N}\\p{M}_']";

const WORD_CHAR = new RegExp(`^${WORD_CHAR_CLASS}$`, "u");

/** Word characters among the first 128 code points, looked up instead of tested: most text is ASCII. */
const ASCII_WORD_CHARS = Array.from({ length: 128 }, (_, code) => WORD_CHAR.test(String.fromCharCode(code)));

/** True when the single code point `char` is a word character. */
export function isWordChar(char: string): boolean {
  return WORD_CHAR.test(char);
}

/** The same for a code point given as a number; -1 (no character) is not a word character. */
export function isWordCodePoint(codePoint: number): boolean {
  if (codePoint < 0) return false;
  if (codePoint < 128) return ASCII_WORD_CHARS[codePoint]!;
  return WORD_CHAR.test(String.fromCodePoint(codePoint));
}
