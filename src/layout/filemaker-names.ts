// How FileMaker matches two names (a database, layout, table occurrence, field, portal, script, value list): without
// regard to case (docs/emulator.md, "Names"). One rule for the emulator's lookups (emulator/hosted-file/name-map.ts)
// and for pull, which finds a layout or table asked in another case under the server's own spelling.

/**
 * The key two names share when FileMaker takes them for one name: without regard to case, for every script, not only
 * ASCII. Unicode lower case, locale-independent (`toLowerCase`, never a locale's rules), final sigma as sigma (so
 * that "ΟΔΟΣ" and "οδος" agree, which `toLowerCase` alone would not, picking ς or σ from context).
 */
export function foldName(name: string): string {
  const lower = name.toLowerCase();
  return lower.includes("ς") ? lower.replaceAll("ς", "σ") : lower;
}

/** Whether two names are the same name to FileMaker. */
export function sameName(a: string, b: string): boolean {
  return a === b || foldName(a) === foldName(b);
}

/** The first of `items` whose name is `name` to FileMaker (an exact match first), or undefined. */
export function findByName<T>(items: Iterable<T>, name: string, nameOf: (item: T) => string): T | undefined {
  let folded: T | undefined;
  for (const item of items) {
    const own = nameOf(item);
    if (own === name) return item;
    if (folded === undefined && sameName(own, name)) folded = item;
  }
  return folded;
}
