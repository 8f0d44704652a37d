import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../support/conformance-emulator.js";
import { CONTACTS, DataApi, DB, expectError, expectOk, p, qs } from "../../support/data-api-http.js";
import { ALAN_INVOICES, NOTES_PORTAL, PORTALS_LAYOUT, startPortalEmulator, VERSIONS } from "./portal-fixtures.js";

// docs/emulator.md, "3. Portals", portals: which portals come back (`portal`), which rows of each (per-portal
// offset and limit, 50 rows by default), the rows' shape and `portalDataInfo`, on list, get and find, under
// v1, v2 and vLatest; unknown portal names are 960 under both status modes.

let emu: Emulator;
let api: DataApi;
let serverEmu: Emulator;
let serverApi: DataApi;

beforeAll(async () => {
  ({ emu, api } = await startPortalEmulator());
  ({ emu: serverEmu, api: serverApi } = await startPortalEmulator(true));
});
afterAll(async () => {
  await emu.close();
  await serverEmu.close();
});

const RECORDS = p`/databases/${DB}/layouts/${PORTALS_LAYOUT}/records`;
const FIND = p`/databases/${DB}/layouts/${PORTALS_LAYOUT}/_find`;

function get(api: DataApi, token: string, recordId: string, params?: Record<string, string | number>) {
  return api.call("GET", `${RECORDS}/${recordId}${qs(params)}`, { token });
}
function list(api: DataApi, token: string, params?: Record<string, string | number>) {
  return api.call("GET", `${RECORDS}${qs(params)}`, { token });
}
function find(api: DataApi, token: string, body: Record<string, unknown>) {
  return api.call("POST", FIND, { token, json: body });
}
const amounts = (record: any, portal = "Invoices") => record.portalData[portal].map((row: any) => row["Invoices::Amount"]);
const info = (foundCount: number, returnedCount: number, portal = "Invoices", table = "Invoices") => ({ portalObjectName: portal, database: DB, table, foundCount, returnedCount });
const alanAmounts = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

/** Each call under every version segment. */
async function eachVersion(work: (api: DataApi, token: string) => Promise<void>): Promise<void> {
  for (const version of VERSIONS) {
    const versioned = api.withVersion(version);
    await work(versioned, await versioned.login());
  }
}

/** Each call under both status modes: the contract's and real servers'. */
async function eachStatusMode(work: (api: DataApi, token: string, emu: Emulator) => Promise<void>): Promise<void> {
  for (const [mode, modeApi] of [[emu, api], [serverEmu, serverApi]] as const) await work(modeApi, await modeApi.login(), mode);
}

