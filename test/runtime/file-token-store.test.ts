import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileTokenStore } from "../../src/runtime/file-token-store.js";
import { startRuntimeEmulator, type Emulator } from "../support/runtime-emulator.js";
import { DATABASE, PASSWORD } from "../support/runtime-layouts.js";

// @fmgen/runtime/file-token-store (Node only): a token store in one JSON file shared by the processes of a machine.
// Written atomically (temp file + rename, under a lock file), mode 0600; a missing or damaged file reads as empty.
// The processes test runs two Node processes on the built package against one emulator: one login between them.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CHILD = fileURLToPath(new URL("../support/token-store-child.mjs", import.meta.url));
const POSIX = process.platform !== "win32";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "fmgen-token-store-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
const freshPath = () => join(dir, `store-${n++}`, "tokens.json");

describe("fileTokenStore", () => {
  it("keeps tokens by key in a JSON file of mode 0600, and forgets deleted ones", async () => {
    const path = freshPath();
    const store = fileTokenStore(path);
    expect(await store.get("k1")).toBeUndefined();
    await store.set("k1", "t1");
    await store.set("k2", "t2");
    await store.set("k1", "t1b");
    expect(await store.get("k1")).toBe("t1b");
    expect(await fileTokenStore(path).get("k2")).toBe("t2");
    await store.delete("k2");
    await store.delete("never-set");
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ k1: "t1b" });
    if (POSIX) expect(statSync(path).mode & 0o777).toBe(0o600);
    // No temporary file and no lock left behind.
    expect(readdirSync(join(path, ".."))).toEqual(["tokens.json"]);
  });

  it("a key such as __proto__ is a key like any other", async () => {
    const store = fileTokenStore(freshPath());
    await store.set("__proto__", "t");
    expect(await store.get("__proto__")).toBe("t");
    expect(await store.get("constructor")).toBeUndefined();
  });

  it.each([
    ["not JSON", "{ this is not json"],
    ["cut short", '{"k1":"t1","k2":"t'],
    ["an array", '["t1"]'],
    ["null", "null"],
    ["empty", ""],
  ])("a file that is %s reads as empty, and the next write repairs it", async (_what, text) => {
    const path = freshPath();
    await fileTokenStore(path).set("other", "x");
    writeFileSync(path, text);
    const store = fileTokenStore(path);
    await expect(store.get("k1")).resolves.toBeUndefined();
    await store.set("k1", "t1");
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ k1: "t1" });
  });

  it("values that are not strings are left out; the strings beside them are kept", async () => {
    const path = freshPath();
    await fileTokenStore(path).set("k", "x");
    writeFileSync(path, JSON.stringify({ good: "t", number: 5, object: { a: 1 } }));
    const store = fileTokenStore(path);
    expect(await store.get("good")).toBe("t");
    expect(await store.get("number")).toBeUndefined();
  });

  it("50 concurrent writes of different keys lose none (the lock file)", async () => {
    const path = freshPath();
    const store = fileTokenStore(path);
    await Promise.all(Array.from({ length: 50 }, (_, i) => store.set(`k${i}`, `t${i}`)));
    expect(Object.keys(JSON.parse(readFileSync(path, "utf8")) as object)).toHaveLength(50);
  });

  it("waits for a lock another process holds, and takes over one left by a dead process", async () => {
    const path = freshPath();
    const store = fileTokenStore(path);
    await store.set("k", "t0");
    writeFileSync(`${path}.lock`, "");
    const started = Date.now();
    setTimeout(() => rmSync(`${path}.lock`), 150);
    await store.set("k", "t1");
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    // A lock a minute old: its holder is gone.
    writeFileSync(`${path}.lock`, "");
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${path}.lock`, old, old);
    await store.set("k", "t2");
    expect(await store.get("k")).toBe("t2");
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it("refuses a path that is not a string", () => {
    expect(() => fileTokenStore("")).toThrow(TypeError);
    expect(() => fileTokenStore(undefined as unknown as string)).toThrow(/fileTokenStore: path must be a file path/);
  });
});

/** Runs `script` (ES module text) in a new Node process at the repository's root; resolves to its stdout. */
function runNode(script: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT, timeout: 20_000 });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${err}`))));
  });
}

