import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE, GLOBALS_LAYOUT, LAYOUT, PASSWORD, SCRIPTS, USERNAME, peerRequire, peerVersion, startServe, type Serve } from "./support/serve.mjs";

/**
 * fm-data-api-client 1.0.3 (Soliant's client; v1 URLs, node-fetch), installed in test/peer-clients (its own
 * lockfile), driven unchanged against `fmgen serve` over loopback. WIRE.md says what it sends for every call.
 *
 * Each test names the section of the wider Data API (docs/emulator.md) it exercises; the script tests run against a
 * second `fmgen serve --scripts fixtures/scripts.mjs`. Both children are stopped in afterAll.
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

type Row = Record<string, unknown>;
interface Found {
  data: { recordId: string; modId: string; fieldData: Row; portalData: Record<string, Row[]>; portalDataInfo?: Row[] }[];
  [key: string]: unknown;
}
const column = (found: Found, field: string) => found.data.map((r) => r.fieldData[field]);
const amounts = (found: Found, index = 0) => found.data[index]!.portalData.Invoices!.map((row) => row["Invoices::Amount"]);

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
    // Real servers' shape: the fixed MainDB segment, a signed hex name with the file's extension, RCType.
    expect(got.data[0].fieldData.Photo).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/Streaming\/MainDB\/[0-9A-F]{64}\.png\?RCType=EmbeddedRCFileProcessor$/);
  });

  // Section 1 (`sortOrder` optional, default ascend).
  it("sorts without a sortOrder (ascending)", async () => {
    const page: Found = await layout.range({ limit: 2, sort: { fieldName: "Last Name" } });
    expect(column(page, "Last Name")).toEqual(["Hopper", "Johnson"]);
  });

  // Section 3 (ranges on list; portalDataInfo).
  it("lists with a portal range", async () => {
    const page: Found = await layout.range({ limit: 1, portalRanges: { Invoices: { offset: 2, limit: 1 } } });
    expect(amounts(page)).toEqual([80]);
    expect(page.data[0]!.portalDataInfo).toEqual([{ portalObjectName: "Invoices", database: DATABASE, table: "Invoices", foundCount: 2, returnedCount: 1 }]);
  });

  // Section 3 (ranges on get).
  it("gets a record with a portal range", async () => {
    expect(amounts(await layout.get(1, { portalRanges: { Invoices: { limit: 1 } } }))).toEqual([120.5]);
  });

  // Section 3 (ranges in a find body: "offset.Invoices", "limit.Invoices", strings here).
  it("finds with a portal range", async () => {
    expect(amounts(await layout.find({ "First Name": "Ada" }, { portalRanges: { Invoices: { offset: 2, limit: 1 } } }))).toEqual([80]);
  });

  // Section 7 (portal rows in an edit; newPortalRecordInfo).
  it("edits and creates portal rows through an update", async () => {
    const created = await layout.create({ "First Name": "Peer", "Last Name": "Rows", Status: "Inactive" }, { portalData: { Invoices: [{ "Invoices::Amount": 5 }] } });
    const row = (await layout.get(created.recordId)).data[0].portalData.Invoices[0];
    const answer = await layout.update(created.recordId, {}, { portalData: { Invoices: [{ recordId: row.recordId, "Invoices::Amount": 6 }, { "Invoices::Amount": 7 }] } });
    expect(answer.newPortalRecordInfo).toEqual([{ tableName: "Invoices", recordId: expect.stringMatching(/^\d+$/), modId: "0" }]);
    expect(amounts(await layout.get(created.recordId))).toEqual([6, 7]);
    await layout.delete(created.recordId);
  });

  // Section 4 (layout.response on list).
  it("answers a list in another layout's shape", async () => {
    const page: Found = await layout.range({ limit: 1, "layout.response": GLOBALS_LAYOUT });
    expect(Object.keys(page.data[0]!.fieldData).sort()).toEqual(["First Name", "Last Name", "gGreeting"]);
  });


  it("logs out with clearToken, and logs in again on the next call", async () => {
    await client.clearToken();
    const page = await layout.range({ limit: 1 });
    expect(page.data).toHaveLength(1);
    await client.clearToken();
  });

  describe("scripts (fmgen serve --scripts fixtures/scripts.mjs)", () => {
    let scripted: Serve;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    let slayout: any;
    beforeAll(async () => {
      scripted = await startServe({ extraArgs: ["--scripts", SCRIPTS] });
      const { Client } = peerRequire("fm-data-api-client");
      slayout = new Client(scripted.url, DATABASE, USERNAME, PASSWORD).layout(LAYOUT);
    });
    afterAll(async () => {
      await scripted?.stop();
    });

    // Section 2 (scripts on list: query string).
    it("runs scripts on a list, in every phase", async () => {
      const page = await slayout.range({ limit: 1, script: "Echo Param", "script.param": "p", "script.prerequest": "Nothing", "script.presort": "Count Found" });
      expect(page).toMatchObject({ scriptResult: "p", scriptError: "0", "scriptError.prerequest": "0", "scriptResult.presort": "4", "scriptError.presort": "0" });
    });

    // Section 2 (scripts on get).
    it("runs a script on a get", async () => {
      expect(await slayout.get(1, { script: "Echo Param", "script.param": "g" })).toMatchObject({ scriptResult: "g", scriptError: "0" });
    });

    // Section 2 (scripts on find: body).
    it("runs scripts on a find", async () => {
      const found = await slayout.find({ Status: "Active" }, { script: "Count Found", "script.prerequest": "Echo Param", "script.prerequest.param": "pre" });
      expect(found).toMatchObject({ scriptResult: "3", scriptError: "0", "scriptResult.prerequest": "pre", "scriptError.prerequest": "0" });
    });

    // Section 2 (scripts on create, update: body; on delete: query string).
    it("runs scripts on create, update and delete", async () => {
      const created = await slayout.create({ "First Name": "Peer", "Last Name": "Script", Status: "Inactive" }, { script: "Echo Param", "script.param": "c" });
      expect(created).toMatchObject({ recordId: expect.stringMatching(/^\d+$/), modId: "0", scriptResult: "c", scriptError: "0" });
      expect(await slayout.update(created.recordId, { "Last Name": "Edited" }, { script: "Echo Param", "script.param": "u" })).toMatchObject({ modId: "1", scriptResult: "u", scriptError: "0" });
      expect(await slayout.delete(created.recordId, { script: "Echo Param", "script.param": "d" })).toEqual({ scriptResult: "d", scriptError: "0" });
    });

    // Section 2 (a failing script keeps the action; a missing one is 104).
    it("keeps a create whose script fails, and fails a call whose script is missing with 104", async () => {
      const created = await slayout.create({ "First Name": "Peer", "Last Name": "Fails", Status: "Inactive" }, { script: "Fails" });
      expect(created).toMatchObject({ recordId: expect.stringMatching(/^\d+$/), scriptError: "3" });
      await slayout.delete(created.recordId);
      await expect(slayout.range({ limit: 1, script: "No Such Script" })).rejects.toMatchObject({ code: "104" });
    });
  });
});
