import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../../src/emulator/index.js";
import type { LayoutDescriptionInput } from "../../../src/layout/schema.js";
import { startConformanceEmulator, type Emulator } from "../../support/conformance-emulator.js";
import { basic, CONFORMANCE_LAYOUTS, CONFORMANCE_SEED, CONTACTS, DataApi, DB, expectError, expectOk, NO_FMREST_USER, p, PASSWORD, USER } from "../../support/data-api-http.js";

// docs/emulator.md, "8. Server and database metadata": server and database metadata. One test per bullet, over loopback
// HTTP, on v1, v2 and vLatest, under both status modes where they differ.

const VERSIONS = ["v1", "v2", "vLatest"] as const;

/** Layouts in folders (one nested), beside the conformance layouts (which name no folder), and a second file. */
const FOLDERED: (string | LayoutDescriptionInput)[] = [
  CONFORMANCE_LAYOUTS,
  { database: DB, layout: "Contact Summary", table: "Contacts", folder: "Reports", fields: [{ name: "First Name", type: "text" }] },
  { database: DB, layout: "Old Invoices", table: "Invoices", folder: "Reports/Archive", fields: [{ name: "Amount", type: "number" }] },
  { database: DB, layout: "Invoice Totals", table: "Invoices", folder: "Reports", fields: [{ name: "Amount", type: "number" }] },
  { database: DB, layout: "Archive", table: "Notes", folder: "Web", fields: [{ name: "Title", type: "text" }] },
  { database: "Other", layout: "Things", table: "Things", folder: "Web", fields: [{ name: "Name", type: "text" }] },
];

let emu: Emulator;
let api: DataApi;
let serverEmu: Emulator;
let serverApi: DataApi;

beforeAll(async () => {
  ({ emu, api } = await startConformanceEmulator({ layouts: FOLDERED }));
  ({ emu: serverEmu, api: serverApi } = await startConformanceEmulator({ layouts: FOLDERED, serverStatuses: true }));
});
afterAll(async () => {
  await emu.close();
  await serverEmu.close();
});

const BOTH = [
  ["the contract's statuses", () => ({ emu, api, missing: 404 })],
  ["real servers' statuses", () => ({ emu: serverEmu, api: serverApi, missing: 500 })],
] as const;

describe("8. GET /productInfo", () => {
  it.each(VERSIONS)("8. productInfo: no auth; { productInfo: { name, buildDate, version, dateFormat, timeFormat, timeStampFormat } } (%s)", async (version) => {
    const v = api.withVersion(version);
    const response = expectOk(await v.call("GET", "/productInfo"));
    expect(Object.keys(response)).toEqual(["productInfo"]);
    expect(response.productInfo).toEqual({
      name: "FileMaker Data API Engine",
      buildDate: expect.stringMatching(/^\d{2}\/\d{2}\/\d{4}$/),
      version: expect.stringMatching(/^\d+\.\d+\.\d+\.\d+$/),
      dateFormat: "MM/dd/yyyy",
      timeFormat: "HH:mm:ss",
      timeStampFormat: "MM/dd/yyyy HH:mm:ss",
    });
    expect(Object.keys(response.productInfo)).toEqual(["name", "buildDate", "version", "dateFormat", "timeFormat", "timeStampFormat"]);
    // Any Authorization a client sends along changes nothing.
    expect(expectOk(await v.call("GET", "/productInfo", { token: "whatever" }))).toEqual(response);
  });

  it.each(BOTH)("8. productInfo: an unknown parameter is 960, another method 405, both unchanged by the status mode (%s)", async (_, which) => {
    const { api } = which();
    expectError(await api.call("GET", "/productInfo?dateformats=2"), 400, "960");
    expectError(await api.call("POST", "/productInfo", { json: {} }), 405, "1630");
  });
});

describe("8. GET /databases", () => {
  it.each(VERSIONS)("8. databases: with no Authorization, the hosted files as { databases: [{ name }] } (%s)", async (version) => {
    const response = expectOk(await api.withVersion(version).call("GET", "/databases"));
    expect(response).toEqual({ databases: [{ name: DB }, { name: "Other" }] });
  });

  it("8. databases: with HTTP Basic of any account (one without fmrest too), the same list", async () => {
    for (const [user, password] of [[USER, PASSWORD], [NO_FMREST_USER, PASSWORD], ["colon", "pa:ss:word"]] as const) {
      const response = expectOk(await api.call("GET", "/databases", { headers: { Authorization: basic(user, password) } }));
      expect(response).toEqual({ databases: [{ name: DB }, { name: "Other" }] });
    }
    // Signing in is not what this call does: no session is made.
    expect(emu.stats().activeSessions).toBe(0);
  });

  it.each(BOTH)("8. databases: Basic credentials of no account are 401 / 212, in both status modes (%s)", async (_, which) => {
    const { api } = which();
    expectError(await api.call("GET", "/databases", { headers: { Authorization: basic(USER, "wrong") } }), 401, "212");
    expectError(await api.call("GET", "/databases", { headers: { Authorization: basic("nobody", PASSWORD) } }), 401, "212");
    expectError(await api.call("GET", "/databases", { headers: { Authorization: "Basic !!!" } }), 401, "212");
    expectError(await api.call("GET", "/databases?bogus=1"), 400, "960");
  });
});

