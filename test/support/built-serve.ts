import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * The built CLI's `fmgen serve` (dist/: `npm run build` first) in a child process, resolved once it prints its URL:
 * for tests of what only a process of its own shows (a kill at any moment, its exit code, what it writes at a stop).
 * Every wait has a timeout; `stopAllServes()` in an afterAll kills whatever a failed test left running.
 */
export interface BuiltServe {
  /** Its first stdout line, the base URL. */
  readonly url: string;
  /** What it wrote to stderr so far. */
  stderr(): string;
  /** Sends `signal` and resolves with the exit code once it exits (null when a signal ended it). */
  stop(signal: NodeJS.Signals): Promise<number | null>;
}

const BIN = fileURLToPath(new URL("../../dist/cli/bin.js", import.meta.url));
const START_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 10_000;
const running = new Set<() => void>();

export function startBuiltServe(args: readonly string[]): Promise<BuiltServe> {
  const child = spawn(process.execPath, [BIN, "serve", "--port", "0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  running.add(kill);
  void exited.then(() => running.delete(kill));
  const stop = async (signal: NodeJS.Signals) => {
    child.kill(signal);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`fmgen serve did not exit within ${STOP_TIMEOUT_MS} ms of ${signal}: ${stderr}`)), STOP_TIMEOUT_MS)));
    try {
      return await Promise.race([exited, late]);
    } finally {
      clearTimeout(timer);
    }
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`fmgen serve printed no URL within ${START_TIMEOUT_MS} ms: ${stderr}`)), START_TIMEOUT_MS);
    child.stdout.setEncoding("utf8").once("data", (chunk: string) => {
      clearTimeout(timer);
      resolve({ url: chunk.split("\n")[0]!.trim(), stderr: () => stderr, stop });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`fmgen serve exited (code ${code}) before its URL: ${stderr}`));
    });
  });
}

/** Kills every serve a test left running. */
export function stopAllServes(): void {
  for (const kill of [...running]) kill();
}
