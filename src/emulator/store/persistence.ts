// Hosted files that persist (`fmgen serve --data-dir DIR`, `startEmulator({ dataDir })`): the hosted server's data
// kept in a data directory (data-directory.ts) as it changes, and read back at the next start.
//
// What changes is heard from the change feed (records added, updated, deleted, by either API, a script or a cascade),
// from schema changes and from the OData webhooks' registrations (WebhookRegistrations); it is written when a request
// is answered: `durable()`, which the shell awaits before it writes an answer, turns what changed since the last
// write into one journal entry (each changed record as it is then, container files as blobs first) and resolves
// once it is on disk. Writes one after another, each waiting for the one before: what many requests changed while
// one was being written goes in the next one, together (a group commit).
// An atomic changeset is one synchronous step (records/atomic-changes.ts), so no entry holds half of one.
// Webhooks come back last at a start, once the tables are as they will be: one whose table is gone is dropped, logged.
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
  keptTableRows,
  restoreCounters,
  restoreGlobals,
  restoreRecord,
  restoreRows,
  type KeptChanges,
  type KeptContainer,
  type KeptDatabase,
  type KeptSchemaChange,
  type KeptState,
  type KeptValue,
  type KeptWebhook,
  type KeptWebhooks,
} from "./hosted-state.js";

/** Past this many bytes of journal, the next write also replaces the snapshot (so that a start replays little). */
const COMPACT_AFTER_BYTES = 64 * 1024 * 1024;

type Entry = readonly KeptChanges[];

/**
 * The OData webhooks' registrations as a data directory keeps them (odata/webhook-registry.ts gives them, through
 * index.ts, so that store/ imports no API). Deliveries waiting are not kept: a start sends nothing again.
 */
export interface WebhookRegistrations {
  /** Tells `observer` of each webhook registered or deleted from now on (its file and id); the function returned stops it. */
  observe(observer: (database: string, id: number) => void): () => void;
  /** The webhook `id` of a file as it is now; undefined once deleted. */
  registration(database: string, id: number): KeptWebhook | undefined;
  /** A file's webhooks as they are now, and the id the next one gets. */
  registrations(database: string): KeptWebhooks;
  /** The id a file's next webhook gets. */
  nextId(database: string): number;
  /** Registers kept webhooks again at a start; returns a line for each it leaves out (and why). */
  restore(database: string, kept: KeptWebhooks): string[];
}

/** A hosted server's data directory, kept current. */
export class Persistence {
  /** Per database, per table, the records changed since the last write. */
  readonly #dirty = new Map<string, Map<TableData, Set<number>>>();
  readonly #schema = new Map<string, KeptSchemaChange[]>();
  /** Each database's schema changes since its start, in order: a snapshot keeps them all. */
  readonly #schemaLog = new Map<string, KeptSchemaChange[]>();
  /** Per database, the webhooks registered or deleted since the last write. */
  readonly #hooks = new Map<string, Set<number>>();
  /** Container files whose bytes are in the directory already. */
  readonly #blobs = new Set<string>();
  /** The write under way: what it took from the changes above is on disk once it resolves. */
  #inFlight: Promise<void> | undefined;
  /** The write that starts when that one ends, taking every change made until then: all who wait share it. */
  #queued: Promise<void> | undefined;
  readonly #stops: (() => void)[] = [];

  private constructor(
    readonly directory: DataDirectory<KeptState, Entry>,
    private readonly server: HostedServer,
    private readonly webhooks: WebhookRegistrations | undefined,
  ) {}

