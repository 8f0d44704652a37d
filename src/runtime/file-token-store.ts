// @fmgen/runtime/file-token-store: a TokenStore in a file, for several Node processes on one machine (Node only: it
// reads and writes files; no entry of the runtime imports it).
import { randomUUID } from "node:crypto";
import { mkdir, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { TokenStore } from "./token-store.js";

export type { TokenStore } from "./token-store.js";

/** A lock older than this was left by a process that died holding it: it is taken over. */
const STALE_LOCK_MS = 5_000;

/**
 * A token store in one JSON file (`{ "<key>": "<token>" }`, mode 0600), shared by every process that names the same
 * path. A change is written to a temporary file beside it and renamed over it, under a lock file (`<path>.lock`), so
 * that a reader never sees half a file and two writers never lose each other's change. A missing, unreadable-as-JSON
 * or otherwise damaged file reads as empty (its tokens are logged in again and rewritten), never as an error.
 */
export function fileTokenStore(path: string): TokenStore {
  if (typeof path !== "string" || path === "") throw new TypeError("fileTokenStore: path must be a file path");
  const update = (change: (tokens: Map<string, string>) => void) =>
    locked(`${path}.lock`, async () => {
      const tokens = await readTokens(path);
      change(tokens);
      const temp = `${path}.${randomUUID()}.tmp`;
      try {
        await writeFile(temp, JSON.stringify(Object.fromEntries(tokens)), { mode: 0o600 });
        await rename(temp, path);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    });
  return {
    get: async (key) => (await readTokens(path)).get(key),
    set: (key, token) => update((tokens) => tokens.set(key, token)),
    delete: (key) => update((tokens) => tokens.delete(key)),
  };
}

/** The file's tokens; a file that is missing or not a JSON object of strings holds none (or only its strings). */
async function readTokens(path: string): Promise<Map<string, string>> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") return new Map();
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return new Map();
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) return new Map();
  return new Map(Object.entries(json).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
}

/**
 * Runs `work` holding the lock file (created exclusively, mode 0600), waiting while another process holds it; a lock
 * older than STALE_LOCK_MS (its holder died) is removed. The folder is made if missing.
 */
async function locked(lock: string, work: () => Promise<void>): Promise<void> {
  await mkdir(dirname(lock), { recursive: true, mode: 0o700 });
  for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
    try {
      await (await open(lock, "wx", 0o600)).close();
      break;
    } catch (error) {
      if ((error as { code?: unknown }).code !== "EEXIST") throw error;
    }
    const since = await stat(lock).then((s) => Date.now() - s.mtimeMs, () => 0);
    if (since > STALE_LOCK_MS) await rm(lock, { force: true });
    else await new Promise((resolve) => setTimeout(resolve, wait * (0.5 + Math.random())));
  }
  try {
    await work();
  } finally {
    await rm(lock, { force: true });
  }
}
