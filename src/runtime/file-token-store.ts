/**
 * A {@link TokenStore} in a file, for several Node processes on one machine, so that they share one Data API session
 * rather than each logging in. Node only (it reads and writes files); no other entry of the runtime imports it.
 *
 * @module \@fmgen/runtime/file-token-store
 */
import { createHash, randomUUID } from "node:crypto";
import { constants, type Stats } from "node:fs";
import { link, lstat, mkdir, open, rename, stat, unlink } from "node:fs/promises";
import { hostname } from "node:os";
import { dirname } from "node:path";
import type { TokenStore } from "./data-api/token-store.js";

export type { TokenStore } from "./data-api/token-store.js";

/** What `fileTokenStore` takes. */
export interface FileTokenStoreOptions {
  /**
   * How long a write waits for the lock another process holds before it fails with an error naming the lock (ms).
   * Default 10,000: a write holds the lock for milliseconds, and a lock left by a dead process is taken over.
   */
  lockTimeoutMs?: number;
}

/**
 * The largest token file read (1 MiB). An entry is a key (URL, database, account) and a token, a few hundred bytes:
 * this is thousands of them, and it bounds what a read allocates whatever is at the path.
 */
const MAX_FILE_BYTES = 1 << 20;
/** The largest lock read: a lock is one short JSON record. */
const MAX_LOCK_BYTES = 4096;
/**
 * A lock this process has seen unchanged for this long, by its own clock (a lock's dates are not trusted), was left by
 * a process that died or stopped: it is taken over. One whose holder ran on this host and has exited is taken over at
 * once.
 */
const STALE_LOCK_MS = 5_000;
const LOCK_TIMEOUT_MS = 10_000;

/** Opens what is at the path itself, never a symbolic link's target, and without waiting for a FIFO's writer. */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** The effective uid where there is one (not on Windows, which has no owner or mode bits to check). */
const currentUid = (): number | undefined => process.geteuid?.();

const codeOf = (error: unknown) => (error as { code?: unknown } | null)?.code;

/** The error for something at `path` the store will not use, naming the path and the reason. */
const refused = (path: string, reason: string) => new Error(`fileTokenStore: refusing ${path}: ${reason}`);

const octal = (mode: number) => (mode & 0o7777).toString(8).padStart(3, "0");

/**
 * A token store in one JSON file (`{ "<key>": "<token>" }`, mode 0600), shared by every process that names the same
 * path. A change is read, made and written to a new temporary file beside it, renamed over it, all under a lock file
 * (`<path>.lock`), so that a reader never sees half a file and two writers never lose each other's change. A missing,
 * unreadable-as-JSON or otherwise damaged file reads as empty (its tokens are logged in again and rewritten).
 *
 * What is at the path is used only if it is a regular file (not a link, FIFO or device) of this process's user that
 * nobody else can write, of at most 1 MiB, in a folder nobody else can write (or a sticky one, such as /tmp); else
 * reads and writes fail with an error naming the path and the reason. The same goes for the lock.
 *
 * @example
 * ```ts
 * import { fileTokenStore } from "@fmgen/runtime/file-token-store";
 *
 * const fm = createClient({ server, database: Contacts, auth, tokenStore: fileTokenStore("/var/run/myapp/fm-tokens.json") });
 * ```
 */
export function fileTokenStore(path: string, options: FileTokenStoreOptions = {}): TokenStore {
  // Named with what was given (its type): a path undefined or empty is, most often, an unset environment variable.
  if (typeof path != "string" || !path) throw new TypeError(`fileTokenStore: path must be a file path, got ${path === "" ? '""' : path && typeof path}${path === undefined || path === "" ? ": an unset environment variable?" : ""}`);
  if (typeof options != "object" || !options) throw new TypeError("fileTokenStore: options must be an object");
  const { lockTimeoutMs: timeout = LOCK_TIMEOUT_MS } = options;
  if (typeof timeout != "number" || !(timeout >= 0)) throw new TypeError("fileTokenStore: options.lockTimeoutMs must be a number of milliseconds");
  const folder = dirname(path);
  const write = async (change: (tokens: Map<string, string>) => void) => {
    await checkFolder(folder).catch(async (error: unknown) => {
      if (codeOf(error) !== "ENOENT") throw error;
      await mkdir(folder, { recursive: true, mode: 0o700 });
      await checkFolder(folder);
    });
    await locked(`${path}.lock`, timeout, async (stillHeld) => {
      const tokens = await readTokens(path);
      change(tokens);
      const temp = `${path}.${randomUUID()}.tmp`;
      try {
        await createFile(temp, JSON.stringify(Object.fromEntries(tokens)));
        await stillHeld();
        await rename(temp, path);
      } catch (error) {
        await removeFile(temp);
        throw error;
      }
    });
  };
  // This store's writes one at a time: the lock is contended by processes, not by each write of each process.
  let queue: Promise<unknown> = Promise.resolve();
  const update = (change: (tokens: Map<string, string>) => void): Promise<void> => {
    const run = queue.then(() => write(change));
    queue = run.catch(() => undefined);
    return run;
  };
  return {
    get: async (key) => {
      try {
        await checkFolder(folder);
      } catch (error) {
        if (codeOf(error) === "ENOENT") return undefined;
        throw error;
      }
      return (await readTokens(path)).get(key);
    },
    set: (key, token) => update((tokens) => tokens.set(key, token)),
    delete: (key) => update((tokens) => tokens.delete(key)),
  };
}

