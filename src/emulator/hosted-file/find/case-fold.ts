/**
 * The simple Unicode case fold finds use on both sides of a text comparison: `toLowerCase()`, plus
 * final sigma folded to sigma, because `toLowerCase()` picks ς or σ from context, so a criterion word
 * ("ΟΔΟΣ" -> "οδος") could otherwise disagree with the same letters inside a longer field value.
 */
export function foldCase(text: string): string {
  const lower = text.toLowerCase();
  return lower.includes("ς") ? lower.replaceAll("ς", "σ") : lower;
}
