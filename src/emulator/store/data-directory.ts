// The emulator's data directory (`fmgen serve --data-dir DIR`): the hosted files' state on disk, so that it survives a
// restart, as a FileMaker Server keeps its files. A journal of our own rather than an embedded database: the state is
// small and wholly in memory already, so all the disk must do is keep what was answered (one appended line and one
// fdatasync per group of writes) and give it back at the next start (the last snapshot, then the lines after it). No
// native module to build, nothing to download at install, and the format is JSON a person can read.
//
// Files in DIR (nothing else there is touched):
// - `fmgen.lock`: the process holding DIR (its pid); a second process refuses to open DIR while that one lives.
// - `snapshot.json`: `{ "format": 2, "seq": N, "state": … }` (format 1, an earlier release's, is read too), the whole state after entry N; replaced atomically
//   (written beside, synced, renamed, the directory synced).
// - `journal.log`: one line per entry after the snapshot: `crc32 seq json\n`. A last line without its newline is a
//   write the process was killed in (never answered): dropped, and cut off so the next append starts a clean line.
//   Any other bad line is damage: DIR is refused, naming the file and the line.
// - `blobs/`: container bytes, one file per id, synced before the entry that names them is appended.
import { closeSync, constants, fsyncSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { mkdir, open, readdir, readFile, rename, rm, stat, unlink, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { parseJson, stringifyJson } from "../../runtime/core/json-numbers.js";

/** The snapshot format written; those read besides (format 1 named every field in every record: hosted-state.ts). */
const FORMAT = 2;
const FORMATS_READ: readonly unknown[] = [1, 2];
const LOCK = "fmgen.lock";
const SNAPSHOT = "snapshot.json";
const JOURNAL = "journal.log";
const BLOBS = "blobs";

/** What a data directory held when it was opened. */
export interface StoredState<S, E> {
  /** The last snapshot's state, or undefined when DIR has none (a first start, or one after --reset). */
  snapshot: S | undefined;
  /** The journal's entries after that snapshot, oldest first. */
  entries: E[];
}

/** Raised when DIR cannot be opened: held by another process, or damaged. Its message names the file. */
export class DataDirectoryError extends Error {
  override name = "DataDirectoryError";
}

/** DIRs this process holds: a second emulator in the same process on the same DIR is refused as another process is. */
const held = new Set<string>();

/**
 * An open data directory. `open` takes DIR's lock and reads it; `append` writes one entry and resolves once it is on
 * disk (entries appended while a write is under way go in the next write together: a group commit); `snapshot`
 * replaces the snapshot and empties the journal; `close` waits for the writes and lets DIR go.
 */
export class DataDirectory<S = unknown, E = unknown> {
  #journal: FileHandle;
  #seq: number;
  #journalBytes: number;
  #pending: { line: string; done: () => void; failed: (error: Error) => void }[] = [];
  #writing: Promise<void> | undefined;
  #broken: Error | undefined;
  #closed = false;
  /** While a snapshot replaces the journal: appends wait in #pending, written once it is done. */
  #paused = false;

  private constructor(
    readonly dir: string,
    journal: FileHandle,
    seq: number,
    journalBytes: number,
  ) {
    this.#journal = journal;
    this.#seq = seq;
    this.#journalBytes = journalBytes;
  }

  /** The bytes of journal since the last snapshot: when to take the next one is the caller's. */
  get journalBytes(): number {
    return this.#journalBytes;
  }

  /**
   * Opens DIR (made when missing), taking its lock, and reads what it holds. `reset`: DIR's snapshot, journal and blobs
   * are removed first (`--reset`), once the lock is held.
   */
  static async open<S, E>(dir: string, options: { reset?: boolean | undefined } = {}): Promise<{ directory: DataDirectory<S, E>; stored: StoredState<S, E> }> {
    await mkdir(join(dir, BLOBS), { recursive: true });
    const key = await stat(dir).then((s) => `${s.dev}:${s.ino}`);
    if (held.has(key)) throw new DataDirectoryError(`${dir} is already open in this process: give each emulator its own --data-dir`);
    takeLock(dir);
    held.add(key);
    try {
      if (options.reset) {
        await rm(join(dir, SNAPSHOT), { force: true });
        await rm(join(dir, JOURNAL), { force: true });
        await rm(join(dir, BLOBS), { recursive: true, force: true });
        await mkdir(join(dir, BLOBS), { recursive: true });
      }
      const snapshot = await readSnapshot<S>(dir);
      const { entries, seq, validBytes } = await readJournal<E>(dir, snapshot?.seq ?? 0);
      const journal = await open(join(dir, JOURNAL), "a+");
      // A torn last line is cut off, so that the next entry starts on a line of its own.
      if ((await journal.stat()).size !== validBytes) await journal.truncate(validBytes);
      const directory = new DataDirectory<S, E>(dir, journal, Math.max(seq, snapshot?.seq ?? 0), validBytes);
      directory.#lockKey = key;
      return { directory, stored: { snapshot: snapshot?.state, entries } };
    } catch (error) {
      held.delete(key);
      releaseLock(dir);
      throw error;
    }
  }

  #lockKey = "";

  /** Appends one entry; resolves once it is on disk (fdatasync), together with every entry appended meanwhile. */
  append(entry: E): Promise<void> {
    if (this.#closed) return Promise.reject(new DataDirectoryError(`${this.dir} is closed`));
    if (this.#broken) return Promise.reject(this.#broken);
    const seq = ++this.#seq;
    const json = stringifyJson(entry);
    const body = `${seq} ${json}`;
    const line = `${crc32(body).toString(16).padStart(8, "0")} ${body}\n`;
    return new Promise((done, failed) => {
      this.#pending.push({ line, done, failed });
      this.#kick();
    });
  }

  /** Starts writing what is pending, unless a write or a snapshot is under way (each kicks again when done). */
  #kick(): void {
    if (this.#paused || this.#writing || this.#pending.length === 0) return;
    const run = this.#drain();
    this.#writing = run;
    void run.finally(() => {
      if (this.#writing !== run) return;
      this.#writing = undefined;
      // An entry appended after the loop's last look at #pending, before this: its write starts now.
      this.#kick();
    });
  }

  /** Writes what is pending, group by group, until nothing is. */
  async #drain(): Promise<void> {
    while (this.#pending.length > 0 && !this.#paused) {
      const group = this.#pending.splice(0);
      const text = group.map((p) => p.line).join("");
      try {
        await this.#journal.write(text);
        await this.#journal.datasync();
        this.#journalBytes += Buffer.byteLength(text);
      } catch (error) {
        // Nothing after a failed write can be trusted to follow it on disk: every later append fails too.
        this.#broken = new DataDirectoryError(`${join(this.dir, JOURNAL)}: cannot write: ${(error as Error).message}`);
        for (const p of [...group, ...this.#pending.splice(0)]) p.failed(this.#broken);
        return;
      }
      for (const p of group) p.done();
    }
  }

  /** Waits for every entry appended so far to be on disk. */
  async flush(): Promise<void> {
    for (;;) {
      if (this.#broken) throw this.#broken;
      if (this.#writing) await this.#writing;
      else if (this.#snapshotting) await this.#snapshotting.catch(() => {});
      else if (this.#pending.length > 0) this.#kick();
      else return;
    }
  }

  /** The snapshot being written, if one is. */
  #snapshotting: Promise<void> | undefined;

  /**
   * Replaces the snapshot with `state` (everything the entries so far amount to) and empties the journal. A crash at
   * any point leaves either the old snapshot with its journal or the new one (entries it covers are skipped).
   */
  snapshot(state: S): Promise<void> {
    // The state as it is now, with every entry appended so far (written or not): read before anything waits.
    const text = stringifyJson({ format: FORMAT, seq: this.#seq, state });
    if (this.#paused) return Promise.reject(new DataDirectoryError(`${this.dir}: a snapshot is already being written`));
    this.#paused = true;
    this.#snapshotting = this.#writeSnapshot(text).finally(() => {
      this.#snapshotting = undefined;
    });
    return this.#snapshotting;
  }

  async #writeSnapshot(text: string): Promise<void> {
    try {
      while (this.#writing) await this.#writing;
      if (this.#broken) throw this.#broken;
      const file = join(this.dir, SNAPSHOT);
      const temp = `${file}.${process.pid}.tmp`;
      const handle = await open(temp, "w");
      try {
        await handle.writeFile(text);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, file);
      syncDirectory(this.dir);
      // Every entry on disk is in the snapshot now. Those still pending are too; written after it, their lines are
      // skipped at the next start (their seq is the snapshot's or below).
      await this.#journal.truncate(0);
      await this.#journal.sync();
      this.#journalBytes = 0;
    } finally {
      this.#paused = false;
      this.#kick();
    }
  }

  /** Writes a container's bytes under `id`, synced, before an entry names it. */
  async writeBlob(id: string, bytes: Uint8Array): Promise<void> {
    const handle = await open(join(this.dir, BLOBS, blobName(id)), "w");
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  /** A container's bytes, as writeBlob kept them; refused, naming the file, when they are missing. */
  async readBlob(id: string): Promise<Uint8Array> {
    const file = join(this.dir, BLOBS, blobName(id));
    try {
      return await readFile(file);
    } catch (error) {
      throw new DataDirectoryError(`${file}: a container's bytes are missing (${(error as Error).message})`);
    }
  }

  /** Removes the blobs whose ids `keep` does not hold (a file dropped since, or one written for a write never answered). */
  async pruneBlobs(keep: ReadonlySet<string>): Promise<number> {
    const wanted = new Set([...keep].map(blobName));
    let removed = 0;
    for (const name of await readdir(join(this.dir, BLOBS))) {
      if (wanted.has(name)) continue;
      await unlink(join(this.dir, BLOBS, name)).catch(() => {});
      removed++;
    }
    return removed;
  }

  /** Waits for the writes, closes the journal and lets DIR go. */
  async close(): Promise<void> {
    if (this.#closed) return;
    try {
      await this.flush().catch(() => {});
    } finally {
      this.#closed = true;
      await this.#journal.close();
      held.delete(this.#lockKey);
      releaseLock(this.dir);
    }
  }
}

/** A blob's file name: the id as hex of its UTF-8, so that no id names a path outside `blobs/`. */
function blobName(id: string): string {
  return Buffer.from(id, "utf8").toString("hex");
}

function takeLock(dir: string): void {
  const file = join(dir, LOCK);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o644);
      writeSync(fd, JSON.stringify({ pid: process.pid }));
      fsyncSync(fd);
      closeSync(fd);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw new DataDirectoryError(`${file}: cannot take the lock: ${(error as Error).message}`);
    }
    const holder = lockHolder(file);
    if (holder !== undefined && holder !== process.pid && alive(holder)) {
      throw new DataDirectoryError(`${dir} is in use by another fmgen serve (process ${holder}): stop it, or give this one another --data-dir`);
    }
    // A lock its process left behind (killed): taken over.
    unlinkSafe(file);
  }
  throw new DataDirectoryError(`${file}: cannot take the lock (another process takes it at the same time)`);
}

/** Removes a file, synchronously (the next attempt to create the lock must see it gone); gone already is fine. */
function unlinkSafe(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Gone already.
  }
}

function lockHolder(file: string): number | undefined {
  try {
    const pid = (JSON.parse(readFileSync(file, "utf8")) as { pid?: unknown }).pid;
    return typeof pid === "number" && Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    // Half-written by a process killed while it took the lock: nobody holds it.
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it lives, under another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function releaseLock(dir: string): void {
  const file = join(dir, LOCK);
  if (lockHolder(file) === process.pid) unlinkSafe(file);
}

function syncDirectory(dir: string): void {
  try {
    const fd = openSync(dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some file systems cannot sync a directory; the rename is then as durable as they make it.
  }
}

async function readSnapshot<S>(dir: string): Promise<{ seq: number; state: S } | undefined> {
  const file = join(dir, SNAPSHOT);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new DataDirectoryError(`${file}: cannot read: ${(error as Error).message}`);
  }
  let parsed: { format?: unknown; seq?: unknown; state?: unknown };
  try {
    parsed = parseJson(text) as typeof parsed;
  } catch (error) {
    throw new DataDirectoryError(`${file}: not a snapshot fmgen wrote (${(error as Error).message}): move it away, or start over with --reset`);
  }
  if (typeof parsed !== "object" || parsed === null || !FORMATS_READ.includes(parsed.format) || typeof parsed.seq !== "number") {
    throw new DataDirectoryError(`${file}: not a snapshot of format ${FORMATS_READ.join(" or ")} (it says format ${JSON.stringify(parsed?.format)}): move it away, or start over with --reset`);
  }
  return { seq: parsed.seq, state: parsed.state as S };
}

async function readJournal<E>(dir: string, after: number): Promise<{ entries: E[]; seq: number; validBytes: number }> {
  const file = join(dir, JOURNAL);
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { entries: [], seq: after, validBytes: 0 };
    throw new DataDirectoryError(`${file}: cannot read: ${(error as Error).message}`);
  }
  const entries: E[] = [];
  let seq = after;
  let last = 0;
  let at = 0;
  let line = 0;
  while (at < bytes.length) {
    const end = bytes.indexOf(10, at);
    // The last line, without its newline: a write the process was killed in, never answered.
    if (end < 0) break;
    line++;
    const text = bytes.toString("utf8", at, end);
    const damaged = (why: string) => new DataDirectoryError(`${file}: line ${line} is damaged (${why}): the data directory cannot be opened as it is; restore it from a copy, or start over with --reset`);
    const first = text.indexOf(" ");
    const second = text.indexOf(" ", first + 1);
    if (first !== 8 || second < 0) throw damaged("not a journal line");
    const body = text.slice(first + 1);
    if (crc32(body).toString(16).padStart(8, "0") !== text.slice(0, 8)) throw damaged("its checksum does not match");
    const n = Number(text.slice(first + 1, second));
    if (!Number.isInteger(n) || n <= last) throw damaged(`entry ${text.slice(first + 1, second)} is out of order`);
    last = n;
    if (n > after) {
      try {
        entries.push(parseJson(text.slice(second + 1)) as E);
      } catch (error) {
        throw damaged((error as Error).message);
      }
      seq = n;
    }
    at = end + 1;
  }
  return { entries, seq, validBytes: at };
}

/** The files DIR holds, by name (tests plant damage in them). */
export const DATA_FILES = { lock: LOCK, snapshot: SNAPSHOT, journal: JOURNAL, blobs: BLOBS } as const;
