import { foldName } from "../name-map.js";

/**
 * The simple Unicode case fold finds use on both sides of a text comparison: the one FileMaker compares names by
 * (name-map.ts: `toLowerCase()`, plus final sigma folded to sigma, because `toLowerCase()` picks ς or σ from context,
 * so a criterion word ("ΟΔΟΣ" -> "οδος") could otherwise disagree with the same letters inside a longer field value).
 */
export function foldCase(text: string): string {
  return foldName(text);
}
