import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE, GLOBALS_LAYOUT, LAYOUT, PASSWORD, SCRIPTS, USERNAME, peerRequire, peerVersion, startServe, type Serve } from "../support/serve.mjs";

/**
 * fm-data-api-client 1.0.3: the calls that fail against today's emulator, as tests ready to move into
 * ../fm-data-api-client.test.ts (or rename this file to *.test.ts). The comment on each names the
 * data-api-server.md section it needs and what the emulator answers today. The calls this client cannot make
 * are listed in ../fm-data-api-client.test.ts.
 */

type Row = Record<string, unknown>;
interface Found {
  data: { recordId: string; modId: string; fieldData: Row; portalData: Record<string, Row[]>; portalDataInfo?: Row[] }[];
  [key: string]: unknown;
}
const column = (found: Found, field: string) => found.data.map((r) => r.fieldData[field]);
const amounts = (found: Found, index = 0) => found.data[index]!.portalData.Invoices!.map((row) => row["Invoices::Amount"]);

let serve: Serve;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let layout: any;

beforeAll(async () => {
  serve = await startServe();
  const { Client } = peerRequire("fm-data-api-client");
  layout = new Client(serve.url, DATABASE, USERNAME, PASSWORD).layout(LAYOUT);
});

afterAll(async () => {
  await serve?.stop();
});

describe(`fm-data-api-client ${peerVersion("fm-data-api-client")} against fmgen serve (pending)`, () => {
  // Section 1 (`sortOrder` optional, default ascend). Today: HTTP 400, code 1708 ("_sort[0].sortOrder must be
  // "ascend" or "descend"").
  it("sorts without a sortOrder (ascending)", async () => {
    const page: Found = await layout.range({ limit: 2, sort: { fieldName: "Last Name" } });
    expect(column(page, "Last Name")).toEqual(["Hopper", "Johnson"]);
  });

  // Section 3 (ranges on list; portalDataInfo). Today: HTTP 400, code 960 (_offset.Invoices, _limit.Invoices).
  it("lists with a portal range", async () => {
    const page: Found = await layout.range({ limit: 1, portalRanges: { Invoices: { offset: 2, limit: 1 } } });
    expect(amounts(page)).toEqual([80]);
    expect(page.data[0]!.portalDataInfo).toEqual([{ portalObjectName: "Invoices", database: DATABASE, table: "Invoices", foundCount: 2, returnedCount: 1 }]);
  });

  // Section 3 (ranges on get). Today: HTTP 400, code 960 (_limit.Invoices).
  it("gets a record with a portal range", async () => {
    expect(amounts(await layout.get(1, { portalRanges: { Invoices: { limit: 1 } } }))).toEqual([120.5]);
  });

  // Section 3 (ranges in a find body: "offset.Invoices", "limit.Invoices", strings here). Today: HTTP 400, code 960
  // (offset.Invoices, limit.Invoices).
  it("finds with a portal range", async () => {
    expect(amounts(await layout.find({ "First Name": "Ada" }, { portalRanges: { Invoices: { offset: 2, limit: 1 } } }))).toEqual([80]);
  });

  // Section 7 (portal rows in an edit; newPortalRecordInfo). Today: HTTP 200, code 0, without newPortalRecordInfo.
  it("edits and creates portal rows through an update", async () => {
    const created = await layout.create({ "First Name": "Peer", "Last Name": "Rows", Status: "Inactive" }, { portalData: { Invoices: [{ "Invoices::Amount": 5 }] } });
    const row = (await layout.get(created.recordId)).data[0].portalData.Invoices[0];
    const answer = await layout.update(created.recordId, {}, { portalData: { Invoices: [{ recordId: row.recordId, "Invoices::Amount": 6 }, { "Invoices::Amount": 7 }] } });
    expect(answer.newPortalRecordInfo).toEqual([{ tableName: "Invoices", recordId: expect.stringMatching(/^\d+$/), modId: "0" }]);
    expect(amounts(await layout.get(created.recordId))).toEqual([6, 7]);
    await layout.delete(created.recordId);
  });

  // Section 4 (layout.response on list). Today: HTTP 400, code 960 (layout.response).
  it("answers a list in another layout's shape", async () => {
    const page: Found = await layout.range({ limit: 1, "layout.response": GLOBALS_LAYOUT });
    expect(Object.keys(page.data[0]!.fieldData).sort()).toEqual(["First Name", "Last Name", "gGreeting"]);
  });

  describe("scripts (fmgen serve --scripts fixtures/scripts.mjs)", () => {
    let scripted: Serve;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    let slayout: any;
    beforeAll(async () => {
      // Today `fmgen serve` has no --scripts option: it exits with a usage error, and these tests fail here.
      scripted = await startServe({ extraArgs: ["--scripts", SCRIPTS] });
      const { Client } = peerRequire("fm-data-api-client");
      slayout = new Client(scripted.url, DATABASE, USERNAME, PASSWORD).layout(LAYOUT);
    });
    afterAll(async () => {
      await scripted?.stop();
    });

    // Section 2 (scripts on list: query string). Today (plain fmgen serve): HTTP 400, code 960 (script, ...).
    it("runs scripts on a list, in every phase", async () => {
      const page = await slayout.range({ limit: 1, script: "Echo Param", "script.param": "p", "script.prerequest": "Nothing", "script.presort": "Count Found" });
      expect(page).toMatchObject({ scriptResult: "p", scriptError: "0", "scriptError.prerequest": "0", "scriptResult.presort": "4", "scriptError.presort": "0" });
    });

    // Section 2 (scripts on get). Today: HTTP 400, code 960.
    it("runs a script on a get", async () => {
      expect(await slayout.get(1, { script: "Echo Param", "script.param": "g" })).toMatchObject({ scriptResult: "g", scriptError: "0" });
    });

    // Section 2 (scripts on find: body). Today: HTTP 400, code 960.
    it("runs scripts on a find", async () => {
      const found = await slayout.find({ Status: "Active" }, { script: "Count Found", "script.prerequest": "Echo Param", "script.prerequest.param": "pre" });
      expect(found).toMatchObject({ scriptResult: "3", scriptError: "0", "scriptResult.prerequest": "pre", "scriptError.prerequest": "0" });
    });

    // Section 2 (scripts on create, update: body; on delete: query string). Today: HTTP 400, code 960.
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
