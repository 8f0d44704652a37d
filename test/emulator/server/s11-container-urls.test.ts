import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConformanceEmulator, type Emulator } from "../../support/conformance-emulator.js";
import { downloadContainer } from "../../support/container-download.js";
import { CONTACTS, DataApi, DB, expectOk, p, type FileToUpload } from "../../support/data-api-http.js";
import { rawHttp } from "../../support/raw-http.js";

// docs/emulator.md, "11. Container URLs": container URLs. The first GET of a container field's URL answers 302 with
// Set-Cookie: X-FMS-Session-Key=..., the GET that brings the cookie gets the file, and URLs are built from the host
// the client used. Over loopback HTTP, on v1, v2 and vLatest; the emulator's signed-URL security stays, in
// real servers' URL shape /Streaming/MainDB/<hex>.<ext>?RCType=EmbeddedRCFileProcessor.

const VERSIONS = ["v1", "v2", "vLatest"] as const;
const PNG: FileToUpload = { bytes: Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]), type: "image/png", filename: "ada photo.png" };

let emu: Emulator;
let api: DataApi;
let token: string;
let photoUrl: string;
let port: string;

beforeAll(async () => {
  // The names beside the loopback ones that this emulator serves (docs/emulator.md, Security: allowedHosts).
  ({ emu, api } = await startConformanceEmulator({ allowedHosts: ["fm.example.com", "10.0.0.7"] }));
  token = await api.login();
  expectOk(await api.upload(token, CONTACTS, "1", "Photo", 1, PNG));
  photoUrl = (await api.getOk(token, CONTACTS, "1")).fieldData.Photo;
  port = new URL(emu.url).port;
});
afterAll(async () => {
  await emu.close();
});

const cookieOf = (setCookie: string) => setCookie.split(";")[0]!;

describe("11. the first GET answers 302 with X-FMS-Session-Key, the second (with the cookie) the file", () => {
  it.each(VERSIONS)("11. a container field's URL read through %s: 302 + Set-Cookie, then the bytes with the cookie", async (version) => {
    const url = (await api.withVersion(version).getOk(token, CONTACTS, "1")).fieldData.Photo as string;
    expect(url).toBe(photoUrl);
    const first = await fetch(url, { redirect: "manual" });
    expect(first.status).toBe(302);
    expect(first.headers.get("location")).toBe(url);
    const [setCookie] = first.headers.getSetCookie();
    expect(setCookie).toMatch(/^X-FMS-Session-Key=[0-9A-F]{32}; Path=\/; HttpOnly$/);
    expect(await first.text()).toBe("");
    const second = await fetch(url, { redirect: "manual", headers: { cookie: cookieOf(setCookie!) } });
    expect(second.status).toBe(200);
    expect(second.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await second.arrayBuffer())).toEqual(PNG.bytes);
  });

  it("11. the cookie is kept for every container URL of the database; the download helper a cookie jar is follows it", async () => {
    expectOk(await api.upload(token, CONTACTS, "2", "Attachments", 2, { bytes: Uint8Array.from([9, 9]), type: "application/octet-stream", filename: "b.bin" }));
    const other = (await api.getOk(token, CONTACTS, "2")).fieldData["Attachments(2)"] as string;
    const first = await fetch(photoUrl, { redirect: "manual" });
    const cookie = cookieOf(first.headers.getSetCookie()[0]!);
    const res = await fetch(other, { redirect: "manual", headers: { cookie: `theme=dark; ${cookie}` } });
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(Uint8Array.from([9, 9]));
    expect(new Uint8Array(await (await downloadContainer(photoUrl)).arrayBuffer())).toEqual(PNG.bytes);
  });

  it("11. without the cookie, or with one the emulator did not issue, every GET is the 302 again (a client must keep the cookie)", async () => {
    for (const cookie of [undefined, "X-FMS-Session-Key=0123456789ABCDEF0123456789ABCDEF", "X-FMS-Session-Key=", "other=1"]) {
      const res = await fetch(photoUrl, { redirect: "manual", ...(cookie ? { headers: { cookie } } : {}) });
      expect(res.status, cookie).toBe(302);
      expect(res.headers.getSetCookie()[0]).toMatch(/^X-FMS-Session-Key=/);
    }
    // A client without a cookie jar that follows redirects never gets the file.
    await expect(fetch(photoUrl)).rejects.toThrow();
  });

  it("11. a cookie of another hosted database does not open this one's containers", async () => {
    const two = await startConformanceEmulator({
      layouts: [{ database: "Second", layout: "Files", table: "Files", fields: [{ name: "File", type: "container" }] }],
      data: { accounts: [{ username: "web", password: "secret" }], records: { Files: [{}] } } as never,
    });
    try {
      const second = new DataApi(two.emu.url);
      const t = await second.login("web", "secret", "Second");
      expectOk(await second.upload(t, "Files", "1", "File", 1, PNG, "Second"));
      const url = (await second.getOk(t, "Files", "1", "Second")).fieldData.File as string;
      // Cookies are per emulator and per database: this emulator never issued the first one's.
      const foreign = cookieOf((await fetch(photoUrl, { redirect: "manual" })).headers.getSetCookie()[0]!);
      expect((await fetch(url, { redirect: "manual", headers: { cookie: foreign } })).status).toBe(302);
      expect((await downloadContainer(url)).status).toBe(200);
    } finally {
      await two.emu.close();
    }
  });
});

