import { readFileSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { startEmulator } from "../../src/emulator/index.js";
import { createClient, type ClientOptions, type FileMakerClient } from "../../src/runtime/index.js";
import { listenLoopback } from "./loopback-server.js";
import { DATABASE, EXAMPLE_LAYOUTS, EXAMPLE_SEED, PASSWORD, typesDescription, USERNAME, weirdDescription } from "./runtime-layouts.js";

export type Emulator = Awaited<ReturnType<typeof startEmulator>>;
export type EmulatorOptions = Parameters<typeof startEmulator>[0];

export interface SeedObject {
  accounts: { username: string; password: string; privileges?: string[] }[];
  records: Record<string, Record<string, string | number>[]>;
}

/** examples/contacts/seed.json, a fresh copy each call so that a test may add records to it. */
export function exampleSeed(): SeedObject {
  return JSON.parse(readFileSync(EXAMPLE_SEED, "utf8")) as SeedObject;
}

/**
 * An emulator on a free loopback port with the example layouts, the "types" layout and the weird-named
 * layout, seeded with the example seed unless `overrides` says otherwise.
 */
export function startRuntimeEmulator(overrides: Partial<EmulatorOptions> = {}): Promise<Emulator> {
  return startEmulator({
    layouts: [EXAMPLE_LAYOUTS, typesDescription, weirdDescription],
    data: exampleSeed(),
    port: 0,
    ...overrides,
  });
}

/** A client of `server` (an emulator or a fake server) logged in as the example's web account. */
export function connect(server: string, overrides: Partial<ClientOptions> = {}): FileMakerClient {
  return createClient({ server, database: DATABASE, auth: { username: USERNAME, password: PASSWORD }, ...overrides });
}

/** The requests `stats()` counted while `run` ran, and the logins among them. */
export async function counting<T>(emu: Emulator, run: () => Promise<T>): Promise<{ result: T; requests: number; logins: number }> {
  const before = emu.stats();
  const result = await run();
  const after = emu.stats();
  return { result, requests: after.requests - before.requests, logins: after.logins - before.logins };
}

export interface SeenRequest {
  method: string;
  /** The raw request target, exactly as it came over the wire (percent-encoding intact). */
  url: string;
  headers: IncomingMessage["headers"];
  body: Buffer;
}

/**
 * An answer; "hang-up" cuts the connection, "silence" never answers (until the server closes), "trickle" sends
 * the status line and then one byte of body every 20 ms, never ending (until the server closes).
 */
export type FakeAnswer = { status: number; body: string; contentType?: string } | "hang-up" | "silence" | "trickle";

export interface FakeServer {
  url: string;
  /** Every request but the session calls (login, logout), in arrival order. */
  requests: SeenRequest[];
  /** Login and logout requests. */
  sessionRequests: SeenRequest[];
  close(): Promise<void>;
}

export const FAKE_TOKEN = "fake-token-0123456789abcdef";

/** A Data API envelope as a string. */
export function envelope(response: object, code = "0", message = code === "0" ? "OK" : "Error"): string {
  return JSON.stringify({ response, messages: [{ code, message }] });
}

/**
 * A tiny `node:http` server on 127.0.0.1 standing in for a misbehaving FileMaker Server or proxy: it
 * answers login and logout as a Data API server would, and every other request with `answer`.
 */
export async function startFakeServer(
  answer: (req: SeenRequest, index: number) => FakeAnswer,
  options: { loginTokenIn?: "body" | "header" | "both"; logoutAnswer?: FakeAnswer; loginAnswer?: (req: SeenRequest) => FakeAnswer | undefined } = {},
): Promise<FakeServer> {
  const tokenIn = options.loginTokenIn ?? "both";
  const requests: SeenRequest[] = [];
  const sessionRequests: SeenRequest[] = [];
  const { url, close } = await listenLoopback((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const seen: SeenRequest = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) };
      const isSession = /\/sessions(\/[^/]*)?$/.test(seen.url.split("?")[0]!);
      if (isSession) {
        sessionRequests.push(seen);
        // A login or logout answered otherwise (a proxy's page, a cut connection); undefined: as a server would.
        const other = seen.method === "DELETE" ? options.logoutAnswer : seen.method === "POST" ? options.loginAnswer?.(seen) : undefined;
        if (other !== undefined && other !== "silence" && other !== "trickle") {
          if (other === "hang-up") {
            req.socket.destroy();
            return;
          }
          res.writeHead(other.status, { "content-type": other.contentType ?? "application/json" });
          res.end(other.body);
          return;
        }
        const login = seen.method === "POST";
        const body = envelope(login && tokenIn !== "header" ? { token: FAKE_TOKEN } : {});
        res.writeHead(200, { "content-type": "application/json", ...(login && tokenIn !== "body" ? { "x-fm-data-access-token": FAKE_TOKEN } : {}) });
        res.end(body);
        return;
      }
      requests.push(seen);
      const a = answer(seen, requests.length - 1);
      if (a === "hang-up") {
        req.socket.destroy();
        return;
      }
      if (a === "silence") return;
      if (a === "trickle") {
        res.writeHead(200, { "content-type": "application/json" });
        res.write("{");
        const drip = setInterval(() => res.write(" "), 20);
        res.on("close", () => clearInterval(drip));
        return;
      }
      res.writeHead(a.status, { "content-type": a.contentType ?? "application/json" });
      res.end(a.body);
    });
  });
  return { url, requests, sessionRequests, close };
}

/** Collects an async iterable. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
