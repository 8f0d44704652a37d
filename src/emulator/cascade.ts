import type { HostedDatabase, StoredRecord } from "./store.js";
import { portalRows } from "./relations.js";

/** Deletes a record and, where a relation says cascadeDelete, its related records (recursively). */
export function deleteWithCascade(db: HostedDatabase, tableName: string, record: StoredRecord): void {
  const table = db.tables.get(tableName)!;
  // Removed first, so a relation that leads back to this record ends the recursion.
  table.remove(record.recordId);
  for (const layout of db.model.layouts.values()) {
    if (layout.table.name !== tableName) continue;
    for (const portal of layout.portals) {
      if (!portal.relation?.cascadeDelete) continue;
      const childTable = db.tables.get(portal.table.name)!;
      for (const child of portalRows(portal, table, record, childTable, db.globals)) {
        if (childTable.records.has(child.recordId)) deleteWithCascade(db, portal.table.name, child);
      }
    }
  }
}
