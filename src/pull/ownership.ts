import type { FieldType } from "../layout/index.js";

/**
 * Who owns a value a pull writes, one policy for layouts (merge.ts) and tables (odata/merge.ts):
 * - The server owns what it states (the attributes each merge lists). Its value is written, except:
 * - a value in the description that differs from the base (what the server said at the last pull, kept in
 *   fmgen.pulled.json) was changed by hand, and is kept while the server keeps saying what the base says;
 * - once the server says something else, its value wins, over a hand edit as over an unchanged value;
 * - without a base (a first pull, or an fmgen.pulled.json older than what it would hold) the server's value wins;
 * - what the server cannot tell (undefined) is the file's.
 * Values are compared after defaults are filled in (an absent flag is `false`, an absent limit `null`), so that a
 * file that spells out a default and one that leaves it out say the same.
 */

/**
 * One attribute: `fileValue` is undefined when the file has no such item (a new field), `baseValue` when there was no
 * last pull of it, `liveValue` when the server cannot tell.
 */
export function decide<T>(fileValue: T | undefined, baseValue: T | undefined, liveValue: T | undefined, same: (a: T, b: T) => boolean = Object.is): T | undefined {
  if (liveValue === undefined) return fileValue;
  if (fileValue === undefined) return liveValue;
  if (baseValue !== undefined && !same(fileValue, baseValue) && same(liveValue, baseValue)) return fileValue;
  return liveValue;
}

/** Two lists of values (a value list's), `null` for none. */
export const sameList = (a: readonly string[] | null, b: readonly string[] | null): boolean =>
  a === null || b === null ? a === b : a.length === b.length && a.every((v, i) => v === b[i]);

/** The report's note for a kept hand edit: `field "Code": your type number is kept (the server says text, as at the last pull)`. */
export function keptNote(where: string, attribute: string, kept: unknown, server: unknown): string {
  return `${where}: your ${attribute} ${String(kept ?? "none")} is kept (the server says ${String(server ?? "none")}, as at the last pull)`;
}

/**
 * The file's `exact` (the server never states it): kept as written, but `true` on a field that is no longer a number
 * is dropped, with a note, since only a number field can say it.
 */
export function mergeExact(exact: boolean | undefined, type: FieldType, where: string, notes: string[]): boolean | undefined {
  if (exact !== true || type === "number") return exact;
  notes.push(`${where} is now ${type}, so "exact": true is dropped (it applies to number fields only)`);
  return undefined;
}
