import { existsSync } from "node:fs";
import { cp, mkdtemp, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CliIo } from "../../src/cli/io.js";
import { run } from "../../src/cli/run.js";
import { startEmulator } from "../../src/emulator/index.js";
import { listenLoopback } from "../support/loopback-server.js";

export type Emulator = Awaited<ReturnType<typeof startEmulator>>;

export const EXAMPLES = fileURLToPath(new URL("../../examples/", import.meta.url));
export const EXAMPLE_NAMES = ["contacts", "invoices"] as const;
export type ExampleName = (typeof EXAMPLE_NAMES)[number];

/** A password no description, seed or report contains by chance, so finding it in a file means a leak. */
export const PULL_USER = "puller";
export const PULL_PASSWORD = "pw-9c41e7-never-on-disk!";

export function memoryIo(extra: Partial<CliIo> = {}): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (l) => out.push(l), stderr: (l) => err.push(l), stopSignal: () => new Promise(() => {}), ...extra };
}

export async function tempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `fmgen-${prefix}-`));
}

/** The example's layouts and seed, served by an emulator with an extra account for pulls. */
export function startExampleEmulator(name: ExampleName, options: { metadata?: boolean; layouts?: string } = {}): Promise<Emulator> {
  // An example's scripts module (examples/run.mjs passes it too) gives its calculation fields: the invoices' Total.
  const scripts = join(EXAMPLES, name, "scripts.mjs");
  return startEmulator({
    layouts: [options.layouts ?? join(EXAMPLES, name, "layouts")],
    data: join(EXAMPLES, name, "seed.json"),
    ...(existsSync(scripts) ? { scripts } : {}),
    accounts: [{ username: PULL_USER, password: PULL_PASSWORD }],
    ...(options.metadata !== undefined ? { metadata: options.metadata } : {}),
  });
}

/**
 * A copy of an example project (config, layouts, fmgen.pulled.json) in a temp folder, with a `.env` holding the
 * pull account, as a user's project would have; `withLayouts: false` leaves the layouts folder out.
 */
export async function copyExample(name: ExampleName, options: { withLayouts?: boolean; withState?: boolean } = {}): Promise<string> {
  const root = await tempDir(`pull-${name}`);
  await cp(join(EXAMPLES, name, "fmgen.config.json"), join(root, "fmgen.config.json"));
  if (options.withLayouts ?? true) await cp(join(EXAMPLES, name, "layouts"), join(root, "layouts"), { recursive: true });
  if (options.withState ?? true) await cp(join(EXAMPLES, name, "fmgen.pulled.json"), join(root, "fmgen.pulled.json"));
  await writeFile(join(root, ".env"), `FM_USERNAME=${PULL_USER}\nFM_PASSWORD="${PULL_PASSWORD}"\n`);
  return root;
}

/** `fmgen pull` in-process against `server`, with the project's config. */
export async function runPull(root: string, server: string, args: string[] = [], io = memoryIo()): Promise<{ code: number; out: string; err: string; io: typeof io }> {
  const code = await run(["pull", "--config", join(root, "fmgen.config.json"), "--server", server, ...args], io);
  return { code, out: io.out.join("\n"), err: io.err.join("\n"), io };
}

/** Every file under `dir`, with its text. */
export async function readTree(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (at: string) => {
    for (const entry of await readdir(at)) {
      const path = join(at, entry);
      if ((await stat(path)).isDirectory()) await walk(path);
      else out.set(path, await readFile(path, "utf8"));
    }
  };
  await walk(dir);
  return out;
}

/**
 * A loopback proxy in front of a server that records every session token the server hands out (login bodies and
 * `X-FM-Data-Access-Token` headers), so a test can search written files for them.
 */
export async function tokenRecordingProxy(target: string): Promise<{ url: string; tokens: Set<string>; close: () => Promise<void> }> {
  const tokens = new Set<string>();
  const upstream = new URL(target);
  const server = await listenLoopback((req, res) => {
    const forward = httpRequest({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      const header = answer.headers["x-fm-data-access-token"];
      if (typeof header === "string") tokens.add(header);
      const chunks: Buffer[] = [];
      answer.on("data", (c: Buffer) => chunks.push(c));
      answer.on("end", () => {
        const body = Buffer.concat(chunks);
        try {
          const token = (JSON.parse(body.toString("utf8")) as { response?: { token?: unknown } }).response?.token;
          if (typeof token === "string") tokens.add(token);
        } catch {
          // Not JSON: nothing to record.
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.end(body);
      });
    });
    forward.on("error", () => res.destroy());
    req.pipe(forward);
  });
  return { url: server.url, tokens, close: server.close };
}
