import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileMakerError, NetworkError, ProtocolError, ResponseTooLargeError, type FileMakerClient, type LayoutClient } from "../../src/runtime/index.js";
import { listenLoopback } from "../support/loopback-server.js";
import { connect, counting, startRuntimeEmulator, type Emulator } from "../support/runtime-emulator.js";
import { transportOption } from "../support/runtime-entry.js";
import { Types } from "../support/runtime-layouts.js";

// Container downloads through the runtime (layout.download and fm.download) against the emulator over loopback HTTP:
// the cookie exchange of docs/emulator.md, "11. Container URLs", the client's maxResponseBytes and the call's signal,
// and a URL of any other origin refused before a request.

const MINUTE = 60_000;
let emu: Emulator;
let fm: FileMakerClient;
let types: LayoutClient<typeof Types>;

beforeAll(async () => {
  emu = await startRuntimeEmulator();
  fm = connect(emu.url);
  types = fm.layout(Types);
});

afterAll(async () => {
  await fm.close();
  await emu.close();
});

const bytes = (n: number) => new Uint8Array(randomBytes(n));

/** A record whose File holds `data` (repetition 1), and the URL the field then holds. */
async function stored(data: Uint8Array, filename = "report.pdf", contentType = "application/pdf"): Promise<{ recordId: string; url: string }> {
  const { recordId } = await types.create({ fieldData: {} });
  await types.upload(recordId, "File", new Blob([data as Uint8Array<ArrayBuffer>]), { filename, contentType });
  const url = (await types.get(recordId)).fieldData.File[0]!;
  return { recordId, url };
}

