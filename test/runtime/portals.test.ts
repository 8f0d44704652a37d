import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient as createNodeClient, ModIdMismatchError, ProtocolError, q, type FileMakerClient } from "../../src/runtime/index.js";
import { createClient as createFetchClient } from "../../src/runtime/fetch.js";
import { collect, counting, envelope, exampleSeed, startFakeServer, startRuntimeEmulator, type Emulator, type FakeServer } from "../support/runtime-emulator.js";
import {
  Contact,
  ContactSummary,
  ContactWithNotes,
  contactPortalsDescription,
  contactSummaryDescription,
  DATABASE,
  EXAMPLE_LAYOUTS,
  NOTES_PORTAL,
  PASSWORD,
  SUMMARY_LAYOUT,
  typesDescription,
  USERNAME,
  weirdDescription,
} from "../support/runtime-layouts.js";

// Portals (docs/emulator.md, "3. Portals"), portal writes and deleteRelated (section 7) and response layouts
// (section 4) through the runtime, against the emulator, on both entries (undici and fetch): which portals come
// back and how many rows, portalInfo, portalRows paging, edits of portal rows and `layout.response`.

/** Katherine (contact 4) has this many invoices; Alan (contact 3) has ALAN_INVOICES. */
const MANY = 2_500;
const ALAN_INVOICES = 400;

/** The example's contacts and invoices, Alan's and Katherine's many invoices, and Ada's three notes. */
function startPortalEmulator(): Promise<Emulator> {
  const data = exampleSeed();
  for (let i = 1; i <= ALAN_INVOICES; i++) data.records.Invoices!.push({ ContactID: 3, Amount: 10_000 + i, Issued: "01/01/2000" });
  for (let i = 1; i <= MANY; i++) data.records.Invoices!.push({ ContactID: 4, Amount: i, Issued: "01/01/2000" });
  data.records.Notes = [1, 2, 3].map((n) => ({ ContactID: 1, Title: `note ${n}` }));
  return startRuntimeEmulator({ layouts: [EXAMPLE_LAYOUTS, typesDescription, weirdDescription, contactPortalsDescription, contactSummaryDescription], data });
}

const amounts = (rows: readonly { "Invoices::Amount": number | null }[]) => rows.map((row) => row["Invoices::Amount"]);

