import type { PortalModel } from "./model.js";
import type { StoredRecord, TableData } from "./store.js";
import type { StoredValue } from "./stored-value.js";

/** The value records join on: empty keys join nothing; numbers and text compare as text. */
export function joinKey(value: StoredValue | undefined): string | undefined {
  if (value === null || value === undefined || value === "" || typeof value === "object") return undefined;
  return String(value);
}

/** The portal's rows for one parent record: child records whose childField equals the parent's parentField. */
export function portalRows(portal: PortalModel, parentTable: TableData, parent: StoredRecord, childTable: TableData): StoredRecord[] {
  if (!portal.relation) return [];
  const { parentField, childField } = portal.relation;
  const key = joinKey(parentTable.valuesOf(parent, parentField)[0]);
  if (key === undefined) return [];
  const index = childTable.index(childField, "join");
  if (index) return index.lookup(key).map((id) => childTable.records.get(id)!);
  // Global key fields are not indexed: scan.
  const rows: StoredRecord[] = [];
  for (const child of childTable.records.values()) {
    if (joinKey(childTable.valuesOf(child, childField)[0]) === key) rows.push(child);
  }
  return rows;
}