describe("several processes (the built package)", () => {
  let emu: Emulator;
  beforeAll(async () => {
    if (!existsSync(join(ROOT, "packages/runtime/dist/file-token-store.js"))) throw new Error("build the runtime first (npm run build)");
    emu = await startRuntimeEmulator();
  });
  afterAll(() => emu?.close());

  it("three processes writing 20 keys each at once: every key is in the file, and the file is whole", async () => {
    const path = freshPath();
    const writer = (p: number) =>
      `import { fileTokenStore } from "@fmgen/runtime/file-token-store";
       const store = fileTokenStore(${JSON.stringify(path)});
       await Promise.all(Array.from({ length: 20 }, (_, i) => store.set("p${p}-" + i, "t" + i)));`;
    await Promise.all([0, 1, 2].map((p) => runNode(writer(p))));
    const tokens = JSON.parse(readFileSync(path, "utf8")) as Record<string, string>;
    expect(Object.keys(tokens)).toHaveLength(60);
    expect(readdirSync(join(path, ".."))).toEqual(["tokens.json"]);
  });

  /** A child process (test/support/token-store-child.mjs) and its stdout's lines. */
  function child(path: string): { proc: ChildProcessWithoutNullStreams; next: () => Promise<{ ok: boolean; layouts?: number; error?: string }>; exited: Promise<number | null> } {
    const proc = spawn(process.execPath, [CHILD, emu.url, DATABASE, path], { cwd: ROOT, env: { ...process.env, FM_PASSWORD: PASSWORD }, timeout: 20_000 });
    const lines = createInterface({ input: proc.stdout })[Symbol.asyncIterator]();
    let stderr = "";
    proc.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => proc.on("close", resolve));
    return {
      proc,
      exited,
      next: async () => {
        const line = await lines.next();
        if (line.done) throw new Error(`the child process ended: ${stderr}`);
        return JSON.parse(line.value) as { ok: boolean };
      },
    };
  }

  it("two processes sharing one file store log in once between them, and all their calls succeed", { timeout: 30_000 }, async () => {
    const path = freshPath();
    const logins = emu.stats().logins;
    const a = child(path);
    try {
      // A logs in and stores the token; B, started then, finds it.
      expect(await a.next()).toEqual({ ok: true, layouts: expect.any(Number) });
      const b = child(path);
      try {
        expect(await b.next()).toEqual({ ok: true, layouts: expect.any(Number) });
        // Both at once, twice.
        for (let round = 0; round < 2; round++) {
          a.proc.stdin.write("round\n");
          b.proc.stdin.write("round\n");
          expect(await Promise.all([a.next(), b.next()])).toEqual([expect.objectContaining({ ok: true }), expect.objectContaining({ ok: true })]);
        }
        b.proc.stdin.end("end\n");
        expect(await b.exited).toBe(0);
      } finally {
        b.proc.kill();
      }
      a.proc.stdin.end("end\n");
      expect(await a.exited).toBe(0);
    } finally {
      a.proc.kill();
    }
    expect(emu.stats().logins - logins).toBe(1);
    const stored = JSON.parse(readFileSync(path, "utf8")) as Record<string, string>;
    // One key: the Data API's URL, the database, the account and the password's PBKDF2 verifier (base64).
    expect(Object.keys(stored)).toEqual([expect.stringMatching(/^\S+ \S+ web [A-Za-z0-9+/]{43}=$/)]);
    expect(Object.keys(stored)[0]!.startsWith(`${emu.url}/fmi/data/vLatest ${DATABASE} web `)).toBe(true);
    expect(readFileSync(path, "utf8")).not.toContain(PASSWORD);
    if (POSIX) expect(statSync(path).mode & 0o777).toBe(0o600);
  });
});
