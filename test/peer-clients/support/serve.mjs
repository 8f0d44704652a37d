// What the peer-client tests and the wire survey share: `fmgen serve` as a child process on loopback (the built
// CLI, dist/cli/bin.js), the peer clients loaded from test/peer-clients/node_modules (never from the root
// install), and the data they run on (examples/contacts plus this folder's fixtures).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";

export const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
export const PEERS = join(ROOT, "test/peer-clients");
export const PEERS_NM = join(PEERS, "node_modules");
export const BIN = join(ROOT, "dist/cli/bin.js");

/** The example database every test runs on: examples/contacts, plus a layout with a global field. */
export const DATABASE = "Contacts";
export const LAYOUT = "Contacts Web";
export const INVOICES_LAYOUT = "Invoices Web";
export const GLOBALS_LAYOUT = "Peer Globals";
export const USERNAME = "web";
export const PASSWORD = "secret";
export const LAYOUTS = [join(ROOT, "examples/contacts/layouts"), join(PEERS, "fixtures/layouts")];
export const SEED = join(ROOT, "examples/contacts/seed.json");
/** The scripts module of `fmgen serve --scripts` (docs/emulator.md, "2. Scripts" and "Scripts: handlers"). */
export const SCRIPTS = join(PEERS, "fixtures/scripts.mjs");

/** `require` as seen from test/peer-clients (CommonJS clients and their dependencies, e.g. marpat). */
export const peerRequire = createRequire(join(PEERS, "package.json"));

/** An ES module of test/peer-clients/node_modules by its path there (proofkit's exports are import-only). */
export function peerImport(pathInNodeModules) {
  return import(pathToFileURL(join(PEERS_NM, pathInNodeModules)).href);
}

/** The installed version of a peer client. */
export function peerVersion(name) {
  return JSON.parse(readFileSync(join(PEERS_NM, name, "package.json"), "utf8")).version;
}

const STARTUP_TIMEOUT_MS = 15_000;
const STOP_TIMEOUT_MS = 5_000;

/**
 * Starts `fmgen serve` on 127.0.0.1, port 0, with the example layouts and seed (and `extraArgs`), and resolves
 * once its first stdout line (the base URL) arrives. `stop()` sends SIGTERM, then SIGKILL; callers call it in
 * afterAll / finally.
 */
export async function startServe({ extraArgs = [] } = {}) {
  const args = [BIN, "serve", "--layouts", ...LAYOUTS, "--data", SEED, "--host", "127.0.0.1", "--port", "0", ...extraArgs];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk) => {
    if (stderr.length < 20_000) stderr += chunk;
  });
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const lines = createInterface({ input: child.stdout });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const done = await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, STOP_TIMEOUT_MS).unref())]);
    if (!done) {
      child.kill("SIGKILL");
      await exited;
    }
  };
  try {
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`fmgen serve printed no URL within ${STARTUP_TIMEOUT_MS} ms:\n${stderr}`)), STARTUP_TIMEOUT_MS);
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
        reject(new Error(`fmgen serve exited before printing its URL (code ${code}, signal ${signal}):\n${stderr}`));
      });
    });
    if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(url)) throw new Error(`expected http://127.0.0.1:PORT on the first stdout line, got ${JSON.stringify(url)}`);
    lines.on("line", () => {}); // keep draining stdout
    return { url, stop, stderr: () => stderr };
  } catch (error) {
    await stop();
    throw error;
  }
}
