import { emitChange } from "./change-feed.js";
import type { PortalModel } from "./model.js";
import type { HostedDatabase, StoredRecord, TableData } from "./store.js";
import { portalRows } from "./relations.js";

/** A record to delete, with the name of its table. */
export interface DeletionRoot {
  tableName: string;
  record: StoredRecord;
}

/** Deletes a record and, where a relation says cascadeDelete, its related records (transitively): all or nothing. */
export function deleteWithCascade(db: HostedDatabase, tableName: string, record: StoredRecord): void {
  deleteAllWithCascade(db, [{ tableName, record }]);
}

/**
 * Deletes the records and everything their cascadeDelete relations reach, in one step: the whole set is
 * collected first (where anything can fail), then removed (which cannot fail: map and index deletions), so a delete
 * removes the whole cascade or nothing. How far a cascade goes is the data's choice (a chain of records each
 * relating to the next), so it is walked with a worklist, never with recursion. Each record removed is told to the
 * change feed (change-feed.ts, DELETE), once all are removed.
 */
export function deleteAllWithCascade(db: HostedDatabase, roots: readonly DeletionRoot[]): void {
  const doomed = cascadeOf(db, roots);
  for (const { table, record } of doomed) table.remove(record.recordId);
  for (const { table, record } of doomed) emitChange(db, { operation: "DELETE", table: table.model.name, rowIDs: [record.recordId] });
}

/** Each record the roots' deletion removes, once: the roots, then what their cascading relations reach. */
function cascadeOf(db: HostedDatabase, roots: readonly DeletionRoot[]): { table: TableData; tableName: string; record: StoredRecord }[] {
  const cascading = cascadingPortals(db);
  const seen = new Map<TableData, Set<number>>();
  // Both the answer and the worklist: each entry is visited once, in order, and may add more after it.
  const doomed: { table: TableData; tableName: string; record: StoredRecord }[] = [];
  const visit = (tableName: string, table: TableData, record: StoredRecord) => {
    let ids = seen.get(table);
    if (!ids) seen.set(table, (ids = new Set()));
    if (ids.has(record.recordId) || !table.records.has(record.recordId)) return;
    ids.add(record.recordId);
    doomed.push({ table, tableName, record });
  };
  for (const { tableName, record } of roots) visit(tableName, db.tables.get(tableName)!, record);
  for (let i = 0; i < doomed.length; i++) {
    const { table, tableName, record } = doomed[i]!;
    for (const portal of cascading.get(tableName) ?? []) {
      const childTable = db.tables.get(portal.table.name)!;
      for (const child of portalRows(portal, table, record, childTable, db.globals)) visit(portal.table.name, childTable, child);
    }
  }
  return doomed;
}

/** Per table name, the portals (of the layouts on that table) whose relation cascades deletes. */
function cascadingPortals(db: HostedDatabase): Map<string, PortalModel[]> {
  const byTable = new Map<string, PortalModel[]>();
  for (const layout of db.model.layouts.values()) {
    for (const portal of layout.portals) {
      if (!portal.relation?.cascadeDelete) continue;
      let portals = byTable.get(layout.table.name);
      if (!portals) byTable.set(layout.table.name, (portals = []));
      portals.push(portal);
    }
  }
  return byTable;
}