describe.each([
  ["node", createNodeClient],
  ["fetch", createFetchClient],
] as const)("portals and response layouts (%s entry)", (_entry, createClient) => {
  // An emulator of each entry's own: the writes below change its data.
  let emu: Emulator;
  let fm: FileMakerClient;
  beforeAll(async () => {
    emu = await startPortalEmulator();
    fm = createClient({ server: emu.url, database: DATABASE, auth: { username: USERNAME, password: PASSWORD } });
  });
  afterAll(async () => {
    await fm.close();
    await emu.close();
  });

  describe("portals: which portals and rows come back", () => {
    it("get: only the chosen portals, each ranged, with portalInfo from portalDataInfo", async () => {
      const layout = fm.layout(ContactWithNotes);
      const ada = await layout.get(1, { portals: { Invoices: { offset: 2, limit: 1 } } });
      expect(Object.keys(ada.portalData)).toEqual(["Invoices"]);
      expect(amounts(ada.portalData.Invoices)).toEqual([80]);
      expect(ada.portalInfo).toEqual({ Invoices: { portalObjectName: "Invoices", database: DATABASE, table: "Invoices", foundCount: 2, returnedCount: 1 } });
      expect(ada.fieldData).toEqual({ "First Name": "Ada", "Last Name": "Lovelace" });

      // A portal whose object name is not its table occurrence's: keyed by the object name, `true` takes the default rows.
      const notes = await layout.get(1, { portals: { [NOTES_PORTAL]: true } });
      expect(Object.keys(notes.portalData)).toEqual([NOTES_PORTAL]);
      expect(notes.portalData[NOTES_PORTAL].map((row) => row["Notes::Title"])).toEqual(["note 1", "note 2", "note 3"]);
      expect(notes.portalInfo[NOTES_PORTAL]).toMatchObject({ table: "Notes", foundCount: 3, returnedCount: 3 });

      // Both, and none at all.
      const both = await layout.get(4, { portals: { Invoices: { limit: 3 }, [NOTES_PORTAL]: true } });
      expect(Object.keys(both.portalData).sort()).toEqual(["Invoices", NOTES_PORTAL]);
      expect(amounts(both.portalData.Invoices)).toEqual([1, 2, 3]);
      expect(both.portalInfo.Invoices).toMatchObject({ foundCount: MANY, returnedCount: 3 });
      expect(both.portalInfo[NOTES_PORTAL]).toMatchObject({ foundCount: 0, returnedCount: 0 });
      const none = await layout.get(1, { portals: {} });
      expect(none.portalData).toEqual({});
      expect(none.portalInfo).toEqual({});
    });

    it("without the option every portal comes back (the server's first 50 rows) and records carry no portalInfo, as before", async () => {
      const katherine = await fm.layout(ContactWithNotes).get(4);
      expect(Object.keys(katherine.portalData).sort()).toEqual(["Invoices", NOTES_PORTAL]);
      expect(katherine.portalData.Invoices).toHaveLength(50);
      expect(katherine).not.toHaveProperty("portalInfo");
    });

    it("list, find, listAll, findAll and the query builder take portals (a GET's query string and a find's body)", async () => {
      const layout = fm.layout(ContactWithNotes);
      const page = await layout.list({ limit: 4, portals: { Invoices: { offset: 2, limit: 2 } } });
      expect(page.data.map((r) => Object.keys(r.portalData))).toEqual([["Invoices"], ["Invoices"], ["Invoices"], ["Invoices"]]);
      expect(page.data.map((r) => amounts(r.portalData.Invoices))).toEqual([[80], [], [10_002, 10_003], [2, 3]]);
      expect(page.data.map((r) => r.portalInfo.Invoices.foundCount)).toEqual([2, 1, ALAN_INVOICES, MANY]);

      const found = await layout.find({ query: [{ "First Name": "Katherine" }], portals: { Invoices: { offset: 2_499, limit: 10 } } });
      expect(amounts(found.data[0]!.portalData.Invoices)).toEqual([2_499, 2_500]);
      expect(found.data[0]!.portalInfo.Invoices).toMatchObject({ foundCount: MANY, returnedCount: 2 });

      const first = await layout.findFirst({ query: [{ "First Name": "Ada" }], portals: { [NOTES_PORTAL]: { limit: 1 } } });
      expect(first?.portalData).toEqual({ [NOTES_PORTAL]: [{ recordId: "1", modId: "0", "Notes::Title": "note 1" }] });

      const all = await collect(layout.listAll({ pageSize: 3, portals: { Invoices: { limit: 1 } } }));
      expect(all.map((r) => [r.recordId, amounts(r.portalData.Invoices)])).toEqual([
        ["1", [120.5]],
        ["2", [300]],
        ["3", [10_001]],
        ["4", [1]],
      ]);
      const matched = await collect(layout.findAll({ query: [{ "First Name": q.beginsWith("A") }], portals: { [NOTES_PORTAL]: true } }));
      expect(matched.map((r) => [r.fieldData["First Name"], r.portalInfo[NOTES_PORTAL].foundCount])).toEqual([
        ["Ada", 3],
        ["Alan", 0],
      ]);

      const built = await layout.query().where({ "First Name": "Alan" }).portals({ Invoices: { offset: 400 } }).run();
      expect(built.data[0]!.portalData).toEqual({ Invoices: [expect.objectContaining({ "Invoices::Amount": 10_400 })] });
      const listed = await collect(layout.query().portals({ Invoices: { limit: 1 } }).limit(2));
      expect(listed.map((r) => amounts(r.portalData.Invoices))).toEqual([[120.5], [300]]);
    });

    it("a portal the layout lacks is a TypeError naming the call and the portal; a range must be a whole number >= 1; nothing is sent", async () => {
      const layout = fm.layout(Contact);
      const { requests } = await counting(emu, async () => {
        const nope = { portals: { Nope: true } } as never;
        await expect(layout.get(1, nope)).rejects.toThrow(new TypeError('get: layout "Contacts Web" has no portal "Nope"'));
        await expect(layout.list(nope)).rejects.toThrow(new TypeError('list: layout "Contacts Web" has no portal "Nope"'));
        await expect(layout.find({ query: [{ "First Name": "Ada" }], ...(nope as object) })).rejects.toThrow('find: layout "Contacts Web" has no portal "Nope"');
        expect(() => layout.listAll(nope)).toThrow('listAll: layout "Contacts Web" has no portal "Nope"');
        expect(() => layout.findAll({ query: [{ "First Name": "Ada" }], ...(nope as object) })).toThrow('findAll: layout "Contacts Web" has no portal "Nope"');
        expect(() => layout.query().portals({ Nope: true } as never)).toThrow('portals(): layout "Contacts Web" has no portal "Nope"');
        // Inherited names are not portals.
        await expect(layout.get(1, { portals: { toString: true } } as never)).rejects.toThrow('get: layout "Contacts Web" has no portal "toString"');
        for (const bad of [0, -1, 1.5, "2", Number.NaN]) {
          await expect(layout.get(1, { portals: { Invoices: { limit: bad as number } } })).rejects.toThrow(`get: portals["Invoices"].limit must be a whole number >= 1`);
          await expect(layout.list({ portals: { Invoices: { offset: bad as number } } })).rejects.toThrow(RangeError);
        }
        await expect(layout.get(1, { portals: { Invoices: false } } as never)).rejects.toThrow(new TypeError('get: portals["Invoices"] must be true or { offset?, limit? }'));
        await expect(layout.get(1, { portals: "Invoices" } as never)).rejects.toThrow(new TypeError("get: portals must be an object"));
      });
      expect(requests).toBe(0);
    });
  });

  describe("portalRows: every row of one record's portal, page by page", () => {
    it(`yields each of ${MANY} rows once, in order, ${Math.ceil(MANY / 200)} requests of 200 rows`, async () => {
      const layout = fm.layout(ContactWithNotes);
      const { result: rows, requests } = await counting(emu, () => collect(layout.portalRows(4, "Invoices", { pageSize: 200 })));
      expect(rows).toHaveLength(MANY);
      expect(amounts(rows)).toEqual(Array.from({ length: MANY }, (_, i) => i + 1));
      expect(new Set(rows.map((row) => row.recordId)).size).toBe(MANY);
      expect(rows[0]).toEqual({ recordId: expect.any(String), modId: "0", "Invoices::Amount": 1, "Invoices::Issued": "2000-01-01" });
      // 12 full pages and a short one.
      expect(requests).toBe(13);
    });

    it("stops at the portal's found count (no request past it), on an empty portal after one request, and when the consumer stops", async () => {
      const layout = fm.layout(ContactWithNotes);
      const exact = await counting(emu, () => collect(layout.portalRows(3, "Invoices", { pageSize: 200 })));
      expect(amounts(exact.result)).toEqual(Array.from({ length: ALAN_INVOICES }, (_, i) => 10_001 + i));
      expect(exact.requests).toBe(2);
      const empty = await counting(emu, () => collect(layout.portalRows(2, NOTES_PORTAL)));
      expect(empty).toMatchObject({ result: [], requests: 1 });
      const early = await counting(emu, async () => {
        const seen: (number | null)[] = [];
        for await (const row of layout.portalRows(4, "Invoices", { pageSize: 100 })) {
          seen.push(row["Invoices::Amount"]);
          if (seen.length === 150) break;
        }
        return seen;
      });
      // One page at a time, none read ahead: two requests for 150 rows.
      expect(early.result).toEqual(Array.from({ length: 150 }, (_, i) => i + 1));
      expect(early.requests).toBe(2);
    });

    it("a portal the layout lacks, or a bad page size, is an error before any request", async () => {
      const layout = fm.layout(Contact);
      const { requests } = await counting(emu, async () => {
        await expect(collect(layout.portalRows(1, "Nope" as never))).rejects.toThrow(new TypeError('portalRows: layout "Contacts Web" has no portal "Nope"'));
        await expect(collect(layout.portalRows(1, "Invoices", { pageSize: 0 }))).rejects.toThrow(RangeError);
      });
      expect(requests).toBe(0);
    });
  });

  describe("portal writes: edit rows, add rows, delete related rows", () => {
    it("edit: a row with recordId (and modId) changes it, a row without adds one; the answer lists the rows created", async () => {
      const layout = fm.layout(ContactWithNotes);
      const made = await layout.create({ fieldData: { "First Name": "Portal", "Last Name": "Writer" }, portalData: { Invoices: [{ "Invoices::Amount": 1 }, { "Invoices::Amount": 2 }] } });
      // create answers the parent's ids only: FileMaker Server says nothing of the rows it created.
      expect(Object.keys(made)).toEqual(["recordId", "modId"]);
      const before = await layout.get(made.recordId, { portals: { Invoices: true } });
      const [one, two] = before.portalData.Invoices;
      expect(amounts(before.portalData.Invoices)).toEqual([1, 2]);

      const edited = await layout.edit(made.recordId, {
        portalData: { Invoices: [{ recordId: one!.recordId, modId: one!.modId, "Invoices::Amount": 10 }, { "Invoices::Amount": 3 }], [NOTES_PORTAL]: [{ "Notes::Title": "new" }] },
      });
      expect(edited.newPortalRecordInfo).toEqual([
        { tableName: "Invoices", recordId: expect.any(String), modId: "0" },
        { tableName: "Notes", recordId: expect.any(String), modId: "0" },
      ]);
      const after = await layout.get(made.recordId);
      expect(after.portalData.Invoices.map((row) => [row.recordId, row["Invoices::Amount"]])).toEqual([
        [one!.recordId, 10],
        [two!.recordId, 2],
        [edited.newPortalRecordInfo![0]!.recordId, 3],
      ]);
      expect(after.portalData[NOTES_PORTAL].map((row) => row.recordId)).toEqual([edited.newPortalRecordInfo![1]!.recordId]);

      // An edit that creates no row has no newPortalRecordInfo; a stale row modId is 306.
      const plain = await layout.edit(made.recordId, { fieldData: { "Last Name": "W" }, portalData: { Invoices: [{ recordId: two!.recordId, "Invoices::Amount": 20 }] } });
      expect(Object.keys(plain)).toEqual(["modId"]);
      await expect(layout.edit(made.recordId, { portalData: { Invoices: [{ recordId: one!.recordId, modId: one!.modId, "Invoices::Amount": 11 }] } })).rejects.toBeInstanceOf(ModIdMismatchError);
    });

    it('deleteRelated: [{ portal, recordId }] deletes those rows ("TO.recordId" on the wire, the portal\'s table occurrence)', async () => {
      const layout = fm.layout(ContactWithNotes);
      const made = await layout.create({ fieldData: { "First Name": "Delete", "Last Name": "Related" }, portalData: { Invoices: [{ "Invoices::Amount": 1 }, { "Invoices::Amount": 2 }, { "Invoices::Amount": 3 }] } });
      await layout.edit(made.recordId, { portalData: { [NOTES_PORTAL]: [{ "Notes::Title": "a" }, { "Notes::Title": "b" }] } });
      const before = await layout.get(made.recordId);
      const [a, b, c] = before.portalData.Invoices;
      const [noteA] = before.portalData[NOTES_PORTAL];
      const result = await layout.edit(made.recordId, {
        fieldData: { "Last Name": "Changed" },
        deleteRelated: [
          { portal: "Invoices", recordId: a!.recordId },
          { portal: "Invoices", recordId: Number(c!.recordId) },
          { portal: NOTES_PORTAL, recordId: noteA!.recordId },
        ],
      });
      expect(result.modId).toMatch(/^\d+$/);
      const after = await layout.get(made.recordId);
      expect(after.fieldData["Last Name"]).toBe("Changed");
      expect(after.portalData.Invoices.map((row) => row.recordId)).toEqual([b!.recordId]);
      expect(after.portalData[NOTES_PORTAL].map((row) => row["Notes::Title"])).toEqual(["b"]);
    });

    it("deleteRelated: a portal the layout lacks or a recordId that is not one is a TypeError; nothing is sent", async () => {
      const layout = fm.layout(ContactWithNotes);
      const { requests } = await counting(emu, async () => {
        await expect(layout.edit(1, { deleteRelated: [{ portal: "Nope" as never, recordId: "1" }] })).rejects.toThrow(new TypeError('edit: deleteRelated: layout "Contact Portals" has no portal "Nope"'));
        await expect(layout.edit(1, { deleteRelated: [{ portal: "Invoices", recordId: "1.5" }] })).rejects.toThrow(new TypeError('edit: deleteRelated: "1.5" is not a recordId'));
        await expect(layout.edit(1, { deleteRelated: [{ portal: "Invoices", recordId: -1 }] })).rejects.toThrow(TypeError);
        await expect(layout.edit(1, { deleteRelated: { portal: "Invoices", recordId: 1 } as never })).rejects.toThrow(new TypeError("edit: deleteRelated must be an array"));
      });
      expect(requests).toBe(0);
    });
  });

  describe("response layouts: found through one layout, answered in another's shape", () => {
    it("get, list and find answer in the response layout's fields and portals; sort and find go through the request layout", async () => {
      const contacts = fm.layout(Contact);
      const ada = await contacts.get(1, { response: ContactSummary });
      expect(ada.fieldData).toEqual({ "First Name": "Ada", Email: "ada@example.com" });
      expect(ada.portalData).toEqual({ Invoices: [expect.objectContaining({ "Invoices::Amount": 120.5 }), expect.objectContaining({ "Invoices::Amount": 80 })] });
      expect(ada.portalData.Invoices[0]).not.toHaveProperty("Invoices::Issued");

      // Sorted by a field the response layout does not show (records other tests made have no email).
      const page = await contacts.list({ response: ContactSummary, sort: [{ fieldName: "Last Name", sortOrder: "descend" }] });
      expect(page.dataInfo.layout).toBe(SUMMARY_LAYOUT);
      expect(page.data.map((r) => r.fieldData).filter((fields) => fields.Email)).toEqual([
        { "First Name": "Alan", Email: "alan@example.com" },
        { "First Name": "Ada", Email: "ada@example.com" },
        { "First Name": "Katherine", Email: "katherine@example.com" },
        { "First Name": "Grace", Email: "grace@example.com" },
      ]);
      const found = await contacts.find({ query: [{ Status: "Inactive" }], response: ContactSummary, portals: { Invoices: { limit: 2 } } });
      expect(found.data.map((r) => [r.fieldData["First Name"], amounts(r.portalData.Invoices), r.portalInfo.Invoices.foundCount])).toEqual([["Alan", [10_001, 10_002], ALAN_INVOICES]]);
      const streamed = await collect(contacts.listAll({ response: ContactSummary, pageSize: 2 }));
      expect(streamed.length).toBeGreaterThanOrEqual(4);
      for (const r of streamed) expect(Object.keys(r.fieldData)).toEqual(["First Name", "Email"]);
      const matched = await collect(contacts.findAll({ query: [{ "First Name": "Ada" }], response: ContactSummary }));
      expect(matched.map((r) => r.fieldData.Email)).toEqual(["ada@example.com"]);
    });

    it("portals name the response layout's portals; a response layout of another database is a TypeError; nothing is sent", async () => {
      const layout = fm.layout(ContactWithNotes);
      const elsewhere = { ...ContactSummary, database: "Elsewhere" };
      const { requests } = await counting(emu, async () => {
        await expect(layout.get(1, { response: ContactSummary, portals: { [NOTES_PORTAL]: true } } as never)).rejects.toThrow(
          new TypeError(`get: layout "Contact Summary" has no portal "${NOTES_PORTAL}"`),
        );
        await expect(layout.get(1, { response: elsewhere })).rejects.toThrow(new TypeError('get: response layout "Contact Summary" is of database "Elsewhere", but this client is for "Contacts"'));
        expect(() => layout.listAll({ response: elsewhere })).toThrow(TypeError);
        // The same check, and the same error, where a client is asked for a layout of another database.
        expect(() => fm.layout(elsewhere)).toThrow(new TypeError('layout "Contact Summary" is of database "Elsewhere", but this client is for "Contacts"'));
        await expect(fm.runScript(elsewhere as never, "Anything")).rejects.toThrow(new TypeError('runScript: layout "Contact Summary" is of database "Elsewhere", but this client is for "Contacts"'));
        await expect(layout.list({ response: "Contact Summary" } as never)).rejects.toThrow(new TypeError("list: response must be a layout definition"));
      });
      expect(requests).toBe(0);
      // A definition without a database is taken as the client's.
      const { database: _, ...anywhere } = ContactSummary;
      expect((await layout.get(1, { response: anywhere as typeof ContactSummary })).fieldData.Email).toBe("ada@example.com");
    });
  });

  describe("answers that break the protocol", () => {
    let fake: FakeServer;
    let answer: object = {};
    beforeAll(async () => {
      fake = await startFakeServer(() => ({ status: 200, body: envelope(answer) }));
    });
    afterAll(async () => {
      await fake.close();
    });

    const record = (portalDataInfo: unknown) => ({
      data: [{ recordId: "1", modId: "0", fieldData: { "First Name": "A", "Last Name": "B" }, portalData: { Invoices: [] }, portalDataInfo }],
      dataInfo: { database: DATABASE, layout: "Contact Portals", table: "Contacts", totalRecordCount: 1, foundCount: 1, returnedCount: 1 },
    });

    it("a malformed portalDataInfo (when portals were chosen) or newPortalRecordInfo is a ProtocolError naming the path", async () => {
      const client = createClient({ server: fake.url, database: DATABASE, auth: { username: USERNAME, password: PASSWORD }, insecure: "allow" });
      const layout = client.layout(ContactWithNotes);
      for (const [info, path] of [
        [{ Invoices: 1 }, "response.data[0].portalDataInfo is not an array"],
        [[{ database: DATABASE, table: "Invoices", foundCount: "2", returnedCount: 0 }], "response.data[0].portalDataInfo[0].foundCount is not a number"],
        [[null], "response.data[0].portalDataInfo[0].database is not a string"],
      ] as const) {
        answer = record(info);
        const error = await layout.get(1, { portals: { Invoices: true } }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ProtocolError);
        expect((error as Error).message).toContain(path);
        // Without portals chosen, portalDataInfo is not read.
        await expect(layout.get(1)).resolves.toMatchObject({ recordId: "1" });
      }
      answer = { modId: "2", newPortalRecordInfo: [{ tableName: "Invoices", recordId: 7, modId: "0" }] };
      const error = await layout.edit(1, { portalData: { Invoices: [{ "Invoices::Amount": 1 }] } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as Error).message).toContain("response.newPortalRecordInfo[0].recordId is not a string");
      await client.close();
    });
  });
});