describe("the wider Data API, section 3: portals", () => {
  it('3. list and get: portal=["Invoices"] (percent-encoded JSON) selects portals; _offset.<portal> and _limit.<portal> range each', async () => {
    await eachVersion(async (api, token) => {
      const got = expectOk(await get(api, token, "1", { portal: JSON.stringify(["Invoices"]) })).data[0];
      expect(Object.keys(got.portalData)).toEqual(["Invoices"]);
      expect(amounts(got)).toEqual([100, 250.5]);
      expect(got.portalDataInfo).toEqual([info(2, 2)]);

      const notesOnly = expectOk(await get(api, token, "1", { portal: JSON.stringify([NOTES_PORTAL]) })).data[0];
      expect(Object.keys(notesOnly.portalData)).toEqual([NOTES_PORTAL]);

      const ranged = expectOk(await get(api, token, "3", { portal: JSON.stringify(["Invoices"]), "_offset.Invoices": 11, "_limit.Invoices": 5 })).data[0];
      expect(amounts(ranged)).toEqual([11, 12, 13, 14, 15]);
      expect(ranged.portalDataInfo).toEqual([info(ALAN_INVOICES, 5)]);

      // A range alone (no `portal`): every portal comes back, this one ranged.
      const page = expectOk(await list(api, token, { _limit: 3, "_limit.Invoices": 1, "_offset.Invoices": 2 }));
      expect(page.data.map((r: any) => Object.keys(r.portalData))).toEqual([
        ["Invoices", NOTES_PORTAL],
        ["Invoices", NOTES_PORTAL],
        ["Invoices", NOTES_PORTAL],
      ]);
      expect(page.data.map((r: any) => amounts(r))).toEqual([[250.5], [], [2]]);
      expect(page.data.map((r: any) => r.portalDataInfo[0])).toEqual([info(2, 1), info(1, 0), info(ALAN_INVOICES, 1)]);
      // The percent-encoded form a client writes by hand.
      const encoded = expectOk(await api.call("GET", `${RECORDS}/1?portal=%5B%22Recent%20Notes%22%5D&_limit.Recent%20Notes=2`, { token })).data[0];
      expect(encoded.portalData[NOTES_PORTAL].map((row: any) => row["Notes::Title"])).toEqual(["note 1", "note 2"]);
      expect(encoded.portalDataInfo).toEqual([info(3, 2, NOTES_PORTAL, "Notes")]);
    });
  });

  it('3. find: "portal" in the body selects; "offset.<portal>" and "limit.<portal>" (no underscore) range; "_limit.<portal>" in a find body is 960', async () => {
    await eachVersion(async (api, token) => {
      const found = expectOk(await find(api, token, { query: [{ "First Name": "Alan" }], portal: ["Invoices"], "offset.Invoices": 59, "limit.Invoices": 10 }));
      expect(Object.keys(found.data[0].portalData)).toEqual(["Invoices"]);
      expect(amounts(found.data[0])).toEqual([59, 60]);
      expect(found.data[0].portalDataInfo).toEqual([info(ALAN_INVOICES, 2)]);
      // Strings, as find's own offset and limit are sent.
      const asStrings = expectOk(await find(api, token, { query: [{ "First Name": "Alan" }], "offset.Invoices": "2", "limit.Invoices": "1" }));
      expect(amounts(asStrings.data[0])).toEqual([2]);
      expect(asStrings.data[0].portalDataInfo).toEqual([info(ALAN_INVOICES, 1), info(0, 0, NOTES_PORTAL, "Notes")]);
      // The GET spelling on the find's query string, as @proofkit/fmdapi sends a find's ranges (the emulator's choice).
      const onQuery = expectOk(await api.call("POST", `${FIND}${qs({ "_offset.Invoices": 59, "_limit.Invoices": 10 })}`, { token, json: { query: [{ "First Name": "Alan" }], portal: ["Invoices"] } }));
      expect(amounts(onQuery.data[0])).toEqual([59, 60]);
    });
    await eachStatusMode(async (api, token) => {
      for (const key of ["_limit.Invoices", "_offset.Invoices"]) {
        const res = await find(api, token, { query: [{ "First Name": "Alan" }], [key]: 1 });
        expectError(res, 400, "960");
        expect(res.body.messages[0]!.message).toBe(`Unknown parameter(s): ${key}`);
      }
      // One range given both ways, or twice on the query string: 1708; `portal` on a find's query string: 960.
      expectError(await api.call("POST", `${FIND}?_limit.Invoices=1`, { token, json: { query: [{ "First Name": "Alan" }], "limit.Invoices": 2 } }), 400, "1708");
      expectError(await api.call("POST", `${FIND}?_limit.Invoices=1&_limit.Invoices=1`, { token, json: { query: [{ "First Name": "Alan" }] } }), 400, "1708");
      const portalOnQuery = await api.call("POST", `${FIND}?portal=${encodeURIComponent('["Invoices"]')}`, { token, json: { query: [{ "First Name": "Alan" }] } });
      expectError(portalOnQuery, 400, "960");
      expect(portalOnQuery.body.messages[0]!.message).toBe("Unknown parameter(s): portal");
      // And the find spelling in a GET query string is unknown there.
      const res = await get(api, token, "1", { "limit.Invoices": 1 });
      expectError(res, 400, "960");
      expect(res.body.messages[0]!.message).toBe("Unknown parameter(s): limit.Invoices");
    });
  });

  it("3. without portal every portal comes back; each at most 50 rows unless a limit says otherwise; offsets are one-based", async () => {
    await eachVersion(async (api, token) => {
      const alan = expectOk(await get(api, token, "3")).data[0];
      expect(Object.keys(alan.portalData)).toEqual(["Invoices", NOTES_PORTAL]);
      expect(amounts(alan)).toEqual(alanAmounts(1, 50));
      expect(alan.portalDataInfo).toEqual([info(ALAN_INVOICES, 50), info(0, 0, NOTES_PORTAL, "Notes")]);
      // The same default on list and find, and on the conformance layout.
      expect(amounts(expectOk(await list(api, token, { _offset: 3, _limit: 1 })).data[0])).toHaveLength(50);
      expect(amounts(expectOk(await find(api, token, { query: [{ "First Name": "Alan" }] })).data[0])).toHaveLength(50);
      expect(amounts(expectOk(await api.get(token, CONTACTS, "3")).data[0])).toHaveLength(50);
      // A limit past 50 returns them all; offset 1 is the first row; an offset past the end returns none.
      expect(amounts(expectOk(await get(api, token, "3", { "_limit.Invoices": 1000 })).data[0])).toEqual(alanAmounts(1, ALAN_INVOICES));
      expect(amounts(expectOk(await get(api, token, "3", { "_offset.Invoices": 1, "_limit.Invoices": 1 })).data[0])).toEqual([1]);
      expect(amounts(expectOk(await get(api, token, "3", { "_offset.Invoices": 51 })).data[0])).toEqual(alanAmounts(51, 10));
      const past = expectOk(await get(api, token, "3", { "_offset.Invoices": 61 })).data[0];
      expect(amounts(past)).toEqual([]);
      expect(past.portalDataInfo[0]).toEqual(info(ALAN_INVOICES, 0));
    });
    // A range that is not a whole number >= 1 is a bad value, as _offset and _limit are.
    await eachStatusMode(async (api, token) => {
      for (const bad of ["0", "-1", "x", "1.5"]) {
        expectError(await get(api, token, "3", { "_limit.Invoices": bad }), 400, "1708");
        expectError(await get(api, token, "3", { "_offset.Invoices": bad }), 400, "1708");
        expectError(await find(api, token, { query: [{ "First Name": "Alan" }], "limit.Invoices": bad }), 400, "1708");
      }
      expectError(await find(api, token, { query: [{ "First Name": "Alan" }], "offset.Invoices": 0 }), 400, "1708");
      expectError(await get(api, token, "3", { portal: JSON.stringify([NOTES_PORTAL]), "_limit.Invoices": 0 }), 400, "1708");
      expectError(await get(api, token, "3", { portal: "Invoices" }), 400, "1708");
      expectError(await get(api, token, "3", { portal: JSON.stringify("Invoices") }), 400, "1708");
      expectError(await get(api, token, "3", { portal: JSON.stringify([1]) }), 400, "1708");
      expectError(await find(api, token, { query: [{ "First Name": "Alan" }], portal: "Invoices" }), 400, "1708");
      expectError(await api.call("GET", `${RECORDS}/3?_limit.Invoices=1&_limit.Invoices=2`, { token }), 400, "1708");
    });
  });

  it("3. portalData is keyed by the portal's object name; rows are { recordId, modId, TO::Field } with string ids; an empty portal is []", async () => {
    await eachVersion(async (api, token) => {
      const ada = expectOk(await get(api, token, "1")).data[0];
      // "Recent Notes" is the object name of a portal on table occurrence Notes: the key is the object name.
      expect(ada.portalData).toEqual({
        Invoices: [
          { recordId: "1", modId: "0", "Invoices::Amount": 100, "Invoices::Issued": "01/15/1850" },
          { recordId: "2", modId: "0", "Invoices::Amount": 250.5, "Invoices::Issued": "02/01/1850" },
        ],
        [NOTES_PORTAL]: [
          { recordId: "1", modId: "0", "Notes::Title": "note 1" },
          { recordId: "2", modId: "0", "Notes::Title": "note 2" },
          { recordId: "3", modId: "0", "Notes::Title": "note 3" },
        ],
      });
      const katherine = expectOk(await get(api, token, "5")).data[0];
      expect(katherine.portalData).toEqual({ Invoices: [], [NOTES_PORTAL]: [] });
      // `portal=[]` asks for no portal at all.
      const none = expectOk(await get(api, token, "1", { portal: "[]" })).data[0];
      expect(none.portalData).toEqual({});
      expect(none).not.toHaveProperty("portalDataInfo");
    });
  });

  it("3. every record carries portalDataInfo: one entry per returned portal, counts as JSON numbers, portalObjectName, table the table occurrence", async () => {
    await eachVersion(async (api, token) => {
      const page = expectOk(await list(api, token));
      expect(page.data).toHaveLength(5);
      const expected = [
        [info(2, 2), info(3, 3, NOTES_PORTAL, "Notes")],
        [info(1, 1), info(0, 0, NOTES_PORTAL, "Notes")],
        [info(ALAN_INVOICES, 50), info(0, 0, NOTES_PORTAL, "Notes")],
        [info(0, 0), info(0, 0, NOTES_PORTAL, "Notes")],
        [info(0, 0), info(0, 0, NOTES_PORTAL, "Notes")],
      ];
      expect(page.data.map((r: any) => r.portalDataInfo)).toEqual(expected);
      for (const record of page.data) {
        expect(Object.keys(record)).toEqual(["fieldData", "portalData", "recordId", "modId", "portalDataInfo"]);
        for (const entry of record.portalDataInfo) {
          expect(typeof entry.foundCount).toBe("number");
          expect(typeof entry.returnedCount).toBe("number");
        }
      }
      const selected = expectOk(await list(api, token, { portal: JSON.stringify([NOTES_PORTAL]), _limit: 1 }));
      expect(selected.data[0].portalDataInfo).toEqual([info(3, 3, NOTES_PORTAL, "Notes")]);
      // A layout without portals has no portal to describe.
      const invoice = expectOk(await api.get(token, "Invoices", "1")).data[0];
      expect(invoice.portalData).toEqual({});
      expect(invoice).not.toHaveProperty("portalDataInfo");
    });
  });

  it("3. an unknown portal name in portal or in a range key: HTTP 400, code 960, naming it (both status modes), nothing changed", async () => {
    await eachStatusMode(async (api, token, emu) => {
      const before = emu.stats().records;
      const calls: [string, () => ReturnType<DataApi["call"]>, string][] = [
        ["get portal", () => get(api, token, "1", { portal: JSON.stringify(["Invoices", "Nope"]) }), 'portal "Nope"'],
        ["list portal", () => list(api, token, { portal: JSON.stringify(["Notes"]) }), 'portal "Notes"'],
        ["get _limit.Nope", () => get(api, token, "1", { "_limit.Nope": 1 }), "_limit.Nope"],
        ["list _offset.Nope", () => list(api, token, { "_offset.Nope": 1 }), "_offset.Nope"],
        ["find portal", () => find(api, token, { query: [{ "First Name": "Ada" }], portal: ["Nope"] }), 'portal "Nope"'],
        ["find limit.Nope", () => find(api, token, { query: [{ "First Name": "Ada" }], "limit.Nope": 1 }), "limit.Nope"],
        // A portal of another layout is not a portal of this one.
        ["get via Contacts Web", () => api.call("GET", p`/databases/${DB}/layouts/${CONTACTS}/records/1` + qs({ "_limit.Recent Notes": 1 }), { token }), "_limit.Recent Notes"],
      ];
      for (const [what, send, name] of calls) {
        const res = await send();
        expectError(res, 400, "960");
        expect(res.body.messages[0]!.message, what).toBe(`Unknown parameter(s): ${name}`);
      }
      expect(emu.stats().records).toEqual(before);
    });
  });
});
