import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DecodeError, q, type FileMakerClient } from "../../src/runtime/index.js";
import { collect, connect, envelope, startFakeServer, startRuntimeEmulator, type Emulator, type FakeServer } from "../support/runtime-emulator.js";
import { Contact, DATABASE, Types } from "../support/runtime-layouts.js";

// The client's `dateFormat` (issue 15): the app reads and writes ISO values either way; "iso" sends `dateformats=2`
// (query string of get and list, body of find, create and edit) and dates and timestamps travel in ISO form
// (docs/emulator.md, "5. `dateformats`"); "us", the default, sends nothing new. Against the emulator, which refuses a
// date in the other form (500) and answers in the form the call asks for, so a wrong wire form fails these tests.

let emu: Emulator;
const clients: Record<"us" | "iso", FileMakerClient> = {} as never;

beforeAll(async () => {
  emu = await startRuntimeEmulator();
  clients.us = connect(emu.url);
  clients.iso = connect(emu.url, { dateFormat: "iso" });
});
afterAll(async () => {
  await clients.us.close();
  await clients.iso.close();
  await emu.close();
});

const VALUES = { Date: "2024-02-29", Time: "07:05:09", Timestamp: "2023-12-31T23:59:58", Days: ["1999-01-02", "2000-02-29"] } as const;

