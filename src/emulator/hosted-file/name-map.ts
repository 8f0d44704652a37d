// How the hosted file matches a name a request gives (a database, layout, table occurrence, field, portal, script,
// value list) with a name it holds: as FileMaker does, without regard to case (docs/emulator.md, "Names"). One map
// for every such lookup, so that no path matches names by a rule of its own.

import { foldName } from "../../layout/filemaker-names.js";

// The rule itself is the layout folder's (layout/filemaker-names.ts), which pull uses too, so that the emulator and
// pull match names alike; here for the emulator's lookups.
export { findByName, foldName, sameName } from "../../layout/filemaker-names.js";

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
