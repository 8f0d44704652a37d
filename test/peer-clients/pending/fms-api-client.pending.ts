import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE, GLOBALS_LAYOUT, LAYOUT, PASSWORD, SCRIPTS, USERNAME, peerRequire, peerVersion, startServe, type Serve } from "../support/serve.mjs";

/**
 * fms-api-client 2.3.4: the calls that fail against today's emulator, as tests ready to move into
 * ../fms-api-client.test.ts (or rename this file to *.test.ts). The comment on each names the data-api-server.md
 * section it needs and what the emulator answers today. The calls this client cannot make are listed in
 * ../fms-api-client.test.ts.
 */

type Row = Record<string, unknown>;
interface Found {
  data: { recordId: string; modId: string; fieldData: Row; portalData: Record<string, Row[]>; portalDataInfo?: Row[] }[];
  [key: string]: unknown;
}
const amounts = (found: Found, index = 0) => found.data[index]!.portalData.Invoices!.map((row) => row["Invoices::Amount"]);

let serve: Serve;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let client: any;

beforeAll(async () => {
  serve = await startServe();
  const { connect } = peerRequire("marpat");
  await connect("nedb://memory");
  const { Filemaker } = peerRequire("fms-api-client");
  client = Filemaker.create({ name: `peer-pending-${process.pid}`, database: DATABASE, server: serve.url, user: USERNAME, password: PASSWORD, usage: false });
  await client.save();
});

afterAll(async () => {
  await serve?.stop();
});