describe.each(["us", "iso"] as const)("dateFormat %s", (format) => {
  const other = format === "us" ? "iso" : "us";

  it("create, get, list and edit: date, time, timestamp and repeated dates round-trip as ISO values", async () => {
    const types = clients[format].layout(Types);
    const { recordId } = await types.create({ fieldData: { Text: `rt ${format}`, ...VALUES } });
    expect((await types.get(recordId)).fieldData).toMatchObject(VALUES);
    // The other client, asking in the other form, reads the same values.
    expect((await clients[other].layout(Types).get(recordId)).fieldData).toMatchObject(VALUES);
    const listed = (await types.list({ limit: 100 })).data.find((r) => r.recordId === recordId)!;
    expect(listed.fieldData).toMatchObject(VALUES);
    await types.edit(recordId, { fieldData: { Date: "1815-12-10", Timestamp: "1852-11-27T15:04:05", Days: [null, "2024-01-31"] } });
    expect((await clients[other].layout(Types).get(recordId)).fieldData).toMatchObject({ Date: "1815-12-10", Timestamp: "1852-11-27T15:04:05", Days: [null, "2024-01-31"], Time: "07:05:09" });
    await types.delete(recordId);
  });

  it("finds: plain dates, ranges and comparisons on dates and timestamps, portal dates, listAll and findAll", async () => {
    const types = clients[format].layout(Types);
    const made: string[] = [];
    for (const [date, stamp] of <[string, string][]>[
      ["2001-01-01", "2001-01-01T08:00:00"],
      ["2001-06-15", "2001-06-15T12:30:00"],
      ["2002-03-03", "2002-03-03T23:59:59"],
    ]) {
      made.push((await types.create({ fieldData: { Text: `find ${format}`, Date: date, Timestamp: stamp } })).recordId);
    }
    const dates = async (query: object[]) =>
      (await types.find({ query: query.map((r) => ({ Text: `find ${format}`, ...r })) as never, sort: [{ fieldName: "Date", sortOrder: "ascend" }] })).data.map((r) => r.fieldData.Date);
    expect(await dates([{ Date: "2001-06-15" }])).toEqual(["2001-06-15"]);
    expect(await dates([{ Date: q.between("2001-01-01", "2001-12-31") }])).toEqual(["2001-01-01", "2001-06-15"]);
    expect(await dates([{ Date: q.gt("2001-06-15") }])).toEqual(["2002-03-03"]);
    expect(await dates([{ Timestamp: q.between("2001-01-01T08:00:01", "2002-03-03T23:59:59") }])).toEqual(["2001-06-15", "2002-03-03"]);
    expect(await dates([{ Timestamp: q.lte("2001-06-15T12:30:00") }])).toEqual(["2001-01-01", "2001-06-15"]);
    expect(await dates([{ Timestamp: "2002-03-03T23:59:59" }])).toEqual(["2002-03-03"]);
    expect(await dates([{ Date: q.lt("2001-06-15") }, { Date: "2002-03-03" }])).toEqual(["2001-01-01", "2002-03-03"]);
    expect((await collect(types.findAll({ query: [{ Text: `find ${format}` }], pageSize: 1 }))).map((r) => r.fieldData.Timestamp).sort()).toEqual([
      "2001-01-01T08:00:00",
      "2001-06-15T12:30:00",
      "2002-03-03T23:59:59",
    ]);
    const all = await collect(types.listAll({ pageSize: 2 }));
    expect(all.filter((r) => made.includes(r.recordId)).map((r) => r.fieldData.Date)).toEqual(["2001-01-01", "2001-06-15", "2002-03-03"]);
    // The query builder goes the same way.
    expect((await types.query().where({ Text: `find ${format}`, Date: q.gte("2002-01-01") }).run()).data.map((r) => r.fieldData.Date)).toEqual(["2002-03-03"]);
    for (const id of made) await types.delete(id);

    // A portal's date field: read in the call's form, found by, and written through an edit's portalData.
    const contacts = clients[format].layout(Contact);
    const ada = await contacts.findOne({ query: [{ "Invoices::Issued": "2024-02-29" }] });
    expect(ada.fieldData["First Name"]).toBe("Ada");
    expect(ada.portalData.Invoices.map((row) => row["Invoices::Issued"])).toEqual(["2024-01-15", "2024-02-29"]);
    expect(ada.fieldData.Birthday).toBe("1815-12-10");
    // A read that chooses its portals decodes them the same way.
    const chosen = await contacts.get(ada.recordId, { portals: { Invoices: { offset: 2, limit: 1 } } });
    expect(chosen.portalData.Invoices.map((row) => row["Invoices::Issued"])).toEqual(["2024-02-29"]);
  });

  it("create and edit with portal rows write their dates in the call's form", async () => {
    const contacts = clients[format].layout(Contact);
    const { recordId } = await contacts.create({ fieldData: { "First Name": `Portal ${format}`, Birthday: "1990-07-04" }, portalData: { Invoices: [{ "Invoices::Amount": 5, "Invoices::Issued": "2020-02-29" }] } });
    const read = await clients[other].layout(Contact).get(recordId);
    expect(read.fieldData.Birthday).toBe("1990-07-04");
    expect(read.portalData.Invoices.map((row) => row["Invoices::Issued"])).toEqual(["2020-02-29"]);
    await contacts.delete(recordId);
  });

  it("values that are not ISO are refused before sending, in either form", async () => {
    const types = clients[format].layout(Types);
    const before = emu.stats().requests;
    await expect(types.create({ fieldData: { Date: "02/29/2024" } })).rejects.toThrow('layout "Types Web", field "Date": "02/29/2024" is not a valid date value (expected "YYYY-MM-DD")');
    await expect(types.create({ fieldData: { Timestamp: "2024-02-29 10:00:00" } })).rejects.toThrow(TypeError);
    await expect(types.create({ fieldData: { Date: "2023-02-29" } })).rejects.toThrow(TypeError);
    await expect(types.find({ query: [{ Date: q.between("2024-01-01", "01/31/2024") }] })).rejects.toThrow('find on layout "Types Web", field "Date": "01/31/2024" is not a valid date value');
    expect(emu.stats().requests).toBe(before);
  });
});

