import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConformanceEmulator, type Emulator } from "../../support/conformance-emulator.js";
import { basic, CONTACTS, DataApi, DB, expectError, expectOk, p, PASSWORD, rawRequest, USER } from "../../support/data-api-http.js";

// docs/emulator.md, "The base Data API", paths: the version segment of {base_url} is v1, v2 or vLatest.

let emu: Emulator;
let api: DataApi;

beforeAll(async () => {
  ({ emu, api } = await startConformanceEmulator());
});
afterAll(async () => {
  await emu.close();
});

describe("version segments", () => {
  it.each(["v1", "v2", "vLatest"])("Versioning: %s serves every endpoint", async (version) => {
    const v = api.withVersion(version);
    const token = await v.login();
    expectOk(await v.list(token, CONTACTS, { _limit: 1 }));
    expect((await v.getOk(token, CONTACTS, "2")).fieldData["First Name"]).toBe("Grace");
    const { recordId } = await v.createOk(token, CONTACTS, { fieldData: { "First Name": `Version ${version}` } });
    expect(expectOk(await v.edit(token, CONTACTS, recordId, { fieldData: { Age: 1 } })).modId).toBe("1");
    const found = expectOk(await v.find(token, CONTACTS, { query: [{ "First Name": `==Version ${version}` }] }));
    expect(found.data.map((r: { recordId: string }) => r.recordId)).toEqual([recordId]);
    const file = { bytes: Uint8Array.from([1]), type: "application/octet-stream", filename: "one.bin" };
    expect(expectOk(await v.upload(token, CONTACTS, recordId, "Photo", 1, file)).modId).toBe("2");
    expectOk(await v.call("GET", p`/databases/${DB}/layouts`, { token }));
    expectOk(await v.call("GET", p`/databases/${DB}/layouts/${CONTACTS}`, { token }));
    expectOk(await v.delete(token, CONTACTS, recordId));
    expectOk(await v.logout(token));
  });

  it("Versioning: a token from one version segment is accepted under the others", async () => {
    const token = await api.withVersion("v1").login();
    expectOk(await api.withVersion("v2").list(token, CONTACTS, { _limit: 1 }));
    expectOk(await api.withVersion("vLatest").get(token, CONTACTS, "1"));
    expectOk(await api.withVersion("v2").logout(token));
    expectError(await api.withVersion("v1").list(token, CONTACTS), 401, "952");
  });

  it.each(["v3", "v0", "latest", "vNext", "1"])("Versioning: another segment (%s) gives 404 / 1630", async (version) => {
    const token = await api.login();
    const other = api.withVersion(version);
    expectError(await other.list(token, CONTACTS), 404, "1630");
    expectError(await other.loginRaw(USER, PASSWORD), 404, "1630");
    expectError(await other.find(token, CONTACTS, { query: [{ "First Name": "Ada" }] }), 404, "1630");
  });

  it("Versioning: no version segment at all gives 404 / 1630", async () => {
    const res = await rawRequest(`${emu.url}/fmi/data/databases/${DB}/sessions`, "POST", {
      json: {},
      headers: { Authorization: basic(USER, PASSWORD) },
    });
    expectError(res, 404, "1630");
  });
});
