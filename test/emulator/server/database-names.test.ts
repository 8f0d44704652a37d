import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConformanceEmulator, type Emulator } from "../../support/conformance-emulator.js";
import { CONTACTS, DataApi, DB, expectError, expectOk, p } from "../../support/data-api-http.js";

// docs/emulator.md, "Names": a database is named on every Data API path as OData names it (one rule,
// hosted-file/database-name.ts): as given, else without `.fmp12`, case aside. A leading client tells its users to set
// the file name with `.fmp12`, and its live suite passes so; the emulator answered 100 "File is missing". A session
// is the file's: opened under one form, it serves paths written in any other.

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const FORMS = [`${DB}.fmp12`, `${DB}.FMP12`, DB.toLowerCase(), `${DB.toUpperCase()}.fmp12`];

let emu: Emulator;
let api: DataApi;
let otto: DataApi;

beforeAll(async () => {
  ({ emu, api } = await startConformanceEmulator({ scripts: { Echo: ({ param }) => `echo ${param}` }, apiKeys: [{ key: "otto-key", pathPrefix: "/otto" }] }));
  otto = new DataApi(`${emu.url}/otto`);
});
afterAll(() => emu.close());

describe.each(FORMS)("the database written %s", (written) => {
  it("logs in, and the session serves records, finds, edits, uploads, duplicates, deletes and logs out", async () => {
    const token = await api.login(undefined, undefined, written);
    const listed = expectOk(await api.list(token, CONTACTS, { _limit: 1 }, written));
    // Answers name the file by its own name.
    expect(listed.dataInfo.database).toBe(DB);
    expect(expectOk(await api.get(token, CONTACTS, "1", written)).data[0].fieldData["First Name"]).toBe("Ada");
    expect(expectOk(await api.find(token, CONTACTS, { query: [{ "First Name": "==Ada" }] }, written)).data).toHaveLength(1);
    const { recordId } = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "New" } }, written);
    expectOk(await api.edit(token, CONTACTS, recordId, { fieldData: { "Last Name": "Edited" } }, written));
    expectOk(await api.upload(token, CONTACTS, recordId, "Photo", 1, { bytes: PNG, type: "image/png", filename: "a.png" }, written));
    const copy = expectOk(await api.call("POST", p`/databases/${written}/layouts/${CONTACTS}/records/${recordId}`, { token, json: {} }));
    expectOk(await api.delete(token, CONTACTS, copy.recordId, written));
    expectOk(await api.delete(token, CONTACTS, recordId, written));
    expectOk(await api.logout(token, written));
    expectError(await api.list(token, CONTACTS, undefined, written), 401, "952");
  });

  it("serves scripts, globals and the metadata calls", async () => {
    const token = await api.login(undefined, undefined, written);
    expect(expectOk(await api.call("GET", p`/databases/${written}/layouts/${CONTACTS}/script/${"Echo"}` + "?script.param=x", { token })).scriptResult).toBe("echo x");
    expect(expectOk(await api.list(token, CONTACTS, { _limit: 1, script: "Echo", "script.param": "y" }, written)).scriptResult).toBe("echo y");
    expectOk(await api.call("PATCH", p`/databases/${written}/globals`, { token, json: { globalFields: { "Contacts::Site Banner": "hi" } } }));
    expect(expectOk(await api.get(token, CONTACTS, "1", written)).data[0].fieldData["Site Banner"]).toBe("hi");
    expect(expectOk(await api.call("GET", p`/databases/${written}/layouts`, { token })).layouts.map((l: { name: string }) => l.name)).toContain(CONTACTS);
    expect(expectOk(await api.call("GET", p`/databases/${written}/layouts/${CONTACTS}`, { token })).fieldMetaData.length).toBeGreaterThan(0);
    expect(expectOk(await api.call("GET", p`/databases/${written}/scripts`, { token })).scripts).toEqual(expect.arrayContaining([expect.objectContaining({ name: "Echo" })]));
    expectOk(await api.logout(token, written));
  });

  it("is the same file's session: a token from the plain name serves this form, and this form's the plain name", async () => {
    const plain = await api.login();
    expectOk(await api.list(plain, CONTACTS, { _limit: 1 }, written));
    const formed = await api.login(undefined, undefined, written);
    expectOk(await api.list(formed, CONTACTS, { _limit: 1 }));
    expectOk(await api.logout(formed));
    expectOk(await api.logout(plain, written));
  });

  it("works under an API key's proxy prefix", async () => {
    expect(expectOk(await otto.list("otto-key", CONTACTS, { _limit: 1 }, written)).dataInfo.database).toBe(DB);
  });
});

describe("names that are no hosted file", () => {
  it.each([`Nope.fmp12`, `${DB}.fmp12.fmp12`, `${DB}.fmp1`, `${DB}fmp12`, `${DB} `])("%s is 100 on login and on a session's path", async (name) => {
    expectError(await api.loginRaw("web", "secret", name), 404, "100");
    const token = await api.login();
    expectError(await api.list(token, CONTACTS, undefined, name), 404, "100");
  });
});
