/**
 * What a "word" is for find purposes: a maximal run of letters, digits, marks, `_` and apostrophes.
 * Every other character separates words.
 */

/** RegExp character class (for `u`-flag patterns) matching one word character. */
export const WORD_CHAR_CLASS = "[\\p{L}\\p{N}\\p{M}_']";

const WORD_CHAR = new RegExp(`^${WORD_CHAR_CLASS}$`, "u");

/** True when the single code point `char` is a word character. */
export function isWordChar(char: string): boolean {
  return WORD_CHAR.test(char);
}
