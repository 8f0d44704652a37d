import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { MAX_BATCH_BYTES, MAX_BATCH_PARTS } from "../../../src/emulator/odata/batch-multipart.js";
import { writeBatchRequest } from "../../../src/emulator/odata/batch-write.js";
import { batch, changeset, expectPartError, json, postBatch, S, single } from "./batch-support.js";
import { auth, expectODataError, get, startOffice } from "./serve-support.js";

// Hostile `$batch` input (issue 23 item 5): each class answers a clean OData error, the server stays up, nothing
// hangs, and no changeset is ever half applied.

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startOffice(4);
});
afterAll(() => emu.close());

const MULTI = "multipart/mixed; boundary=b";
const notes = async (): Promise<number> => Number((await get(emu.url, `${S}/Notes/$count`)).text);

/** A changeset that creates one Note, then whatever `tail` appends to the body. */
function withWrite(tail: string): string {
  return (
    "--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n" +
    `--c\r\nContent-Type: application/http\r\n\r\nPOST ${S}/Notes HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 15\r\n\r\n{"Text":"evil"}\r\n--c--\r\n` +
    tail
  );
}

/** Whether the server still answers a small batch. */
async function stillServes(): Promise<void> {
  const a = await batch(emu.url, [{ kind: "request", method: "GET", url: `${S}/Contacts('A1')?$select=Name` }]);
  expect(a.status).toBe(200);
  expect(single(a.items![0]).status).toBe(200);
}

describe("a body past MAX_BATCH_BYTES", () => {
  it("a 50 MB body with its Content-Length is refused before it is sent: 413 -1015; the server stays up", async () => {
    // Only the headers and 1 KB of the 50 MB go out: the answer must come without the rest.
    const { port } = new URL(emu.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), "127.0.0.1");
      let got = "";
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`no answer within 5 s; got ${JSON.stringify(got)}`));
      }, 5_000);
      socket.on("connect", () => socket.write(`POST ${S}/$batch HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${auth()}\r\nContent-Type: ${MULTI}\r\nContent-Length: ${50 * 1024 * 1024}\r\n\r\n${"A".repeat(1024)}`));
      socket.on("error", reject);
      socket.on("data", (d) => {
        got += d.toString("latin1");
        const end = got.indexOf("\r\n\r\n");
        const length = Number(/content-length: (\d+)/i.exec(got)?.[1] ?? -1);
        if (end >= 0 && length >= 0 && got.length >= end + 4 + length) {
          clearTimeout(timer);
          socket.destroy();
          resolve(got);
        }
      });
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toEqual({ error: { code: "-1015", message: `Batch body exceeds ${MAX_BATCH_BYTES} bytes` } });
    await stillServes();
  });

  it("a 50 MB chunked body (no Content-Length) is cut off at the limit, memory bounded: 413 -1015", async () => {
    const before = await notes();
    const chunk = Buffer.alloc(1024 * 1024, 0x42);
    const head = Buffer.from(withWrite(""));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(head);
        if (sent >= 50) controller.close();
        else controller.enqueue(chunk);
        sent++;
      },
    });
    const rss = process.memoryUsage().rss;
    const res = await fetch(`${emu.url}${S}/$batch`, {
      method: "POST",
      headers: { Authorization: auth(), "Content-Type": MULTI },
      body,
      duplex: "half",
      signal: AbortSignal.timeout(30_000),
    } as RequestInit);
    const text = await res.text();
    expect(res.status, text).toBe(413);
    expect(JSON.parse(text).error.code).toBe("-1015");
    // Kept: at most the limit (16 MB) and a chunk; a body kept whole would be 50 MB more (and twice that concatenated).
    expect(process.memoryUsage().rss - rss).toBeLessThan(40 * 1024 * 1024);
    expect(await notes()).toBe(before);
    await stillServes();
  });
});

