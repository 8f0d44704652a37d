import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../src/emulator/index.js";
import { auth, DB, get, startOffice } from "./odata/serve-support.js";

// Request bodies on every route of both APIs (docs/emulator.md, "Security"): a body past its route's limit is
// refused in the API's own wire with nothing applied and never kept whole; a body the emulator does not read (past
// the limit, or sent to a request refused before its body is read) is read and dropped up to 64 MiB, past which the
// connection is cut, so no client can make the emulator read forever.

const S = `/fmi/odata/v4/${DB}`;
const DATA = `/fmi/data/vLatest/databases/${DB}`;
const MiB = 1024 * 1024;
/** What the emulator reads and drops of a body it does not keep before it cuts the connection. */
const DRAIN_CAP = 64 * MiB;

let emu: RunningEmulator;
let token: string;

beforeAll(async () => {
  emu = await startOffice(2, { maxUploadBytes: 256 * 1024 });
  const login = await fetch(`${emu.url}${DATA}/sessions`, { method: "POST", headers: { Authorization: auth(), "Content-Type": "application/json" }, body: "{}" });
  token = ((await login.json()) as { response: { token: string } }).response.token;
});
afterAll(() => emu.close());

const notes = async (): Promise<number> => Number((await get(emu.url, `${S}/Notes/$count`)).text);

/** POSTs a chunked body of `size` bytes; the answer, and how much of the body was sent before the answer came. */
async function streamBody(method: string, path: string, headers: Record<string, string>, size: number): Promise<{ status: number; text: string }> {
  const chunk = Buffer.alloc(MiB, 0x41);
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= size) return controller.close();
      controller.enqueue(chunk.subarray(0, Math.min(MiB, size - sent)));
      sent += MiB;
    },
  });
  const res = await fetch(`${emu.url}${path}`, { method, headers, body, duplex: "half", signal: AbortSignal.timeout(30_000) } as RequestInit);
  return { status: res.status, text: await res.text() };
}

/**
 * Sends a request declaring `declared` bytes, then writes its body as fast as the connection takes it, up to
 * `declared`; resolves with the answer's head and how many body bytes went out before the emulator cut the
 * connection (all of them when it read the whole body).
 */
function sendPastCap(method: string, path: string, headers: Record<string, string>, declared: number): Promise<{ head: string; body: string; written: number; cut: boolean }> {
  const { port } = new URL(emu.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1");
    let received = "";
    let written = 0;
    let cut = false;
    const timer = setTimeout(() => socket.destroy(new Error(`no end within 60 s; wrote ${written}, got ${JSON.stringify(received.slice(0, 300))}`)), 60_000);
    const chunk = Buffer.alloc(MiB, 0x42);
    const finish = () => {
      clearTimeout(timer);
      const end = received.indexOf("\r\n\r\n");
      resolve({ head: received.slice(0, end), body: received.slice(end + 4), written, cut });
    };
    const pump = () => {
      while (written < declared && !socket.destroyed) {
        written += chunk.byteLength;
        if (!socket.write(chunk)) return void socket.once("drain", pump);
      }
      // The whole body went out and the connection stayed open: the emulator read all of it.
      if (written >= declared) setTimeout(() => socket.destroy(), 200);
    };
    socket.on("connect", () => {
      const lines = Object.entries({ Host: "127.0.0.1", ...headers, "Content-Length": String(declared) }).map(([k, v]) => `${k}: ${v}\r\n`);
      socket.write(`${method} ${path} HTTP/1.1\r\n${lines.join("")}\r\n`);
      pump();
    });
    socket.on("data", (d) => (received += d.toString("latin1")));
    socket.on("error", (error) => {
      if ((error as NodeJS.ErrnoException).code === "EPIPE" || (error as NodeJS.ErrnoException).code === "ECONNRESET") cut = true;
      else if (!/no end/.test(error.message)) cut = true;
      else reject(error);
    });
    socket.on("close", () => {
      if (written < declared) cut = true;
      finish();
    });
  });
}

const odataJson = { Authorization: auth(), "Content-Type": "application/json" };

