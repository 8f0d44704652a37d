import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { startEmulator, type RunningEmulator } from "../../src/emulator/index.js";
import { memoryIo } from "../pull/helpers.js";
import { STEPS, type StepResult } from "./app/steps.js";

// Issue 22, item 1: a client fmgen generated, run by the real Deno, Bun and workerd (test/runtimes/package.json, installed
// by scripts/install-peer-clients.mjs) against the emulator this file starts on 127.0.0.1: the scenario of
// app/scenario.ts, written once, reports each step. Deno and Bun run the TypeScript directly; workerd runs an esbuild
// bundle made as a Workers build makes one, with no nodejs_compat, reaching the emulator over loopback; Node runs what
// tsc makes of the same files (rewriteRelativeImportExtensions), tsc running beside the others. The app is
// a temporary folder: the generated modules (--import-extension .ts: Deno loads them with no flag), the scenario,
// node_modules/@fmgen/runtime linked to packages/runtime (its built dist: `npm test` builds first) and zod (the
// bundle takes it in through @fmgen/runtime/schema); nothing is fetched from the network.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const HERE = fileURLToPath(new URL("./", import.meta.url));
const MODULES = join(HERE, "node_modules");
const ACCOUNT = JSON.parse(readFileSync(join(HERE, "fixture/seed.json"), "utf8")).accounts[0] as { username: string; password: string };
/** Each runtime process gets this long, from start to exit; then it is killed and the test fails. */
const PROCESS_TIMEOUT_MS = 60_000;
/** Each test's own limit: longer than a process's, so that the process is killed (and reported) first. */
const TEST_TIMEOUT_MS = PROCESS_TIMEOUT_MS + 30_000;
/** Every child still running: afterAll kills them, whatever happened. */
const running = new Set<ChildProcess>();

