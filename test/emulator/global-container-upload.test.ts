import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { downloadContainer } from "../support/container-download.js";
import { startEmulator } from "../../src/emulator/index.js";
import { DataApi, expectOk, p } from "../support/data-api-http.js";

// An upload goes through the same copy-on-write step as an edit, globals included: a global container field
// holds one value for the whole table, so an upload through any record shows on every record. (Before, the
// file was put on the record, where a global field is never read, and the upload was lost.)

const LAYOUT = {
  database: "Brand",
  layout: "Pages",
  table: "Pages",
  fields: [
    { name: "Title", type: "text" },
    { name: "Logo", type: "container", global: true },
  ],
};

let emu: Awaited<ReturnType<typeof startEmulator>>;
let api: DataApi;
let token: string;

beforeAll(async () => {
  emu = await startEmulator({ layouts: [LAYOUT as never], data: { accounts: [{ username: "web", password: "secret" }], records: { Pages: [{ Title: "Home" }, { Title: "About" }] } } });
  api = new DataApi(emu.url);
  token = await api.login("web", "secret", "Brand");
});
afterAll(async () => {
  await emu.close();
});

describe("an upload to a global container field", () => {
  it("is kept as the table's value: every record shows it, and only the uploading record's modId moves", async () => {
    const file = { bytes: Uint8Array.from([1, 2, 3]), type: "image/png", filename: "logo.png" };
    expect(expectOk(await api.upload(token, "Pages", "1", "Logo", 1, file, "Brand")).modId).toBe("1");
    const records = expectOk(await api.call("GET", p`/databases/Brand/layouts/Pages/records`, { token })).data;
    expect(records.map((r: { fieldData: { Logo: string } }) => r.fieldData.Logo)).toEqual([expect.stringMatching(/\/Streaming\/MainDB\/[0-9A-F]{64}\.png\?RCType=EmbeddedRCFileProcessor$/), expect.stringMatching(/\.png\?RCType=EmbeddedRCFileProcessor$/)]);
    expect(records.map((r: { modId: string }) => r.modId)).toEqual(["1", "0"]);
    const served = await downloadContainer(records[1].fieldData.Logo);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(file.bytes);
  });
});