/**
 * The folder holds the file and its lock: whoever can write it can remove or replace them. It must be a folder of
 * this process's user or of root, that nobody else can write, unless it is sticky (then others cannot remove or rename
 * what is not theirs, and what they plant is refused by the file's own checks).
 */
async function checkFolder(folder: string): Promise<void> {
  const info = await stat(folder);
  if (!info.isDirectory()) throw refused(folder, "it is not a folder");
  const uid = currentUid();
  if (uid === undefined) return;
  if (info.uid !== uid && info.uid !== 0) throw refused(folder, `the folder is owned by uid ${info.uid}, not by this process's uid ${uid} nor root`);
  if (info.mode & 0o022 && !(info.mode & 0o1000)) throw refused(folder, `the folder is writable by group or others (mode ${octal(info.mode)}) and not sticky`);
}

function kind(info: Stats): string {
  if (info.isFIFO()) return "a FIFO";
  if (info.isDirectory()) return "a folder";
  if (info.isCharacterDevice()) return "a character device";
  if (info.isBlockDevice()) return "a block device";
  if (info.isSocket()) return "a socket";
  return "an unknown kind of file";
}

/**
 * What the file at `path` holds, and which file it is (device and inode), or undefined if there is none. The path
 * is opened without following a link and without waiting for a FIFO, then the open file is checked (no
 * check-then-open race): a regular file, of this process's user, that group and others cannot write, of at most
 * `limit` bytes, read no further than that whatever its size says. Anything else is refused.
 */
async function readChecked(path: string, limit: number): Promise<{ text: string; inode: string } | undefined> {
  let file;
  try {
    file = await open(path, READ_FLAGS);
  } catch (error) {
    const code = codeOf(error);
    if (code === "ENOENT") return undefined;
    // ELOOP on Linux and macOS, EMLINK on FreeBSD: O_NOFOLLOW met a symbolic link.
    if (code === "ELOOP" || code === "EMLINK") throw refused(path, "it is a symbolic link");
    // A socket (or a device without its driver) cannot be opened: it is not a regular file either.
    if (code === "ENXIO" || code === "ENODEV") throw refused(path, "it is not a regular file");
    throw error;
  }
  try {
    const info = await file.stat();
    if (!info.isFile()) throw refused(path, `it is ${kind(info)}, not a regular file`);
    const uid = currentUid();
    if (uid !== undefined && info.uid !== uid) throw refused(path, `it is owned by uid ${info.uid}, not by this process's uid ${uid}`);
    if (uid !== undefined && info.mode & 0o022) throw refused(path, `it is writable by group or others (mode ${octal(info.mode)})`);
    if (info.size > limit) throw refused(path, `it is larger than ${limit} bytes`);
    // Read to its end, at most one byte more than its size: a file is replaced, never written in place, so more
    // means someone is writing it.
    const buffer = Buffer.alloc(info.size + 1);
    let length = 0;
    for (let read = 1; read > 0 && length < buffer.length; length += read) {
      ({ bytesRead: read } = await file.read(buffer, length, buffer.length - length, null));
    }
    if (length > info.size) throw refused(path, "it grew while it was read");
    return { text: buffer.toString("utf8", 0, length), inode: `${info.dev}:${info.ino}` };
  } finally {
    await file.close();
  }
}

