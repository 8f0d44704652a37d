// What the benchmark scripts share: a seeded PRNG and the emulator started as its own process.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BIN = `${ROOT}dist/cli/bin.js`;

/** A small seeded PRNG (mulberry32): the same seed gives the same data on every run. */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Starts `fmgen serve` in its own process on loopback and resolves once its first stdout line (the URL) arrives.
 * `stop()` sends SIGTERM, then SIGKILL after 10 s; the caller calls it in a `finally`.
 */
export async function spawnEmulator({ layouts, data, execArgv = [], timeoutMs }) {
  const t0 = performance.now();
  const args = [...execArgv, BIN, "serve", "--layouts", layouts, "--data", data, "--port", "0"];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk) => {
    if (stderr.length < 20_000) stderr += chunk;
  });
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the emulator printed no URL within ${timeoutMs} ms`)), timeoutMs);
    lines.once("line", (line) => {
      clearTimeout(timer);
      resolve(line.trim());
    });
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`the emulator exited before printing its URL (code ${code}, signal ${signal}):\n${stderr}`));
    });
  });
  const startupMs = performance.now() - t0;
  // Keep draining stdout so the child never blocks on a full pipe.
  lines.on("line", () => {});
  if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(url)) throw new Error(`expected http://127.0.0.1:PORT as the first stdout line, got ${JSON.stringify(url)}`);

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return exited;
    child.kill("SIGTERM");
    const outcome = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve(undefined), 10_000).unref())]);
    if (outcome) return outcome;
    child.kill("SIGKILL");
    return exited;
  };
  return { child, pid: child.pid, url, startupMs, stop, stderr: () => stderr };
}
