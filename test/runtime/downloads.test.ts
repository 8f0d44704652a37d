import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileMakerError, NetworkError, ResponseTooLargeError, type FileMakerClient, type LayoutClient } from "../../src/runtime/index.js";
import { connect, counting, startRuntimeEmulator, type Emulator } from "../support/runtime-emulator.js";
import { Types } from "../support/runtime-layouts.js";

// Container downloads through the runtime (layout.download and fm.download) against the emulator over loopback HTTP:
// the cookie exchange of data-api-server.md section 11, the client's maxResponseBytes and the call's signal, and a
// URL of any other origin refused before a request.

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
    const token = new URL(url).pathname.split("/")[4]!;
    expect(token.length).toBeGreaterThan(20);
    const shown = `${String(error)} ${(error as Error).stack} ${JSON.stringify(error)}`;
    expect(shown).not.toContain(token);
    expect(shown).not.toMatch(/X-FMS-Session-Key=/i);
  });

  it("a forged URL token is refused by the server with 952, which is not the session's to renew", async () => {
    const { url } = await stored(bytes(10));
    const parts = new URL(url);
    const segments = parts.pathname.split("/");
    segments[4] = "A".repeat(segments[4]!.length);
    parts.pathname = segments.join("/");
    const { result, logins } = await counting(emu, () => fm.download(parts.href).catch((e: unknown) => e));
    expect(result).toBeInstanceOf(FileMakerError);
    expect((result as FileMakerError).code).toBe("952");
    expect(logins).toBe(0);
  });
});
