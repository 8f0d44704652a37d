import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileTokenStore } from "../../src/runtime/file-token-store.js";
import { memoryTokenStore } from "../../src/runtime/index.js";
import { callAfterPoison, EMULATOR_TOKEN, POISONED_TOKENS } from "../support/poisoned-tokens.js";
import { connect, startRuntimeEmulator, type Emulator } from "../support/runtime-emulator.js";
import { DATABASE, PASSWORD } from "../support/runtime-layouts.js";

// @fmgen/runtime/file-token-store (Node only): a token store in one JSON file shared by the processes of a machine.
// Written atomically (temp file + rename, under a lock file), mode 0600; a missing or damaged file reads as empty;
// anything at the path but a file of this user that nobody else can write is refused (issue 21).
// The processes test runs two Node processes on the built package against one emulator: one login between them.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CHILD = fileURLToPath(new URL("../support/token-store-child.mjs", import.meta.url));
const POSIX = process.platform !== "win32";
const ROOT_USER = process.getuid?.() === 0;

/** The pid of a process that has exited: a lock naming it on this host was left by a dead process. */
function deadPid(): number {
  const pid = spawnSync(process.execPath, ["-e", ""]).pid;
  if (!pid) throw new Error("could not start a process");
  return pid;
}

/** Writes a lock as another process of this store would have left it: holder `pid` on this host, dated `at`. */
function plantLock(lock: string, pid: number, at: Date): void {
  writeFileSync(lock, JSON.stringify({ pid, host: hostname(), nonce: "planted", time: at.toISOString() }), { mode: 0o600 });
  utimesSync(lock, at, at);
}

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
    // A lower bound, kept: the set waited for the lock to go (150 ms); a busy machine only makes the wait longer.
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    // A lock a minute old, of a process that has exited: its holder is gone.
    plantLock(`${path}.lock`, deadPid(), new Date(Date.now() - 60_000));
    await store.set("k", "t2");
    expect(await store.get("k")).toBe("t2");
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it("refuses a path that is not a string, and a lock timeout that is not a number of milliseconds", () => {
    expect(() => fileTokenStore("")).toThrow(TypeError);
    expect(() => fileTokenStore(undefined as unknown as string)).toThrow(/fileTokenStore: path must be a file path/);
    expect(() => fileTokenStore(freshPath(), { lockTimeoutMs: -1 })).toThrow(/options\.lockTimeoutMs must be a number of milliseconds/);
    expect(() => fileTokenStore(freshPath(), { lockTimeoutMs: Number.NaN })).toThrow(TypeError);
  });
});

