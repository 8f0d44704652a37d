/**
 * Which row a call means, as a URL's key segment (wire contract 2.4): `(7)`, `('O''Brien')` (quotes doubled, then
 * percent-encoded), or `(ROWID=11167)` for `{ rowId }`. A table without a key is addressed by ROWID only.
 */
import type { TableSpec } from "./definition.js";

export function rowSegment(table: TableSpec, ref: unknown, call: string): string {
  if (typeof ref === "object" && ref !== null && "rowId" in ref) {
    const rowId = (ref as { rowId: unknown }).rowId;
    if (typeof rowId !== "number" || !Number.isSafeInteger(rowId) || rowId < 1) throw new TypeError(`${call}: { rowId } must be a ROWID (a whole number above 0) of table "${table.table}"`);
    return `(ROWID=${rowId})`;
  }
  if (table.key === undefined) throw new TypeError(`${call}: table "${table.table}" has no key; name its row as { rowId }`);
  if (typeof ref === "number" && Number.isFinite(ref)) return `(${ref})`;
  if (typeof ref === "string") return `(${encodeURIComponent(`'${ref.replaceAll("'", "''")}'`)})`;
  throw new TypeError(`${call}: a row of table "${table.table}" is its key "${table.key}" (a string or a finite number) or { rowId }, not ${ref === null ? "null" : typeof ref}`);
}
