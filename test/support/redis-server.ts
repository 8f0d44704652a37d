import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

// A real redis-server (Debian's package) for the Redis token store's tests: on 127.0.0.1 and a free port, no
// persistence (no RDB, no AOF), its own temporary folder, killed and its folder removed by stop().

/** Whether redis-server is on the PATH. */
export const HAS_REDIS_SERVER = spawnSync("redis-server", ["--version"], { stdio: "ignore" }).status === 0;

/** Why the Redis tests do not run here, or undefined when they do (FMGEN_REQUIRE_REDIS=1 makes a missing server fail them). */
export function redisSkipReason(): string | undefined {
  if (HAS_REDIS_SERVER || process.env.FMGEN_REQUIRE_REDIS === "1") return undefined;
  return "redis-server is not installed: the Redis token store's tests are skipped (apt-get install redis-server; FMGEN_REQUIRE_REDIS=1 makes them fail instead)";
}

export interface RedisServer {
  /** `redis://127.0.0.1:<port>`. */
  url: string;
  port: number;
  process: ChildProcess;
  /** Stops it at once (SIGKILL), as a crash or a lost machine would; resolves once it has exited. */
  kill(): Promise<void>;
  /** Kills it if still running and removes its folder. */
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (free when asked: the server started on it right after). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts redis-server and resolves once it accepts connections (within 5 s), or rejects with what it printed. */
export async function startRedisServer(): Promise<RedisServer> {
  if (!HAS_REDIS_SERVER) throw new Error("redis-server is not installed (apt-get install redis-server), and FMGEN_REQUIRE_REDIS=1 requires it");
  const dir = mkdtempSync(join(tmpdir(), "fmgen-redis-"));
  const port = await freePort();
  const args = ["--bind", "127.0.0.1", "--port", String(port), "--save", "", "--appendonly", "no", "--dir", dir, "--daemonize", "no", "--protected-mode", "yes", "--logfile", ""];
  const child = spawn("redis-server", args, { stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let output = "";
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server did not get ready in 5 s:\n${output}`)), 5_000);
      child.stdout!.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("Ready to accept connections")) clearTimeout(timer), resolve();
      });
      child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.once("exit", (code) => (clearTimeout(timer), reject(new Error(`redis-server exited (${code}) before it was ready:\n${output}`))));
    });
  } catch (error) {
    child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    process: child,
    kill,
    stop: async () => {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A server on 127.0.0.1 that accepts connections and never answers a byte: a Redis that hangs. */
export async function startSilentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
