import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE, GLOBALS_LAYOUT, LAYOUT, PASSWORD, SCRIPTS, USERNAME, peerRequire, peerVersion, startServe, type Serve } from "./support/serve.mjs";

/**
 * fms-api-client 2.3.4, installed in test/peer-clients (its own lockfile), driven unchanged against `fmgen serve`
 * (built CLI, examples/contacts plus fixtures/layouts) over loopback. WIRE.md says what it sends for every call.
 *
 * Each test names the section of the wider Data API (docs/emulator.md) it exercises; the script tests run against a
 * second `fmgen serve --scripts fixtures/scripts.mjs`. Both children are stopped in afterAll.
 *
 * Calls this client cannot make, or makes so that they cannot work:
 * | call | reason |
 * |---|---|
 * | portal ranges through its `portals: [{ name, limit, offset }]` syntax | the client drops it: `sanitizeParameters` keeps `portal`, `_offset.*`, `_limit.*`, not `portals` (WIRE.md); the FileMaker syntax it also takes (`portal`, `_offset.P`, `_limit.P`; `offset.P`, `limit.P` in a find) is tested |
 * | OAuth or Claris ID sign-in | not offered: Basic login only |
 * | `dateformats` | not offered: not among the parameters it passes on |
 * | delete a portal row (`deleteRelated`) | not offered as an option (only through raw field data) |
 */

const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");

type Row = Record<string, unknown>;
interface Found {
  data: { recordId: string; modId: string; fieldData: Row; portalData: Record<string, Row[]>; portalDataInfo?: Row[] }[];
  [key: string]: unknown;
}
const amounts = (found: Found, index = 0) => found.data[index]!.portalData.Invoices!.map((row) => row["Invoices::Amount"]);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
let client: any;
let serve: Serve;

beforeAll(async () => {
  serve = await startServe();
  const { connect } = peerRequire("marpat");
  await connect("nedb://memory");
  const { Filemaker } = peerRequire("fms-api-client");
  client = Filemaker.create({ name: `peer-test-${process.pid}`, database: DATABASE, server: serve.url, user: USERNAME, password: PASSWORD, usage: false });
  await client.save();
});

afterAll(async () => {
  await serve?.stop();
});

