import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { DataDirectory } from "../../../src/emulator/store/data-directory.js";

// SIGKILL at random points while 16 writers append (src/emulator/store/data-directory.ts): every entry whose append had
// resolved (printed by the child) is there at the next open, with nothing half-written, and the directory opens every
// time. Bounded: KILLS kills, each after at most 400 ms of writing, each child awaited.

const CHILD = fileURLToPath(new URL("./journal-writer-child.mjs", import.meta.url));
const KILLS = 12;
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** Runs the child until it has printed `ready` and then for `ms` more, kills it, and returns the numbers it printed. */
function writeThenKill(dir: string, from: number, ms: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, dir, String(from)], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      if (out === "" && chunk.startsWith("ready")) setTimeout(() => child.kill("SIGKILL"), ms);
      out += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
    const guard = setTimeout(() => child.kill("SIGKILL"), 15_000);
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      clearTimeout(guard);
      if (signal !== "SIGKILL") return reject(new Error(`the writer exited by itself (code ${code}): ${err}`));
      resolve(out.split("\n").filter((line) => /^\d+$/.test(line)).map(Number));
    });
  });
}

describe("a data directory killed while it is written", () => {
  it("keeps every answered entry and nothing half-written, kill after kill", async () => {
    const dir = await mkdtemp(join(tmpdir(), "fmgen-kill-"));
    dirs.push(dir);
    const answered = new Set<number>();
    let from = 1;
    // A seeded sequence of delays, so that a failure repeats.
    let seed = 35;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let kill = 0; kill < KILLS; kill++) {
      for (const n of await writeThenKill(dir, from, Math.floor(random() * 400))) answered.add(n);
      const { directory, stored } = await DataDirectory.open<{ upTo: number }, { n: number; key: { text: string } }>(dir);
      await directory.close();
      const upTo = stored.snapshot?.upTo ?? 0;
      const present = new Set<number>(stored.entries.map((e) => e.n));
      for (const e of stored.entries) expect(e.key.text).toHaveLength(58);
      // Answered entries the snapshot does not cover are in the journal; those it covers are at or below its mark.
      const missing = [...answered].filter((n) => n > upTo && !present.has(n));
      expect(missing, `kill ${kill}: answered but lost`).toEqual([]);
      from = Math.max(from, ...answered, ...present) + 1;
    }
    expect(answered.size).toBeGreaterThan(KILLS);
  });
});
