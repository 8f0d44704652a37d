import type { TableField } from "./model.js";
import type { StoredRecord, TableData } from "./store.js";
import { encodeWireValue, isContainerRef, isStoredNumber, scriptValue, type StoredValue } from "./stored-value.js";
import { compareNumbers, type StoredNumber } from "./exact-number.js";

export interface SortKey {
  /** The field sorted by, or the record's own id or modification count (OData's ROWID and ROWMODID). */
  field: TableField | "recordId" | "modId";
  descending: boolean;
  /** Sort by this value list's order (a `sortOrder` naming a value list). */
  valueList?: readonly string[];
  /**
   * Read `field` of another record than the one sorted: a related record (OData's `$orderby=Nav/Field` sorts by the
   * first related record's value, as a sort on a related field does). None: the key is empty.
   */
  from?: (record: StoredRecord) => { table: TableData; record: StoredRecord } | undefined;
}

/** Numbers (doubles and ExactNumbers, compared exactly), text lower-cased, or empty. */
type Key = string | StoredNumber | null;

function sortKey(value: StoredValue | undefined): Key {
  if (value === undefined || value === null || value === "") return null;
  if (isContainerRef(value)) return value.filename.toLowerCase();
  return typeof value === "string" ? value.toLowerCase() : value;
}

/**
 * A value-list order as a pair: values in the list by their position in it, then values not in it (by their
 * own order, the second member), then empty values. Values are matched by their wire text, case-insensitively.
 */
function valueListKey(field: TableField, value: StoredValue | undefined, positions: Map<string, number>): [number, Key] {
  const own = sortKey(value);
  if (own === null) return [positions.size + 1, null];
  const text = isContainerRef(value) ? value.filename : scriptValue(encodeWireValue(field.type, value ?? null, () => ""));
  const at = positions.get(String(text).toLowerCase());
  return at === undefined ? [positions.size, own] : [at, null];
}

function listPositions(list: readonly string[]): Map<string, number> {
  const positions = new Map<string, number>();
  list.forEach((entry, i) => {
    const key = entry.toLowerCase();
    if (!positions.has(key)) positions.set(key, i);
  });
  return positions;
}

/** FileMaker order: empty values first when ascending; text case-insensitively; ties keep creation order. */
export function sortRecords(table: TableData, records: StoredRecord[], keys: readonly SortKey[]): StoredRecord[] {
  if (keys.length === 0) return records;
  const positions = keys.map((key) => (key.valueList ? listPositions(key.valueList) : undefined));
  const rows = records.map((record, index) => ({
    record,
    index,
    keys: keys.map(({ field, from }, i): Key | [number, Key] => {
      const source = from ? from(record) : { table, record };
      const list = positions[i];
      if (source === undefined) return list ? [list.size + 1, null] : null;
      if (typeof field === "string") return source.record[field];
      const value = source.table.valuesOf(source.record, field)[0];
      return list ? valueListKey(field, value, list) : sortKey(value);
    }),
  }));
  rows.sort((a, b) => {
    for (let i = 0; i < keys.length; i++) {
      const [x, y] = [a.keys[i]!, b.keys[i]!];
      const order = Array.isArray(x) && Array.isArray(y) ? compareKeys(x[0], y[0]) || compareKeys(x[1], y[1]) : compareKeys(x as Key, y as Key);
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
  const numberA = isStoredNumber(a);
  const numberB = isStoredNumber(b);
  if (numberA && numberB) return compareNumbers(a, b);
  if (!numberA && !numberB) return a < b ? -1 : 1;
  // A number field holding text ("?", a calculation's invalid result) orders numbers before text, to stay total.
  return numberA ? -1 : 1;
}