describe("OData: a body past its route's limit is refused in OData's wire, nothing written, never kept whole", () => {
  it("POST to an entity set, chunked past 10 MiB: 413 -1, no record created, memory bounded", async () => {
    const before = await notes();
    const rss = process.memoryUsage().rss;
    const a = await streamBody("POST", `${S}/Notes`, odataJson, 40 * MiB);
    expect(a.status, a.text).toBe(413);
    expect(JSON.parse(a.text)).toEqual({ error: { code: "-1", message: `Error: the request body is larger than ${10 * MiB} bytes` } });
    // Kept: at most the limit and a chunk; 40 MiB kept whole (and concatenated) would be far more.
    expect(process.memoryUsage().rss - rss).toBeLessThan(30 * MiB);
    expect(await notes()).toBe(before);
  });

  it("PATCH of an entity past the limit: 413 -1, the record unchanged", async () => {
    const a = await streamBody("PATCH", `${S}/Notes(1)`, odataJson, 12 * MiB);
    expect(a.status, a.text).toBe(413);
    expect(JSON.parse(a.text).error.code).toBe("-1");
    expect((await get(emu.url, `${S}/Notes(1)?$select=Text`)).body.Text).toBe("note 1");
  });

  it("a container upload past maxUploadBytes: 413 -1, the field still empty", async () => {
    const a = await streamBody("PATCH", `${S}/Contacts('B2')/Photo`, { Authorization: auth(), "Content-Type": "image/png" }, 2 * MiB);
    expect(a.status, a.text).toBe(413);
    expect(JSON.parse(a.text).error.code).toBe("-1");
    expect((await get(emu.url, `${S}/Contacts('B2')?$select=Photo`)).body.Photo).toBeNull();
  });

  it("a $batch past 16 MiB: 413 -1015, no part runs", async () => {
    const before = await notes();
    const a = await streamBody("POST", `${S}/$batch`, { Authorization: auth(), "Content-Type": "multipart/mixed; boundary=b" }, 20 * MiB);
    expect(a.status, a.text).toBe(413);
    expect(JSON.parse(a.text).error.code).toBe("-1015");
    expect(await notes()).toBe(before);
  });
});

describe("a body the emulator does not keep is dropped up to 64 MiB, then the connection is cut", () => {
  const past = DRAIN_CAP + 32 * MiB;

  it("OData: a write declaring more than its limit is answered 413 at once, and the rest is not read past the cap", async () => {
    const a = await sendPastCap("POST", `${S}/Notes`, odataJson, past);
    expect(a.head).toMatch(/^HTTP\/1\.1 413 /);
    expect(JSON.parse(a.body).error.code).toBe("-1");
    expect(a.cut).toBe(true);
    expect(a.written).toBeLessThan(past);
  });

  it("OData: a request refused before its body is read (401) is not read past the cap either", async () => {
    const a = await sendPastCap("POST", `${S}/Notes`, { "Content-Type": "application/json" }, past);
    expect(a.head).toMatch(/^HTTP\/1\.1 401 /);
    expect(JSON.parse(a.body).error.code).toBe("212");
    expect(a.cut).toBe(true);
    expect(a.written).toBeLessThan(past);
  });

  it("Data API: a body past maxJsonBytes is 413 / 1708, the rest not read past the cap", async () => {
    const a = await sendPastCap("POST", `${DATA}/layouts/Notes/records`, { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, past);
    expect(a.head).toMatch(/^HTTP\/1\.1 413 /);
    expect(JSON.parse(a.body).messages[0].code).toBe("1708");
    expect(a.cut).toBe(true);
    expect(a.written).toBeLessThan(past);
  });

  it("Data API: a request refused before its body is read (952) is not read past the cap either", async () => {
    const a = await sendPastCap("POST", `${DATA}/layouts/Notes/records`, { Authorization: "Bearer nope", "Content-Type": "application/json" }, past);
    expect(a.head).toMatch(/^HTTP\/1\.1 401 /);
    expect(JSON.parse(a.body).messages[0].code).toBe("952");
    expect(a.cut).toBe(true);
    expect(a.written).toBeLessThan(past);
  });

  it("an injected fault answered before the request (capacity812) drops the body only up to the cap too", async () => {
    emu.setFaults({ rates: { capacity812: 1 } });
    try {
      const a = await sendPastCap("POST", `${S}/Notes`, odataJson, past);
      expect(a.head).toMatch(/^HTTP\/1\.1 503 /);
      expect(JSON.parse(a.body).error.code).toBe("812");
      expect(a.cut).toBe(true);
      expect(a.written).toBeLessThan(past);
    } finally {
      emu.setFaults();
    }
  });

  it("both APIs still serve afterwards", async () => {
    expect((await get(emu.url, `${S}/Notes?$top=1`)).status).toBe(200);
    expect((await fetch(`${emu.url}/fmi/data/vLatest/productInfo`)).status).toBe(200);
  });
});