/** The platform package's binary each runtime's npm package would run (its postinstall is not run: --ignore-scripts). */
function binary(runtime: "deno" | "bun" | "workerd"): string {
  const key = `${process.platform}-${process.arch}`;
  const exe = process.platform === "win32" ? ".exe" : "";
  const paths: Record<string, Record<string, string>> = {
    deno: {
      "linux-x64": "@deno/linux-x64-glibc/deno",
      "linux-arm64": "@deno/linux-arm64-glibc/deno",
      "darwin-x64": "@deno/darwin-x64/deno",
      "darwin-arm64": "@deno/darwin-arm64/deno",
      "win32-x64": "@deno/win32-x64/deno.exe",
      "win32-arm64": "@deno/win32-arm64/deno.exe",
    },
    // bun 1.4.5 lists no -baseline package: its x64 builds need a CPU with AVX2.
    bun: {
      "linux-x64": "@oven/bun-linux-x64/bin/bun",
      "linux-arm64": "@oven/bun-linux-aarch64/bin/bun",
      "darwin-x64": "@oven/bun-darwin-x64/bin/bun",
      "darwin-arm64": "@oven/bun-darwin-aarch64/bin/bun",
      "win32-x64": "@oven/bun-windows-x64/bin/bun.exe",
    },
    workerd: {
      "linux-x64": "@cloudflare/workerd-linux-64/bin/workerd",
      "linux-arm64": "@cloudflare/workerd-linux-arm64/bin/workerd",
      "darwin-x64": "@cloudflare/workerd-darwin-64/bin/workerd",
      "darwin-arm64": "@cloudflare/workerd-darwin-arm64/bin/workerd",
      "win32-x64": `@cloudflare/workerd-windows-64/bin/workerd${exe}`,
    },
  };
  const path = paths[runtime]![key];
  if (path === undefined) throw new Error(`test/runtimes: no ${runtime} binary for ${key}`);
  const file = join(MODULES, path);
  if (!existsSync(file)) throw new Error(`test/runtimes: ${file} is missing: run "node scripts/install-peer-clients.mjs" (npm test does)`);
  return file;
}

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Waits for a child to exit; past the timeout it is killed (SIGKILL) and the promise rejects with what it printed. */
function finished(child: ChildProcess, what: string, timeoutMs = PROCESS_TIMEOUT_MS): Promise<Finished> {
  running.add(child);
  child.once("exit", () => running.delete(child));
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${what} did not finish in ${timeoutMs} ms; killed.\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** The results line main.ts prints (the file "@fmgen/runtime" resolved to, and each step), or an error quoting what the process printed. */
function resultsOf(output: Finished, what: string): { entry: string; results: StepResult[] } {
  const line = output.stdout.split("\n").find((l) => l.startsWith("FMGEN-RUNTIME-RESULTS "));
  if (line === undefined || output.code !== 0) {
    throw new Error(`${what} exited with ${output.code ?? output.signal} and no results line.\nstdout: ${output.stdout}\nstderr: ${output.stderr}`);
  }
  return JSON.parse(line.slice("FMGEN-RUNTIME-RESULTS ".length)) as { entry: string; results: StepResult[] };
}

/** Every step, by name, ok: a failing step shows here with its name and what it saw. */
function expectEveryStep(results: StepResult[]): void {
  expect(results.map(({ step, ok, detail }) => ({ step, ok, ...(ok ? {} : { detail }) }))).toEqual(STEPS.map((step) => ({ step, ok: true })));
}

let emulator: RunningEmulator;
let app: string;
let server: string;
/** tsc on the app, started once the modules are generated and awaited by the last test: it runs beside the runtimes. */
let compiled: Promise<Finished>;

beforeAll(async () => {
  const entry = join(ROOT, "packages/runtime/dist/fetch.js");
  if (!existsSync(entry)) throw new Error(`test/runtimes: ${entry} is missing: run "npm run build" (npm test does)`);
  emulator = await startEmulator({
    layouts: [join(HERE, "fixture")],
    data: join(HERE, "fixture/seed.json"),
    scripts: { Greet: ({ param }) => `Hello, ${param ?? ""}` },
    log: () => {},
  });
  server = emulator.url;
  app = mkdtempSync(join(tmpdir(), "fmgen-runtimes-"));
  cpSync(join(HERE, "app"), app, { recursive: true });
  writeFileSync(join(app, "target.json"), `${JSON.stringify({ server, ...ACCOUNT })}\n`);
  // An app's package.json, as npm leaves it: with one, Deno reads bare specifiers from node_modules (its "manual"
  // nodeModulesDir, no deno.json needed, as README says), so nothing is fetched.
  writeFileSync(join(app, "package.json"), `${JSON.stringify({ type: "module", private: true, dependencies: { "@fmgen/runtime": "*", zod: "*" } })}\n`);
  mkdirSync(join(app, "node_modules/@fmgen"), { recursive: true });
  symlinkSync(join(ROOT, "packages/runtime"), join(app, "node_modules/@fmgen/runtime"), "junction");
  symlinkSync(join(ROOT, "node_modules/zod"), join(app, "node_modules/zod"), "junction");

  const io = memoryIo();
  const code = await run(["generate", "--layouts", join(HERE, "fixture"), "--out", join(app, "generated"), "--import-extension", ".ts"], io);
  if (code !== 0) throw new Error(`fmgen generate failed (${code}): ${[...io.out, ...io.err].join("\n")}`);
  compiled = finished(spawn(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", join(app, "tsconfig.json")], { cwd: app }), "tsc");
  compiled.catch(() => {}); // awaited (and reported) by its test
}, TEST_TIMEOUT_MS);

afterAll(async () => {
  for (const child of running) child.kill("SIGKILL");
  await compiled?.catch(() => undefined);
  await emulator?.close();
  if (app) rmSync(app, { recursive: true, force: true });
});

/** Runs the scenario once on a runtime; the emulator must see one login, and no session left open after it. */
async function scenarioOn(go: () => Promise<StepResult[]>): Promise<StepResult[]> {
  const before = emulator.stats();
  const results = await go();
  const after = emulator.stats();
  if (results.every((r) => r.ok)) {
    expect(after.logins - before.logins, "logins during the run").toBe(1);
    expect(after.activeSessions, "sessions left open after logout").toBe(before.activeSessions);
  }
  return results;
}

describe("a generated client on real runtimes, against the emulator", () => {
  it("Deno runs the TypeScript with no flag but the network permission for the emulator", async () => {
    const port = new URL(server).port;
    const results = await scenarioOn(async () => {
      const deno = spawn(binary("deno"), ["run", "--no-remote", `--allow-net=127.0.0.1:${port}`, "main.ts"], {
        cwd: app,
        env: { ...process.env, DENO_DIR: join(app, ".deno"), DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      const { entry, results } = resultsOf(await finished(deno, "deno"), "deno");
      expect(entry, "the deno export condition's entry").toMatch(/\/packages\/runtime\/dist\/fetch\.js$/);
      return results;
    });
    expectEveryStep(results);
  }, TEST_TIMEOUT_MS);

  it("Bun runs the TypeScript", async () => {
    const results = await scenarioOn(async () => {
      const bun = spawn(binary("bun"), ["--no-install", "run", "main.ts"], {
        cwd: app,
        env: { ...process.env, BUN_INSTALL_CACHE_DIR: join(app, ".bun"), NO_COLOR: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      const { entry, results } = resultsOf(await finished(bun, "bun"), "bun");
      expect(entry, "the bun export condition's entry").toMatch(/\/packages\/runtime\/dist\/fetch\.js$/);
      return results;
    });
    expectEveryStep(results);
  }, TEST_TIMEOUT_MS);

  it("workerd runs an esbuild bundle (conditions workerd, worker, browser) with no nodejs_compat, over loopback", async () => {
    const esbuild = (await import(pathToFileURL(join(MODULES, "esbuild/lib/main.js")).href)) as typeof import("esbuild");
    await esbuild.build({
      absWorkingDir: app,
      entryPoints: ["worker.ts"],
      outfile: "worker.js",
      bundle: true,
      format: "esm",
      platform: "neutral",
      conditions: ["workerd", "worker", "browser"],
      mainFields: ["module", "main"],
      target: "es2022",
      logLevel: "silent",
    });
    const bundle = readFileSync(join(app, "worker.js"), "utf8");
    expect(bundle).not.toMatch(/from\s*["']node:|require\(["']node:/);
    // The worker's only outbound service is a network that allows local addresses alone: loopback, where the
    // emulator listens. The socket's port is 0; workerd reports the one it took on the control fd.
    writeFileSync(
      join(app, "config.capnp"),
      `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    (name = "loopback", network = (allow = ["local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "worker.js")],
  compatibilityDate = "2025-09-01",
  globalOutbound = "loopback",
);
`,
    );
    const workerd = spawn(binary("workerd"), ["serve", "config.capnp", "--control-fd=3"], { cwd: app, stdio: ["ignore", "pipe", "pipe", "pipe"] });
    const exited = finished(workerd, "workerd");
    try {
      const port = await new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`workerd reported no listening port in ${PROCESS_TIMEOUT_MS} ms`)), PROCESS_TIMEOUT_MS);
        createInterface({ input: workerd.stdio[3] as NodeJS.ReadableStream }).on("line", (line) => {
          let message: { event?: string; socket?: string; port?: number };
          try {
            message = JSON.parse(line) as typeof message;
          } catch {
            return; // not a control message
          }
          if (message.event === "listen" && message.socket === "http" && message.port !== undefined) {
            clearTimeout(timer);
            resolve(message.port);
          }
        });
        exited.then(
          (output) => reject(new Error(`workerd exited with ${output.code ?? output.signal} before listening.\nstderr: ${output.stderr}`)),
          reject,
        );
      });
      const results = await scenarioOn(async () => {
        const response = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(PROCESS_TIMEOUT_MS) });
        const text = await response.text();
        if (response.status !== 200) throw new Error(`the worker answered HTTP ${response.status}: ${text}`);
        return JSON.parse(text) as StepResult[];
      });
      expectEveryStep(results);
    } finally {
      workerd.kill("SIGTERM");
      await exited.catch(() => undefined);
    }
  }, TEST_TIMEOUT_MS);

  it("tsc compiles the generated modules (--import-extension .ts) and the scenario for Node (rewriteRelativeImportExtensions), and Node runs them", async () => {
    expect(readFileSync(join(app, "generated/index.ts"), "utf8")).toMatch(/^export \* from "\.\/member\.ts";$/m);
    const output = await compiled;
    expect(output.stdout + output.stderr).toBe("");
    expect(output.code).toBe(0);
    expect(readFileSync(join(app, ".build/generated/index.js"), "utf8")).toMatch(/^export \* from "\.\/member\.js";$/m);
    const results = await scenarioOn(async () => {
      const node = spawn(process.execPath, [".build/main.js"], { cwd: app, stdio: ["ignore", "pipe", "pipe"] });
      const { entry, results } = resultsOf(await finished(node, "node"), "node");
      expect(entry, "the node export condition's entry").toMatch(/\/packages\/runtime\/dist\/index\.js$/);
      return results;
    });
    expectEveryStep(results);
  }, TEST_TIMEOUT_MS);
});
