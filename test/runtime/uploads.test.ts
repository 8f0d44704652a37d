import { randomBytes } from "node:crypto";
import { downloadContainer } from "../support/container-download.js";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FileMakerClient, LayoutClient, UploadSource } from "../../src/runtime/index.js";
import { connect, counting, startRuntimeEmulator, type Emulator } from "../support/runtime-emulator.js";
import { RUNTIME_ENTRY } from "../support/runtime-entry.js";
import { Contact, Types, TYPES_LAYOUT, Weird, WEIRD_CONTAINER, WEIRD_DATABASE, WEIRD_TEXT } from "../support/runtime-layouts.js";

// Container uploads from every source the runtime accepts: each lands in the container (the URL the field
// then holds serves the same bytes), repetition 2 works, and modId goes up by one per upload.

let emu: Emulator;
let fm: FileMakerClient;
let types: LayoutClient<typeof Types>;
let dir: string;

beforeAll(async () => {
  emu = await startRuntimeEmulator();
  fm = connect(emu.url);
  types = fm.layout(Types);
  dir = await mkdtemp(join(tmpdir(), "fmgen-upload-"));
});

afterAll(async () => {
  await fm.close();
  await emu.close();
  await rm(dir, { recursive: true, force: true });
});

async function download(url: string | null): Promise<{ bytes: Uint8Array; contentType: string | null }> {
  expect(url).toEqual(expect.any(String));
  // The container URL's cookie dance (302, then the file) is docs/emulator.md, "11. Container URLs".
  const res = await downloadContainer(url!);
  expect(res.status).toBe(200);
  return { bytes: new Uint8Array(await res.arrayBuffer()), contentType: res.headers.get("content-type") };
}