describe("8. GET /databases/{db}/layouts", () => {
  it.each(VERSIONS)("8. layouts: leaves { name, table }, folders { name, isFolder: true, folderLayoutNames }, nested with A/B (%s)", async (version) => {
    const v = api.withVersion(version);
    const token = await v.login();
    const response = expectOk(await v.call("GET", p`/databases/${DB}/layouts`, { token }));
    expect(response).toEqual({
      layouts: [
        { name: CONTACTS, table: "Contacts" },
        { name: "Invoices", table: "Invoices" },
        { name: "Notes", table: "Notes" },
        {
          name: "Reports",
          isFolder: true,
          folderLayoutNames: [
            { name: "Contact Summary", table: "Contacts" },
            { name: "Archive", isFolder: true, folderLayoutNames: [{ name: "Old Invoices", table: "Invoices" }] },
            { name: "Invoice Totals", table: "Invoices" },
          ],
        },
        // A folder and a layout may share a name ("Archive" above is a folder inside Reports).
        { name: "Web", isFolder: true, folderLayoutNames: [{ name: "Archive", table: "Notes" }] },
      ],
    });
    // Each file lists its own layouts and folders.
    const otherToken = expectOk(await v.loginRaw(USER, PASSWORD, "Other")).token;
    expect(expectOk(await v.call("GET", p`/databases/Other/layouts`, { token: otherToken }))).toEqual({
      layouts: [{ name: "Web", isFolder: true, folderLayoutNames: [{ name: "Things", table: "Things" }] }],
    });
  });

  it("8. layouts: a layout in a folder is used by its own name, as any layout", async () => {
    const token = await api.login();
    const page = expectOk(await api.list(token, "Old Invoices", { _limit: 1 }));
    expect(page.dataInfo).toMatchObject({ layout: "Old Invoices", table: "Invoices" });
    expect(expectOk(await api.call("GET", p`/databases/${DB}/layouts/${"Old Invoices"}`, { token })).fieldMetaData.map((f: { name: string }) => f.name)).toEqual(["Amount"]);
  });

  it("8. layouts: a folder name that is empty or has an empty part (\"\", \"/A\", \"A//B\", \"A/\") stops the emulator from starting", async () => {
    for (const folder of ["", "/A", "A//B", "A/"]) {
      await expect(
        startEmulator({ layouts: [{ database: "Db", layout: "L", table: "T", folder, fields: [{ name: "F", type: "text" }] }] }),
        folder,
      ).rejects.toThrow(/folder/);
    }
  });
});

describe("8. GET /databases/{db}/layouts/{layout}[?recordId=N]", () => {
  it.each(VERSIONS)("8. layout metadata: fieldMetaData, portalMetaData, valueLists; ?recordId of an existing record answers the same (%s)", async (version) => {
    const v = api.withVersion(version);
    const token = await v.login();
    const plain = expectOk(await v.call("GET", p`/databases/${DB}/layouts/${CONTACTS}`, { token }));
    expect(Object.keys(plain)).toEqual(["fieldMetaData", "portalMetaData", "valueLists"]);
    expect(Object.keys(plain.portalMetaData)).toEqual(["Invoices"]);
    expect(plain.valueLists).toEqual([{ name: "Status Values", type: "customList", values: [{ value: "Active", displayValue: "Active" }, { value: "Inactive", displayValue: "Inactive" }] }]);
    expect(expectOk(await v.call("GET", p`/databases/${DB}/layouts/${CONTACTS}?recordId=1`, { token }))).toEqual(plain);
  });

  it.each(BOTH)("8. layout metadata: ?recordId of no record is 101; given twice 1708; other names 960; nothing changed (%s)", async (_, which) => {
    const { emu, api, missing } = which();
    const token = await api.login();
    const before = emu.stats().records;
    for (const recordId of ["999", "0", "abc", "-1", ""]) {
      expectError(await api.call("GET", p`/databases/${DB}/layouts/${CONTACTS}?recordId=${recordId}`, { token }), missing, "101");
    }
    expectError(await api.call("GET", p`/databases/${DB}/layouts/${CONTACTS}?recordId=1&recordId=2`, { token }), 400, "1708");
    expectError(await api.call("GET", p`/databases/${DB}/layouts/${CONTACTS}?recordid=1`, { token }), 400, "960");
    // The record of another layout's table does not count: Notes has none.
    expectError(await api.call("GET", p`/databases/${DB}/layouts/Notes?recordId=1`, { token }), missing, "101");
    expect(emu.stats().records).toEqual(before);
  });
});

describe("8. metadata: false keeps the server-level calls", () => {
  it("8. productInfo and databases answer on an emulator without the layout metadata endpoints", async () => {
    const bare = await startEmulator({ layouts: [CONFORMANCE_LAYOUTS], data: CONFORMANCE_SEED, metadata: false });
    try {
      const v = new DataApi(bare.url);
      expectOk(await v.call("GET", "/productInfo"));
      expect(expectOk(await v.call("GET", "/databases"))).toEqual({ databases: [{ name: DB }] });
      const token = await v.login();
      expectError(await v.call("GET", p`/databases/${DB}/layouts`, { token }), 404, "1630");
    } finally {
      await bare.close();
    }
  });
});