describe(`fms-api-client ${peerVersion("fms-api-client")} against fmgen serve (pending)`, () => {
  // Section 8. Today: HTTP 404, code 1630 (no resource at /fmi/data/vLatest/productInfo).
  it("reads the product info (no auth)", async () => {
    const info = await client.productInfo();
    expect(info).toMatchObject({ name: "FileMaker Data API Engine", dateFormat: "MM/dd/yyyy", timeFormat: "HH:mm:ss", timeStampFormat: "MM/dd/yyyy HH:mm:ss" });
    expect(info.version).toMatch(/^\d+\.\d+/);
  });

  // Section 8. Today: HTTP 404, code 1630 (no resource at /fmi/data/vLatest/databases).
  it("lists the databases (Basic auth)", async () => {
    expect(await client.databases()).toEqual({ databases: [{ name: DATABASE }] });
  });

  // Section 3 (portal selection and ranges on list; portalDataInfo). Today: HTTP 400, code 960 ("Unknown
  // parameter(s): portal, _offset.Invoices, _limit.Invoices").
  it("lists with a portal and its range", async () => {
    const page: Found = await client.list(LAYOUT, { limit: 1, portal: ["Invoices"], "_offset.Invoices": 2, "_limit.Invoices": 1 });
    expect(amounts(page)).toEqual([80]);
    expect(page.data[0]!.portalDataInfo).toEqual([{ portalObjectName: "Invoices", database: DATABASE, table: "Invoices", foundCount: 2, returnedCount: 1 }]);
  });

  // Section 3 (ranges on get). Today: HTTP 400, code 960 (portal, _limit.Invoices).
  it("gets a record with a portal range", async () => {
    const got: Found = await client.get(LAYOUT, 1, { portal: ["Invoices"], "_limit.Invoices": 1 });
    expect(amounts(got)).toEqual([120.5]);
  });

  // Section 3 (ranges in a find body, no underscore). Today: HTTP 400, code 960 (portal, offset.Invoices,
  // limit.Invoices).
  it("finds with a portal and its range", async () => {
    const found: Found = await client.find(LAYOUT, { "First Name": "Ada" }, { portal: ["Invoices"], "offset.Invoices": 2, "limit.Invoices": 1 });
    expect(amounts(found)).toEqual([80]);
  });

  // Section 7 (duplicate). Today: HTTP 405, code 1630 (POST not supported on a record).
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
  // value). Today: HTTP 200, code 0, without newPortalRecordInfo.
  it("edits and creates portal rows through an edit", async () => {
    const created = await client.create(LAYOUT, { "First Name": "Peer", "Last Name": "Rows", Status: "Inactive", portalData: { Invoices: [{ "Invoices::Amount": 5 }] } });
    const before: Found = await client.get(LAYOUT, created.recordId);
    const row = before.data[0]!.portalData.Invoices![0]!;
    const answer = await client.edit(LAYOUT, created.recordId, { portalData: { Invoices: [{ recordId: row.recordId, "Invoices::Amount": 6 }, { "Invoices::Amount": 7 }] } });
    expect(answer.newPortalRecordInfo).toEqual([{ tableName: "Invoices", recordId: expect.stringMatching(/^\d+$/), modId: "0" }]);
    expect(amounts(await client.get(LAYOUT, created.recordId))).toEqual([6, 7]);
    await client.delete(LAYOUT, created.recordId);
  });

  // Section 6 (globals per session, read back through a layout that shows the global). Today: HTTP 404, code 1630.
  it("sets a global field for the session", async () => {
    const answer = await client.globals({ "Contacts::gGreeting": "hello" });
    expect(answer).toEqual({});
    const page = await client.list(GLOBALS_LAYOUT, { limit: 1 });
    expect(page.data[0].fieldData.gGreeting).toBe("hello");
  });

  // Section 4 (layout.response on list). Today: HTTP 400, code 960 (layout.response).
  it("answers a list in another layout's shape", async () => {
    const page: Found = await client.list(LAYOUT, { limit: 1, "layout.response": GLOBALS_LAYOUT });
    expect(Object.keys(page.data[0]!.fieldData).sort()).toEqual(["First Name", "Last Name", "gGreeting"]);
    expect(page.data[0]!.portalData).toEqual({});
  });

  describe("scripts (fmgen serve --scripts fixtures/scripts.mjs)", () => {
    let scriptedServe: Serve;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    let client: any;
    beforeAll(async () => {
      // Today `fmgen serve` has no --scripts option: it exits with a usage error, and these tests fail here.
      scriptedServe = await startServe({ extraArgs: ["--scripts", SCRIPTS] });
      const { Filemaker } = peerRequire("fms-api-client");
      client = Filemaker.create({ name: `peer-pending-scripts-${process.pid}`, database: DATABASE, server: scriptedServe.url, user: USERNAME, password: PASSWORD, usage: false });
      await client.save();
    });
    afterAll(async () => {
      await scriptedServe?.stop();
    });

    // Section 2 (script list). Today: HTTP 404, code 1630.
    it("lists the scripts", async () => {
      const { scripts } = await client.scripts();
      expect(scripts).toEqual(expect.arrayContaining([{ name: "Echo Param", isFolder: false }, { name: "Count Found", isFolder: false }]));
    });

    // Section 2 (scripts on list, every phase). Today (plain fmgen serve): HTTP 400, code 960 (script,
    // script.param, script.prerequest, script.presort).
    it("runs scripts on a list, in every phase", async () => {
      const page = await client.list(LAYOUT, { limit: 1, script: "Echo Param", "script.param": "p", "script.prerequest": "Nothing", "script.presort": "Count Found" });
      expect(page).toMatchObject({ scriptResult: "p", scriptError: "0", "scriptError.prerequest": "0", "scriptResult.presort": "4", "scriptError.presort": "0" });
    });

    // Section 2, through the client's `scripts: [{ name, phase, param }]` syntax (the same query parameters).
    // Today: HTTP 400, code 960.
    it("runs scripts given in its scripts array syntax", async () => {
      const page = await client.list(LAYOUT, { limit: 1, scripts: [{ name: "Echo Param", param: "after" }, { name: "Nothing", phase: "prerequest" }] });
      expect(page).toMatchObject({ scriptResult: "after", scriptError: "0", "scriptError.prerequest": "0" });
    });

    // Section 2 (scripts on find, in the body). Today: HTTP 400, code 960.
    it("runs scripts on a find", async () => {
      const found = await client.find(LAYOUT, { Status: "Active" }, { script: "Count Found", "script.prerequest": "Echo Param", "script.prerequest.param": "pre" });
      expect(found).toMatchObject({ scriptResult: "3", scriptError: "0", "scriptResult.prerequest": "pre", "scriptError.prerequest": "0" });
    });

    // Section 2 (a script on create; a failing script keeps the action). Today: HTTP 400, code 960.
    it("runs a script on create, and keeps a create whose script fails", async () => {
      const created = await client.create(LAYOUT, { "First Name": "Peer", "Last Name": "Script", Email: "fms-script@example.com", Status: "Inactive" }, { script: "Echo Param", "script.param": "c" });
      expect(created).toMatchObject({ recordId: expect.stringMatching(/^\d+$/), scriptResult: "c", scriptError: "0" });
      const failing = await client.create(LAYOUT, { "First Name": "Peer", "Last Name": "Fails", Email: "fms-fails@example.com", Status: "Inactive" }, { script: "Fails" });
      expect(failing).toMatchObject({ recordId: expect.stringMatching(/^\d+$/), scriptError: "3" });
      await client.delete(LAYOUT, created.recordId);
      await client.delete(LAYOUT, failing.recordId);
    });

    // Section 2 (a script the file does not have: 104, nothing kept). Today: HTTP 400, code 960.
    it("fails a call whose script is missing with 104", async () => {
      await expect(client.list(LAYOUT, { limit: 1, script: "No Such Script" })).rejects.toMatchObject({ code: "104" });
    });

    // Section 2, and a decision data-api-server.md does not make yet: this client sends a delete's script keys as a
    // JSON body on DELETE (`{"script":"Echo Param","script.param":"d"}`), where section 2 puts them in the query
    // string. Today: HTTP 200, code 0, the body ignored (the record is deleted, the script silently not run).
    it("runs a script on delete", async () => {
      const created = await client.create(LAYOUT, { "First Name": "Peer", "Last Name": "Gone", Email: "fms-gone@example.com", Status: "Inactive" });
      expect(await client.delete(LAYOUT, created.recordId, { script: "Echo Param", "script.param": "d" })).toMatchObject({ scriptResult: "d", scriptError: "0" });
    });

    // Section 2 (a script run through a one-record list, the client's `run`). Today: HTTP 400, code 960.
    it("runs a script with run()", async () => {
      expect(await client.run(LAYOUT, "Echo Param", "run")).toEqual({ scriptResult: "run" });
    });

    // Section 2 (standalone script endpoint). Today: HTTP 404, code 1630.
    it("runs a script on its own, with a text and a JSON parameter", async () => {
      expect(await client.script(LAYOUT, "Echo Param", "standalone")).toEqual({ scriptResult: "standalone", scriptError: "0" });
      // The client sends an object as JSON text and parses a JSON result back.
      expect(await client.script(LAYOUT, "Echo Param", { a: 1 })).toEqual({ scriptResult: { a: 1 }, scriptError: "0" });
    });
  });
});
