import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { ProtocolError, ResponseTooLargeError } from "../../src/runtime/index.js";
import { listenLoopback } from "../support/loopback-server.js";
import { connect, envelope, FAKE_TOKEN } from "../support/runtime-emulator.js";
import { Contact } from "../support/runtime-layouts.js";

// maxResponseBytes bounds what the client reads of one answer: past it the request is aborted (the server sees
// the connection close), the call fails with a ResponseTooLargeError naming the call and the bound, the rest is
// never read or kept, and nothing retries it. Loopback only; every stream is bounded.

const MiB = 1024 * 1024;
const STREAM = 50 * MiB;

interface Streamer {
  url: string;
  /** Data requests (not logins) that arrived. */
  requests: number;
  /** Body bytes the server managed to hand to the socket before the client went away. */
  written: number;
  /** Resolves when the client closed a data request's connection. */
  closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Logs in like a Data API server; answers every other request with `start` (status and headers), then streams a
 * 50 MB JSON-looking body in 64 KiB chunks, honouring backpressure, until done or the client goes away (unless
 * `start` answers `false`).
 */
async function startStreamer(start: (res: ServerResponse) => boolean | void): Promise<Streamer> {
  let onClosed!: () => void;
  const state: Streamer = {
    url: "",
    requests: 0,
    written: 0,
    closed: new Promise<void>((resolve) => (onClosed = resolve)),
    close: async () => undefined,
  };
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const server = await listenLoopback((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.url?.includes("/sessions")) {
        res.writeHead(200, { "content-type": "application/json", "x-fm-data-access-token": FAKE_TOKEN });
        res.end(envelope({ token: FAKE_TOKEN }));
        return;
      }
      state.requests++;
      res.on("close", onClosed);
      // `false`: the answer is all in `start` (or never comes).
      if (start(res) === false || res.writableEnded) return;
      res.write('{"response":{"data":[');
      const pump = () => {
        while (state.written < STREAM && !res.destroyed) {
          state.written += chunk.byteLength;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        if (!res.destroyed) res.end("]}}");
      };
      pump();
    });
  });
  state.url = server.url;
  state.close = server.close;
  return state;
}

let streamer: Streamer | undefined;
afterEach(async () => {
  await streamer?.close();
  streamer = undefined;
});

describe("maxResponseBytes", () => {
  it.each([200, 502])("a 50 MB answer (HTTP %i) to a read fails at 1 MiB: typed error, connection closed, no retry, memory bounded", async (status) => {
    streamer = await startStreamer((res) => {
      res.writeHead(status, { "content-type": "application/json" });
    });
    const fm = connect(streamer.url, { maxResponseBytes: MiB, retry: { retries: 3, baseDelayMs: 1, maxDelayMs: 1 } });
    const buffersBefore = process.memoryUsage().arrayBuffers;
    const error = (await fm.layout(Contact).list().catch((e: unknown) => e)) as ResponseTooLargeError;
    const buffersAfter = process.memoryUsage().arrayBuffers;
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.message).toBe(`GET /databases/Contacts/layouts/Contacts%20Web/records: HTTP ${status} answer is larger than maxResponseBytes (1048576 bytes); the rest was not read`);
    expect(error.maxResponseBytes).toBe(MiB);
    expect(error.httpStatus).toBe(status);
    expect(error.call).toEqual({ method: "GET", path: "/databases/Contacts/layouts/Contacts%20Web/records" });
    await streamer.closed;
    expect(streamer.requests).toBe(1);
    // The server could hand over only what the client read plus what the sockets buffer, far from the 50 MB.
    expect(streamer.written).toBeLessThan(STREAM / 2);
    expect(buffersAfter - buffersBefore).toBeLessThan(16 * MiB);
    await fm.close();
  }, 20_000);

  it("a declared content-length over the bound fails at once, before the body arrives", async () => {
    // Declares 10 GB and sends no byte of it: only the declaration can end the call before its 60 s timeout.
    streamer = await startStreamer((res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(10 * 1024 * MiB) });
      res.flushHeaders();
      return false;
    });
    const fm = connect(streamer.url, { maxResponseBytes: MiB, timeoutMs: 60_000 });
    const error = (await fm.layout(Contact).get(1).catch((e: unknown) => e)) as ResponseTooLargeError;
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error.message).toBe("GET /databases/Contacts/layouts/Contacts%20Web/records/1: HTTP 200 answer is larger than maxResponseBytes (1048576 bytes); the rest was not read");
    await streamer.closed;
    expect(streamer.requests).toBe(1);
    await fm.close();
  }, 10_000);

  it("an answer within the bound is read as before", async () => {
    const body = envelope({ recordId: "5", modId: "0" });
    streamer = await startStreamer((res) => {
      // Ends at once with a small envelope instead of the stream.
      res.writeHead(200, { "content-type": "application/json" });
      res.end(body);
    });
    // Room for the login's answer too.
    const fm = connect(streamer.url, { maxResponseBytes: 2 * Buffer.byteLength(body) });
    expect(await fm.layout(Contact).create({ fieldData: {} })).toEqual({ recordId: "5", modId: "0" });
    await fm.close();
  });

  it("the default bound is 256 MiB", async () => {
    streamer = await startStreamer((res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(256 * MiB + 1) });
      res.flushHeaders();
      return false;
    });
    const fm = connect(streamer.url, { timeoutMs: 60_000 });
    const error = (await fm.layout(Contact).get(1).catch((e: unknown) => e)) as ResponseTooLargeError;
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error.maxResponseBytes).toBe(268_435_456);
    await streamer.closed;
    await fm.close();
  }, 10_000);
});
