import type { StoredScalar } from "../stored-value.js";

/**
 * What a compiled find criterion is (criteria.ts compiles one; text-match.ts builds the text fields' ones),
 * here so that both can name it without importing each other.
 */

/**
 * Tests one stored value (one repetition). Text fields pass strings; container fields pass the file
 * name, or "" when empty; other types pass numbers, or null when empty.
 */
export type Matcher = (value: StoredScalar) => boolean;

/** A comparison operator, with `≤` and `≥` already read as `<=` and `>=`. */
export type Comparison = "<" | "<=" | ">" | ">=";