describe("malformed multipart: 400 -1014/-1015 and nothing applied", () => {
  const cases: [string, string, string, number, string][] = [
    ["no boundary parameter", "multipart/mixed", withWrite("--b--"), 400, "-1014"],
    ["a boundary the body never uses", "multipart/mixed; boundary=zzz", withWrite("--b--"), 400, "-1015"],
    ["an unterminated part (no close delimiter)", MULTI, withWrite("--b\r\nContent-Type: application/http\r\n\r\nGET /fmi/odata/v4/Office/Contacts HTTP/1.1\r\n\r\n"), 400, "-1015"],
    ["an unterminated changeset", MULTI, withWrite("").replace("--c--\r\n", ""), 400, "-1015"],
    ["a part header without a colon", MULTI, withWrite("--b\r\nContent-Type application/http\r\n\r\nGET /fmi/odata/v4/Office/Contacts HTTP/1.1\r\n\r\n\r\n--b--"), 400, "-1015"],
    ["a part that is not application/http", MULTI, withWrite("--b\r\nContent-Type: text/plain\r\n\r\nGET /fmi/odata/v4/Office/Contacts HTTP/1.1\r\n\r\n\r\n--b--"), 400, "-1015"],
    ["a request line that is not one", MULTI, withWrite("--b\r\nContent-Type: application/http\r\n\r\nFETCH me please\r\n\r\n\r\n--b--"), 400, "-1015"],
    ["a part body shorter than its Content-Length", MULTI, withWrite("--b--").replace("Content-Length: 15", "Content-Length: 40"), 400, "-1015"],
    ["a part body longer than its Content-Length", MULTI, withWrite("--b--").replace("Content-Length: 15", "Content-Length: 5"), 400, "-1015"],
    ["a Content-Length that is not a number", MULTI, withWrite("--b--").replace("Content-Length: 15", "Content-Length: -15"), 400, "-1015"],
  ];
  for (const [name, type, body, status, code] of cases) {
    it(name, async () => {
      const before = await notes();
      expectODataError(await postBatch(emu.url, body, type), status, code);
      expect(await notes()).toBe(before);
    });
  }

  it("every truncation of a valid batch answers 200 or an OData error, and applies its changeset whole or not at all", async () => {
    const full = withWrite("--b\r\nContent-Type: application/http\r\n\r\nGET /fmi/odata/v4/Office/Contacts('A1')?$select=Name HTTP/1.1\r\n\r\n\r\n--b--");
    let applied = 0;
    for (let cut = 0; cut <= full.length; cut += 13) {
      const before = await notes();
      const a = await postBatch(emu.url, full.slice(0, cut), MULTI);
      const after = await notes();
      if (a.status === 200) {
        expect(changeset(a.items![0])[0]!.status).toBe(204);
        expect(after).toBe(before + 1);
        applied++;
      } else {
        expect([400, 413]).toContain(a.status);
        expect(a.body?.error?.code, a.text).toMatch(/^-10(14|15|02|00|32)$/);
        expect(after).toBe(before);
      }
    }
    expect(applied).toBeLessThan(5);
  });
});

describe("sizes and URLs", () => {
  it(`10,000 parts: 400 -1015 (at most ${MAX_BATCH_PARTS}), nothing applied`, async () => {
    // How soon the refusal comes is a budget of test/bench/bounds.bench.mjs.
    const before = await notes();
    const written = writeBatchRequest(
      Array.from({ length: 10_000 }, (_, i) => (i === 0 ? { kind: "changeset" as const, requests: [{ method: "POST" as const, url: `${S}/Notes`, ...json({ Text: "many" }) }] } : { kind: "request" as const, method: "GET" as const, url: `${S}/Contacts('A1')` })),
    );
    const a = await postBatch(emu.url, written.body, written.contentType);
    expect(expectODataError(a, 400, "-1015").message).toBe(`Batch request has more than ${MAX_BATCH_PARTS} parts`);
    expect(await notes()).toBe(before);
  });

  it("a part whose URL is past the URL limit answers 414 and fails its changeset whole", async () => {
    const before = await notes();
    const a = await batch(emu.url, [
      { kind: "changeset", requests: [{ method: "POST", url: `${S}/Notes`, ...json({ Text: "long" }) }, { method: "PATCH", url: `${S}/Notes?$filter=Text%20eq%20'${"y".repeat(9000)}'`, ...json({ Text: "z" }) }] },
    ]);
    expectPartError(single(a.items![0]), 414, "-1002");
    expect(await notes()).toBe(before);
  });
});

describe("an HTTP body that does not match its Content-Length", () => {
  /** Writes raw bytes on one connection and collects what comes back until the server closes or 3 s pass. */
  function raw(bytes: string, endWrite: boolean): Promise<string> {
    const { port } = new URL(emu.url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), "127.0.0.1");
      let got = "";
      const timer = setTimeout(() => {
        socket.destroy();
        resolve(got);
      }, 3_000);
      socket.on("data", (d) => (got += d.toString("latin1")));
      socket.on("error", (e) => {
        clearTimeout(timer);
        if ((e as NodeJS.ErrnoException).code === "ECONNRESET") resolve(got);
        else reject(e);
      });
      socket.on("close", () => {
        clearTimeout(timer);
        resolve(got);
      });
      socket.on("connect", () => {
        if (endWrite) socket.end(bytes);
        else socket.write(bytes);
      });
    });
  }
  const head = (length: number) => `POST ${S}/$batch HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${auth()}\r\nContent-Type: ${MULTI}\r\nContent-Length: ${length}\r\n\r\n`;

  it("shorter (the client stops sending): no crash, no write, the server stays up", async () => {
    const before = await notes();
    const body = withWrite("--b--");
    await raw(head(body.length + 100) + body, true);
    expect(await notes()).toBe(before);
    await stillServes();
  });

  it("longer: the batch is read to its Content-Length (a cut batch), the rest is a malformed request: 400, nothing applied", async () => {
    const before = await notes();
    const body = withWrite("--b--");
    const got = await raw(head(body.length - 10) + body + "\r\n", true);
    // The cut batch answers 400 -1015, unless the shell's answer to the malformed rest closes the connection first.
    expect(got).toMatch(/^HTTP\/1\.1 400 /);
    expect(got).toMatch(/"code":"-1015"|malformed HTTP request/);
    expect(await notes()).toBe(before);
    await stillServes();
  });
});
