import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { DataApi } from "../../support/data-api-http.js";
import { auth, DB, expectODataError, get, LAYOUTS, PASSWORD, send as sendTo, startOffice, USER, type Answer } from "./serve-support.js";

// Containers through OData over loopback HTTP (docs/emulator.md "The OData API",
// "Containers"): base64 in JSON bodies, binary PATCH uploads, downloads, and round trips with the Data API's upload
// and container URLs (one hosted file, one ContainerStore).

let emu: RunningEmulator;
const S = `/fmi/odata/v4/${DB}`;
const api = () => new DataApi(emu.url);

// Office's Contacts, plus a repeating container and a global one.
const layouts = LAYOUTS.map((l) => (l.layout === "Contacts" ? { ...l, fields: [...l.fields, { name: "Scans", type: "container" as const, repetitions: 2 }, { name: "gLogo", type: "container" as const, global: true }] } : l));

beforeAll(async () => {
  emu = await startOffice(2, { layouts, maxUploadBytes: 64 * 1024 });
});
afterAll(() => emu.close());

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 1, 2, 3]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 9, 8, 7, 6]);
const PDF = new TextEncoder().encode("%PDF-1.7\n% test\n");
const GIF = new TextEncoder().encode("GIF89a\x01\x00\x01\x00");
const OTHER = new Uint8Array([1, 2, 3, 4, 5]);
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> => sendTo(emu.url, method, path, body, headers);

/** GET `T(k)/F/$value` as bytes. */
async function download(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; bytes: Uint8Array }> {
  const res = await fetch(`${emu.url}${S}/${path}/$value`, { headers: { Authorization: auth(), ...headers }, signal: AbortSignal.timeout(10_000) });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

/** A record's ROWID (= the Data API's recordId) and ROWMODID. */
async function ids(key: string): Promise<{ ROWID: number; ROWMODID: number }> {
  const a = await get(emu.url, `${S}/Contacts(${key})?$select=ROWID,ROWMODID`);
  expect(a.status).toBe(200);
  return { ROWID: a.body.ROWID, ROWMODID: a.body.ROWMODID };
}

/** The bytes the Data API serves for a record's container (its field value is the container URL). */
async function viaDataApi(recordId: number, field = "Photo"): Promise<{ type: string | null; disposition: string | null; bytes: Uint8Array; url: string }> {
  const token = await api().login(USER, PASSWORD, DB);
  const record = await api().getOk(token, "Contacts", String(recordId), DB);
  const url = record.fieldData[field] as string;
  expect(url).toMatch(/\/Streaming\/MainDB\//);
  // The field's URL answers 302 with a session cookie first (docs/emulator.md, "11. Container URLs"); the GET with the
  // cookie gets the file.
  const first = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(10_000) });
  expect(first.status).toBe(302);
  const res = await fetch(url, { headers: { Cookie: first.headers.get("set-cookie")!.split(";")[0]! }, signal: AbortSignal.timeout(10_000) });
  expect(res.status).toBe(200);
  return { type: res.headers.get("content-type"), disposition: res.headers.get("content-disposition"), bytes: new Uint8Array(await res.arrayBuffer()), url };
}