describe("layout.download", () => {
  it("round-trips the uploaded bytes, name, type and size", async () => {
    const data = bytes(5000);
    const { recordId } = await stored(data, "report 1 ✓.pdf");
    const file = await types.download(recordId, "File");
    expect(file).not.toBeNull();
    expect({ name: file!.name, type: file!.type, size: file!.size }).toEqual({ name: "report 1 ✓.pdf", type: "application/pdf", size: 5000 });
    expect(Buffer.from(await file!.bytes()).equals(Buffer.from(data))).toBe(true);
  });

  it("reads a repetition; blob() and body give the bytes too", async () => {
    const first = bytes(100);
    const second = bytes(300);
    const { recordId } = await stored(first);
    await types.upload(recordId, "File", new File([second], "second.bin", { type: "image/png" }), { repetition: 2 });
    const file = await types.download(recordId, "File", { repetition: 2 });
    expect([file!.name, file!.type, file!.size]).toEqual(["second.bin", "image/png", 300]);
    const blob = await file!.blob();
    expect(blob.type).toBe("image/png");
    expect(Buffer.from(await blob.arrayBuffer()).equals(Buffer.from(second))).toBe(true);
    const one = await types.download(recordId, "File", { repetition: 1 });
    const chunks: Uint8Array[] = [];
    for await (const chunk of one!.body as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
    expect(Buffer.concat(chunks).equals(Buffer.from(first))).toBe(true);
  });

  it("an empty container is null, without a container request", async () => {
    const { recordId } = await types.create({ fieldData: {} });
    const { result, requests } = await counting(emu, () => types.download(recordId, "File"));
    expect(result).toBeNull();
    expect(requests).toBe(1);
  });

  it("a repetition the field does not have, or a field that is not a container, is refused by name", async () => {
    await expect(types.download(1, "File", { repetition: 3 })).rejects.toThrow(/^download: .*repetition 3 is not between 1 and 2/);
    // @ts-expect-error Text is not a container field
    await expect(types.download(1, "Text")).rejects.toThrow(/^download: layout "Types Web": "Text" is not a container field/);
  });

  it("after the session expired, logs in again and downloads", async () => {
    const data = bytes(64);
    const { recordId } = await stored(data);
    emu.advanceTime(16 * MINUTE);
    const { result, logins } = await counting(emu, async () => (await types.download(recordId, "File"))!.bytes());
    expect(Buffer.from(result).equals(Buffer.from(data))).toBe(true);
    expect(logins).toBe(1);
  });
});

describe("fm.download", () => {
  it("follows the 302 with its X-FMS-Session-Key cookie: two GETs", async () => {
    const data = bytes(1234);
    const { url } = await stored(data, "a.txt", "text/plain");
    const { result, requests } = await counting(emu, async () => {
      const file = await fm.download(url);
      return { file, data: await file.bytes() };
    });
    expect(requests).toBe(2);
    expect([result.file.name, result.file.type, result.file.size]).toEqual(["a.txt", "text/plain", 1234]);
    expect(Buffer.from(result.data).equals(Buffer.from(data))).toBe(true);
  });

  it("goes through the client's own dispatcher (Node) or fetch function (fetch entry)", async () => {
    const { Agent } = await import("undici");
    const data = bytes(300);
    const { url } = await stored(data);
    let carried = 0;
    const agent = new Agent();
    const client = connect(emu.url, transportOption({
      dispatcher: () =>
        agent.compose((dispatch) => (options, handler) => {
          carried++;
          return dispatch(options, handler);
        }),
      fetch: () => (input, init) => {
        carried++;
        return fetch(input, init);
      },
    }));
    try {
      expect(Buffer.from(await (await client.download(url)).bytes()).equals(Buffer.from(data))).toBe(true);
      // The 302 and the file.
      expect(carried).toBe(2);
    } finally {
      await client.close();
      await agent.close();
    }
  });

  it("a URL another client's session read works for this client too (the URL is signed, as FileMaker Server's are)", async () => {
    const data = bytes(200);
    const { url } = await stored(data);
    const other = connect(emu.url);
    try {
      const file = await other.download(url);
      expect(Buffer.from(await file.bytes()).equals(Buffer.from(data))).toBe(true);
    } finally {
      await other.close();
    }
  });

  it("the URL of a session that has since expired still serves: its token is the URL's, not the session's", async () => {
    const data = bytes(90);
    const { url } = await stored(data);
    emu.advanceTime(16 * MINUTE);
    const { result, logins } = await counting(emu, async () => (await fm.download(url)).bytes());
    expect(Buffer.from(result).equals(Buffer.from(data))).toBe(true);
    expect(logins).toBe(0);
  });

  it("a file larger than maxResponseBytes is refused, its bytes never read", async () => {
    const { url } = await stored(bytes(5000));
    const small = connect(emu.url, { maxResponseBytes: 4096 });
    try {
      const error = await small.download(url).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseTooLargeError);
      expect((error as Error).message).toMatch(/^download \{container URL\}: .*larger than maxResponseBytes \(4096 bytes\)/);
      // Under the bound, the same client downloads.
      const { url: fits } = await stored(bytes(4000));
      expect((await (await small.download(fits)).bytes()).byteLength).toBe(4000);
    } finally {
      await small.close();
    }
  });

  it("an aborted signal rejects with the abort, before any request or while the body is read", async () => {
    const { url } = await stored(bytes(4 * 1024 * 1024));
    const { result, requests } = await counting(emu, () => fm.download(url, { signal: AbortSignal.abort(new Error("stop")) }).catch((e: unknown) => e));
    expect(requests).toBe(0);
    expect(result).toBeInstanceOf(NetworkError);
    expect((result as NetworkError).reason).toBe("aborted");
    expect((result as NetworkError).cause).toEqual(new Error("stop"));

    const controller = new AbortController();
    const file = await fm.download(url, { signal: controller.signal });
    const reader = file.body.getReader();
    await reader.read();
    controller.abort(new Error("enough"));
    const error = await (async () => {
      for (;;) if ((await reader.read()).done) return undefined;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).reason).toBe("aborted");
  });

  it("a URL of another origin (or with credentials) is refused without any request", async () => {
    const { url } = await stored(bytes(10));
    const elsewhere = [
      url.replace("127.0.0.1", "localhost"),
      url.replace("http://", "https://"),
      "https://evil.example/Streaming/x",
      url.replace("http://", "http://user:pw@"),
      "not a url",
    ];
    for (const target of elsewhere) {
      const { result, requests } = await counting(emu, () => fm.download(target).catch((e: unknown) => e));
      expect(requests).toBe(0);
      expect(result).toBeInstanceOf(TypeError);
      expect((result as Error).message).toMatch(/^download: the URL is not of the client's server http:\/\/127\.0\.0\.1:\d+/);
      // The error never quotes the URL (its path holds the container's token).
      expect((result as Error).message).not.toContain("/Streaming/");
    }
  });

  it("a URL whose file is gone is FileMaker's error; no error carries the URL's token or the cookie", async () => {
    const { recordId, url } = await stored(bytes(10));
    await types.delete(recordId);
    const error = await fm.download(url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileMakerError);
    expect((error as FileMakerError).code).toBe("1630");
    // The URL's signed name (/Streaming/MainDB/<name>.<ext>) is its secret.
    const token = new URL(url).pathname.split("/")[3]!.split(".")[0]!;
    expect(token).toMatch(/^[0-9A-F]{64}$/);
    const shown = `${String(error)} ${(error as Error).stack} ${JSON.stringify(error)}`;
    expect(shown).not.toContain(token);
    expect(shown).not.toMatch(/X-FMS-Session-Key=/i);
  });

  it("a forged URL token is refused by the server with 952, which is not the session's to renew", async () => {
    const { url } = await stored(bytes(10));
    const parts = new URL(url);
    // The name's signature half (its last 32 hex digits before the extension) forged.
    parts.pathname = parts.pathname.replace(/[0-9A-F]{32}(\.[A-Za-z0-9]+)?$/, (_, extension: string | undefined) => `${"A".repeat(32)}${extension ?? ""}`);
    const { result, logins } = await counting(emu, () => fm.download(parts.href).catch((e: unknown) => e));
    expect(result).toBeInstanceOf(FileMakerError);
    expect((result as FileMakerError).code).toBe("952");
    expect(logins).toBe(0);
  });
});

/** A loopback HTTP server answering every request with `handle`; the requests it saw. */
async function server(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; seen: IncomingMessage[]; close: () => Promise<void> }> {
  const seen: IncomingMessage[] = [];
  const { url, close } = await listenLoopback((req, res) => {
    seen.push(req);
    handle(req, res);
  });
  return { url, seen, close };
}

// What the emulator never does and a server or proxy may: a body without Content-Length, a redirect elsewhere, a
// file name with a path in it, an error page that is not an envelope.
describe("fm.download against other answers", () => {
  it("a body without Content-Length fails past maxResponseBytes while it is read, and the server stops sending", async () => {
    let closed!: Promise<void>;
    const srv = await server((_req, res) => {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      // Chunked and endless until the client goes away.
      const drip = setInterval(() => res.write(Buffer.alloc(1024)), 2);
      closed = new Promise((resolve) => res.on("close", () => (clearInterval(drip), resolve())));
    });
    const client = connect(srv.url, { maxResponseBytes: 10_000 });
    try {
      const file = await client.download(`${srv.url}/Streaming/file.bin`);
      expect(file.size).toBeUndefined();
      const error = await file.bytes().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseTooLargeError);
      await closed;
    } finally {
      await client.close();
      await srv.close();
    }
  });

  it("a server that never answers fails with the client's timeoutMs", async () => {
    const srv = await server(() => undefined);
    const client = connect(srv.url, { timeoutMs: 300 });
    try {
      const error = await client.download(`${srv.url}/Streaming/f.bin`).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as NetworkError).reason).toBe("timeout");
      expect((error as Error).message).toBe("download {container URL}: no answer within 300 ms");
    } finally {
      await client.close();
      await srv.close();
    }
  });

  it("a redirect to another origin is not followed: the cookie never leaves the server", async () => {
    const elsewhere = await server((_req, res) => res.end("stolen"));
    const srv = await server((_req, res) => {
      res.writeHead(302, { location: `${elsewhere.url}/x`, "set-cookie": "X-FMS-Session-Key=SECRETCOOKIE1234567890; Path=/" });
      res.end();
    });
    const client = connect(srv.url);
    try {
      const error = await client.download(`${srv.url}/Streaming/f.bin`).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toMatch(/^download: the server redirected to another origin/);
      expect(String(error)).not.toContain("SECRETCOOKIE");
      expect(elsewhere.seen).toHaveLength(0);
    } finally {
      await client.close();
      await srv.close();
      await elsewhere.close();
    }
  });

  it("sends the cookie to the Location; a name with a path in it keeps only its last part", async () => {
    const srv = await server((req, res) => {
      if (req.headers.cookie !== "X-FMS-Session-Key=K1") {
        res.writeHead(302, { location: "/Streaming/real.bin?RCType=EmbeddedRCFileProcessor", "set-cookie": "X-FMS-Session-Key=K1; Path=/; HttpOnly" });
        return res.end();
      }
      res.writeHead(200, { "content-type": "image/png", "content-disposition": 'attachment; filename="../../etc/passwd"' });
      res.end("png!");
    });
    const client = connect(srv.url);
    try {
      const file = await client.download(`${srv.url}/Streaming/ABC.png?RCType=EmbeddedRCFileProcessor`);
      expect([file.name, file.type, new TextDecoder().decode(await file.bytes())]).toEqual(["passwd", "image/png", "png!"]);
      expect(srv.seen.map((r) => r.url)).toEqual(["/Streaming/ABC.png?RCType=EmbeddedRCFileProcessor", "/Streaming/real.bin?RCType=EmbeddedRCFileProcessor"]);
    } finally {
      await client.close();
      await srv.close();
    }
  });

  it("a 200 at once is the file (its name the URL's last segment); an error page is a ProtocolError", async () => {
    const srv = await server((req, res) => {
      if (req.url!.startsWith("/Streaming/ok")) return res.end("hello");
      res.writeHead(401, { "content-type": "text/html" });
      res.end("<html>denied</html>");
    });
    const client = connect(srv.url);
    try {
      const file = await client.download(`${srv.url}/Streaming/ok%20file.txt`);
      expect([file.name, file.size, new TextDecoder().decode(await file.bytes())]).toEqual(["ok file.txt", 5, "hello"]);
      const error = await client.download(`${srv.url}/Streaming/no`).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).httpStatus).toBe(401);
    } finally {
      await client.close();
      await srv.close();
    }
  });
});
