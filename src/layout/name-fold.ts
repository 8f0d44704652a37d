/**
 * How FileMaker compares names (of files, layouts, table occurrences, fields, portals, scripts, value lists): without
 * regard to case, for every script, not only ASCII. The key two names share when FileMaker takes them for one name:
 * Unicode lower case, locale-independent (`toLowerCase`, never a locale's rules), final sigma as sigma (so that
 * "ΟΔΟΣ" and "οδος" agree, which `toLowerCase` alone would not, picking ς or σ from context).
 */
export function foldName(name: string): string {
  const lower = name.toLowerCase();
  return lower.includes("ς") ? lower.replaceAll("ς", "σ") : lower;
}
