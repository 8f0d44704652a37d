import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE, GLOBALS_LAYOUT, LAYOUT, PASSWORD, SCRIPTS, USERNAME, startServe, type Serve } from "./serve.mjs";

/**
 * The tests of both proofkit generations (@proofkit/fmdapi 5.x and @proofgeist/fmdapi 4.4.0 share their
 * FetchAdapter's wire behaviour; WIRE.md), driven unchanged against `fmgen serve` (and a second
 * `fmgen serve --scripts fixtures/scripts.mjs` for the script tests), over loopback; both children are stopped in
 * afterAll. The comment on each test names the section of the wider Data API (docs/emulator.md) it
 * exercises. The calls these clients
 * cannot make are listed in ../proofkit-fmdapi.test.ts and ../proofgeist-fmdapi.test.ts.
 */

const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");

type Row = Record<string, unknown>;
interface Found {
  data: { recordId: string; modId: string; fieldData: Row; portalData: Record<string, Row[]>; portalDataInfo?: Row[] }[];
  dataInfo: Row;
  [key: string]: unknown;
}
const column = (found: Found, field: string) => found.data.map((r) => r.fieldData[field]);
const amounts = (found: Found, index = 0) => found.data[index]!.portalData.Invoices!.map((row) => row["Invoices::Amount"]);

export interface ProofkitModule {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  DataApi: (options: { adapter: unknown; layout: string }) => any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  FetchAdapter: new (options: { server: string; db: string; auth: { username: string; password: string } }) => any;
}