// Issue 21, item 4: what is at the path is used only if it is what the store writes. Each case would hang, exhaust
// memory or use a token someone else planted if it were read as a file: each must be refused, the error naming the
// path and the reason, by get and by set, and set must leave it as it was.
const KEY = "https://fm.example.com/fmi/data/vLatest Contacts web";
const PLANTED = "planted-token";
const plantTokens = (path: string, extra = "") => writeFileSync(path, `{"${KEY}":"${PLANTED}"${extra}}`, { mode: 0o600 });
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe.skipIf(!POSIX)("what is at the path: refused unless it is a file of this user that nobody else can write", () => {
  const cases: [string, (path: string) => void, string][] = [
    ["a file others can write", (path) => (plantTokens(path), chmodSync(path, 0o666)), "it is writable by group or others (mode 666)"],
    ["a file its group can write", (path) => (plantTokens(path), chmodSync(path, 0o620)), "it is writable by group or others (mode 620)"],
    ["a symbolic link to a file with a token", (path) => (plantTokens(`${path}.elsewhere`), symlinkSync(`${path}.elsewhere`, path)), "it is a symbolic link"],
    ["a symbolic link to /dev/zero", (path) => symlinkSync("/dev/zero", path), "it is a symbolic link"],
    ["a FIFO", (path) => void spawnSync("mkfifo", [path]), "it is a FIFO, not a regular file"],
    ["a folder", (path) => mkdirSync(path), "it is a folder, not a regular file"],
    ["a file over 1 MiB", (path) => plantTokens(path, `,"pad":"${"x".repeat(1 << 20)}"`), "it is larger than 1048576 bytes"],
  ];
  it.each(cases)("%s is refused, naming the path and the reason; nothing planted is used or replaced", { timeout: 5_000 }, async (_what, plant, reason) => {
    const path = freshPath();
    mkdirSync(join(path, ".."), { mode: 0o700 });
    plant(path);
    const before = lstatSync(path);
    const store = fileTokenStore(path, { lockTimeoutMs: 2_000 });
    const error = new RegExp(`^fileTokenStore: refusing ${escape(path)}: ${escape(reason)}$`);
    await expect(store.get(KEY)).rejects.toThrow(error);
    await expect(store.set(KEY, "mine")).rejects.toThrow(error);
    await expect(store.delete(KEY)).rejects.toThrow(error);
    const after = lstatSync(path);
    expect([after.ino, after.mode, after.size]).toEqual([before.ino, before.mode, before.size]);
    // No lock nor temporary file left behind.
    expect(readdirSync(join(path, "..")).filter((name) => !name.endsWith(".elsewhere"))).toEqual(["tokens.json"]);
  });

  it.skipIf(!ROOT_USER)("a file of another user is refused (chown to 65534; skipped unless the tests run as root, as only root can give a file away)", async () => {
    const path = freshPath();
    mkdirSync(join(path, ".."), { mode: 0o700 });
    plantTokens(path);
    chownSync(path, 65534, 65534);
    const error = new RegExp(`^fileTokenStore: refusing ${escape(path)}: it is owned by uid 65534, not by this process's uid 0$`);
    await expect(fileTokenStore(path).get(KEY)).rejects.toThrow(error);
    await expect(fileTokenStore(path).set(KEY, "mine")).rejects.toThrow(error);
    expect(readFileSync(path, "utf8")).toContain(PLANTED);
  });

  it("a folder others can write is refused (they could replace the file or remove the lock); a sticky one is not", async () => {
    const path = freshPath();
    const folder = join(path, "..");
    mkdirSync(folder);
    chmodSync(folder, 0o777);
    plantTokens(path);
    const error = new RegExp(`^fileTokenStore: refusing ${escape(folder)}: the folder is writable by group or others \\(mode 777\\) and not sticky$`);
    await expect(fileTokenStore(path).get(KEY)).rejects.toThrow(error);
    await expect(fileTokenStore(path).set(KEY, "mine")).rejects.toThrow(error);
    // Sticky, as /tmp is: others cannot remove or rename what is not theirs.
    chmodSync(folder, 0o1777);
    await fileTokenStore(path).set("k", "t");
    expect(await fileTokenStore(path).get(KEY)).toBe(PLANTED);
  });

  it.skipIf(!ROOT_USER)("a folder of another user is refused (skipped unless the tests run as root)", async () => {
    const path = freshPath();
    const folder = join(path, "..");
    mkdirSync(folder, { mode: 0o700 });
    plantTokens(path);
    chownSync(folder, 65534, 65534);
    await expect(fileTokenStore(path).get(KEY)).rejects.toThrow(`fileTokenStore: refusing ${folder}: the folder is owned by uid 65534, not by this process's uid 0 nor root`);
  });
});