describe("11. the URL in real servers' shape, signed", () => {
  /** A URL's parts: base, the name's id and signature (32 hex digits each), its extension, its query. */
  const partsOf = (url: string) => {
    const u = new URL(url);
    const m = /^\/Streaming\/MainDB\/([0-9A-F]{32})([0-9A-F]{32})(\.[A-Za-z0-9]+)?$/.exec(u.pathname);
    expect(m, url).not.toBeNull();
    return { base: `${u.origin}/Streaming/MainDB/`, id: m![1]!, signature: m![2]!, extension: m![3] ?? "", query: u.search };
  };

  it("11. a field's URL is http://host/Streaming/MainDB/<64 hex digits>.<extension>?RCType=EmbeddedRCFileProcessor", () => {
    expect(photoUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/Streaming/MainDB/[0-9A-F]{64}\\.png\\?RCType=EmbeddedRCFileProcessor$`));
    // The database is no segment: "MainDB" is fixed, whatever the file is called; the file name is not in the URL.
    expect(photoUrl).not.toContain(DB);
    expect(photoUrl).not.toContain("ada");
  });

  it("11. the file name a client reads from the URL's path ends in the uploaded file's extension, none when it has none", async () => {
    for (const [filename, extension] of [["notes.TXT", ".TXT"], ["archive.tar.gz", ".gz"], ["README", ""], [".profile", ""], ["odd.ex t", ""], ["trailing.", ""]] as const) {
      expectOk(await api.upload(token, CONTACTS, "3", "Photo", 1, { bytes: Uint8Array.from([1]), type: "text/plain", filename }));
      const url = (await api.getOk(token, CONTACTS, "3")).fieldData.Photo as string;
      expect(partsOf(url).extension, filename).toBe(extension);
      // The answer names the whole file, as uploaded.
      const res = await downloadContainer(url);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-disposition")).toBe(`inline; filename*=UTF-8''${encodeURIComponent(filename)}`);
    }
  });

  it("11. a name the emulator did not sign is 401 / 952 before any cookie or file is looked at; a client rewriting MainDB gets nothing", async () => {
    const cookie = cookieOf((await fetch(photoUrl, { redirect: "manual" })).headers.getSetCookie()[0]!);
    const { base, id, signature, extension, query } = partsOf(photoUrl);
    const flipped = `${signature.slice(0, -1)}${signature.endsWith("0") ? "1" : "0"}`;
    for (const url of [
      `${base}${id}${flipped}${extension}${query}`,
      `${base}${id}${"0".repeat(32)}${extension}${query}`,
      `${base}${"0".repeat(32)}${signature}${extension}${query}`,
      `${base}${id}${extension}${query}`,
      `${base}${id.toLowerCase()}${signature.toLowerCase()}${extension}${query}`,
    ]) {
      const res = await fetch(url, { redirect: "manual", headers: { cookie } });
      expect(res.status, url).toBe(401);
      expect(((await res.json()) as { messages: { code: string }[] }).messages[0]!.code).toBe("952");
      expect(res.headers.getSetCookie()).toEqual([]);
    }
    // The database's name in place of MainDB (as a client might build it), or the old emulator shape: no container URL.
    for (const path of [`/Streaming/${DB}/${id}${signature}${extension}`, `/Streaming/${DB}/${id}/${signature}/ada%20photo.png`, `/Streaming_SSL/MainDB/${id}${signature}${extension}`]) {
      const res = await fetch(`${emu.url}${path}`, { redirect: "manual", headers: { cookie, authorization: `Bearer ${token}` } });
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as { messages: { code: string }[] }).messages[0]!.code).toBe("1630");
    }
  });

  it("11. a signed name with another extension than the file's is 404 / 1630", async () => {
    const { base, id, signature, query } = partsOf(photoUrl);
    for (const extension of [".jpg", ""]) {
      const res = await fetch(`${base}${id}${signature}${extension}${query}`, { redirect: "manual", headers: { authorization: `Bearer ${token}` } });
      expect(res.status, extension).toBe(404);
    }
  });

  it("11. RCType=EmbeddedRCFileProcessor may be dropped; another value, RCType twice or any other parameter is 400 / 960", async () => {
    const { base, id, signature, extension } = partsOf(photoUrl);
    const bare = `${base}${id}${signature}${extension}`;
    expect((await downloadContainer(bare)).status).toBe(200);
    for (const query of ["?RCType=Other", "?RCType=EmbeddedRCFileProcessor&RCType=EmbeddedRCFileProcessor", "?RCType=EmbeddedRCFileProcessor&x=1"]) {
      const res = await fetch(`${bare}${query}`, { redirect: "manual" });
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as { messages: { code: string }[] }).messages[0]!.code).toBe("960");
    }
  });

  it("11. a live session's Bearer token opens the URL at once (no cookie needed): the emulator's own way in", async () => {
    const res = await fetch(photoUrl, { redirect: "manual", headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG.bytes);
  });

  it("11. a replaced file's URL and a deleted record's URL are 404 / 1630; the new file has a new URL", async () => {
    const { recordId } = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Replace" } });
    expectOk(await api.upload(token, CONTACTS, recordId, "Photo", 1, PNG));
    const first = (await api.getOk(token, CONTACTS, recordId)).fieldData.Photo as string;
    expect((await downloadContainer(first)).status).toBe(200);
    expectOk(await api.upload(token, CONTACTS, recordId, "Photo", 1, PNG));
    const second = (await api.getOk(token, CONTACTS, recordId)).fieldData.Photo as string;
    expect(second).not.toBe(first);
    const gone = await downloadContainer(first);
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as { messages: { code: string }[] }).messages[0]!.code).toBe("1630");
    expect((await downloadContainer(second)).status).toBe(200);
    expectOk(await api.call("DELETE", p`/databases/${DB}/layouts/${CONTACTS}/records/${recordId}`, { token }));
    expect((await downloadContainer(second)).status).toBe(404);
  });
});

describe("11. URLs are built from the host the client used", () => {
  /** The Photo URL of record 1 as an answer to a request sent with this Host header. */
  async function photoUrlFor(host: string): Promise<string> {
    const res = await rawHttp(emu.url, "GET", `/fmi/data/vLatest${p`/databases/${DB}/layouts/${CONTACTS}/records/1`}`, { Host: host, Authorization: `Bearer ${token}` });
    expect(res.status, res.text).toBe(200);
    return res.body.response.data[0].fieldData.Photo as string;
  }

  it.each(["localhost:8080", "LOCALHOST:8080", "fm.example.com", "fm.example.com:8443", "[::1]:8080", "10.0.0.7:80"])(
    "11. Host: %s -> the URL starts with http://<that host>/Streaming/MainDB/",
    async (host) => {
      const url = await photoUrlFor(host);
      expect(url.startsWith(`http://${host}/Streaming/MainDB/`)).toBe(true);
      const { pathname, search } = new URL(photoUrl);
      expect(url.slice(`http://${host}`.length)).toBe(`${pathname}${search}`);
    },
  );

  it.each([["an empty Host", ""]])("11. Host with %s is not taken: the URL uses the address the emulator is bound to", async (_label, host) => {
    expect(await photoUrlFor(host)).toBe(photoUrl);
  });

  it.each([
    ["a path", "evil.example/x"],
    ["a user", "user@evil.example"],
    ["a space", "evil example"],
    ["a port out of range", "evil.example:99999"],
    ["port 0", "evil.example:0"],
    ["an empty port", "evil.example:"],
    ["two colons", "evil.example:80:81"],
    ["an unbracketed IPv6 address", "::1"],
    ["an unclosed bracket", "[::1"],
    ["a bracket that is no IPv6", "[evil.example]"],
    ["a query", "evil.example?x=1"],
    ["a label ending in a hyphen", "evil-.example"],
    ["an empty label", "evil..example"],
    ["a name the emulator does not serve", "evil.example"],
  ])("11. Host with %s is refused (421 / 1630): no URL is built from it", async (_label, host) => {
    const res = await rawHttp(emu.url, "GET", `/fmi/data/vLatest${p`/databases/${DB}/layouts/${CONTACTS}/records/1`}`, { Host: host, Authorization: `Bearer ${token}` });
    expect({ status: res.status, code: res.code }).toEqual({ status: 421, code: "1630" });
    expect(res.text).not.toContain("/Streaming/");
  });

  it("11. the 302's Location is built the same way", async () => {
    const path = `${new URL(photoUrl).pathname}${new URL(photoUrl).search}`;
    const viaName = await rawHttp(emu.url, "GET", path, { Host: `localhost:${port}` });
    expect(viaName.status).toBe(302);
    expect(viaName.headers.location).toBe(`http://localhost:${port}${path}`);
    const noHost = await rawHttp(emu.url, "GET", path, { Host: "" });
    expect(noHost.status).toBe(302);
    expect(noHost.headers.location).toBe(`${emu.url}${path}`);
    expect(noHost.setCookies).toHaveLength(1);
    const forged = await rawHttp(emu.url, "GET", path, { Host: "evil.example/x" });
    expect(forged.status).toBe(421);
    expect(forged.headers.location).toBeUndefined();
    expect(forged.setCookies).toHaveLength(0);
  });
});