describe(`fms-api-client ${peerVersion("fms-api-client")} against fmgen serve`, () => {
  it("logs in (Basic, body {}) and gets a session token", async () => {
    const session = await client.login();
    expect(session.token).toMatch(/^\S{16,}$/);
  });

  it("lists the layouts and reads a layout's metadata", async () => {
    const { layouts } = await client.layouts();
    expect(layouts.map((l: { name: string }) => l.name)).toEqual(expect.arrayContaining([LAYOUT, "Invoices Web"]));
    const meta = await client.layout(LAYOUT);
    expect(meta.fieldMetaData.map((f: { name: string }) => f.name)).toEqual(expect.arrayContaining(["First Name", "Photo", "Phone"]));
    expect(Object.keys(meta.portalMetaData)).toEqual(["Invoices"]);
  });

  it("lists with limit, offset and sort", async () => {
    const page = await client.list(LAYOUT, { limit: 2, offset: 2, sort: [{ fieldName: "Last Name", sortOrder: "descend" }] });
    // Seed: Lovelace, Hopper, Turing, Johnson; descending: Turing, Lovelace, Johnson, Hopper.
    expect(page.data.map((r: { fieldData: Record<string, unknown> }) => r.fieldData["Last Name"])).toEqual(["Lovelace", "Johnson"]);
    expect(page.dataInfo).toMatchObject({ database: DATABASE, layout: LAYOUT, foundCount: 4, returnedCount: 2 });
  });

  it("finds with an omit request and a sort, and answers an empty find as no records", async () => {
    const found = await client.find(LAYOUT, [{ Status: "Active" }, { "Last Name": "Hopper", omit: "true" }], { sort: [{ fieldName: "First Name", sortOrder: "ascend" }] });
    expect(found.data.map((r: { fieldData: Record<string, unknown> }) => r.fieldData["First Name"])).toEqual(["Ada", "Katherine"]);
    const paged = await client.find(LAYOUT, { Status: "Active" }, { limit: 1, offset: 2, sort: [{ fieldName: "First Name", sortOrder: "ascend" }] });
    expect(paged.data.map((r: { fieldData: Record<string, unknown> }) => r.fieldData["First Name"])).toEqual(["Grace"]);
    const none = await client.find(LAYOUT, { "Last Name": "==Nobody" });
    expect(none.data).toEqual([]);
  });

  it("gets a record with its portal rows", async () => {
    const got = await client.get(LAYOUT, 1);
    const [record] = got.data;
    expect(record.recordId).toBe("1");
    expect(record.fieldData["First Name"]).toBe("Ada");
    expect(record.portalData.Invoices).toHaveLength(2);
    for (const row of record.portalData.Invoices) {
      expect(row.recordId).toMatch(/^\d+$/);
      expect(row.modId).toMatch(/^\d+$/);
    }
    expect(record.portalData.Invoices.map((row: Record<string, unknown>) => row["Invoices::Amount"])).toEqual([120.5, 80]);
  });

  it("creates, edits with modId, and deletes a record", async () => {
    const created = await client.create(LAYOUT, { "First Name": "Peer", "Last Name": "Client", Email: "fms-crud@example.com", Status: "Inactive" });
    expect(created).toMatchObject({ recordId: expect.stringMatching(/^\d+$/), modId: "0" });
    const edited = await client.edit(LAYOUT, created.recordId, { "Last Name": "Edited" }, { modId: created.modId });
    expect(edited.modId).toBe("1");
    await expect(client.edit(LAYOUT, created.recordId, { "Last Name": "Stale" }, { modId: created.modId })).rejects.toMatchObject({ code: "306" });
    const got = await client.get(LAYOUT, created.recordId);
    expect(got.data[0].fieldData["Last Name"]).toBe("Edited");
    expect(await client.delete(LAYOUT, created.recordId)).toEqual({});
    await expect(client.get(LAYOUT, created.recordId)).rejects.toMatchObject({ code: "101" });
  });

  it("creates a record with portal rows", async () => {
    const created = await client.create(LAYOUT, { "First Name": "Peer", "Last Name": "Portal", Email: "fms-portal@example.com", Status: "Inactive", portalData: { Invoices: [{ "Invoices::Amount": 5 }] } });
    const got = await client.get(LAYOUT, created.recordId);
    expect(got.data[0].portalData.Invoices.map((row: Record<string, unknown>) => row["Invoices::Amount"])).toEqual([5]);
    await client.delete(LAYOUT, created.recordId);
  });

  it("uploads a file into a container field and downloads it again through the record's container URL", async () => {
    const uploaded = await client.upload({ name: "pixel.png", buffer: PNG }, LAYOUT, "Photo", 2);
    expect(uploaded).toMatchObject({ modId: expect.stringMatching(/^\d+$/), recordId: 2 });
    const got = await client.get(LAYOUT, 2);
    const url = got.data[0].fieldData.Photo;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    const { containerData } = peerRequire("fms-api-client");
    const file = await containerData(got.data[0], "fieldData.Photo", "buffer", "name");
    expect(Buffer.compare(file.buffer, PNG)).toBe(0);
  });

  // Section 8.
  it("reads the product info (no auth)", async () => {
    const info = await client.productInfo();
    expect(info).toMatchObject({ name: "FileMaker Data API Engine", dateFormat: "MM/dd/yyyy", timeFormat: "HH:mm:ss", timeStampFormat: "MM/dd/yyyy HH:mm:ss" });
    expect(info.version).toMatch(/^\d+\.\d+/);
  });

  // Section 8.
  it("lists the databases (Basic auth)", async () => {
    expect(await client.databases()).toEqual({ databases: [{ name: DATABASE }] });
  });

  // Section 3 (portal selection and ranges on list; portalDataInfo).
  it("lists with a portal and its range", async () => {
    const page: Found = await client.list(LAYOUT, { limit: 1, portal: ["Invoices"], "_offset.Invoices": 2, "_limit.Invoices": 1 });
    expect(amounts(page)).toEqual([80]);
    expect(page.data[0]!.portalDataInfo).toEqual([{ portalObjectName: "Invoices", database: DATABASE, table: "Invoices", foundCount: 2, returnedCount: 1 }]);
  });

  // Section 3 (ranges on get).
  it("gets a record with a portal range", async () => {
    const got: Found = await client.get(LAYOUT, 1, { portal: ["Invoices"], "_limit.Invoices": 1 });
    expect(amounts(got)).toEqual([120.5]);
  });

  // Section 3 (ranges in a find body, no underscore).
  it("finds with a portal and its range", async () => {
    const found: Found = await client.find(LAYOUT, { "First Name": "Ada" }, { portal: ["Invoices"], "offset.Invoices": 2, "limit.Invoices": 1 });
    expect(amounts(found)).toEqual([80]);
  });

  // Section 7 (duplicate).
  it("duplicates a record", async () => {
    const created = await client.create(LAYOUT, { "First Name": "Peer", "Last Name": "Original", Status: "Inactive" });
    const copy = await client.duplicate(LAYOUT, created.recordId);
    expect(copy).toMatchObject({ recordId: expect.stringMatching(/^\d+$/), modId: "0" });
    expect(copy.recordId).not.toBe(created.recordId);
    const got = await client.get(LAYOUT, copy.recordId);
    expect(got.data[0].fieldData).toMatchObject({ "First Name": "Peer", "Last Name": "Original" });
    await client.delete(LAYOUT, copy.recordId);
    await client.delete(LAYOUT, created.recordId);
  });

  // Section 7 (portal rows in an edit) and section 1 (numbers sent as strings: this client stringifies every
  // value).
  it("edits and creates portal rows through an edit", async () => {
    const created = await client.create(LAYOUT, { "First Name": "Peer", "Last Name": "Rows", Status: "Inactive", portalData: { Invoices: [{ "Invoices::Amount": 5 }] } });
    const before: Found = await client.get(LAYOUT, created.recordId);
    const row = before.data[0]!.portalData.Invoices![0]!;
    const answer = await client.edit(LAYOUT, created.recordId, { portalData: { Invoices: [{ recordId: row.recordId, "Invoices::Amount": 6 }, { "Invoices::Amount": 7 }] } });
    expect(answer.newPortalRecordInfo).toEqual([{ tableName: "Invoices", recordId: expect.stringMatching(/^\d+$/), modId: "0" }]);
    expect(amounts(await client.get(LAYOUT, created.recordId))).toEqual([6, 7]);
    await client.delete(LAYOUT, created.recordId);
  });

  // Section 6 (globals per session, read back through a layout that shows the global).
  it("sets a global field for the session", async () => {
    // The client resolves with the whole answer body, `{ response: {}, messages }` (section 6), not its response.
    const answer = await client.globals({ "Contacts::gGreeting": "hello" });
    expect(answer).toEqual({ response: {}, messages: [{ code: "0", message: "OK" }] });
    const page = await client.list(GLOBALS_LAYOUT, { limit: 1 });
    expect(page.data[0].fieldData.gGreeting).toBe("hello");
  });

  // Section 4 (layout.response on list).
  it("answers a list in another layout's shape", async () => {
    const page: Found = await client.list(LAYOUT, { limit: 1, "layout.response": GLOBALS_LAYOUT });
    expect(Object.keys(page.data[0]!.fieldData).sort()).toEqual(["First Name", "Last Name", "gGreeting"]);
    expect(page.data[0]!.portalData).toEqual({});
  });


  it("logs out", async () => {
    const answer = await client.logout();
    expect(answer.messages[0].code).toBe("0");
  });

  describe("scripts (fmgen serve --scripts fixtures/scripts.mjs)", () => {
    let scriptedServe: Serve;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    let client: any;
    beforeAll(async () => {
      scriptedServe = await startServe({ extraArgs: ["--scripts", SCRIPTS] });
      const { Filemaker } = peerRequire("fms-api-client");
      client = Filemaker.create({ name: `peer-scripts-${process.pid}`, database: DATABASE, server: scriptedServe.url, user: USERNAME, password: PASSWORD, usage: false });
      await client.save();
    });
    afterAll(async () => {
      await scriptedServe?.stop();
    });

    // Section 2 (script list).
    it("lists the scripts", async () => {
      const { scripts } = await client.scripts();
      expect(scripts).toEqual(expect.arrayContaining([{ name: "Echo Param", isFolder: false }, { name: "Count Found", isFolder: false }]));
    });

    // Section 2 (scripts on list, every phase).
    it("runs scripts on a list, in every phase", async () => {
      const page = await client.list(LAYOUT, { limit: 1, script: "Echo Param", "script.param": "p", "script.prerequest": "Nothing", "script.presort": "Count Found" });
      expect(page).toMatchObject({ scriptResult: "p", scriptError: "0", "scriptError.prerequest": "0", "scriptResult.presort": "4", "scriptError.presort": "0" });
    });

    // Section 2, through the client's `scripts: [{ name, phase, param }]` syntax (the same query parameters).
    it("runs scripts given in its scripts array syntax", async () => {
      const page = await client.list(LAYOUT, { limit: 1, scripts: [{ name: "Echo Param", param: "after" }, { name: "Nothing", phase: "prerequest" }] });
      expect(page).toMatchObject({ scriptResult: "after", scriptError: "0", "scriptError.prerequest": "0" });
    });

    // Section 2 (scripts on find, in the body).
    it("runs scripts on a find", async () => {
      const found = await client.find(LAYOUT, { Status: "Active" }, { script: "Count Found", "script.prerequest": "Echo Param", "script.prerequest.param": "pre" });
      expect(found).toMatchObject({ scriptResult: "3", scriptError: "0", "scriptResult.prerequest": "pre", "scriptError.prerequest": "0" });
    });

    // Section 2 (a script on create; a failing script keeps the action).
    it("runs a script on create, and keeps a create whose script fails", async () => {
      const created = await client.create(LAYOUT, { "First Name": "Peer", "Last Name": "Script", Email: "fms-script@example.com", Status: "Inactive" }, { script: "Echo Param", "script.param": "c" });
      expect(created).toMatchObject({ recordId: expect.stringMatching(/^\d+$/), scriptResult: "c", scriptError: "0" });
      const failing = await client.create(LAYOUT, { "First Name": "Peer", "Last Name": "Fails", Email: "fms-fails@example.com", Status: "Inactive" }, { script: "Fails" });
      expect(failing).toMatchObject({ recordId: expect.stringMatching(/^\d+$/), scriptError: "3" });
      await client.delete(LAYOUT, created.recordId);
      await client.delete(LAYOUT, failing.recordId);
    });

    // Section 2 (a script the file does not have: 104, nothing kept).
    it("fails a call whose script is missing with 104", async () => {
      await expect(client.list(LAYOUT, { limit: 1, script: "No Such Script" })).rejects.toMatchObject({ code: "104" });
    });

    // Section 2: this client sends a delete's script keys as a JSON body on DELETE
    // (`{"script":"Echo Param","script.param":"d"}`), where section 2 puts them in the query string; the emulator
    // takes them there too (docs/emulator.md, section 2).
    it("runs a script on delete", async () => {
      const created = await client.create(LAYOUT, { "First Name": "Peer", "Last Name": "Gone", Email: "fms-gone@example.com", Status: "Inactive" });
      expect(await client.delete(LAYOUT, created.recordId, { script: "Echo Param", "script.param": "d" })).toMatchObject({ scriptResult: "d", scriptError: "0" });
    });

    // Section 2 (a script run through a one-record list, the client's `run`).
    it("runs a script with run()", async () => {
      expect(await client.run(LAYOUT, "Echo Param", "run")).toEqual({ scriptResult: "run" });
    });

    // Section 2 (standalone script endpoint).
    it("runs a script on its own, with a text and a JSON parameter", async () => {
      expect(await client.script(LAYOUT, "Echo Param", "standalone")).toEqual({ scriptResult: "standalone", scriptError: "0" });
      // The client sends an object as JSON text and parses a JSON result back.
      expect(await client.script(LAYOUT, "Echo Param", { a: 1 })).toEqual({ scriptResult: { a: 1 }, scriptError: "0" });
    });
  });
});