// Issue 21, item 3: the lock. Waits are bounded; a lock is stale when its holder on this host has exited, or when this
// process has seen it unchanged for 5 s, whatever its dates say; anything but a lock file of this user is refused.
describe.skipIf(!POSIX)("the lock", () => {
  it("a lock dated in the future whose holder has exited is taken over at once", { timeout: 10_000 }, async () => {
    const path = freshPath();
    const store = fileTokenStore(path, { lockTimeoutMs: 3_000 });
    await store.set("k", "t0");
    plantLock(`${path}.lock`, deadPid(), new Date(Date.now() + 3_600_000));
    await store.set("k", "t1");
    expect(await store.get("k")).toBe("t1");
    expect(readdirSync(join(path, ".."))).toEqual(["tokens.json"]);
  });

  it("a lock dated in the future whose holder may be running: a bounded wait and an error naming the lock, then a takeover once seen unchanged for 5 s", { timeout: 20_000 }, async () => {
    const path = freshPath();
    await fileTokenStore(path).set("k", "t0");
    const at = new Date(Date.now() + 3_600_000);
    plantLock(`${path}.lock`, process.pid, at);
    await expect(fileTokenStore(path, { lockTimeoutMs: 500 }).set("k", "t1")).rejects.toThrow(
      `fileTokenStore: timed out after 500 ms waiting for the lock ${path}.lock, held by pid ${process.pid} on ${hostname()} since ${at.toISOString()}; if no process holds it, delete it (and any ${path}.lock.*.takeover left by a process that died taking it over)`,
    );
    expect(await fileTokenStore(path).get("k")).toBe("t0");
    // The default timeout (10 s) outlasts the 5 s after which a lock seen unchanged is taken over.
    await fileTokenStore(path).set("k", "t2");
    expect(await fileTokenStore(path).get("k")).toBe("t2");
    expect(readdirSync(join(path, ".."))).toEqual(["tokens.json"]);
  });

  it("a dangling symbolic link as the lock is refused at once, and left where it is", { timeout: 10_000 }, async () => {
    const path = freshPath();
    const store = fileTokenStore(path, { lockTimeoutMs: 2_000 });
    await store.set("k", "t0");
    symlinkSync(join(dir, "nowhere"), `${path}.lock`);
    await expect(store.set("k", "t1")).rejects.toThrow(`fileTokenStore: refusing ${path}.lock: it is a symbolic link`);
    expect(readlinkSync(`${path}.lock`)).toBe(join(dir, "nowhere"));
    expect(await store.get("k")).toBe("t0");
  });

  const locks: [string, (lock: string) => void, string][] = [
    ["a FIFO", (lock) => void spawnSync("mkfifo", [lock]), "it is a FIFO, not a regular file"],
    ["a folder", (lock) => mkdirSync(lock), "it is a folder, not a regular file"],
    ["a file others can write", (lock) => (plantLock(lock, deadPid(), new Date()), chmodSync(lock, 0o646)), "it is writable by group or others (mode 646)"],
  ];
  if (ROOT_USER) locks.push(["a lock of another user", (lock) => (plantLock(lock, deadPid(), new Date()), chownSync(lock, 65534, 65534)), "it is owned by uid 65534, not by this process's uid 0"]);
  it.each(locks)("a lock that is %s is refused at once, and left where it is", { timeout: 10_000 }, async (_what, plant, reason) => {
    const path = freshPath();
    const store = fileTokenStore(path, { lockTimeoutMs: 2_000 });
    await store.set("k", "t0");
    plant(`${path}.lock`);
    const before = lstatSync(`${path}.lock`).ino;
    await expect(store.set("k", "t1")).rejects.toThrow(`fileTokenStore: refusing ${path}.lock: ${reason}`);
    expect(lstatSync(`${path}.lock`).ino).toBe(before);
    expect(await store.get("k")).toBe("t0");
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

describe("a stored token that cannot work", () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startRuntimeEmulator();
  });
  afterAll(() => emu?.close());

  it.each(POISONED_TOKENS)("%s in the file: the call succeeds with one login, and the file holds a fresh token", async (_what, poison) => {
    const path = freshPath();
    const { recordId, logins, stored } = await callAfterPoison(emu, fileTokenStore(path), poison);
    expect(recordId).toBe("1");
    expect(logins).toBe(1);
    expect(stored).toMatch(EMULATOR_TOKEN);
    expect(Object.values(JSON.parse(readFileSync(path, "utf8")) as object)).toEqual([stored]);
  });
});

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

  it("12 processes writing 20 keys each, racing to take over a stale lock: no write is lost", { timeout: 60_000 }, async () => {
    const path = freshPath();
    mkdirSync(join(path, ".."), { mode: 0o700 });
    const writer = (p: number) =>
      `import { fileTokenStore } from "@fmgen/runtime/file-token-store";
       setTimeout(() => process.exit(3), 40_000).unref();
       const store = fileTokenStore(${JSON.stringify(path)}, { lockTimeoutMs: 30_000 });
       console.log("ready");
       await new Promise((resolve) => process.stdin.once("data", resolve));
       process.stdin.destroy();
       await Promise.all(Array.from({ length: 20 }, (_, i) => store.set("p${p}-" + i, "t" + i)));`;
    const writers = Array.from({ length: 12 }, (_, p) => {
      const proc = spawn(process.execPath, ["--input-type=module", "-e", writer(p)], { cwd: ROOT, timeout: 45_000 });
      let err = "";
      proc.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
      const ready = new Promise<void>((resolve) => proc.stdout.once("data", () => resolve()));
      const exited = new Promise<string>((resolve) => proc.on("close", (code) => resolve(code === 0 ? "ok" : `exit ${code}: ${err}`)));
      return { proc, ready, exited };
    });
    await Promise.race([Promise.all(writers.map((w) => w.ready)), Promise.all(writers.map((w) => w.exited))]);
    // A lock left by a process that died a minute ago: all twelve find it at once when they start.
    plantLock(`${path}.lock`, deadPid(), new Date(Date.now() - 60_000));
    for (const w of writers) w.proc.stdin.write("go\n");
    expect(await Promise.all(writers.map((w) => w.exited))).toEqual(writers.map(() => "ok"));
    const tokens = JSON.parse(readFileSync(path, "utf8")) as Record<string, string>;
    expect(Object.keys(tokens)).toHaveLength(240);
    expect(readdirSync(join(path, ".."))).toEqual(["tokens.json"]);
  });

  it.each([
    ["before it writes its temporary file", "temp"],
    ["once it has opened the lock to check it still holds it", "check"],
  ])("a writer held up %s, whose lock is taken over meanwhile, fails rather than overwrite the write made meanwhile", { timeout: 40_000 }, async (_when, where) => {
    const path = freshPath();
    // The child's node:fs/promises open() waits for a line on stdin the first time it creates the temporary token file
    // (after the child has taken the lock and read the file, before it writes), or once it has opened the lock to read
    // it (the child is the only writer: that is its check before it commits). The store's code is the built package's.
    const writer = `import fsp from "node:fs/promises";
       import { syncBuiltinESMExports } from "node:module";
       import { createInterface } from "node:readline";
       setTimeout(() => process.exit(3), 30_000).unref();
       const path = ${JSON.stringify(path)};
       const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
       const open = fsp.open;
       let hold = true;
       const wait = async () => {
         hold = false;
         console.log("holding the lock");
         await lines.next();
       };
       fsp.open = async (file, flags, mode) => {
         const temp = flags === "wx" && String(file).startsWith(path + ".") && !String(file).startsWith(path + ".lock");
         if (hold && ${JSON.stringify(where)} === "temp" && temp) await wait();
         const handle = await open(file, flags, mode);
         if (hold && ${JSON.stringify(where)} === "check" && String(file) === path + ".lock" && typeof flags === "number") await wait();
         return handle;
       };
       syncBuiltinESMExports();
       const { fileTokenStore } = await import("@fmgen/runtime/file-token-store");
       const store = fileTokenStore(path, { lockTimeoutMs: 20_000 });
       console.log(await store.set("child", "c").then(() => "written", (error) => String(error)));
       process.stdin.destroy();`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", writer], { cwd: ROOT, timeout: 35_000 });
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    try {
      expect((await lines.next()).value).toBe("holding the lock");
      // Seen unchanged for 5 s, its lock is taken over (its holder is alive, but held up).
      await fileTokenStore(path, { lockTimeoutMs: 20_000 }).set("parent", "p");
      child.stdin.write("go on\n");
      expect((await lines.next()).value).toBe(`Error: fileTokenStore: the lock ${path}.lock was taken over while this process held it (over 5000 ms); the change was not written`);
      expect(await exited).toBe(0);
    } finally {
      child.kill();
    }
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ parent: "p" });
    expect(readdirSync(join(path, ".."))).toEqual(["tokens.json"]);
  });

  it("a token planted in a file others can write is never sent: the call fails naming the file", async () => {
    // A token the server accepts, planted in a file anyone could have written.
    // The key (it ends in a verifier of the password) as the client wrote it.
    const memory = memoryTokenStore();
    let key = "";
    const recording = { get: (k: string) => memory.get(k), set: (k: string, t: string) => memory.set((key = k), t), delete: (k: string) => memory.delete(k) };
    const first = connect(emu.url, { tokenStore: recording });
    await first.layouts();
    await first.close();
    expect(key.startsWith(`${emu.url}/fmi/data/vLatest ${DATABASE} web `)).toBe(true);
    const token = await memory.get(key);
    expect(token).toEqual(expect.any(String));
    const path = freshPath();
    mkdirSync(join(path, ".."), { mode: 0o700 });
    writeFileSync(path, JSON.stringify({ [key]: token }), { mode: 0o666 });
    chmodSync(path, 0o666);
    const requests = emu.stats().requests;
    const fm = connect(emu.url, { tokenStore: fileTokenStore(path) });
    await expect(fm.layouts()).rejects.toThrow(`fileTokenStore: refusing ${path}: it is writable by group or others (mode 666)`);
    expect(emu.stats().requests - requests).toBe(0);
    await fm.close();
  });

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
