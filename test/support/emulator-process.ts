import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

/**
 * The emulator (this working tree's source, bundled with esbuild) in a child process of its own. For tests
 * of requests that could block an emulator's event loop: an in-process emulator stuck in a loop would stall
 * the test's own timers too, so a regression would hang the test run instead of failing it by timeout.
 */

const EMULATOR_ENTRY = fileURLToPath(new URL("../../src/emulator/index.ts", import.meta.url));
const START_TIMEOUT_MS = 20_000;

const RUNNER = `
import { startEmulator } from "./emulator.mjs";
const emu = await startEmulator(JSON.parse(process.argv[2]));
process.stdout.write(emu.url + "\\n");
`;

export interface EmulatorProcess {
  url: string;
  /** Kills the child (SIGKILL: it may be stuck) and removes its files. */
  stop(): Promise<void>;
}

/** Starts the emulator with `options` (JSON: paths, not objects with functions) and resolves with its URL. */
export async function startEmulatorProcess(options: { layouts: unknown[]; data?: unknown }): Promise<EmulatorProcess> {
  const dir = await mkdtemp(join(tmpdir(), "fmgen-emulator-process-"));
  await build({ entryPoints: [EMULATOR_ENTRY], bundle: true, platform: "node", format: "esm", outfile: join(dir, "emulator.mjs"), logLevel: "silent" });
  await writeFile(join(dir, "run.mjs"), RUNNER);
  const child = spawn(process.execPath, [join(dir, "run.mjs"), JSON.stringify(options)], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    return { url: await firstLine(child), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    const timer = setTimeout(() => reject(new Error(`the emulator process did not start within ${START_TIMEOUT_MS} ms: ${err}`)), START_TIMEOUT_MS);
    child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const end = out.indexOf("\n");
      if (end === -1) return;
      clearTimeout(timer);
      resolve(out.slice(0, end));
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the emulator process exited (${code}) before it listened: ${err}`));
    });
  });
}
