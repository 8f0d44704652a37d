import type { HostedDatabase } from "./store.js";

/**
 * What changed in a hosted database, told to whoever listens (OData webhooks: docs/emulator.md, "Webhooks"): records
 * added, updated or deleted through either API or a script, and schema changes. Listeners are told synchronously,
 * after the change is stored; a listener that throws is not the writer's failure (it is reported, not rethrown).
 */
export type ChangeOperation = "ADD" | "UPDATE" | "DELETE" | "SCHEMA";

export interface RecordChange {
  readonly operation: ChangeOperation;
  /** The base table's name (a SCHEMA change: the table whose fields changed, or that was added or deleted). */
  readonly table: string;
  /** The records' ids (ROWID); empty for a SCHEMA change. */
  readonly rowIDs: readonly number[];
}

export type ChangeListener = (change: RecordChange) => void;

interface Feed {
  readonly listeners: Set<ChangeListener>;
  /** Changes made inside `holdChanges`, told only when its work succeeds (a rolled-back changeset tells nothing). */
  held: RecordChange[][];
}

/**
 * Keyed by the database's tables, not the HostedDatabase object: a Data API session sees the file through its own
 * object (globals.ts, sessionDatabase: the same tables with the session's globals), and its writes are the file's.
 */
const feeds = new WeakMap<HostedDatabase["tables"], Feed>();

function feedOf(db: HostedDatabase): Feed {
  let feed = feeds.get(db.tables);
  if (!feed) feeds.set(db.tables, (feed = { listeners: new Set(), held: [] }));
  return feed;
}

/** Listens to `db`'s changes; the function returned stops listening. */
export function onChange(db: HostedDatabase, listener: ChangeListener): () => void {
  const feed = feedOf(db);
  feed.listeners.add(listener);
  return () => feed.listeners.delete(listener);
}

/** Tells `db`'s listeners of a stored change (or holds it, inside `holdChanges`). */
export function emitChange(db: HostedDatabase, change: RecordChange): void {
  const feed = feeds.get(db.tables);
  if (!feed) return;
  const hold = feed.held.at(-1);
  if (hold) {
    hold.push(change);
    return;
  }
  for (const listener of [...feed.listeners]) {
    try {
      listener(change);
    } catch (error) {
      console.error(`fmgen emulator: a change listener failed: ${(error as Error)?.message ?? String(error)}`);
    }
  }
}

/**
 * Runs `work`, telling the changes it makes only when it returns: when it throws (an atomic changeset rolled back),
 * they are dropped, as the records are.
 */
export function holdChanges<T>(db: HostedDatabase, work: () => T): T {
  const feed = feedOf(db);
  const hold: RecordChange[] = [];
  feed.held.push(hold);
  let result: T;
  try {
    result = work();
  } finally {
    feed.held.pop();
  }
  for (const change of hold) emitChange(db, change);
  return result;
}