/** `executeScriptNeedsLayout`: @proofgeist/fmdapi 4.4.0 exposes the adapter's executeScript, which takes the layout. */
export function proofkitSuite(title: string, load: () => Promise<ProofkitModule>, { executeScriptNeedsLayout = false } = {}): void {
  describe(title, () => {
    let serve: Serve;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    let pk: any;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    let globalsLayout: any;

    beforeAll(async () => {
      serve = await startServe();
      const { DataApi, FetchAdapter } = await load();
      const adapter = new FetchAdapter({ server: serve.url, db: DATABASE, auth: { username: USERNAME, password: PASSWORD } });
      pk = DataApi({ adapter, layout: LAYOUT });
      globalsLayout = DataApi({ adapter, layout: GLOBALS_LAYOUT });
    });
    afterAll(async () => {
      await serve?.stop();
    });

    // Section 1 (empty login body).
    it("logs in with no body and lists the layouts", async () => {
      const { layouts } = await pk.layouts();
      expect(layouts.map((l: { name: string }) => l.name)).toEqual(expect.arrayContaining([LAYOUT, GLOBALS_LAYOUT]));
    });

    // Section 1 (login).
    it("reads the layout's metadata", async () => {
      const meta = await pk.layoutMetadata();
      expect(meta.fieldMetaData.map((f: { name: string }) => f.name)).toEqual(expect.arrayContaining(["First Name", "Photo"]));
      expect(Object.keys(meta.portalMetaData)).toEqual(["Invoices"]);
    });

    // Section 1 (login).
    it("lists with limit, offset and sort, and lists every record with listAll", async () => {
      const page: Found = await pk.list({ limit: 2, offset: 2, sort: [{ fieldName: "Last Name", sortOrder: "descend" }] });
      expect(column(page, "Last Name")).toEqual(["Lovelace", "Johnson"]);
      const all: Found["data"] = await pk.listAll({ limit: 3 });
      expect(all.map((r) => r.fieldData["First Name"])).toEqual(["Ada", "Grace", "Alan", "Katherine"]);
    });

    // Section 1 (login; `sortOrder` optional, default ascend).
    it("sorts without a sortOrder (ascending)", async () => {
      const page: Found = await pk.list({ limit: 2, sort: { fieldName: "Last Name" } });
      expect(column(page, "Last Name")).toEqual(["Hopper", "Johnson"]);
    });

    // Section 1 (login).
    it("finds with an omit request and a sort, pages a find, and ignores an empty result when asked", async () => {
      const found: Found = await pk.find({ query: [{ Status: "Active" }, { "Last Name": "Hopper", omit: "true" }], sort: [{ fieldName: "First Name", sortOrder: "ascend" }] });
      expect(column(found, "First Name")).toEqual(["Ada", "Katherine"]);
      const paged: Found = await pk.find({ query: { Status: "Active" }, limit: 1, offset: 2, sort: [{ fieldName: "First Name", sortOrder: "ascend" }] });
      expect(column(paged, "First Name")).toEqual(["Grace"]);
      expect((await pk.find({ query: { "Last Name": "==Nobody" }, ignoreEmptyResult: true })).data).toEqual([]);
      await expect(pk.find({ query: { "Last Name": "==Nobody" } })).rejects.toMatchObject({ code: "401" });
    });

    // Section 1 (login).
    it("gets a record with its portal rows", async () => {
      const got: Found = await pk.get({ recordId: 1 });
      expect(got.data[0]).toMatchObject({ recordId: "1", fieldData: { "First Name": "Ada" } });
      expect(amounts(got)).toEqual([120.5, 80]);
    });

    // Section 3 (per-portal ranges on list: `_offset.Invoices`, `_limit.Invoices`; portalDataInfo).
    it("lists with a portal range", async () => {
      const page: Found = await pk.list({ limit: 1, portalRanges: { Invoices: { offset: 2, limit: 1 } } });
      expect(amounts(page)).toEqual([80]);
      expect(page.data[0]!.portalDataInfo).toEqual([{ portalObjectName: "Invoices", database: DATABASE, table: "Invoices", foundCount: 2, returnedCount: 1 }]);
    });

    // docs/emulator.md, "Names": the database as the client's docs tell its users to name it (the file name with
    // `.fmp12`), and a portal named in another case; answers keep the file's own names.
    it("works with the database named DB.fmp12 and a portal range in another case", async () => {
      const { DataApi, FetchAdapter } = await load();
      const adapter = new FetchAdapter({ server: serve.url, db: `${DATABASE}.fmp12`, auth: { username: USERNAME, password: PASSWORD } });
      const page: Found = await DataApi({ adapter, layout: LAYOUT }).list({ limit: 1, portalRanges: { invoices: { offset: 2, limit: 1 } } });
      expect(amounts(page)).toEqual([80]);
      expect(page.data[0]!.portalDataInfo).toEqual([{ portalObjectName: "Invoices", database: DATABASE, table: "Invoices", foundCount: 2, returnedCount: 1 }]);
    });

    // Section 3: the client puts a find's portal ranges on the query string of `POST .../_find`
    // (`?_offset.Invoices=2&_limit.Invoices=1`), not in the body; the emulator takes them there too
    // (docs/emulator.md, section 3).
    it("finds with a portal range", async () => {
      const found: Found = await pk.find({ query: { "First Name": "Ada" }, portalRanges: { Invoices: { offset: 2, limit: 1 } } });
      expect(amounts(found)).toEqual([80]);
    });

    // Section 1 (login).
    it("creates, updates and deletes a record", async () => {
      const created = await pk.create({ fieldData: { "First Name": "Peer", "Last Name": "Kit", Email: `pk-crud-${title.length}@example.com`, Status: "Inactive" } });
      expect(created).toMatchObject({ recordId: expect.stringMatching(/^\d+$/), modId: "0" });
      expect(await pk.update({ recordId: created.recordId, fieldData: { "Last Name": "Edited" } })).toMatchObject({ modId: "1" });
      expect(column(await pk.get({ recordId: created.recordId }), "Last Name")).toEqual(["Edited"]);
      await pk.delete({ recordId: created.recordId });
      await expect(pk.get({ recordId: created.recordId })).rejects.toMatchObject({ code: "101" });
    });

    // Section 1 (login). The client types `modId` as a number, but passes on what it is given: the modId string
    // its own answers carry works as on a server.
    it("updates with the modId string it got, and a stale one is 306", async () => {
      const created = await pk.create({ fieldData: { "First Name": "Peer", "Last Name": "ModId", Email: `pk-modid-${title.length}@example.com`, Status: "Inactive" } });
      expect(await pk.update({ recordId: created.recordId, fieldData: { "Last Name": "Once" }, modId: created.modId })).toMatchObject({ modId: "1" });
      await expect(pk.update({ recordId: created.recordId, fieldData: { "Last Name": "Twice" }, modId: created.modId })).rejects.toMatchObject({ code: "306" });
      await pk.delete({ recordId: created.recordId });
    });

    // Section 1 (numbers sent as strings: not modId). A modId as its types say, a number, goes out as a JSON number
    // (`"modId":0`); FileMaker Server 18 and later refuse that (beezwax/fmrest-ruby#25), and so does the emulator:
    // 1708, nothing edited. Listed as a call the client cannot make.
    it("cannot update with a numeric modId: 1708, and nothing is edited", async () => {
      const created = await pk.create({ fieldData: { "First Name": "Peer", "Last Name": "NumericModId", Email: `pk-nmodid-${title.length}@example.com`, Status: "Inactive" } });
      await expect(pk.update({ recordId: created.recordId, fieldData: { "Last Name": "Once" }, modId: 0 })).rejects.toMatchObject({ code: "1708" });
      expect(await pk.get({ recordId: created.recordId })).toMatchObject({ data: [{ modId: "0", fieldData: { "Last Name": "NumericModId" } }] });
      await pk.delete({ recordId: created.recordId });
    });

    // Section 7 (portal rows in an edit: a row with recordId edits it, one without creates one; newPortalRecordInfo).
    it("edits and creates portal rows through an update", async () => {
      const created = await pk.create({ fieldData: { "First Name": "Peer", "Last Name": "Rows", Email: `pk-rows-${title.length}@example.com`, Status: "Inactive" }, portalData: { Invoices: [{ "Invoices::Amount": 5 }] } });
      const before: Found = await pk.get({ recordId: created.recordId });
      const row = before.data[0]!.portalData.Invoices![0]!;
      const answer = await pk.update({ recordId: created.recordId, fieldData: {}, portalData: { Invoices: [{ recordId: row.recordId, "Invoices::Amount": 6 }, { "Invoices::Amount": 7 }] } });
      expect(answer.newPortalRecordInfo).toEqual([{ tableName: "Invoices", recordId: expect.stringMatching(/^\d+$/), modId: "0" }]);
      expect(amounts(await pk.get({ recordId: created.recordId }))).toEqual([6, 7]);
      await pk.delete({ recordId: created.recordId });
    });

    // Section 1 (login).
    it("uploads a file into a container field (repetition given)", async () => {
      await pk.containerUpload({ recordId: 3, containerFieldName: "Photo", containerFieldRepetition: 1, file: new Blob([PNG], { type: "image/png" }) });
      expect(column(await pk.get({ recordId: 3 }), "Photo")[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    });

    // Section 7 (upload): without a repetition the client posts to `.../containers/Photo` (no `/1`), which
    // FileMaker Server takes as repetition 1, and so does the emulator (docs/emulator.md, section 7).
    it("uploads a file into a container field (no repetition: the client's default)", async () => {
      await pk.containerUpload({ recordId: 4, containerFieldName: "Photo", file: new Blob([PNG], { type: "image/png" }) });
      expect(column(await pk.get({ recordId: 4 }), "Photo")[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    });

    // Section 5 (dateformats on find: the client sends `"dateformats": "2"`, a string, in the body, which the
    // emulator takes as 2; docs/emulator.md, section 5).
    it("finds with ISO dates", async () => {
      const found: Found = await pk.find({ query: { Birthday: "1815-12-10" }, dateformats: "ISO8601" });
      expect(column(found, "Birthday")).toEqual(["1815-12-10"]);
    });

    // Section 6 (globals per session; a global on a layout reads back the session's value).
    it("sets a global field for the session", async () => {
      expect(await pk.globals({ globalFields: { "Contacts::gGreeting": "hello" } })).toEqual({});
      const page: Found = await globalsLayout.list({ limit: 1 });
      expect(page.data[0]!.fieldData.gGreeting).toBe("hello");
    });

    // Section 1 (login; logout with the token in the path and a stray Bearer header).
    it("disconnects, and logs in again on the next call", async () => {
      await pk.disconnect();
      expect((await pk.list({ limit: 1 })).data).toHaveLength(1);
      await pk.disconnect();
    });

    describe("scripts (fmgen serve --scripts fixtures/scripts.mjs)", () => {
      let scripted: Serve;
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      let spk: any;
      beforeAll(async () => {
        scripted = await startServe({ extraArgs: ["--scripts", SCRIPTS] });
        const { DataApi, FetchAdapter } = await load();
        spk = DataApi({ adapter: new FetchAdapter({ server: scripted.url, db: DATABASE, auth: { username: USERNAME, password: PASSWORD } }), layout: LAYOUT });
      });
      afterAll(async () => {
        await scripted?.stop();
      });

      // Section 2 (scripts on list: query string; answer keys per phase).
      it("runs scripts on a list, in every phase", async () => {
        const page: Found = await spk.list({ limit: 1, script: "Echo Param", "script.param": "p", "script.prerequest": "Nothing", "script.presort": "Count Found" });
        expect(page).toMatchObject({ scriptResult: "p", scriptError: "0", "scriptError.prerequest": "0", "scriptResult.presort": "4", "scriptError.presort": "0" });
        expect(page).not.toHaveProperty(["scriptResult.prerequest"]);
      });

      // Section 2 (scripts on find: body keys).
      it("runs scripts on a find", async () => {
        const found: Found = await spk.find({ query: { Status: "Active" }, script: "Count Found", "script.prerequest": "Echo Param", "script.prerequest.param": "pre" });
        expect(found).toMatchObject({ scriptResult: "3", scriptError: "0", "scriptResult.prerequest": "pre", "scriptError.prerequest": "0" });
      });

      // Section 2 (a script that fails: the call succeeds, scriptError carries its error).
      it("keeps a create whose script fails, and reports the script's error", async () => {
        const created = await spk.create({ fieldData: { "First Name": "Peer", "Last Name": "Fails", Email: "pk-fails@example.com", Status: "Inactive" }, script: "Fails" });
        expect(created).toMatchObject({ recordId: expect.stringMatching(/^\d+$/), scriptError: "3" });
        await spk.delete({ recordId: created.recordId });
      });

      // Section 2 (the standalone script endpoint).
      it("runs a script on its own", async () => {
        const result = await spk.executeScript({ ...(executeScriptNeedsLayout ? { layout: LAYOUT } : {}), script: "Echo Param", scriptParam: "standalone" });
        expect(result).toEqual({ scriptResult: "standalone", scriptError: "0" });
      });

      // Section 2 (the script list).
      it("lists the scripts", async () => {
        const { scripts } = await spk.scripts();
        expect(scripts).toEqual(expect.arrayContaining([{ name: "Echo Param", isFolder: false }, { name: "Fails", isFolder: false }]));
      });

      // Section 2 (a script the file does not have: 104).
      it("fails a call whose script is missing with 104", async () => {
        await expect(spk.list({ limit: 1, script: "No Such Script" })).rejects.toMatchObject({ code: "104" });
      });
    });
  });
}