/** The file's tokens; a file that is missing or not a JSON object of strings holds none (or only its strings). */
async function readTokens(path: string): Promise<Map<string, string>> {
  const file = await readChecked(path, MAX_FILE_BYTES);
  if (file === undefined) return new Map();
  let json: unknown;
  try {
    json = JSON.parse(file.text);
  } catch {
    return new Map();
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) return new Map();
  return new Map(Object.entries(json).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
}

/** A new file, mode 0600: exclusive creation, so never a file (or a link's target) that was there. */
async function createFile(path: string, text: string): Promise<void> {
  const file = await open(path, "wx", 0o600);
  try {
    await file.writeFile(text);
  } finally {
    await file.close();
  }
}

async function removeFile(path: string): Promise<void> {
  await unlink(path).catch((error: unknown) => {
    if (codeOf(error) !== "ENOENT") throw error;
  });
}

/** Who holds a lock, as its record says: pid, host, a random nonce (no two locks are alike), time taken. */
interface LockRecord {
  pid: number;
  host: string;
  nonce: string;
  time: string;
}

function parseRecord(text: string): LockRecord | undefined {
  try {
    const record = JSON.parse(text) as Partial<LockRecord> | null;
    if (record && Number.isSafeInteger(record.pid) && (record.pid as number) > 0 && typeof record.host === "string" && typeof record.nonce === "string") {
      return record as LockRecord;
    }
  } catch {
    // Not a lock this store wrote (one of an older version is empty): its holder is unknown.
  }
  return undefined;
}

/** What tells one lock from every other: its record (it has a nonce), else the file and what it holds. */
const lockId = (held: { text: string; inode: string }) => (parseRecord(held.text) ? held.text : `${held.inode}:${held.text}`);

/** Whether the record's holder ran on this host and has exited. */
function holderHasExited(record: LockRecord | undefined): boolean {
  if (record === undefined || record.host !== hostname()) return false;
  try {
    process.kill(record.pid, 0);
    return false;
  } catch (error) {
    return codeOf(error) === "ESRCH";
  }
}

/**
 * Runs `work` holding the lock. The lock is a record of its holder, written whole to a new file then hard-linked to
 * the lock's path, which succeeds only if nothing is there. A writer waits while another holds it, at most `timeout`
 * ms; a lock whose holder is gone (see STALE_LOCK_MS) is taken over. What is at the lock's path is checked as the
 * token file is. `work` calls `stillHeld` before it commits: if this process held the lock so long that it was taken
 * over, the write fails rather than overwrite another's.
 */
async function locked(lock: string, timeout: number, work: (stillHeld: () => Promise<void>) => Promise<void>): Promise<void> {
  const record = JSON.stringify({ pid: process.pid, host: hostname(), nonce: randomUUID(), time: new Date().toISOString() } satisfies LockRecord);
  const mine = `${lock}.${randomUUID()}.tmp`;
  try {
    await createFile(mine, record);
    const deadline = performance.now() + timeout;
    let seen: string | undefined;
    let seenSince = 0;
    for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
      try {
        await link(mine, lock);
        break;
      } catch (error) {
        if (codeOf(error) !== "EEXIST") throw error;
      }
      const held = await readChecked(lock, MAX_LOCK_BYTES);
      if (held === undefined) continue;
      const now = performance.now();
      const id = lockId(held);
      if (id !== seen) [seen, seenSince] = [id, now];
      const holder = parseRecord(held.text);
      if ((holderHasExited(holder) || now - seenSince >= STALE_LOCK_MS) && (await takeOver(lock, id))) continue;
      if (now >= deadline) {
        const by = holder ? `pid ${holder.pid} on ${holder.host} since ${holder.time}` : "an unknown process";
        throw new Error(`fileTokenStore: timed out after ${timeout} ms waiting for the lock ${lock}, held by ${by}; if no process holds it, delete it (and any ${lock}.*.takeover left by a process that died taking it over)`);
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(wait * (0.5 + Math.random()), deadline - now)));
    }
  } finally {
    await removeFile(mine);
  }
  try {
    await work(async () => {
      const held = await readChecked(lock, MAX_LOCK_BYTES);
      // And the path still names the file read: one opened just before it was taken over is read whole after.
      const there = held && (await lstat(lock).catch(() => undefined));
      if (held?.text !== record || `${there?.dev}:${there?.ino}` !== held.inode) {
        throw new Error(`fileTokenStore: the lock ${lock} was taken over while this process held it (over ${STALE_LOCK_MS} ms); the change was not written`);
      }
    });
  } finally {
    await removeIf(lock, record);
  }
}

/**
 * Removes the stale lock `id`, one process at a time: each taker first creates a guard file named after that lock,
 * exclusively, so that of all the processes that judged it stale only one goes on. That one reads the lock again: if
 * it is no longer `id` (another taker removed it, and a new lock may have taken its place), it leaves it. If it is,
 * nobody else can remove it meanwhile (its holder is gone; other takers wait for the guard), so what removeIf moves is
 * that lock. Returns whether it was removed. The guard is removed by the taker that made it, and only then.
 */
async function takeOver(lock: string, id: string): Promise<boolean> {
  const guard = `${lock}.${createHash("sha256").update(id).digest("hex").slice(0, 32)}.takeover`;
  try {
    await createFile(guard, "");
  } catch (error) {
    if (codeOf(error) === "EEXIST") return false;
    throw error;
  }
  try {
    const held = await readChecked(lock, MAX_LOCK_BYTES).catch(() => undefined);
    return held !== undefined && lockId(held) === id && (await removeIf(lock, id));
  } finally {
    await removeFile(guard);
  }
}

/**
 * Removes the lock at `lock` if it is `id` (ownership-checked): it is renamed to a unique name, then what was moved is
 * read. A lock that is not `id` (the one judged stale was released after all, and another took its place) is put back
 * with a link, which replaces nothing, rather than removed. Returns whether `id` was removed.
 */
async function removeIf(lock: string, id: string): Promise<boolean> {
  const aside = `${lock}.${randomUUID()}.old`;
  try {
    await rename(lock, aside);
  } catch (error) {
    if (codeOf(error) === "ENOENT") return false;
    throw error;
  }
  try {
    const moved = await readChecked(aside, MAX_LOCK_BYTES).catch(() => undefined);
    if (moved !== undefined && lockId(moved) === id) return true;
    await link(aside, lock).catch((error: unknown) => {
      if (codeOf(error) !== "EEXIST") throw error;
    });
    return false;
  } finally {
    await removeFile(aside);
  }
}
