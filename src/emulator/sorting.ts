import type { TableField } from "./model.js";
import type { StoredRecord, TableData } from "./store.js";
import type { StoredValue } from "./stored-value.js";

export interface SortKey {
  field: TableField;
  descending: boolean;
}

type Key = string | number | null;

function sortKey(value: StoredValue | undefined): Key {
  if (value === undefined || value === null || value === "") return null;
  if (typeof value === "object") return value.filename.toLowerCase();
  return typeof value === "string" ? value.toLowerCase() : value;
}

/** FileMaker order: empty values first when ascending; text case-insensitively; ties keep creation order. */
export function sortRecords(table: TableData, records: StoredRecord[], keys: readonly SortKey[]): StoredRecord[] {
  if (keys.length === 0) return records;
  const rows = records.map((record, index) => ({
    record,
    index,
    keys: keys.map(({ field }) => sortKey(table.valuesOf(record, field)[0])),
  }));
  rows.sort((a, b) => {
    for (let i = 0; i < keys.length; i++) {
      const order = compareKeys(a.keys[i]!, b.keys[i]!);
      if (order !== 0) return keys[i]!.descending ? -order : order;
    }
    return a.index - b.index;
  });
  return rows.map((row) => row.record);
}

function compareKeys(a: Key, b: Key): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (typeof a === typeof b) return a < b ? -1 : 1;
  // A number field holding text cannot happen here; order numbers before text to stay total.
  return typeof a === "number" ? -1 : 1;
}