  /**
   * Opens DIR and fills the hosted server from it: the data it holds, carried into today's descriptions, or, at a first
   * start (or with `reset`), what `seed` puts in. Then a snapshot is taken, and changes are heard from then on. Lines
   * about what could not be carried over (a field removed or retyped since, a webhook whose table is gone) go to the
   * server's log.
   */
  static async open(dir: string, server: HostedServer, options: { reset?: boolean | undefined; seed: () => void | Promise<void>; webhooks?: WebhookRegistrations | undefined }): Promise<Persistence> {
    const { directory, stored } = await DataDirectory.open<KeptState, Entry>(dir, { reset: options.reset });
    const persistence = new Persistence(directory, server, options.webhooks);
    try {
      if (stored.snapshot === undefined && stored.entries.length === 0) {
        await options.seed();
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

  /**
   * Resolves once every change made so far is on disk. Every caller while a write is under way shares the one write
   * after it (a group commit: one fdatasync for all of them, not one each in turn); a caller with nothing new to write
   * (a read) waits only for the write under way, which may hold what it read.
   */
  durable(): Promise<void> {
    if (!this.#changed()) return this.#inFlight ?? Promise.resolve();
    return (this.#queued ??= this.#writeAfter(this.#inFlight));
  }

  /** Whether anything changed since the last write took the changes: records, schema changes or webhooks. */
  #changed(): boolean {
    return this.#dirty.size > 0 || this.#schema.size > 0 || this.#hooks.size > 0;
  }

  async #writeAfter(previous: Promise<void> | undefined): Promise<void> {
    await previous?.catch(() => {});
    this.#queued = undefined;
    // #write takes the changes synchronously, before its first await: a change made after this joins the next write.
    const run = this.#write();
    this.#inFlight = run;
    try {
      await run;
    } finally {
      if (this.#inFlight === run) this.#inFlight = undefined;
    }
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
    if (this.webhooks) {
      this.#stops.push(
        this.webhooks.observe((database, id) => {
          let ids = this.#hooks.get(database);
          if (!ids) this.#hooks.set(database, (ids = new Set()));
          ids.add(id);
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
      const hooks = this.#hooks.get(name);
      if (!schema?.length && !dirty?.size && !hooks?.size) continue;
      this.#schema.delete(name);
      this.#dirty.delete(name);
      this.#hooks.delete(name);
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
      entry.push({ db: name, ...(schema?.length ? { schema } : {}), tables, ...(hooks?.size ? { webhooks: this.#keptHooks(name, hooks) } : {}) });
    }
    if (entry.length === 0) return;
    await this.#writeEntryBlobs(entry);
    await this.directory.append(entry);
    if (this.directory.journalBytes > COMPACT_AFTER_BYTES) {
      await this.directory.snapshot(this.#state());
      await this.directory.pruneBlobs(new Set([...this.server.databases.values()].flatMap((db) => [...heldContainerIds(db)])));
    }
  }

  /** The webhooks `ids` names as they are now: those still registered, and those deleted. */
  #keptHooks(database: string, ids: ReadonlySet<number>): NonNullable<KeptChanges["webhooks"]> {
    const put: KeptWebhook[] = [];
    const removed: number[] = [];
    for (const id of ids) {
      const hook = this.webhooks!.registration(database, id);
      if (hook) put.push(hook);
      else removed.push(id);
    }
    return { next: this.webhooks!.nextId(database), put, removed };
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
      databases[name] = {
        schema: this.#schemaLog.get(name) ?? [],
        tables: Object.fromEntries([...db.tables].map(([t, data]) => [t, keptTableRows(data)])),
        ...(this.webhooks ? { webhooks: this.webhooks.registrations(name) } : {}),
      };
    }
    return { databases };
  }

  /** Fills the server from a snapshot and the entries after it, into today's descriptions. */
  async #restore(snapshot: KeptState | undefined, entries: readonly Entry[]): Promise<void> {
    const notes = new CarryNotes();
    /** Per database, the webhooks kept: registered again once the tables are as they will be. */
    const hooks = new Map<string, { next: number; hooks: Map<number, KeptWebhook> }>();
    const keepHooks = (db: string, next: number, put: readonly KeptWebhook[], removed: readonly number[]) => {
      let kept = hooks.get(db);
      if (!kept) hooks.set(db, (kept = { next: 1, hooks: new Map() }));
      kept.next = Math.max(kept.next, next);
      for (const id of removed) kept.hooks.delete(id);
      for (const hook of put) kept.hooks.set(hook.id, hook);
    };
    // Container files first, so that records put back hold them (the store counts holds as records are put).
    const refs = new Map<string, { db: string; ref: ContainerRef }>();
    const collect = (db: string, values: readonly KeptValue[]) => {
      for (const v of values) if (v !== null && typeof v === "object" && "i" in v) refs.set((v as KeptContainer).i, { db, ref: { id: v.i, filename: v.n, contentType: v.t, size: v.s } });
    };
    for (const [db, kept] of Object.entries(snapshot?.databases ?? {})) {
      for (const table of Object.values(kept.tables)) {
        if ("rows" in table) {
          for (const row of table.rows) for (let c = 2; c < row.length; c++) collect(db, slotValues(row[c]!));
        } else {
          for (const [, , fields] of table.records) for (const values of Object.values(fields)) collect(db, values);
        }
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
        if ("rows" in table) restoreRows(name, data, table, notes);
        else for (const record of table.records) restoreRecord(name, data, record, notes);
        restoreCounters(data, table.counters);
        restoreGlobals(data, table.globals);
      }
      if (kept.webhooks) keepHooks(name, kept.webhooks.next, kept.webhooks.hooks, []);
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
        if (change.webhooks) keepHooks(change.db, change.webhooks.next, change.webhooks.put, change.webhooks.removed);
      }
    }
    for (const line of notes.lines()) this.server.log(line);
    for (const [name, kept] of hooks) {
      if (!this.webhooks) continue;
      for (const line of this.webhooks.restore(name, { next: kept.next, hooks: [...kept.hooks.values()].sort((a, b) => a.id - b.id) })) this.server.log(`${name}: ${line}`);
    }
  }

  #replaySchema(name: string, db: HostedDatabase, change: KeptSchemaChange, notes: CarryNotes): void {
    const outcome = replaySchemaChange(db, this.server.containers, change);
    if (outcome !== undefined) notes.note(`${name}: a schema change made before was not made again (${outcome})`);
    this.#schemaLog.set(name, [...(this.#schemaLog.get(name) ?? []), change]);
  }
}

/** A row's slot as a list of values (one value, or the repetitions). */
function slotValues(slot: KeptValue | readonly KeptValue[]): readonly KeptValue[] {
  return Array.isArray(slot) ? slot : [slot as KeptValue];
}
