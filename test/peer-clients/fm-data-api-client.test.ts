import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE, LAYOUT, PASSWORD, USERNAME, peerRequire, peerVersion, startServe, type Serve } from "./support/serve.mjs";

/**
 * fm-data-api-client 1.0.3 (Soliant's client; v1 URLs, node-fetch), installed in test/peer-clients (its own
 * lockfile), driven unchanged against `fmgen serve` over loopback. WIRE.md says what it sends for every call.
 *
 * Here: the calls that pass against today's emulator. The calls that fail today are written as tests in
 * pending/fm-data-api-client.pending.ts, with the emulator's current answer and the data-api-server.md section
 * each needs.
 *
 * Calls this client cannot make, or makes so that they cannot work:
 * | call | reason |
 * |---|---|
 * | layout metadata, layouts list, scripts list, standalone script, globals, duplicate, productInfo, databases | not offered: the client has layout calls (create, update, delete, upload, get, range, find) and `clearToken` only; no named call for these (only its untyped `request(path)`) |
 * | upload of a `{ name, buffer }` file | the client's bug: form-data counts a Buffer stream's length as 0, so node-fetch sends a Content-Length that leaves out the file's bytes (the emulator gets a truncated multipart body, 1708, and the connection breaks); uploading a file by path works and is tested |
 * | portal selection (`portal=[...]`) | not offered as an option (only `portalRanges`) |
 * | `dateformats`, OAuth, Claris ID | not offered |
 */

const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");

// eslint-disable-next-line @typescript-eslint/no-explicit-any
let client: any;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let layout: any;
let serve: Serve;
let dir: string;

const names = (result: { data: { fieldData: Record<string, unknown> }[] }, field: string) => result.data.map((r) => r.fieldData[field]);

beforeAll(async () => {
  serve = await startServe();
  dir = await mkdtemp(join(tmpdir(), "fmgen-peer-"));
  const { Client } = peerRequire("fm-data-api-client");
  client = new Client(serve.url, DATABASE, USERNAME, PASSWORD);
  layout = client.layout(LAYOUT);
});

afterAll(async () => {
  await serve?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe(`fm-data-api-client ${peerVersion("fm-data-api-client")} against fmgen serve`, () => {
  it("logs in on its first call (Basic, body {}) and lists a range with limit, offset and sort", async () => {
    const page = await layout.range({ limit: 2, offset: 2, sort: { fieldName: "Last Name", sortOrder: "descend" } });
    expect(names(page, "Last Name")).toEqual(["Lovelace", "Johnson"]);
    expect(page.dataInfo).toMatchObject({ foundCount: 4, returnedCount: 2 });
  });

  it("finds with an omit request and a sort, pages a find, and takes an empty find as no records", async () => {
    const found = await layout.find([{ Status: "Active" }, { "Last Name": "Hopper", omit: "true" }], { sort: { fieldName: "First Name", sortOrder: "ascend" } });
    expect(names(found, "First Name")).toEqual(["Ada", "Katherine"]);
    const paged = await layout.find({ Status: "Active" }, { limit: 1, offset: 2, sort: [{ fieldName: "First Name", sortOrder: "ascend" }] });
    expect(names(paged, "First Name")).toEqual(["Grace"]);
    expect(await layout.find({ "Last Name": "==Nobody" }, {}, true)).toEqual({ data: [] });
    await expect(layout.find({ "Last Name": "==Nobody" })).rejects.toMatchObject({ code: "401" });
  });

  it("gets a record with its portal rows", async () => {
    const got = await layout.get(1);
    const [record] = got.data;
    expect(record).toMatchObject({ recordId: "1", fieldData: { "First Name": "Ada" } });
    expect(record.portalData.Invoices.map((row: Record<string, unknown>) => row["Invoices::Amount"])).toEqual([120.5, 80]);
    for (const row of record.portalData.Invoices) expect(row).toMatchObject({ recordId: expect.stringMatching(/^\d+$/), modId: expect.stringMatching(/^\d+$/) });
  });

  it("creates, updates with modId, and deletes a record", async () => {
    const created = await layout.create({ "First Name": "Peer", "Last Name": "Client", Email: "fdac-crud@example.com", Status: "Inactive" });
    expect(created).toEqual({ recordId: expect.stringMatching(/^\d+$/), modId: "0" });
    expect(await layout.update(created.recordId, { "Last Name": "Edited" }, { modId: created.modId })).toEqual({ modId: "1" });
    await expect(layout.update(created.recordId, { "Last Name": "Stale" }, { modId: created.modId })).rejects.toMatchObject({ code: "306" });
    expect((await layout.get(created.recordId)).data[0].fieldData["Last Name"]).toBe("Edited");
    expect(await layout.delete(created.recordId)).toEqual({});
    await expect(layout.get(created.recordId)).rejects.toMatchObject({ code: "101" });
  });

  it("creates a record with portal rows", async () => {
    const created = await layout.create({ "First Name": "Peer", "Last Name": "Portal", Email: "fdac-portal@example.com", Status: "Inactive" }, { portalData: { Invoices: [{ "Invoices::Amount": 5 }] } });
    const got = await layout.get(created.recordId);
    expect(got.data[0].portalData.Invoices.map((row: Record<string, unknown>) => row["Invoices::Amount"])).toEqual([5]);
    await layout.delete(created.recordId);
  });

  it("uploads a file (by path) into a container field", async () => {
    const file = join(dir, "pixel.png");
    await writeFile(file, PNG);
    const answer = await layout.upload(file, 2, "Photo");
    expect(answer.modId).toMatch(/^\d+$/);
    const got = await layout.get(2);
    expect(got.data[0].fieldData.Photo).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.*pixel\.png/);
  });

  it("logs out with clearToken, and logs in again on the next call", async () => {
    await client.clearToken();
    const page = await layout.range({ limit: 1 });
    expect(page.data).toHaveLength(1);
    await client.clearToken();
  });
});
