import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { defineTable, type ODataClient } from "../../../src/runtime/odata/index.js";
import { createODataClient as createFetchClient } from "../../../src/runtime/odata/fetch.js";
import { DataApi } from "../../support/data-api-http.js";
import { DB, PASSWORD, startOffice, USER } from "../../emulator/odata/serve-support.js";
import { Contacts, Notes, officeClient } from "./support.js";

// table.upload and table.download against the emulator: a round trip (bytes equal), the name and type kept, an empty
// container as null, the same file read through the Data API, and bad uploads refused before sending.

let emu: RunningEmulator;
let od: ODataClient<"Office">;
beforeAll(async () => {
  emu = await startOffice(1);
  od = officeClient(emu.url);
});
afterAll(async () => {
  await od?.close();
  await emu?.close();
});
const contacts = () => od.table(Contacts);

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 1, 2, 3, 0xff, 0]);
const PDF = new TextEncoder().encode("%PDF-1.7\n% test\n");

describe("containers", () => {
  it("uploads and downloads the same bytes, name and type; the Data API serves the same file", async () => {
    await contacts().upload("A1", "Photo", PNG, { filename: "ada lovelace.png" });
    const file = await contacts().download("A1", "Photo");
    expect(file).toMatchObject({ name: "ada lovelace.png", type: "image/png", size: PNG.byteLength });
    expect(await file!.bytes()).toEqual(PNG);

    const api = new DataApi(emu.url);
    const token = await api.login(USER, PASSWORD, DB);
    const url = (await api.getOk(token, "Contacts", "1", DB)).fieldData.Photo as string;
    const first = await fetch(url, { redirect: "manual" });
    const res = await fetch(url, { headers: { Cookie: first.headers.get("set-cookie")!.split(";")[0]! } });
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG);
  });

  it("takes a Blob or an ArrayBuffer, a non-ASCII name, and a Blob read as a stream", async () => {
    await contacts().upload({ rowId: 2 }, "Photo", new Blob([PDF], { type: "application/pdf" }), { filename: "Zoë's notes.pdf" });
    const file = await contacts().download("B2", "Photo");
    expect([file!.name, file!.type]).toEqual(["Zoë's notes.pdf", "application/pdf"]);
    expect(new Uint8Array(await (await file!.blob()).arrayBuffer())).toEqual(PDF);
    await contacts().upload("B2", "Photo", PNG.slice().buffer);
    const again = await contacts().download("B2", "Photo");
    expect(again!.name).toBe("Untitled.png");
    const chunks: Uint8Array[] = [];
    for await (const chunk of again!.body as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
    expect(Buffer.concat(chunks)).toEqual(Buffer.from(PNG));
  });

  it("an empty container downloads as null", async () => {
    expect(await contacts().download("C3", "Photo")).toBeNull();
  });

  it("refuses what it cannot send: a field that is no container, a path as a name, an empty file, an unknown type", async () => {
    await expect(contacts().upload("A1", "Name" as never, PNG)).rejects.toThrow(/"Name" is not a container field of table "Contacts"/);
    await expect(contacts().upload("A1", "Photo", PNG, { filename: "../etc/passwd" })).rejects.toThrow(/must be a file's name \(no path/);
    await expect(contacts().upload("A1", "Photo", new Uint8Array())).rejects.toThrow(/the file is empty/);
    await expect(contacts().upload("A1", "Photo", new Uint8Array([1, 2, 3]))).rejects.toThrow(/pass contentType/);
    await expect(od.table(Notes).download({ rowId: 1 }, "Text" as never)).rejects.toThrow(/not a container field/);
    const Slashed = defineTable()({ database: "Office", table: "Contacts", key: "id", fields: { "Scan/1": { type: "container" } } });
    await expect(od.table(Slashed).upload("A1", "Scan/1" as never, PNG)).rejects.toThrow(/holds a slash: a URL names it only by its FMFID, which its definition lacks/);
    // The first file is still there.
    expect(await (await contacts().download("A1", "Photo"))!.bytes()).toEqual(PNG);
  });
});

describe("on the fetch entry", () => {
  it("batches, uploads and downloads as on Node", async () => {
    const od = createFetchClient({ server: emu.url, database: "Office", auth: { username: USER, password: PASSWORD } });
    const [note] = await od.batch((b) => [b.table(Notes).create({ Text: "via fetch", N: 77 })]);
    expect(note).toEqual({ ContactId: "", Text: "via fetch", N: 77 });
    await od.table(Contacts).upload("C3", "Photo", PDF, { filename: "fetch.pdf" });
    const file = await od.table(Contacts).download("C3", "Photo");
    expect([file?.name, await file?.bytes()]).toEqual(["fetch.pdf", PDF]);
    await od.close();
  });
});
