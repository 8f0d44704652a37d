import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../src/emulator/index.js";
import { downloadContainer } from "../support/container-download.js";
import { DataApi, expectError, expectOk, p, type FileToUpload } from "../support/data-api-http.js";

// The container store holds only the files some field still shows, and each file belongs to its database. Before,
// every upload stayed in memory for the life of the emulator: a replaced or deleted file (its record deleted, by
// cascade too) stayed downloadable at its old URL, and a session of one database could fetch another's file by its
// id under its own database's path. The store's size is read from stats().containerFiles: no timing.

const LAYOUTS = [
  {
    database: "D",
    layout: "Docs",
    table: "Docs",
    fields: [
      { name: "id", type: "number" },
      { name: "File", type: "container" },
      { name: "Logo", type: "container", global: true },
    ],
    portals: [{ name: "Pages", table: "Pages", relation: { parentField: "id", childField: "DocID", cascadeDelete: true }, fields: [{ name: "Pages::Scan", type: "container" }] }],
  },
  { database: "D", layout: "Pages", table: "Pages", fields: [{ name: "DocID", type: "number" }, { name: "Scan", type: "container" }] },
  { database: "E", layout: "Files", table: "Files", fields: [{ name: "File", type: "container" }] },
];

let emu: Awaited<ReturnType<typeof startEmulator>>;
let api: DataApi;
let tokenD: string;
let tokenE: string;

beforeAll(async () => {
  emu = await startEmulator({
    layouts: LAYOUTS as never,
    data: {
      accounts: [{ username: "web", password: "secret" }],
      records: { Docs: [1, 2, 3, 4, 5].map((id) => ({ id })), Pages: [{ DocID: 3 }, { DocID: 3 }], Files: [{}] },
    },
  });
  api = new DataApi(emu.url);
  tokenD = await api.login("web", "secret", "D");
  tokenE = await api.login("web", "secret", "E");
});
afterAll(async () => {
  await emu.close();
});

const file = (n: number): FileToUpload => ({ bytes: Uint8Array.from([n, n + 1, n + 2]), type: "application/octet-stream", filename: `f${n}.bin` });
const files = () => emu.stats().containerFiles;

async function upload(layout: string, recordId: string, field: string, n: number, token = tokenD, database = "D"): Promise<string> {
  expectOk(await api.upload(token, layout, recordId, field, 1, file(n), database));
  return (await api.getOk(token, layout, recordId, database)).fieldData[field] as string;
}

/** The bytes a container URL serves to a browser (302 + cookie, then the file), or the status it answers. */
async function served(url: string): Promise<Uint8Array | number> {
  const res = await downloadContainer(url);
  return res.status === 200 ? new Uint8Array(await res.arrayBuffer()) : res.status;
}

/** A URL's name: the container id and its signature for the file's database (32 hex digits each), the extension. */
function nameOf(url: string): { id: string; signature: string; extension: string } {
  const m = /^\/Streaming\/MainDB\/([0-9A-F]{32})([0-9A-F]{32})(\.[A-Za-z0-9]+)?$/.exec(new URL(url).pathname)!;
  return { id: m[1]!, signature: m[2]!, extension: m[3] ?? "" };
}

/** The URL as a session's Bearer token opens it (no cookie needed). */
const withBearer = (url: string, token: string) => fetch(url, { redirect: "manual", headers: { authorization: `Bearer ${token}` } });

describe("the container store", () => {
  it("holds one file after N replacements of one field, and only the last URL serves", async () => {
    const before = files();
    const urls: string[] = [];
    for (let n = 1; n <= 5; n++) urls.push(await upload("Docs", "1", "File", n));
    for (const old of urls.slice(0, -1)) expect(await served(old)).toBe(404);
    expect(await served(urls.at(-1)!)).toEqual(file(5).bytes);
    expect(files()).toBe(before + 1);
  });

  it("drops a deleted record's file: its URL stops serving", async () => {
    const url = await upload("Docs", "2", "File", 20);
    const before = files();
    expectOk(await api.call("DELETE", p`/databases/D/layouts/Docs/records/2`, { token: tokenD }));
    expect(await served(url)).toBe(404);
    expect((await withBearer(url, tokenD)).status).toBe(404);
    expect(files()).toBe(before - 1);
  });

  it("drops the files of records a cascade deletes", async () => {
    const scans = [await upload("Pages", "1", "Scan", 30), await upload("Pages", "2", "Scan", 31)];
    const before = files();
    expectOk(await api.call("DELETE", p`/databases/D/layouts/Docs/records/3`, { token: tokenD }));
    for (const url of scans) expect(await served(url)).toBe(404);
    expect(files()).toBe(before - 2);
  });

  it("keeps a file while a duplicate still shows it, and drops it with the last record that does", async () => {
    const url = await upload("Docs", "4", "File", 40);
    const copy = expectOk(await api.call("POST", p`/databases/D/layouts/Docs/records/4`, { token: tokenD })).recordId as string;
    const before = files();
    await upload("Docs", "4", "File", 41);
    expect(await served(url)).toEqual(file(40).bytes);
    expectOk(await api.call("DELETE", p`/databases/D/layouts/Docs/records/${copy}`, { token: tokenD }));
    expect(await served(url)).toBe(404);
    expect(files()).toBe(before);
  });

  it("keeps a session's global container file while the session lives, and drops it with the session", async () => {
    const token = await api.login("web", "secret", "D");
    const url = await upload("Docs", "5", "Logo", 50, token);
    const before = files();
    expect(await served(url)).toEqual(file(50).bytes);
    expectOk(await api.logout(token, "D"));
    expect(await served(url)).toBe(404);
    expect(files()).toBe(before - 1);
  });
});

describe("a container file belongs to its database", () => {
  it("a session of database E cannot fetch database D's file: its token opens only E's, and no name of E's opens D's file", async () => {
    const url = await upload("Docs", "1", "File", 60);
    expect(new Uint8Array(await (await withBearer(url, tokenD)).arrayBuffer())).toEqual(file(60).bytes);
    // E's token is no session of D: D's URL answers it as any cookie-less GET (the 302), never the bytes.
    const asE = await withBearer(url, tokenE);
    expect(asE.status).toBe(302);
    expect(new Uint8Array(await asE.arrayBuffer())).not.toEqual(file(60).bytes);
    // D's file id under a signature E's file has: the signature binds database and id, so it is refused before any lookup.
    const eUrl = await upload("Files", "1", "File", 61, tokenE, "E");
    const d = nameOf(url);
    const forged = `${emu.url}/Streaming/MainDB/${d.id}${nameOf(eUrl).signature}${d.extension}`;
    for (const token of [tokenD, tokenE]) expect((await withBearer(forged, token)).status).toBe(401);
  });

  it("E's own files serve to E's session", async () => {
    const url = await upload("Files", "1", "File", 70, tokenE, "E");
    expect(new Uint8Array(await (await withBearer(url, tokenE)).arrayBuffer())).toEqual(file(70).bytes);
    expectError(await api.call("GET", p`/databases/E/layouts/Files/records/9`, { token: tokenE }), 404, "101");
  });
});
