import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../support/conformance-emulator.js";
import { CONTACTS, DataApi, DB, expectError, expectOk, p, qs } from "../../support/data-api-http.js";
import { ALAN_INVOICES, PORTALS_LAYOUT, startPortalEmulator, SUMMARY_LAYOUT, VERSIONS } from "./portal-fixtures.js";

// docs/emulator.md, "4. `layout.response`", `layout.response`: records are found through the request layout and
// answered in the shape of the named layout (its fields and portals); an unknown layout is 105; dataInfo.layout names
// the response layout. A layout of another table is refused with 1708 (the emulator's choice, docs/emulator.md).

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

const records = (layout: string) => p`/databases/${DB}/layouts/${layout}/records`;
const findPath = (layout: string) => p`/databases/${DB}/layouts/${layout}/_find`;

/** Ada as "Contact Summary" shows her. */
const ADA_SUMMARY = {
  fieldData: { "First Name": "Ada", Email: "ada@example.com" },
  portalData: {
    Invoices: [
      { recordId: "1", modId: "0", "Invoices::Amount": 100 },
      { recordId: "2", modId: "0", "Invoices::Amount": 250.5 },
    ],
  },
  recordId: "1",
  modId: "0",
  portalDataInfo: [{ portalObjectName: "Invoices", database: DB, table: "Invoices", foundCount: 2, returnedCount: 2 }],
};

async function eachVersion(work: (api: DataApi, token: string) => Promise<void>): Promise<void> {
  for (const version of VERSIONS) {
    const versioned = api.withVersion(version);
    await work(versioned, await versioned.login());
  }
}

describe("the wider Data API, section 4: layout.response", () => {
  it("4. list and get: the query parameter answers in the named layout's shape (its fields and portals); dataInfo.layout names it", async () => {
    await eachVersion(async (api, token) => {
      const got = expectOk(await api.call("GET", `${records(CONTACTS)}/1${qs({ "layout.response": SUMMARY_LAYOUT })}`, { token }));
      expect(got.dataInfo).toEqual({ database: DB, layout: SUMMARY_LAYOUT, table: "Contacts", totalRecordCount: 5, foundCount: 1, returnedCount: 1 });
      expect(got.data).toEqual([ADA_SUMMARY]);

      // Sorted and paged through the request layout ("Last Name" is not on the response layout).
      const page = expectOk(
        await api.call("GET", records(CONTACTS) + qs({ "layout.response": SUMMARY_LAYOUT, _sort: JSON.stringify([{ fieldName: "Last Name", sortOrder: "descend" }]), _limit: 2 }), { token }),
      );
      expect(page.dataInfo).toEqual({ database: DB, layout: SUMMARY_LAYOUT, table: "Contacts", totalRecordCount: 5, foundCount: 5, returnedCount: 2 });
      expect(page.data.map((r: any) => r.fieldData)).toEqual([
        { "First Name": "Alan", Email: "alan@example.org" },
        { "First Name": "Adam", Email: "adam@example.com" },
      ]);
      // The response layout's portal, with the section 3 parameters naming its portals.
      const alan = expectOk(await api.call("GET", `${records(PORTALS_LAYOUT)}/3${qs({ "layout.response": SUMMARY_LAYOUT, "_limit.Invoices": 2 })}`, { token }));
      expect(alan.data[0].portalData.Invoices).toEqual([
        { recordId: "4", modId: "0", "Invoices::Amount": 1 },
        { recordId: "5", modId: "0", "Invoices::Amount": 2 },
      ]);
      expect(alan.data[0].portalDataInfo).toEqual([{ portalObjectName: "Invoices", database: DB, table: "Invoices", foundCount: ALAN_INVOICES, returnedCount: 2 }]);
      // The request layout itself, named: the ordinary answer.
      const same = expectOk(await api.call("GET", `${records(CONTACTS)}/1${qs({ "layout.response": CONTACTS })}`, { token }));
      expect(same).toEqual(expectOk(await api.get(token, CONTACTS, "1")));
    });
  });

  it("4. find: the body key layout.response; records are found through the request layout", async () => {
    await eachVersion(async (api, token) => {
      // "Last Name" is a criterion of the request layout only.
      const found = expectOk(
        await api.call("POST", findPath(CONTACTS), {
          token,
          json: { query: [{ "Last Name": "Lovelace" }, { "Last Name": "Turing" }], sort: [{ fieldName: "Age", sortOrder: "ascend" }], "layout.response": SUMMARY_LAYOUT, portal: ["Invoices"], "limit.Invoices": 1 },
        }),
      );
      expect(found.dataInfo).toEqual({ database: DB, layout: SUMMARY_LAYOUT, table: "Contacts", totalRecordCount: 5, foundCount: 2, returnedCount: 2 });
      expect(found.data.map((r: any) => [r.recordId, r.fieldData["First Name"], r.portalData.Invoices.length])).toEqual([
        ["1", "Ada", 1],
        ["3", "Alan", 1],
      ]);
      expect(Object.keys(found.data[0].fieldData)).toEqual(["First Name", "Email"]);
      // A criterion on a field only the response layout shows is not a field of the request layout: 102.
      const res = await api.call("POST", findPath(PORTALS_LAYOUT), { token, json: { query: [{ Email: "ada@example.com" }], "layout.response": SUMMARY_LAYOUT } });
      expectError(res, 400, "102");
    });
  });

  it("4. an unknown layout: code 105 (HTTP 404; 500 under server statuses); nothing else is answered", async () => {
    for (const [which, status] of [[api, 404], [serverApi, 500]] as const) {
      const token = await which.login();
      for (const res of [
        await which.call("GET", `${records(CONTACTS)}/1${qs({ "layout.response": "Nope" })}`, { token }),
        await which.call("GET", records(CONTACTS) + qs({ "layout.response": "" }), { token }),
        await which.call("POST", findPath(CONTACTS), { token, json: { query: [{ "First Name": "Ada" }], "layout.response": "Nope" } }),
      ]) {
        expectError(res, status, "105");
        expect(res.body.messages[0]!.message).toContain("layout.response");
      }
    }
  });

  it("4. a layout of another table, or not a layout name: HTTP 400, code 1708 under both status modes (the emulator's choice)", async () => {
    for (const which of [api, serverApi]) {
      const token = await which.login();
      const other = await which.call("GET", `${records(CONTACTS)}/1${qs({ "layout.response": "Invoices" })}`, { token });
      expectError(other, 400, "1708");
      expect(other.body.messages[0]!.message).toContain('shows table "Invoices", not "Contacts"');
      expectError(await which.call("POST", findPath(CONTACTS), { token, json: { query: [{ "First Name": "Ada" }], "layout.response": "Notes" } }), 400, "1708");
      expectError(await which.call("POST", findPath(CONTACTS), { token, json: { query: [{ "First Name": "Ada" }], "layout.response": 7 } }), 400, "1708");
      expectError(await which.call("GET", records(CONTACTS) + "?layout.response=Contact%20Summary&layout.response=Contact%20Summary", { token }), 400, "1708");
      // The response layout's portals are the ones portal names refer to.
      const res = await which.call("GET", `${records(PORTALS_LAYOUT)}/1${qs({ "layout.response": SUMMARY_LAYOUT, portal: JSON.stringify(["Recent Notes"]) })}`, { token });
      expectError(res, 400, "960");
    }
  });
});