describe("what goes over the wire", () => {
  let server: FakeServer;
  let answer: object = {};
  const RECORD = { recordId: "1", modId: "0", fieldData: {}, portalData: {} };
  const EMPTY = Object.fromEntries(["Serial", "Text", "Number", "Date", "Time", "Timestamp", "File", "File(2)", "Tags", "Tags(2)", "Tags(3)", "Scores", "Scores(2)", "Days", "Days(2)", "Color", "Created"].map((k) => [k, ""]));
  const page = (fieldData: object) => ({ data: [{ ...RECORD, fieldData: { ...EMPTY, ...fieldData } }], dataInfo: { database: DATABASE, layout: "Types Web", table: "Types", totalRecordCount: 1, foundCount: 1, returnedCount: 1 } });
  beforeAll(async () => {
    server = await startFakeServer(() => ({ status: 200, body: envelope(answer) }));
  });
  afterAll(() => server.close());

  const sent = () => {
    const { method, url, body } = server.requests.at(-1)!;
    return { method, url: url.replace("/fmi/data/vLatest/databases/Contacts/layouts/Types%20Web", ""), body: body.length ? (JSON.parse(body.toString()) as Record<string, unknown>) : undefined };
  };

  it('"iso": dateformats=2 on the query of get and list, dateformats: 2 in the body of find, create and edit; not elsewhere', async () => {
    const fm = connect(server.url, { dateFormat: "iso" });
    const types = fm.layout(Types);
    answer = page({ Date: "2024-02-29", Timestamp: "2024-02-29T10:11:12", Time: "10:11:12" });
    expect((await types.get(1)).fieldData).toMatchObject({ Date: "2024-02-29", Timestamp: "2024-02-29T10:11:12", Time: "10:11:12" });
    expect(sent().url).toBe("/records/1?dateformats=2");
    await types.list();
    expect(sent().url).toBe("/records?dateformats=2");
    await types.list({ offset: 2, limit: 5 });
    expect(sent().url).toBe("/records?dateformats=2&_offset=2&_limit=5");
    await types.find({ query: [{ Date: q.between("2024-01-01", "2024-12-31"), Timestamp: q.gt("2024-02-29T10:11:12") }] });
    expect(sent().body).toEqual({ query: [{ Date: "2024-01-01...2024-12-31", Timestamp: ">2024-02-29 10:11:12" }], dateformats: 2 });
    answer = { recordId: "2", modId: "0" };
    await types.create({ fieldData: { Date: "2024-02-29", Timestamp: "2024-02-29T10:11:12", Days: ["2000-01-01"] } });
    expect(sent().body).toEqual({ fieldData: { Date: "2024-02-29", Timestamp: "2024-02-29 10:11:12", Days: "2000-01-01" }, dateformats: 2 });
    await types.edit(2, { fieldData: { Date: null } });
    expect(sent().body).toEqual({ fieldData: { Date: "" }, dateformats: 2 });
    await types.delete(2);
    expect(sent()).toEqual({ method: "DELETE", url: "/records/2", body: undefined });
    await fm.close();
  });

  it('"us" (the default): no dateformats anywhere, dates in MM/DD/YYYY', async () => {
    const fm = connect(server.url);
    const types = fm.layout(Types);
    answer = page({ Date: "02/29/2024", Timestamp: "02/29/2024 10:11:12" });
    expect((await types.get(1)).fieldData).toMatchObject({ Date: "2024-02-29", Timestamp: "2024-02-29T10:11:12" });
    expect(sent().url).toBe("/records/1");
    await types.list();
    expect(sent().url).toBe("/records");
    await types.find({ query: [{ Date: q.between("2024-01-01", "2024-12-31") }] });
    expect(sent().body).toEqual({ query: [{ Date: "01/01/2024...12/31/2024" }] });
    answer = { recordId: "2", modId: "0" };
    await types.create({ fieldData: { Timestamp: "2024-02-29T10:11:12" } });
    expect(sent().body).toEqual({ fieldData: { Timestamp: "02/29/2024 10:11:12" } });
    await fm.close();
  });

  it('"iso": a server answering US forms (or timestamps without their T) is a DecodeError naming the field', async () => {
    const fm = connect(server.url, { dateFormat: "iso" });
    for (const [fieldData, field] of [
      [{ Date: "02/29/2024" }, "Date"],
      [{ Date: "2023-02-29" }, "Date"],
      [{ Timestamp: "02/29/2024 10:11:12" }, "Timestamp"],
      [{ Timestamp: "2024-02-29 10:11:12" }, "Timestamp"],
    ] as const) {
      answer = page(fieldData);
      const error = await fm.layout(Types).get(1).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DecodeError);
      expect(error).toMatchObject({ field });
    }
    // Empty values are null in either form.
    answer = page({ Date: "", Timestamp: "" });
    expect((await fm.layout(Types).get(1)).fieldData).toMatchObject({ Date: null, Timestamp: null });
    await fm.close();
  });

  it("dateFormat other than us or iso is a TypeError of createClient", () => {
    expect(() => connect(server.url, { dateFormat: "ISO" as never })).toThrow(new TypeError("createClient: options.dateFormat must be one of us|iso, got string"));
    expect(() => connect(server.url, { dateFormat: 2 as never })).toThrow(TypeError);
  });
});