describe("binary upload: PATCH T(k)/Field (3.3)", () => {
  it("stores the bytes with the Content-Disposition name, answers 200 with the entity, bumps modId once; both APIs serve it", async () => {
    const before = await ids("'A1'");
    const a = await send("PATCH", `${S}/Contacts('A1')/Photo`, PNG, { "Content-Type": "image/png", "Content-Disposition": "inline; filename=ada.png" });
    expect(a.status).toBe(200);
    expect(a.headers.get("content-type")).toBe("application/json;charset=utf-8");
    expect(a.body).toMatchObject({ "@context": `${emu.url}/fmi/odata/v4/${DB}/$metadata#Contacts/$entity`, id: "A1", Name: "Ada" });
    expect("Photo" in a.body).toBe(false);
    expect(await ids("'A1'")).toEqual({ ROWID: before.ROWID, ROWMODID: before.ROWMODID + 1 });

    const d = await download("Contacts('A1')/Photo");
    expect(d.status).toBe(200);
    expect(d.bytes).toEqual(PNG);
    expect(d.headers.get("content-type")).toBe("image/png");
    expect(d.headers.get("content-disposition")).toBe('attachment; filename="ada.png"');
    const member = await get(emu.url, `${S}/Contacts('A1')/Photo`);
    expect(member.body).toEqual({ "@context": `${emu.url}/fmi/odata/v4/${DB}/$metadata#Contacts('A1')/Photo`, value: b64(PNG) });

    const viaRest = await viaDataApi(before.ROWID);
    expect(viaRest.bytes).toEqual(PNG);
    expect(viaRest.type).toBe("image/png");
    // The URL's path ends in the file's extension (real servers' shape); the name travels in Content-Disposition.
    expect(viaRest.url).toMatch(/\/Streaming\/MainDB\/[0-9A-F]{64}\.png\?RCType=EmbeddedRCFileProcessor$/);
    expect(viaRest.disposition).toBe("inline; filename*=UTF-8''ada.png");
  });

  it("takes the /$value form, filename* (RFC 5987) over filename, and names a file sent without one Untitled.<ext>", async () => {
    expect((await send("PATCH", `${S}/Contacts('B2')/Photo/$value`, PDF, { "Content-Type": "application/pdf", "Content-Disposition": `attachment; filename="plain.pdf"; filename*=UTF-8''%E2%82%AC%20rate.pdf` })).status).toBe(200);
    const d = await download("Contacts('B2')/Photo");
    expect(d.bytes).toEqual(PDF);
    expect(d.headers.get("content-type")).toBe("application/pdf");
    expect(d.headers.get("content-disposition")).toBe(`attachment; filename="_ rate.pdf"; filename*=UTF-8''%E2%82%AC%20rate.pdf`);
    const name = await fetch(`${emu.url}${S}/Contacts('B2')/Photo/$value`, { headers: { Authorization: auth(), Accept: "application/octet-stream" } });
    expect(name.headers.get("content-type")).toBe("text/plain;charset=utf-8");
    expect(await name.text()).toBe("€ rate.pdf");

    for (const [type, bytes, file] of [["image/jpeg", JPEG, "Untitled.jpg"], ["image/gif", GIF, "Untitled.gif"], ["image/tiff", new Uint8Array([0x49, 0x49, 0x2a, 0, 1]), "Untitled.tif"]] as const) {
      expect((await send("PATCH", `${S}/Contacts('C3')/Photo`, bytes, { "Content-Type": type })).status).toBe(200);
      const got = await download("Contacts('C3')/Photo");
      expect(got.bytes).toEqual(bytes);
      expect(got.headers.get("content-type")).toBe(type);
      expect(got.headers.get("content-disposition")).toBe(`attachment; filename="${file}"`);
    }
  });

  it("refuses other media types (415), bad targets and headers, and changes nothing when it refuses", async () => {
    const before = await ids("'C3'");
    const bytesBefore = (await download("Contacts('C3')/Photo")).bytes;
    expect(expectODataError(await send("PATCH", `${S}/Contacts('C3')/Photo`, PNG, { "Content-Type": "application/octet-stream" }), 415, "-1").message).toBe("Unsupported media type");
    expectODataError(await send("PATCH", `${S}/Contacts('C3')/Photo`, PNG, { "Content-Type": "" }), 415, "-1");
    expectODataError(await send("PATCH", `${S}/Contacts('C3')/Photo`, PNG, { "Content-Type": "image/png", "Content-Disposition": "inline; filename*=UTF-8''%FF.png" }), 400, "-1002");
    expectODataError(await send("PATCH", `${S}/Contacts('C3')/Photo`, PNG, { "Content-Type": "image/png", "Content-Disposition": 'inline; filename="open' }), 400, "-1002");
    expectODataError(await send("PATCH", `${S}/Contacts('C3')/Photo`, new Uint8Array(0), { "Content-Type": "image/png" }), 400, "-1002");
    expectODataError(await send("PATCH", `${S}/Contacts('C3')/Name`, PNG, { "Content-Type": "image/png" }), 400, "-1002");
    expectODataError(await send("PATCH", `${S}/Contacts('C3')/Nope`, PNG, { "Content-Type": "image/png" }), 400, "8309");
    expectODataError(await send("PATCH", `${S}/Contacts('C3')/gLogo`, PNG, { "Content-Type": "image/png" }), 400, "201");
    expectODataError(await send("PATCH", `${S}/Contacts('ZZ')/Photo`, PNG, { "Content-Type": "image/png" }), 404, "-1023");
    expectODataError(await send("PATCH", `${S}/Contacts('C3')/Photo?$select=Name`, PNG, { "Content-Type": "image/png" }), 400, "-1002");
    expectODataError(await send("PATCH", `${S}/Contacts('C3')/Notes`, PNG, { "Content-Type": "image/png" }), 405, "-1002");
    expectODataError(await send("PUT", `${S}/Contacts('C3')/Photo`, PNG, { "Content-Type": "image/png" }), 405, "-1002");
    expect(await ids("'C3'")).toEqual(before);
    expect((await download("Contacts('C3')/Photo")).bytes).toEqual(bytesBefore);
  });

  it("takes what the Data API's upload takes (maxUploadBytes), and refuses more with 413", async () => {
    const big = new Uint8Array(60 * 1024);
    big.set(PNG);
    expect((await send("PATCH", `${S}/Contacts('B2')/Photo`, big, { "Content-Type": "image/png" })).status).toBe(200);
    expect((await download("Contacts('B2')/Photo")).bytes).toEqual(big);
    const before = await ids("'B2'");
    expectODataError(await send("PATCH", `${S}/Contacts('B2')/Photo`, new Uint8Array(65 * 1024), { "Content-Type": "image/png" }), 413, "-1");
    expect(await ids("'B2'")).toEqual(before);
  });
});

