import { holdChanges } from "../change-feed.js";
import type { HostedDatabase, StoredRecord, TableData } from "../store.js";
import type { StoredValue } from "../stored-value.js";

/**
 * Runs `work` (one synchronous step: no await may come inside it) as one atomic change to `db`: when it throws,
 * every record it stored or removed in any table is put back as it was (auto-enter values, unique and join
 * indexes and container holds follow, as TableData.put/remove keep them), each table's next record id and serial
 * numbers are restored, and so are the file's global field values and the tables' creation order; the change feed never hears of it
 * (change-feed.ts holdChanges). Container files a rolled-back write uploaded are held by no record afterwards, so
 * the container store drops them (store.ts ContainerStore). What OData's `$batch` changesets run in
 * (docs/emulator.md, "`$batch`").
 *
 * Records are never changed in place (record-writes.ts), so the record a put replaces is its previous version
 * whole. Inside another atomic step of the same database, `work` joins it (the outer one rolls back).
 */
export function atomically<T>(db: HostedDatabase, work: () => T): T {
  const tables = [...db.tables.values()];
  if (tables.some((t) => t.journal !== undefined)) return work();
  const undo: { table: TableData; recordId: number; previous: StoredRecord | undefined }[] = [];
  const saved = tables.map((table) => ({ table, counters: table.counters(), globals: new Map<string, StoredValue[]>(table.globals) }));
  // A table's creation order before its first removal: a record put back must take its old place again.
  const orders = new Map<TableData, number[]>();
  const journal = (table: TableData, recordId: number, previous: StoredRecord | undefined, removed: boolean) => {
    if (removed && !orders.has(table)) orders.set(table, [...table.records.keys()]);
    undo.push({ table, recordId, previous });
  };
  for (const table of tables) table.journal = journal;
  return holdChanges(db, () => {
    try {
      return work();
    } catch (error) {
      for (const table of tables) table.journal = undefined;
      for (let i = undo.length - 1; i >= 0; i--) {
        const { table, recordId, previous } = undo[i]!;
        if (previous) table.put(previous);
        else table.remove(recordId);
      }
      for (const [table, order] of orders) table.restoreOrder(order);
      for (const { table, counters, globals } of saved) {
        table.restoreCounters(counters);
        table.globals.clear();
        for (const [k, v] of globals) table.globals.set(k, v);
      }
      throw error;
    } finally {
      for (const table of tables) table.journal = undefined;
    }
  });
}
