import { lookupCost } from "./field-index.js";
import type { PortalModel } from "./model.js";
import type { GlobalScope, StoredRecord, TableData } from "./store.js";
import type { StoredValue } from "./stored-value.js";

/** The value records join on: empty keys join nothing; numbers and text compare as text. */
export function joinKey(value: StoredValue | undefined): string | undefined {
  if (value === null || value === undefined || value === "" || typeof value === "object") return undefined;
  return String(value);
}

/**
 * The portal's rows for one parent record: child records whose childField equals the parent's parentField. A
 * global parent key joins by the value the scope (a session's) sees, as a relationship from a global does.
 */
export function portalRows(portal: PortalModel, parentTable: TableData, parent: StoredRecord, childTable: TableData, globals?: GlobalScope): StoredRecord[] {
  if (!portal.relation) return [];
  const { parentField, childField } = portal.relation;
  const key = joinKey(parentTable.valuesOf(parent, parentField, globals)[0]);
  if (key === undefined) return [];
  const index = childTable.index(childField, "join");
  if (index) return index.lookup(key).map((id) => childTable.records.get(id)!);
  // Global key fields are not indexed: scan.
  const rows: StoredRecord[] = [];
  lookupCost.ids += childTable.records.size;
  for (const child of childTable.records.values()) {
    if (joinKey(childTable.valuesOf(child, childField, globals)[0]) === key) rows.push(child);
  }
  return rows;
}

/**
 * One record of the child table if it is a row of the portal for this parent (what {@link portalRows} would list),
 * else undefined: the record's own join key is compared with the parent's, so checking one row costs the same
 * whatever the portal's size (a write of every row of a large portal checks each row once).
 */
export function portalRow(portal: PortalModel, parentTable: TableData, parent: StoredRecord, childTable: TableData, recordId: number, globals?: GlobalScope): StoredRecord | undefined {
  if (!portal.relation) return undefined;
  const { parentField, childField } = portal.relation;
  const key = joinKey(parentTable.valuesOf(parent, parentField, globals)[0]);
  const child = childTable.records.get(recordId);
  if (key === undefined || !child) return undefined;
  return joinKey(childTable.valuesOf(child, childField, globals)[0]) === key ? child : undefined;
}
