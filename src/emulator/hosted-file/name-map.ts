// How the hosted file matches a name a request gives (a database, layout, table occurrence, field, portal, script,
// value list) with a name it holds: as FileMaker does, without regard to case (docs/emulator.md, "Names"). One map
// for every such lookup, so that no path matches names by a rule of its own.

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

/**
 * A map keyed by names as the file holds them, looked up by any spelling that differs only by case: `get("planets")`
 * finds `Planets`. Iterating gives each entry under its own name, as answers name things. Setting a name that
 * differs only by case from one held replaces that entry under the new name.
 */
export class NameMap<V> extends Map<string, V> {
  readonly #own = new Map<string, string>();

  constructor(entries?: Iterable<readonly [string, V]>) {
    // Map's constructor would call set before #own exists.
    super();
    if (entries) for (const [name, value] of entries) this.set(name, value);
  }

  /** The name as held for a spelling of it, or undefined. */
  ownName(name: string): string | undefined {
    return super.has(name) ? name : this.#own.get(foldName(name));
  }

  override get(name: string): V | undefined {
    const own = this.ownName(name);
    return own === undefined ? undefined : super.get(own);
  }

  override has(name: string): boolean {
    return this.ownName(name) !== undefined;
  }

  override set(name: string, value: V): this {
    const held = this.#own.get(foldName(name));
    if (held !== undefined && held !== name) super.delete(held);
    this.#own.set(foldName(name), name);
    return super.set(name, value);
  }

  override delete(name: string): boolean {
    const own = this.ownName(name);
    if (own === undefined) return false;
    this.#own.delete(foldName(own));
    return super.delete(own);
  }

  override clear(): void {
    this.#own.clear();
    super.clear();
  }
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
