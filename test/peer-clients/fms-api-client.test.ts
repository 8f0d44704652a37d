import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE, LAYOUT, PASSWORD, USERNAME, peerRequire, peerVersion, startServe, type Serve } from "./support/serve.mjs";

/**
 * fms-api-client 2.3.4, installed in test/peer-clients (its own lockfile), driven unchanged against `fmgen serve`
 * (built CLI, examples/contacts plus fixtures/layouts) over loopback. WIRE.md says what it sends for every call.
 *
 * Here: the calls that pass against today's emulator. The calls that fail today are written as tests in
 * pending/fms-api-client.pending.ts, with the emulator's current answer and the data-api-server.md section each
 * needs; they move here as the emulator implements them.
 *
 * Calls this client cannot make, or makes so that they cannot work:
 * | call | reason |
 * |---|---|
 * | portal ranges through its `portals: [{ name, limit, offset }]` syntax | the client drops it: `sanitizeParameters` keeps `portal`, `_offset.*`, `_limit.*`, not `portals` (WIRE.md); the FileMaker syntax it also takes is tested (pending) |
 * | OAuth or Claris ID sign-in | not offered: Basic login only |
 * | `dateformats` | not offered: not among the parameters it passes on |
 * | delete a portal row (`deleteRelated`) | not offered as an option (only through raw field data) |
 */

const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");

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

  it("logs out", async () => {
    const answer = await client.logout();
    expect(answer.messages[0].code).toBe("0");
  });
});