describe("base64 in JSON (3.3)", () => {
  it("creates a record with two containers and ordinary fields: sniffed types, annotation names, default names", async () => {
    const a = await send("POST", `${S}/Contacts`, {
      Name: "Pic",
      Photo: b64(JPEG),
      "Photo@com.filemaker.odata.Filename": "me.jpg",
      "Photo@com.filemaker.odata.ContentType": "image/png",
      Scans: b64(OTHER),
      "Scans@com.filemaker.odata.ContentType": "application/x-thing",
      Age: 3,
    });
    expect(a.status).toBe(201);
    const key = `'${a.body.id}'`;
    expect(a.body).toMatchObject({ Name: "Pic", Age: 3 });
    const photo = await download(`Contacts(${key})/Photo`);
    expect(photo.bytes).toEqual(JPEG);
    // The bytes say JPEG: the magic bytes win over the annotation.
    expect(photo.headers.get("content-type")).toBe("image/jpeg");
    expect(photo.headers.get("content-disposition")).toBe('attachment; filename="me.jpg"');
    const scans = await download(`Contacts(${key})/Scans`);
    expect(scans.bytes).toEqual(OTHER);
    expect(scans.headers.get("content-type")).toBe("application/x-thing");
    expect(scans.headers.get("content-disposition")).toBe('attachment; filename="Untitled"');
    const rest = await viaDataApi((await ids(key)).ROWID);
    expect(rest.bytes).toEqual(JPEG);
    expect(rest.type).toBe("image/jpeg");
    expect((await get(emu.url, `${S}/Contacts(${key})?$select=Photo,Scans`)).body).toMatchObject({ Photo: b64(JPEG), Scans: [b64(OTHER), null] });
    // 2.3: a repeating container read as a field gives its first repetition only.
    expect((await get(emu.url, `${S}/Contacts(${key})/Scans`)).body.value).toBe(b64(OTHER));
  });

  it("PATCH replaces and clears (null) containers with one modId bump; unknown bytes without a type are octet-stream", async () => {
    const before = await ids("'A1'");
    const a = await send("PATCH", `${S}/Contacts('A1')`, { Photo: b64(OTHER), Name: "Ada L", Scans: b64(GIF) });
    expect(a.status).toBe(204);
    expect(await ids("'A1'")).toEqual({ ROWID: before.ROWID, ROWMODID: before.ROWMODID + 1 });
    const d = await download("Contacts('A1')/Photo");
    expect(d.bytes).toEqual(OTHER);
    expect(d.headers.get("content-type")).toBe("application/octet-stream");
    expect(d.headers.get("content-disposition")).toBe('attachment; filename="Untitled"');
    expect((await download("Contacts('A1')/Scans")).headers.get("content-disposition")).toBe('attachment; filename="Untitled.gif"');

    const byFilter = await send("PATCH", `${S}/Contacts?$filter=Name%20eq%20'bob'%20or%20Age%20eq%207.5`, { Scans: b64(PDF) });
    expect([byFilter.status, byFilter.headers.get("fmodata.affected_rows")]).toEqual([204, "2"]);
    for (const k of ["'B2'", "'C3'"]) expect((await download(`Contacts(${k})/Scans`)).bytes).toEqual(PDF);

    expect((await send("PATCH", `${S}/Contacts('A1')`, { Photo: null })).status).toBe(204);
    const cleared = await get(emu.url, `${S}/Contacts('A1')?$select=Photo,Name`);
    expect(cleared.body).toMatchObject({ Photo: null, Name: "Ada L" });
    const empty = await download("Contacts('A1')/Photo");
    expect(empty.headers.get("content-type")).toBe("text/plain;charset=utf-8");
    expect(empty.bytes).toEqual(new Uint8Array(0));
    const token = await api().login(USER, PASSWORD, DB);
    expect((await api().getOk(token, "Contacts", String(before.ROWID), DB)).fieldData.Photo).toBe("");
  });

  it("refuses bad base64 naming the field, container repetitions, stray annotations; a refused write stores nothing", async () => {
    const count = (await get(emu.url, `${S}/Contacts/$count`)).text;
    const files = emu.stats().containerFiles;
    const before = await ids("'C3'");
    const bad = expectODataError(await send("POST", `${S}/Contacts`, { Name: "x", Photo: "not base64!" }), 400, "8309");
    expect(bad.message).toContain("'Photo'");
    for (const text of ["QUJD\n", "QQ", "QR==", "QUJD===="]) expectODataError(await send("PATCH", `${S}/Contacts('C3')`, { Photo: text }), 400, "8309");
    expectODataError(await send("PATCH", `${S}/Contacts('C3')`, { Photo: 42 }), 400, "8309");
    expectODataError(await send("PATCH", `${S}/Contacts('C3')`, { "Scans[2]": b64(PNG) }), 400, "-1002");
    expectODataError(await send("PATCH", `${S}/Contacts('C3')`, { Scans: [b64(PNG), b64(PNG)] }), 400, "-1002");
    expectODataError(await send("PATCH", `${S}/Contacts('C3')`, { "Photo@com.filemaker.odata.Filename": "a.png" }), 400, "-1002");
    expectODataError(await send("PATCH", `${S}/Contacts('C3')`, { Name: "n", "Name@com.filemaker.odata.Filename": "a.png" }), 400, "-1002");
    expectODataError(await send("PATCH", `${S}/Contacts('C3')`, { Photo: b64(PNG), "Photo@com.filemaker.odata.Other": "x" }), 400, "-1002");
    expectODataError(await send("PATCH", `${S}/Contacts('C3')`, { Photo: b64(PNG), "Photo@com.filemaker.odata.ContentType": "png" }), 400, "-1002");
    expectODataError(await send("PATCH", `${S}/Contacts('C3')`, { Photo: null, "Photo@com.filemaker.odata.Filename": "a.png" }), 400, "-1002");
    expectODataError(await send("PATCH", `${S}/Contacts('C3')`, { gLogo: b64(PNG) }), 400, "201");
    // A valid file in a write the hosted file refuses (unique id 504): nothing is kept, the file neither.
    expectODataError(await send("POST", `${S}/Contacts`, { id: "A1", Photo: b64(PNG) }), 400, "504");
    expectODataError(await send("PATCH", `${S}/Contacts('C3')`, { id: null, Photo: b64(PNG) }), 400, "509");
    expect((await get(emu.url, `${S}/Contacts/$count`)).text).toBe(count);
    expect(await ids("'C3'")).toEqual(before);
    await new Promise((r) => setTimeout(r, 10));
    expect(emu.stats().containerFiles).toBe(files);
  });

  it("reads through OData what the Data API uploads, and the other way round, bytes equal", async () => {
    const token = await api().login(USER, PASSWORD, DB);
    const created = await api().createOk(token, "Contacts", { fieldData: { Name: "Up" } }, DB);
    const up = await api().upload(token, "Contacts", created.recordId, "Photo", 1, { bytes: PDF, type: "application/pdf", filename: "doc.pdf" }, DB);
    expect(up.status).toBe(200);
    const d = await download(`Contacts(ROWID=${created.recordId})/Photo`);
    expect(d.bytes).toEqual(PDF);
    expect(d.headers.get("content-type")).toBe("application/pdf");
    expect(d.headers.get("content-disposition")).toBe('attachment; filename="doc.pdf"');
    expect((await send("PATCH", `${S}/Contacts(ROWID=${created.recordId})`, { Photo: b64(GIF), "Photo@com.filemaker.odata.Filename": "g.gif" })).status).toBe(204);
    const back = await viaDataApi(Number(created.recordId));
    expect(back.bytes).toEqual(GIF);
    expect(back.url).toMatch(/\.gif\?RCType=EmbeddedRCFileProcessor$/);
    expect(back.disposition).toBe("inline; filename*=UTF-8''g.gif");
  });
});
