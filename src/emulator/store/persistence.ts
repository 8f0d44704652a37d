// Hosted files that persist (`fmgen serve --data-dir DIR`, `startEmulator({ dataDir })`): the hosted server's data
// kept in a data directory (data-directory.ts) as it changes, and read back at the next start.
//
// What changes is heard from the change feed (records added, updated, deleted, by either API, a script or a cascade)
// and from schema changes; it is written when a request is answered: `durable()`, which the shell awaits before it
// writes an answer, turns what changed since the last write into one journal entry (each changed record as it is then,
// container files as blobs first) and resolves once it is on disk. Writes one after another, each waiting for the one
// before: what many requests changed while one was being written goes in the next one, together (a group commit).
// An atomic changeset is one synchronous step (records/atomic-changes.ts), so no entry holds half of one.
import { onChange } from "../hosted-file/change-feed.js";
import type { HostedServer } from "../hosted-file/hosted-server.js";
import { observeSchemaChanges, replaySchemaChange, schemaChangesMade } from "../hosted-file/schema-changes.js";
import type { ContainerRef } from "../hosted-file/stored-value.js";
import type { HostedDatabase, TableData } from "../hosted-file/store.js";
import { DataDirectory } from "./data-directory.js";
import {
  CarryNotes,
  heldContainerIds,
  keptCounters,
  keptGlobals,
  keptRecord,
  keptTable,
  restoreCounters,
  restoreGlobals,
  restoreRecord,
  type KeptChanges,
  type KeptContainer,
  type KeptDatabase,
  type KeptSchemaChange,
  type KeptState,
  type KeptValue,
} from "./hosted-state.js";

/** Past this many bytes of journal, the next write also replaces the snapshot (so that a start replays little). */
const COMPACT_AFTER_BYTES = 64 * 1024 * 1024;

type Entry = readonly KeptChanges[];

/** A hosted server's data directory, kept current. */
export class Persistence {
  /** Per database, per table, the records changed since the last write. */
  readonly #dirty = new Map<string, Map<TableData, Set<number>>>();
  readonly #schema = new Map<string, KeptSchemaChange[]>();
  /** Each database's schema changes since its start, in order: a snapshot keeps them all. */
  readonly #schemaLog = new Map<string, KeptSchemaChange[]>();
  /** Container files whose bytes are in the directory already. */
  readonly #blobs = new Set<string>();
  #chain: Promise<void> = Promise.resolve();
  readonly #stops: (() => void)[] = [];

  private constructor(
    readonly directory: DataDirectory<KeptState, Entry>,
    private readonly server: HostedServer,
  ) {}