function streamOf(...chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

const bytes = (n: number) => new Uint8Array(randomBytes(n));

describe("upload sources", () => {
  const cases: [string, () => Promise<{ source: UploadSource; expected: Uint8Array }>][] = [
    ["a Blob", async () => {
      const expected = bytes(1000);
      return { source: new Blob([expected], { type: "image/png" }), expected };
    }],
    ["a File", async () => {
      const expected = bytes(777);
      return { source: new File([expected], "named.bin"), expected };
    }],
    ["a Buffer", async () => {
      const expected = bytes(2048);
      return { source: Buffer.from(expected), expected };
    }],
    ["a Uint8Array", async () => {
      const expected = bytes(513);
      return { source: expected, expected };
    }],
    ["a Uint8Array view into a larger buffer", async () => {
      const whole = bytes(100);
      const expected = whole.subarray(10, 60);
      return { source: expected, expected: Uint8Array.from(expected) };
    }],
    ["a web ReadableStream", async () => {
      const a = bytes(300);
      const b = bytes(5000);
      const expected = new Uint8Array([...a, ...b]);
      return { source: streamOf(a, b), expected };
    }],
    ["a file path", async () => {
      const expected = bytes(3 * 1024 * 1024 + 7);
      const path = join(dir, "big photo ✓.bin");
      await writeFile(path, expected);
      return { source: path, expected };
    }],
    ["an empty Blob", async () => ({ source: new Blob([]), expected: new Uint8Array() })],
  ];

  // A file path is read from disk: Node's transport only (the fetch entry refuses it, below).
  const sources = RUNTIME_ENTRY === "node" ? cases : cases.filter(([label]) => label !== "a file path");
  it.each(sources)("%s lands in the container and modId goes up by one", async (_label, make) => {
    const { source, expected } = await make();
    const { recordId, modId } = await types.create({ fieldData: { Text: "upload" } });
    const { modId: next } = await types.upload(recordId, "File", source);
    expect(Number(next)).toBe(Number(modId) + 1);
    const record = await types.get(recordId);
    expect(record.modId).toBe(next);
    expect(record.fieldData.File[1]).toBeNull();
    const { bytes: got } = await download(record.fieldData.File[0]);
    expect(got.length).toBe(expected.length);
    expect(Buffer.from(got).equals(Buffer.from(expected))).toBe(true);
  });

  it.runIf(RUNTIME_ENTRY === "fetch")("a file path is a TypeError saying it needs Node, before any request", async () => {
    const path = join(dir, "never read.bin");
    await writeFile(path, "x");
    const { recordId, modId } = await types.create({ fieldData: {} });
    const { result, requests } = await counting(emu, () => types.upload(recordId, "File", path).catch((e: unknown) => e));
    expect(result).toBeInstanceOf(TypeError);
    expect((result as TypeError).message).toBe(`layout "${TYPES_LAYOUT}", field "File": upload from a file path needs Node; here pass a Blob, a Uint8Array or a ReadableStream`);
    expect(requests).toBe(0);
    expect((await types.get(recordId)).modId).toBe(modId);
  });

  it.runIf(RUNTIME_ENTRY === "node")("a file path names the file after its basename", async () => {
    const path = join(dir, "report 2024.pdf");
    await writeFile(path, "pdf-ish");
    const { recordId } = await types.create({ fieldData: {} });
    await types.upload(recordId, "File", path);
    // The container URL keeps only the extension (real servers' shape); the download names the file.
    const url = (await types.get(recordId)).fieldData.File[0]!;
    expect(url).toMatch(/\.pdf\?RCType=EmbeddedRCFileProcessor$/);
    expect((await types.download(recordId, "File"))!.name).toBe("report 2024.pdf");
  });

  it("filename and contentType options are what the container then serves", async () => {
    const { recordId } = await types.create({ fieldData: {} });
    await types.upload(recordId, "File", new Uint8Array([137, 80, 78, 71]), { filename: 'ada "the first" é.png', contentType: "image/png" });
    const url = (await types.get(recordId)).fieldData.File[0]!;
    const { contentType } = await download(url);
    expect(contentType).toBe("image/png");
    expect((await types.download(recordId, "File"))!.name).toBe('ada "the first" é.png');
  });
});

describe("repetitions and modId", () => {
  it("repetition 2 fills the second repetition and leaves the first alone", async () => {
    const { recordId } = await types.create({ fieldData: {} });
    const first = bytes(100);
    const second = bytes(200);
    const m1 = await types.upload(recordId, "File", first);
    const m2 = await types.upload(recordId, "File", new Blob([second]), { repetition: 2 });
    expect(Number(m2.modId)).toBe(Number(m1.modId) + 1);
    const record = await types.get(recordId);
    expect(Buffer.from((await download(record.fieldData.File[0])).bytes).equals(Buffer.from(first))).toBe(true);
    expect(Buffer.from((await download(record.fieldData.File[1])).bytes).equals(Buffer.from(second))).toBe(true);
  });

  it("each upload increments modId; replacing a file serves the new bytes", async () => {
    const { recordId, modId } = await types.create({ fieldData: {} });
    let expectedModId = Number(modId);
    let last = new Uint8Array();
    for (let i = 0; i < 4; i++) {
      last = bytes(10 + i);
      const { modId: next } = await types.upload(recordId, "File", last);
      expectedModId += 1;
      expect(next).toBe(String(expectedModId));
    }
    const record = await types.get(recordId);
    expect(record.modId).toBe(String(expectedModId));
    expect(Buffer.from((await download(record.fieldData.File[0])).bytes).equals(Buffer.from(last))).toBe(true);
  });

  it.each([0, 3, 1.5, -1])("repetition %s is a RangeError before any request", async (repetition) => {
    const { requests } = await counting(emu, async () => {
      await expect(types.upload(1, "File", new Uint8Array([1]), { repetition })).rejects.toThrow(RangeError);
    });
    expect(requests).toBe(0);
  });

  it("a field that is not a container is a TypeError before any request", async () => {
    const { requests } = await counting(emu, async () => {
      // @ts-expect-error Text is not a container
      await expect(types.upload(1, "Text", new Uint8Array([1]))).rejects.toThrow(TypeError);
    });
    expect(requests).toBe(0);
  });
});

describe("uploads meeting an expired token", () => {
  it.each([
    ["a Blob", () => new Blob([Uint8Array.from([1, 2, 3])])],
    ["a Uint8Array", () => Uint8Array.from([1, 2, 3])],
  ] as const)("%s is sent again after the re-login and lands once", async (_label, make) => {
    const { recordId, modId } = await types.create({ fieldData: {} });
    emu.advanceTime(16 * 60_000);
    const { result, logins } = await counting(emu, () => types.upload(recordId, "File", make()));
    expect(logins).toBe(1);
    expect(Number(result.modId)).toBe(Number(modId) + 1);
    const record = await types.get(recordId);
    expect(Array.from((await download(record.fieldData.File[0])).bytes)).toEqual([1, 2, 3]);
  });

  it.runIf(RUNTIME_ENTRY === "node")("a file path is read again after the re-login and lands once", async () => {
    const path = join(dir, "again.bin");
    const expected = bytes(4096);
    await writeFile(path, expected);
    const { recordId, modId } = await types.create({ fieldData: {} });
    emu.advanceTime(16 * 60_000);
    const { result, logins } = await counting(emu, () => types.upload(recordId, "File", path));
    expect(logins).toBe(1);
    expect(Number(result.modId)).toBe(Number(modId) + 1);
    const record = await types.get(recordId);
    expect(Buffer.from((await download(record.fieldData.File[0])).bytes).equals(Buffer.from(expected))).toBe(true);
  });

  it("a web ReadableStream, which cannot be read twice, fails clearly and changes nothing", async () => {
    const { recordId, modId } = await types.create({ fieldData: {} });
    emu.advanceTime(16 * 60_000);
    await expect(types.upload(recordId, "File", streamOf(Uint8Array.from([9, 9])))).rejects.toThrow(/stream/i);
    const record = await types.get(recordId);
    expect(record.modId).toBe(modId);
    expect(record.fieldData.File).toEqual([null, null]);
  });
});

describe("other layouts", () => {
  it("uploads into the Contacts Web photo", async () => {
    const contacts = fm.layout(Contact);
    const before = await contacts.get(2);
    const data = bytes(64);
    const { modId } = await contacts.upload(2, "Photo", new Blob([data], { type: "image/jpeg" }), { filename: "grace.jpg" });
    expect(Number(modId)).toBe(Number(before.modId) + 1);
    const { bytes: got, contentType } = await download((await contacts.get(2)).fieldData.Photo);
    expect(Buffer.from(got).equals(Buffer.from(data))).toBe(true);
    expect(contentType).toBe("image/jpeg");
  });

  it("uploads into a container whose database, layout and field names need percent-encoding", async () => {
    const weirdFm = connect(emu.url, { database: WEIRD_DATABASE });
    try {
      const weird = weirdFm.layout(Weird);
      const { recordId } = await weird.create({ fieldData: { [WEIRD_TEXT]: "with a picture" } });
      const data = bytes(99);
      await weird.upload(recordId, WEIRD_CONTAINER, data, { filename: "pic ✓ #1.png" });
      const record = await weird.get(recordId);
      expect(Buffer.from((await download(record.fieldData[WEIRD_CONTAINER])).bytes).equals(Buffer.from(data))).toBe(true);
    } finally {
      await weirdFm.close();
    }
  });
});
