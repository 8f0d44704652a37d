import type { TableField } from "./model.js";
import type { StoredValue } from "./stored-value.js";

/**
 * How many record ids index lookups and join scans have handed out since the emulator's module was loaded: a
 * deterministic measure of the work joins do, which a test reads to see that a write's cost per row does not grow
 * with the size of the portal (relations.ts counts its scans here too).
 */
export const lookupCost = { ids: 0 };

/**
 * Record ids by the key of one field's first repetition, kept current as records change, so that unique
 * validation and portal joins look records up instead of scanning the table.
 */
export class FieldIndex {
  private readonly byKey = new Map<string, Set<number>>();
  private readonly keyOfRecord = new Map<number, string>();

  constructor(
    readonly field: TableField,
    private readonly keyOf: (value: StoredValue | undefined) => string | undefined,
  ) {}

  key(value: StoredValue | undefined): string | undefined {
    return this.keyOf(value);
  }

  update(recordId: number, value: StoredValue | undefined): void {
    const next = this.keyOf(value);
    const previous = this.keyOfRecord.get(recordId);
    if (previous === next) return;
    this.remove(recordId);
    if (next === undefined) return;
    this.keyOfRecord.set(recordId, next);
    let ids = this.byKey.get(next);
    if (!ids) this.byKey.set(next, (ids = new Set()));
    ids.add(recordId);
  }

  remove(recordId: number): void {
    const previous = this.keyOfRecord.get(recordId);
    if (previous === undefined) return;
    this.keyOfRecord.delete(recordId);
    const ids = this.byKey.get(previous)!;
    ids.delete(recordId);
    if (ids.size === 0) this.byKey.delete(previous);
  }

  /** Ids of the records whose key is `key`, in creation order. */
  lookup(key: string): number[] {
    const ids = this.byKey.get(key);
    if (!ids) return [];
    lookupCost.ids += ids.size;
    return [...ids].sort((a, b) => a - b);
  }
}