  /**
   * Opens DIR and fills the hosted server from it: the data it holds, carried into today's descriptions, or, at a first
   * start (or with `reset`), what `seed` puts in. Then a snapshot is taken, and changes are heard from then on. Lines
   * about what could not be carried over (a field removed or retyped since) go to the server's log.
   */
  static async open(dir: string, server: HostedServer, options: { reset?: boolean | undefined; seed: () => void }): Promise<Persistence> {
    const { directory, stored } = await DataDirectory.open<KeptState, Entry>(dir, { reset: options.reset });
    const persistence = new Persistence(directory, server);
    try {
      if (stored.snapshot === undefined && stored.entries.length === 0) {
        options.seed();
        // The schema changes a seed's files made (an export's): kept, as those made later are.
        for (const [name, db] of server.databases) if (schemaChangesMade(db.model).length > 0) persistence.#schemaLog.set(name, [...schemaChangesMade(db.model)]);
      } else await persistence.#restore(stored.snapshot, stored.entries);
      await persistence.#writeBlobs(server.databases.values());
      // A snapshot unless DIR holds one with nothing after it (a clean close): that one is the state already.
      if (stored.snapshot === undefined || stored.entries.length > 0) await directory.snapshot(persistence.#state());
      await directory.pruneBlobs(persistence.#blobs);
      persistence.#listen();
      return persistence;
    } catch (error) {
      await directory.close();
      throw error;
    }
  }

  /** Resolves once every change made so far is on disk. */
  durable(): Promise<void> {
    const run = this.#chain.then(() => this.#write());
    this.#chain = run.catch(() => {});
    return run;
  }

  /** Writes what is left, replaces the snapshot (a quick next start) and lets DIR go. */
  async close(): Promise<void> {
    for (const stop of this.#stops.splice(0)) stop();
    try {
      await this.durable();
      await this.directory.snapshot(this.#state());
    } finally {
      await this.directory.close();
    }
  }

  #listen(): void {
    for (const [name, db] of this.server.databases) {
      this.#stops.push(
        onChange(db, (change) => {
          if (change.operation === "SCHEMA") return;
          const table = db.tables.get(change.table);
          if (!table) return;
          let tables = this.#dirty.get(name);
          if (!tables) this.#dirty.set(name, (tables = new Map()));
          let ids = tables.get(table);
          if (!ids) tables.set(table, (ids = new Set()));
          for (const id of change.rowIDs) ids.add(id);
        }),
        observeSchemaChanges(db.model, (change) => {
          const list = this.#schema.get(name) ?? [];
          list.push(change);
          this.#schema.set(name, list);
        }),
      );
    }
  }

  /** One entry of what changed since the last one, its container files first; nothing when nothing did. */
  async #write(): Promise<void> {
    const entry: KeptChanges[] = [];
    for (const [name, db] of this.server.databases) {
      const schema = this.#schema.get(name);
      const dirty = this.#dirty.get(name);
      if (!schema?.length && !dirty?.size) continue;
      this.#schema.delete(name);
      this.#dirty.delete(name);
      if (schema) this.#schemaLog.set(name, [...(this.#schemaLog.get(name) ?? []), ...schema]);
      const tables: Record<string, NonNullable<KeptChanges["tables"]>[string]> = {};
      for (const [table, ids] of dirty ?? []) {
        // A table a schema change has deleted since: its records went with it.
        if (db.tables.get(table.model.name) !== table) continue;
        const put: ReturnType<typeof keptRecord>[] = [];
        const removed: number[] = [];
        for (const id of ids) {
          const record = table.records.get(id);
          if (record) put.push(keptRecord(table, record));
          else removed.push(id);
        }
        tables[table.model.name] = { counters: keptCounters(table), globals: keptGlobals(table), put, removed };
      }
      entry.push({ db: name, ...(schema?.length ? { schema } : {}), tables });
    }
    if (entry.length === 0) return;
    await this.#writeEntryBlobs(entry);
    await this.directory.append(entry);
    if (this.directory.journalBytes > COMPACT_AFTER_BYTES) {
      await this.directory.snapshot(this.#state());
      await this.directory.pruneBlobs(new Set([...this.server.databases.values()].flatMap((db) => [...heldContainerIds(db)])));
    }
  }

  /** Writes the bytes of the container files an entry's records name that the directory does not have yet. */
  async #writeEntryBlobs(entry: readonly KeptChanges[]): Promise<void> {
    for (const change of entry) {
      for (const table of Object.values(change.tables ?? {})) {
        for (const [, , fields] of table.put) {
          for (const values of Object.values(fields)) {
            for (const v of values) {
              if (v === null || typeof v !== "object" || !("i" in v) || this.#blobs.has(v.i)) continue;
              const file = this.server.containers.fileOf(v.i);
              if (!file) continue;
              await this.directory.writeBlob(v.i, file.bytes);
              this.#blobs.add(v.i);
            }
          }
        }
      }
    }
  }

  /** Writes the bytes of every container file the databases' records hold that the directory does not have yet. */
  async #writeBlobs(databases: Iterable<HostedDatabase>): Promise<void> {
    for (const db of databases) {
      for (const id of heldContainerIds(db)) {
        if (this.#blobs.has(id)) continue;
        const file = this.server.containers.fileOf(id);
        if (!file) continue;
        await this.directory.writeBlob(id, file.bytes);
        this.#blobs.add(id);
      }
    }
  }

  /** Everything, for a snapshot. */
  #state(): KeptState {
    const databases: Record<string, KeptDatabase> = {};
    for (const [name, db] of this.server.databases) {
      databases[name] = { schema: this.#schemaLog.get(name) ?? [], tables: Object.fromEntries([...db.tables].map(([t, data]) => [t, keptTable(data)])) };
    }
    return { databases };
  }

  /** Fills the server from a snapshot and the entries after it, into today's descriptions. */
  async #restore(snapshot: KeptState | undefined, entries: readonly Entry[]): Promise<void> {
    const notes = new CarryNotes();
    // Container files first, so that records put back hold them (the store counts holds as records are put).
    const refs = new Map<string, { db: string; ref: ContainerRef }>();
    const collect = (db: string, values: readonly KeptValue[]) => {
      for (const v of values) if (v !== null && typeof v === "object" && "i" in v) refs.set((v as KeptContainer).i, { db, ref: { id: v.i, filename: v.n, contentType: v.t, size: v.s } });
    };
    for (const [db, kept] of Object.entries(snapshot?.databases ?? {})) {
      for (const table of Object.values(kept.tables)) {
        for (const [, , fields] of table.records) for (const values of Object.values(fields)) collect(db, values);
        for (const values of Object.values(table.globals)) collect(db, values);
      }
    }
    for (const entry of entries) for (const change of entry) for (const table of Object.values(change.tables ?? {})) for (const [, , fields] of table.put) for (const values of Object.values(fields)) collect(change.db, values);
    const files: { db: string; ref: ContainerRef; bytes: Uint8Array }[] = [];
    for (const { db, ref } of refs.values()) files.push({ db, ref, bytes: await this.directory.readBlob(ref.id) });
    // From here on, synchronously: the store drops files no record holds at the end of a step.
    for (const { db, ref, bytes } of files) {
      this.server.containers.restoreFile(db, ref, bytes);
      this.#blobs.add(ref.id);
    }
    for (const [name, kept] of Object.entries(snapshot?.databases ?? {})) {
      const db = this.server.databases.get(name);
      if (!db) {
        notes.note(`the data directory holds a hosted file "${name}" that no description names now: it was left out`);
        continue;
      }
      for (const change of kept.schema) this.#replaySchema(name, db, change, notes);
      for (const [tableName, table] of Object.entries(kept.tables)) {
        const data = db.tables.get(tableName);
        if (!data) {
          notes.note(`${name}: the data directory holds table "${tableName}", which no description names now: its records were left out`);
          continue;
        }
        for (const record of table.records) restoreRecord(name, data, record, notes);
        restoreCounters(data, table.counters);
        restoreGlobals(data, table.globals);
      }
    }
    for (const entry of entries) {
      for (const change of entry) {
        const db = this.server.databases.get(change.db);
        if (!db) continue;
        for (const schema of change.schema ?? []) this.#replaySchema(change.db, db, schema, notes);
        for (const [tableName, table] of Object.entries(change.tables ?? {})) {
          const data = db.tables.get(tableName);
          if (!data) continue;
          for (const id of table.removed) data.remove(id);
          for (const record of table.put) restoreRecord(change.db, data, record, notes);
          restoreCounters(data, table.counters);
          if (table.globals) restoreGlobals(data, table.globals);
        }
      }
    }
    for (const line of notes.lines()) this.server.log(line);
  }

  #replaySchema(name: string, db: HostedDatabase, change: KeptSchemaChange, notes: CarryNotes): void {
    const outcome = replaySchemaChange(db, this.server.containers, change);
    if (outcome !== undefined) notes.note(`${name}: a schema change made before was not made again (${outcome})`);
    this.#schemaLog.set(name, [...(this.#schemaLog.get(name) ?? []), change]);
  }
}
