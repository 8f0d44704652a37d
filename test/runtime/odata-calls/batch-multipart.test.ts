import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { readBatch, writeBatch, BatchFramingError, type PartAnswer } from "../../../src/runtime/odata/batch-multipart.js";
import { auth, DB, startOffice } from "../../emulator/odata/serve-support.js";

// The client's `$batch` framing against the emulator: what writeBatch writes is what the server parses, and what the
// server answers is what readBatch reads (one changeset's answers, or the one error part of a failed changeset).

const ROOT = `/fmi/odata/v4/${DB}`;
let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startOffice(2);
});
afterAll(() => emu?.close());

async function post(body: string, contentType: string): Promise<{ status: number; type: string | null; bytes: Uint8Array }> {
  const res = await fetch(`${emu.url}${ROOT}/$batch`, { method: "POST", headers: { Authorization: auth(), "Content-Type": contentType }, body, signal: AbortSignal.timeout(10_000) });
  return { status: res.status, type: res.headers.get("content-type"), bytes: new Uint8Array(await res.arrayBuffer()) };
}
const text = (a: PartAnswer) => new TextDecoder().decode(a.body);

describe("batch framing", () => {
  it("writes a changeset the server applies, and reads each answer in order", async () => {
    const name = "Zoë ✓ --changeset_ \r\n end";
    const written = writeBatch(
      [
        { method: "POST", url: `${ROOT}/Notes`, body: JSON.stringify({ Text: name, N: 100 }) },
        { method: "PATCH", url: `${ROOT}/Notes?$filter=N%20eq%20100`, body: JSON.stringify({ N: 101 }) },
        { method: "DELETE", url: `${ROOT}/Notes?$filter=N%20eq%201` },
      ],
      true,
    );
    const answer = await post(written.body, written.contentType);
    expect(answer.status).toBe(200);
    const items = readBatch(answer.bytes, answer.type ?? undefined);
    expect(items).toHaveLength(1);
    const [set] = items;
    if (set?.kind !== "changeset") throw new Error(`expected a changeset, got ${set?.kind}`);
    expect(set.answers.map((a) => [a.status, a.contentId])).toEqual([
      [204, "1"],
      [204, "2"],
      [204, "3"],
    ]);
    expect(set.answers[0]!.headers.get("location")).toMatch(/\/Notes\(ROWID=\d+\)$/);
    expect(set.answers.slice(1).map((a) => a.headers.get("fmodata.affected_rows"))).toEqual(["1", "1"]);
    // The multi-byte name went through whole (Content-Length counted bytes, not characters).
    const read = await fetch(`${emu.url}${ROOT}/Notes?$filter=N%20eq%20101`, { headers: { Authorization: auth() } });
    expect(((await read.json()) as { value: { Text: string }[] }).value.map((r) => r.Text)).toEqual([name]);
  });

  it("reads a failed changeset's one error part, with the failing part's Content-ID", async () => {
    const written = writeBatch(
      [
        { method: "POST", url: `${ROOT}/Notes`, body: JSON.stringify({ Text: "kept?" }) },
        { method: "PATCH", url: `${ROOT}/Notes(ROWID=999999)`, body: JSON.stringify({ N: 1 }) },
      ],
      true,
    );
    const answer = await post(written.body, written.contentType);
    const items = readBatch(answer.bytes, answer.type ?? undefined);
    expect(items).toHaveLength(1);
    const [only] = items;
    if (only?.kind !== "response") throw new Error(`expected one response, got ${only?.kind}`);
    expect(only.answer.status).toBe(404);
    expect(only.answer.contentId).toBe("2");
    expect(JSON.parse(text(only.answer)).error.code).toBe("-1023");
  });

  it("writes GET parts outside a changeset, each answered with its JSON", async () => {
    const written = writeBatch(
      [
        { method: "GET", url: `${ROOT}/Contacts('A1')?$select=Name` },
        { method: "GET", url: `${ROOT}/Contacts('B2')?$select=Name` },
      ],
      false,
    );
    const answer = await post(written.body, written.contentType);
    const items = readBatch(answer.bytes, answer.type ?? undefined);
    expect(items.map((i) => (i.kind === "response" ? [i.answer.status, JSON.parse(text(i.answer)).Name] : i.kind))).toEqual([
      [200, "Ada"],
      [200, "bob"],
    ]);
  });

  it("refuses a URL with white space (it would end the part's request line)", () => {
    expect(() => writeBatch([{ method: "GET", url: `${ROOT}/Notes HTTP/1.1\r\nX-Evil: 1` }], false)).toThrow(/step 1's URL holds white space/);
  });

  it("reads every byte 0x00-0xFF as itself, in headers and in bodies cut across the decoder's chunks", () => {
    // Header text is read one character per byte: bytes 0x80-0x9F must not become windows-1252's characters (what the
    // WHATWG "latin1" label gives in browsers), and no byte may be lost or shifted where the decoding is chunked.
    const high = Uint8Array.from({ length: 0x100 - 0x20 }, (_, i) => i + 0x20);
    const body = Uint8Array.from({ length: 40_000 }, (_, i) => (i * 7 + (i >> 8)) & 0xff);
    const ascii = (t: string) => new TextEncoder().encode(t);
    const parts = [
      ascii("--b\r\nContent-Type: application/http\r\n\r\nHTTP/1.1 200 OK\r\nX-Bytes: "),
      high,
      ascii(`\r\nContent-Length: ${body.length}\r\n\r\n`),
      body,
      ascii("\r\n--b\r\nContent-Type: application/http\r\n\r\nHTTP/1.1 204 No Content\r\nX-After: "),
      high,
      ascii("\r\n\r\n\r\n--b--\r\n"),
    ];
    const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    parts.reduce((at, p) => (bytes.set(p, at), at + p.length), 0);
    const items = readBatch(bytes, "multipart/mixed; boundary=b");
    expect(items.map((i) => i.kind)).toEqual(["response", "response"]);
    const [first, second] = items.map((i) => (i.kind === "response" ? i.answer : undefined));
    const codes = (t: string | undefined) => Array.from(t ?? "", (c) => c.charCodeAt(0));
    // Trimmed: 0x20 (space) at the start goes; the rest is each byte as its own code point.
    expect(codes(first?.headers.get("x-bytes"))).toEqual(Array.from(high.subarray(1)));
    expect(first?.status).toBe(200);
    expect(first?.body).toEqual(body);
    expect(second?.status).toBe(204);
    expect(codes(second?.headers.get("x-after"))).toEqual(Array.from(high.subarray(1)));
  });

  it("refuses an answer that is not multipart, or that ends early", () => {
    expect(() => readBatch(new Uint8Array(), "application/json")).toThrow(BatchFramingError);
    const cut = new TextEncoder().encode("--b\r\nContent-Type: application/http\r\n\r\nHTTP/1.1 200 Ok\r\n\r\n{}");
    expect(() => readBatch(cut, "multipart/mixed; boundary=b")).toThrow(/closing "--b--"/);
    expect(() => readBatch(new TextEncoder().encode("--b\r\nContent-Type: application/http\r\n\r\nnonsense\r\n--b--"), "multipart/mixed; boundary=b")).toThrow(/not an HTTP status line/);
  });
});

describe("readBatch: a part's header named __proto__", () => {
  it("stays a header, as every other name does, and changes no object's prototype", () => {
    const body = ["--b", "Content-Type: application/http", "__proto__: mime", "", "HTTP/1.1 204 No Content", "__proto__: http", "", "", "--b--", ""].join("\r\n");
    const [item] = readBatch(new TextEncoder().encode(body), "multipart/mixed; boundary=b");
    expect(item?.kind).toBe("response");
    const answer = (item as { kind: "response"; answer: PartAnswer }).answer;
    expect(answer.status).toBe(204);
    expect(answer.headers.get("__proto__")).toBe("http");
    expect(Object.getPrototypeOf(answer.headers)).toBe(Map.prototype);
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });
});

describe("writeBatch: each part's Content-Length", () => {
  it("is its body's UTF-8 length, for every kind of character (ASCII, 2-, 3- and 4-byte, lone surrogates)", () => {
    const bodies = ["{}", '{"a":"é"}', '{"a":"€ 中"}', '{"a":"😀"}', '{"a":"\ud800"}', '{"a":"x\udc00y"}', `{"a":"${"ü".repeat(5000)}"}`];
    const { body } = writeBatch(bodies.map((b) => ({ method: "POST", url: "/fmi/odata/v4/Db/T", body: b })), true);
    const text = body;
    const lengths = [...text.matchAll(/Content-Length: (\d+)/g)].map((m) => Number(m[1]));
    expect(lengths).toEqual(bodies.map((b) => new TextEncoder().encode(b).byteLength));
  });
});

describe("readBatch: a part's status line", () => {
  const answer = (line: string) => `--b\r\nContent-Type: application/http\r\n\r\n${line}\r\nX-A: 1\r\n\r\n\r\n--b--\r\n`;
  const status = (line: string) => {
    const [item] = readBatch(new TextEncoder().encode(answer(line)), "multipart/mixed; boundary=b");
    return item?.kind === "response" ? item.answer.status : undefined;
  };
  it("is read from the usual `HTTP/1.1 ddd reason` and from every other form the pattern takes", () => {
    expect(status("HTTP/1.1 204 No Content")).toBe(204);
    expect(status("HTTP/1.1 201")).toBe(201);
    expect(status("HTTP/1.1 200\r")).toBe(200);
    expect(status("HTTP/1.1 404\tNot Found")).toBe(404);
    expect(status("HTTP/1.0  500 Oops")).toBe(500);
    expect(status("HTTP/2 200 OK")).toBe(200);
    expect(status("  HTTP/1.1 202 Accepted  ")).toBe(202);
  });
  it("refuses what is not one (a fourth digit, a letter, a cut line)", () => {
    for (const line of ["HTTP/1.1 2045 x", "HTTP/1.1 2a4 x", "HTTP/1.1 20", "HTTP/1.1 204x", "HTTPS/1.1 204 x"]) {
      expect(() => readBatch(new TextEncoder().encode(answer(line)), "multipart/mixed; boundary=b"), line).toThrow(/not an HTTP status line/);
    }
  });
});

describe("writeBatch: the boundary", () => {
  it("is a fresh 32-hex-digit token for every batch, across more batches than one fill of the random pool", () => {
    const tokens = Array.from({ length: 200 }, () => /^multipart\/mixed; boundary=batch_([0-9a-f]{32})$/.exec(writeBatch([{ method: "GET", url: "/fmi/odata/v4/Db/T" }], false).contentType)?.[1]);
    expect(tokens.every((t) => t !== undefined)).toBe(true);
    expect(new Set(tokens).size).toBe(200);
  });
});
