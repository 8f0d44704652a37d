import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConformanceEmulator, type Emulator } from "../../support/conformance-emulator.js";
import { CONFORMANCE_LAYOUTS, CONTACTS, DataApi, DB, expectError, expectOk, INVOICES, NOTES, p, qs, UUID, wireTimestampToMs, type HttpResult } from "../../support/data-api-http.js";
import { contactPortals, contactSummary, NOTES_PORTAL, portalSeed, PORTALS_LAYOUT, startPortalEmulator, VERSIONS } from "./portal-fixtures.js";
import { containerFileName } from "../../support/container-download.js";

// docs/emulator.md, "7. Duplicate, delete related rows, edit portal rows, options, upload modId": duplicate,
// deleteRelated, portal rows in an edit's portalData (with newPortalRecordInfo), options.entrymode / prohibitmode on
// create and edit, and the upload's `?modId=`; under v1, v2 and vLatest, with the contract's statuses and real servers'
// 500s. A refused write changes nothing.

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

const LAYOUTS = [CONTACTS, INVOICES, NOTES, PORTALS_LAYOUT];
const recordPath = (layout: string, recordId: string) => p`/databases/${DB}/layouts/${layout}/records/${recordId}`;

interface Mode {
  emu: Emulator;
  api: DataApi;
  token: string;
  /** The status of a FileMaker error in this mode: the contract's, or 500 on real servers. */
  fm: (status: number) => number;
}

/** Both status modes, each with a fresh token. */
async function statusModes(): Promise<Mode[]> {
  return [
    { emu, api, token: await api.login(), fm: (status: number) => status },
    { emu: serverEmu, api: serverApi, token: await serverApi.login(), fm: () => 500 },
  ];
}

/** Every version segment, on the contract's emulator. */
async function eachVersion(work: (api: DataApi, token: string) => Promise<void>): Promise<void> {
  for (const version of VERSIONS) {
    const versioned = api.withVersion(version);
    await work(versioned, await versioned.login());
  }
}

/** Runs refused calls and asserts that nothing of any of them was stored. */
async function expectNothingChanged(mode: Mode, refused: () => Promise<void>): Promise<void> {
  const before = await mode.api.snapshotAll(mode.token, LAYOUTS);
  await refused();
  expect(await mode.api.snapshotAll(mode.token, LAYOUTS)).toEqual(before);
}

function duplicate(api: DataApi, token: string, layout: string, recordId: string, json?: unknown, headers?: Record<string, string>): Promise<HttpResult> {
  return api.call("POST", recordPath(layout, recordId), { token, ...(json === undefined ? {} : { json }), ...(headers ? { headers } : {}) });
}

function upload(api: DataApi, token: string, recordId: string, query: Record<string, string>, text: string): Promise<HttpResult> {
  const form = new FormData();
  form.append("upload", new Blob([text], { type: "text/plain" }), `${text}.txt`);
  return api.call("POST", `${recordPath(CONTACTS, recordId)}/containers/Photo/1${qs(query)}`, { token, body: form });
}

const invoiceIds = async (api: DataApi, token: string, recordId: string, layout = CONTACTS) =>
  ((await api.getOk(token, layout, recordId)).portalData.Invoices as { recordId: string }[]).map((row) => row.recordId);

describe("the wider Data API, section 7: duplicate", () => {
  it("7. duplicate: POST .../records/{recordId} (no body or {}) answers { recordId, modId } of a copy: new recordId, serial, UUID and stamps as a new record, the original's other values", async () => {
    await eachVersion(async (api, token) => {
      const original = await api.createOk(token, CONTACTS, {
        fieldData: { "First Name": "Dup", "Last Name": "Licate", Age: 7, Birthday: "01/02/2003", Phone: "1", "Phone(3)": "3", "Company::Name": "Acme", Status: "Active" },
        portalData: { Invoices: [{ "Invoices::Amount": 5 }] },
      });
      expectOk(await api.upload(token, CONTACTS, original.recordId, "Photo", 1, { bytes: new TextEncoder().encode("photo"), type: "image/png", filename: "dup.png" }));
      const before = await api.getOk(token, CONTACTS, original.recordId);
      emu.advanceTime(61_000);

      const answer = expectOk(await duplicate(api, token, CONTACTS, original.recordId));
      expect(answer).toEqual({ recordId: expect.stringMatching(/^\d+$/), modId: "0" });
      expect(answer.recordId).not.toBe(original.recordId);
      const copy = await api.getOk(token, CONTACTS, answer.recordId);
      expect(copy.recordId).toBe(answer.recordId);
      expect(copy.modId).toBe("0");
      const { id, uuid, Created, Modified, ...copied } = copy.fieldData;
      const { id: id0, uuid: uuid0, Created: created0, Modified: modified0, ...originals } = before.fieldData;
      // Every other field, the container and the related field stored on the record included.
      expect(copied).toEqual(originals);
      expect(await containerFileName(copied.Photo)).toBe("dup.png");
      expect(uuid).toMatch(UUID);
      expect(uuid).not.toBe(uuid0);
      expect(wireTimestampToMs(Created)).toBeGreaterThanOrEqual(wireTimestampToMs(created0) + 60_000);
      expect(wireTimestampToMs(Modified)).toBeGreaterThanOrEqual(wireTimestampToMs(modified0) + 60_000);
      // The serial is the next one: the record created after it gets the one after.
      expect(id).toBeGreaterThan(id0);
      const next = await api.getOk(token, CONTACTS, (await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Next" } })).recordId);
      expect(next.fieldData.id).toBe(id + 1);
      // Related records are not copied: the copy's key is its own serial.
      expect(before.portalData.Invoices).toHaveLength(1);
      expect(copy.portalData.Invoices).toEqual([]);

      // `{}`, and an empty body that says it is JSON, are no body too.
      expectOk(await duplicate(api, token, CONTACTS, original.recordId, {}));
      expectOk(await duplicate(api, token, CONTACTS, original.recordId, undefined, { "Content-Type": "application/json" }));
    });
  });

  it("7. duplicate: a missing record 101, a body key that is not a script key 960; nothing changed. Not data entry: a unique (during data entry) value is copied", async () => {
    for (const mode of await statusModes()) {
      const { api, token, fm } = mode;
      await expectNothingChanged(mode, async () => {
        expectError(await duplicate(api, token, CONTACTS, "999999"), fm(404), "101");
        expectError(await duplicate(api, token, CONTACTS, "x"), fm(404), "101");
        const unknown = await duplicate(api, token, CONTACTS, "2", { fieldData: { "First Name": "X" } });
        expectError(unknown, 400, "960");
        expect(unknown.body.messages[0]!.message).toBe("Unknown parameter(s): fieldData");
        expectError(await api.call("POST", recordPath(CONTACTS, "2"), { token, body: "[]", headers: { "Content-Type": "application/json" } }), 400, "1708");
        expectError(await api.call("POST", recordPath(CONTACTS, "2"), { token, body: "x", headers: { "Content-Type": "text/plain" } }), 415, "1708");
      });
      // Duplicate Record is not data entry: First Name (required) and Email (unique) validate during data entry only
      // (no "validate": "always"), so a record without a First Name, and Ada with her unique Email, duplicate.
      const noEmail = await api.createOk(token, CONTACTS, { fieldData: { "Last Name": "Blank" }, options: { entrymode: "script" } });
      expectOk(await duplicate(api, token, CONTACTS, noEmail.recordId));
      const adaCopy = expectOk(await duplicate(api, token, CONTACTS, "1")).recordId as string;
      expect((await api.getOk(token, CONTACTS, adaCopy)).fieldData.Email).toBe("ada@example.com");
      expectError(await api.call("POST", recordPath(CONTACTS, noEmail.recordId), {}), 401, "952");
    }
  });

  it("7. duplicate: the body's script keys run around the duplicate (prerequest, action, presort, script) and add their answer keys; a missing script 104 duplicates nothing", async () => {
    const scripts = {
      Count: ({ records, layout }: any) => String(records.list(layout).length),
      "Stamp Copy": ({ foundSet, records, layout, param }: any) => {
        const copy = foundSet.records[0];
        records.edit(layout, copy.recordId, { "Last Name": param });
        return `${foundSet.foundCount}:${copy.fieldData["Last Name"]}`;
      },
    };
    for (const serverStatuses of [false, true]) {
      const started = await startConformanceEmulator({ layouts: [CONFORMANCE_LAYOUTS, contactPortals, contactSummary], data: portalSeed(), serverStatuses, scripts });
      try {
        for (const version of VERSIONS) {
          const a = started.api.withVersion(version);
          const token = await a.login();
          const original = await a.createOk(token, CONTACTS, { fieldData: { "First Name": "Scripted", "Last Name": "Original" } });
          const total = (await a.list(token, CONTACTS)).body.response.dataInfo.totalRecordCount;
          const answer = expectOk(
            await duplicate(a, token, CONTACTS, original.recordId, { "script.prerequest": "Count", "script.presort": "Count", script: "Stamp Copy", "script.param": "Stamped" }),
          );
          expect(answer).toEqual({
            recordId: expect.stringMatching(/^\d+$/),
            modId: "1",
            "scriptResult.prerequest": String(total),
            "scriptError.prerequest": "0",
            "scriptResult.presort": String(total + 1),
            "scriptError.presort": "0",
            scriptResult: "1:Original",
            scriptError: "0",
          });
          expect((await a.getOk(token, CONTACTS, answer.recordId)).fieldData["Last Name"]).toBe("Stamped");

          const before = started.emu.stats().records;
          const missing = await duplicate(a, token, CONTACTS, original.recordId, { script: "Nope" });
          expectError(missing, serverStatuses ? 500 : 400, "104");
          expect(started.emu.stats().records).toEqual(before);
        }
      } finally {
        await started.emu.close();
      }
    }
  });
});

describe("the wider Data API, section 7: deleteRelated", () => {
  it('7. deleteRelated inside an edit\'s fieldData: "TO.recordId" or ["TO.a", "TO.b"] deletes those related rows', async () => {
    await eachVersion(async (api, token) => {
      const { recordId } = await api.createOk(token, CONTACTS, {
        fieldData: { "First Name": "Rel" },
        portalData: { Invoices: [{ "Invoices::Amount": 1 }, { "Invoices::Amount": 2 }, { "Invoices::Amount": 3 }] },
      });
      const [a, b, c] = await invoiceIds(api, token, recordId);
      const invoicesBefore = (await api.list(token, INVOICES, { _limit: 100000 })).body.response.dataInfo.totalRecordCount;

      const one = expectOk(await api.edit(token, CONTACTS, recordId, { fieldData: { deleteRelated: `Invoices.${a}` } }));
      expect(one).toEqual({ modId: (await api.getOk(token, CONTACTS, recordId)).modId });
      expect(await invoiceIds(api, token, recordId)).toEqual([b, c]);
      expectError(await api.get(token, INVOICES, a!), 404, "101");

      expectOk(await api.edit(token, CONTACTS, recordId, { fieldData: { "Last Name": "Gone", deleteRelated: [`Invoices.${b}`, `Invoices.${c}`] } }));
      const after = await api.getOk(token, CONTACTS, recordId);
      expect(after.portalData.Invoices).toEqual([]);
      expect(after.fieldData["Last Name"]).toBe("Gone");
      expect((await api.list(token, INVOICES, { _limit: 100000 })).body.response.dataInfo.totalRecordCount).toBe(invoicesBefore - 3);

      // The table occurrence names the rows, not the portal's object name ("Recent Notes" shows Notes).
      const withNote = await api.createOk(token, PORTALS_LAYOUT, { fieldData: { "First Name": "Noted" }, portalData: { [NOTES_PORTAL]: [{ "Notes::Title": "n" }] } });
      const note = (await api.getOk(token, PORTALS_LAYOUT, withNote.recordId)).portalData[NOTES_PORTAL][0].recordId;
      expectOk(await api.edit(token, PORTALS_LAYOUT, withNote.recordId, { fieldData: { deleteRelated: [`Notes.${note}`] } }));
      expect((await api.getOk(token, PORTALS_LAYOUT, withNote.recordId)).portalData[NOTES_PORTAL]).toEqual([]);
    });
  });

  it("7. deleteRelated: a row not related to the record 101, an unknown table occurrence 102, a malformed value 1708; nothing changed", async () => {
    for (const mode of await statusModes()) {
      const { api, token, fm } = mode;
      await expectNothingChanged(mode, async () => {
        // Invoice 3 is Grace's, not Ada's; the field change in the same edit is not kept either.
        for (const deleteRelated of ["Invoices.3", ["Invoices.1", "Invoices.3"], "Invoices.999999"]) {
          const res = await api.edit(token, CONTACTS, "1", { fieldData: { "Last Name": "Changed", deleteRelated } });
          expectError(res, fm(404), "101");
        }
        expectError(await api.edit(token, CONTACTS, "1", { fieldData: { deleteRelated: "Nope.1" } }), fm(400), "102");
        expectError(await api.edit(token, PORTALS_LAYOUT, "1", { fieldData: { deleteRelated: `${NOTES_PORTAL}.1` } }), fm(400), "102");
        // Notes rows exist, but "Contacts Web" shows no portal on Notes.
        expectError(await api.edit(token, CONTACTS, "1", { fieldData: { deleteRelated: "Notes.1" } }), fm(400), "102");
        for (const bad of ["Invoices", "Invoices.", ".1", "Invoices.x", "Invoices.-1", 1, [1], {}, null, ["Invoices.1", 2]]) {
          expectError(await api.edit(token, CONTACTS, "1", { fieldData: { deleteRelated: bad } }), 400, "1708");
        }
        // Only an edit deletes related rows: in a create, deleteRelated is a field the layout lacks.
        expectError(await api.create(token, CONTACTS, { fieldData: { "First Name": "X", deleteRelated: "Invoices.1" } }), fm(400), "102");
        // A failing portal row in the same edit keeps the related rows.
        expectError(await api.edit(token, CONTACTS, "1", { fieldData: { deleteRelated: "Invoices.1" }, portalData: { Invoices: [{ "Invoices::Amount": "x" }] } }), fm(400), "502");
      });
    }
  });
});

describe("the wider Data API, section 7: portal rows in an edit", () => {
  it("7. an edit's portalData: a row with recordId edits it (modId checked), a row without creates one; the answer carries newPortalRecordInfo", async () => {
    await eachVersion(async (api, token) => {
      const { recordId } = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Rows" }, portalData: { Invoices: [{ "Invoices::Amount": 1 }] } });
      const [row] = await invoiceIds(api, token, recordId);

      const answer = expectOk(
        await api.edit(token, CONTACTS, recordId, { fieldData: {}, portalData: { Invoices: [{ recordId: row, modId: "0", "Invoices::Amount": 11 }, { "Invoices::Amount": 22 }] } }),
      );
      const parent = await api.getOk(token, CONTACTS, recordId);
      expect(answer).toEqual({ modId: parent.modId, newPortalRecordInfo: [{ tableName: "Invoices", recordId: expect.stringMatching(/^\d+$/), modId: "0" }] });
      const created = answer.newPortalRecordInfo[0].recordId;
      expect(parent.portalData.Invoices).toEqual([
        { recordId: row, modId: "1", "Invoices::Amount": 11, "Invoices::Issued": "" },
        { recordId: created, modId: "0", "Invoices::Amount": 22, "Invoices::Issued": "" },
      ]);
      // Edits only: no newPortalRecordInfo. A row without modId is edited whatever its modId.
      const edited = expectOk(await api.edit(token, CONTACTS, recordId, { fieldData: { "Last Name": "R" }, portalData: { Invoices: [{ recordId: created, "Invoices::Amount": 23 }] } }));
      expect(edited).toEqual({ modId: "1" });
      // Several created rows, in the order sent, and a portal whose object name is not its table's.
      const two = expectOk(await api.edit(token, PORTALS_LAYOUT, recordId, { fieldData: {}, portalData: { [NOTES_PORTAL]: [{ "Notes::Title": "a" }, { "Notes::Title": "b" }], Invoices: [{ "Invoices::Amount": 3 }] } }));
      expect(two.newPortalRecordInfo.map((info: { tableName: string }) => info.tableName)).toEqual(["Notes", "Notes", "Invoices"]);
      const notes = (await api.getOk(token, PORTALS_LAYOUT, recordId)).portalData[NOTES_PORTAL];
      expect(notes.map((n: { recordId: string }) => n.recordId)).toEqual(two.newPortalRecordInfo.slice(0, 2).map((info: { recordId: string }) => info.recordId));
    });
  });

  it("7. an edit's portal row with a stale modId is 306, a row of another record 101; nothing changed", async () => {
    for (const mode of await statusModes()) {
      const { api, token, fm } = mode;
      const { recordId } = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Stale" }, portalData: { Invoices: [{ "Invoices::Amount": 1 }] } });
      const [row] = await invoiceIds(api, token, recordId);
      expectOk(await api.edit(token, CONTACTS, recordId, { fieldData: {}, portalData: { Invoices: [{ recordId: row, "Invoices::Amount": 2 }] } }));
      await expectNothingChanged(mode, async () => {
        const stale = await api.edit(token, CONTACTS, recordId, { fieldData: { "Last Name": "No" }, portalData: { Invoices: [{ "Invoices::Amount": 9 }, { recordId: row, modId: "0", "Invoices::Amount": 3 }] } });
        expectError(stale, fm(400), "306");
        expectError(await api.edit(token, CONTACTS, recordId, { fieldData: {}, portalData: { Invoices: [{ recordId: "3", "Invoices::Amount": 3 }] } }), fm(404), "101");
        expectError(await api.edit(token, CONTACTS, recordId, { fieldData: {}, portalData: { Invoices: [{ recordId: row, modId: 1, "Invoices::Amount": 3 }] } }), 400, "1708");
      });
      expectOk(await api.edit(token, CONTACTS, recordId, { fieldData: {}, portalData: { Invoices: [{ recordId: row, modId: "1", "Invoices::Amount": 3 }] } }));
    }
  });
});

describe("the wider Data API, section 7: options", () => {
  it('7. options.entrymode on create and edit: "user" (the default) validates data entry (required 509, unique 504); "script" skips it for fields that validate during data entry', async () => {
    await eachVersion(async (api, token) => {
      const made = await api.createOk(token, CONTACTS, { fieldData: { "Last Name": "Scripted" }, options: { entrymode: "script" } });
      expect((await api.getOk(token, CONTACTS, made.recordId)).fieldData["First Name"]).toBe("");
      expectOk(await api.edit(token, CONTACTS, made.recordId, { fieldData: { "Last Name": "Still" }, options: { entrymode: "script", prohibitmode: "user" } }));
      const ada = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Entry" } });
      expectOk(await api.edit(token, CONTACTS, ada.recordId, { fieldData: { "First Name": "" }, options: { entrymode: "script" } }));
      // Email is unique during data entry only: a script-mode write may repeat it.
      const twin = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Twin", Email: "ADA@example.com" }, options: { entrymode: "script" } });
      expectOk(await api.edit(token, CONTACTS, twin.recordId, { fieldData: { Email: "ada@example.com" }, options: { entrymode: "script" } }));
      expectOk(await api.delete(token, CONTACTS, twin.recordId));
    });
    for (const mode of await statusModes()) {
      const { api, token, fm } = mode;
      await expectNothingChanged(mode, async () => {
        for (const options of [undefined, {}, { entrymode: "user" }, { prohibitmode: "script" }]) {
          expectError(await api.create(token, CONTACTS, { fieldData: { "Last Name": "NoFirst" }, ...(options ? { options } : {}) }), fm(400), "509");
          expectError(await api.edit(token, CONTACTS, "2", { fieldData: { "First Name": "" }, ...(options ? { options } : {}) }), fm(400), "509");
          expectError(await api.create(token, CONTACTS, { fieldData: { "First Name": "Twin", Email: "ADA@example.com" }, ...(options ? { options } : {}) }), fm(400), "504");
          expectError(await api.edit(token, CONTACTS, "2", { fieldData: { Email: "ada@example.com" }, ...(options ? { options } : {}) }), fm(400), "504");
        }
        expectError(await api.create(token, CONTACTS, { fieldData: { "First Name": "T", Age: "old" }, options: { entrymode: "script" } }), fm(400), "502");
      });
    }
  });

  it('7. options.prohibitmode: "script" writes fields that prohibit modification (serial, UUID, stamps); calculations stay 201; the default refuses with 201', async () => {
    await eachVersion(async (api, token) => {
      const high = 900_000 + VERSIONS.indexOf(api.version as (typeof VERSIONS)[number]) * 10;
      const made = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Pro", id: high, Created: "01/01/2020 10:00:00" }, options: { prohibitmode: "script" } });
      const record = await api.getOk(token, CONTACTS, made.recordId);
      expect(record.fieldData.id).toBe(high);
      expect(record.fieldData.Created).toBe("01/01/2020 10:00:00");
      // The serial continues after the highest value written.
      expect((await api.getOk(token, CONTACTS, (await api.createOk(token, CONTACTS, { fieldData: { "First Name": "After" } })).recordId)).fieldData.id).toBe(high + 1);
      // On edit too; a modification stamp written by the edit is the value kept.
      const uuid = "00000000-0000-4000-8000-000000000001";
      expectOk(await api.edit(token, CONTACTS, made.recordId, { fieldData: { uuid, Modified: "02/02/2020 12:00:00" }, options: { prohibitmode: "script" } }));
      const edited = await api.getOk(token, CONTACTS, made.recordId);
      expect(edited.fieldData.uuid).toBe(uuid);
      expect(edited.fieldData.Modified).toBe("02/02/2020 12:00:00");
    });
    for (const mode of await statusModes()) {
      const { api, token, fm } = mode;
      await expectNothingChanged(mode, async () => {
        for (const options of [undefined, { prohibitmode: "user" }, { entrymode: "script" }]) {
          const res = await api.create(token, CONTACTS, { fieldData: { "First Name": "X", id: 777 }, ...(options ? { options } : {}) });
          expectError(res, fm(400), "201");
          expect(res.body.messages[0]!.message).toContain("prohibitmode");
          expectError(await api.edit(token, CONTACTS, "2", { fieldData: { Created: "01/01/2020 00:00:00" }, ...(options ? { options } : {}) }), fm(400), "201");
        }
        // "Full Name" is a calculation (readOnly without autoEnter): no option writes it.
        for (const options of [{ prohibitmode: "script" }, { prohibitmode: "script", entrymode: "script" }]) {
          const calc = await api.create(token, PORTALS_LAYOUT, { fieldData: { "First Name": "X", "Full Name": "Y" }, options });
          expectError(calc, fm(400), "201");
          expect(calc.body.messages[0]!.message).toContain("calculation");
          expectError(await api.edit(token, PORTALS_LAYOUT, "2", { fieldData: { "Full Name": "Y" }, options }), fm(400), "201");
        }
      });
    }
  });

  it("7. options: an option the emulator does not know is 960 naming it; a value other than user/script, or options not an object, is 1708; routes without options answer 960", async () => {
    for (const mode of await statusModes()) {
      const { api, token } = mode;
      await expectNothingChanged(mode, async () => {
        const unknown = await api.create(token, CONTACTS, { fieldData: { "First Name": "O" }, options: { entrymode: "script", bogus: 1 } });
        expectError(unknown, 400, "960");
        expect(unknown.body.messages[0]!.message).toBe("Unknown parameter(s): options.bogus");
        for (const options of [{ entrymode: "Script" }, { prohibitmode: "" }, { entrymode: 1 }, { entrymode: null }, "script", [], null]) {
          expectError(await api.create(token, CONTACTS, { fieldData: { "First Name": "O" }, options }), 400, "1708");
          expectError(await api.edit(token, CONTACTS, "2", { fieldData: { "First Name": "O" }, options }), 400, "1708");
        }
        const find = await api.find(token, CONTACTS, { query: [{ "First Name": "Ada" }], options: { entrymode: "script" } });
        expectError(find, 400, "960");
        expect(find.body.messages[0]!.message).toBe("Unknown parameter(s): options");
        expectError(await duplicate(api, token, CONTACTS, "2", { options: { entrymode: "script" } }), 400, "960");
      });
    }
  });
});

describe("the wider Data API, section 7: upload", () => {
  it("7. an upload answers { modId }; ?modId= on the upload URL is checked like an edit's (306), and nothing is stored when it differs", async () => {
    await eachVersion(async (api, token) => {
      const { recordId } = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Up" } });
      expect(expectOk(await upload(api, token, recordId, { modId: "0" }, "first"))).toEqual({ modId: "1" });
      expect(expectOk(await upload(api, token, recordId, {}, "second"))).toEqual({ modId: "2" });
      expect(expectOk(await upload(api, token, recordId, { modId: "2" }, "third"))).toEqual({ modId: "3" });
    });
    for (const mode of await statusModes()) {
      const { api, token, fm } = mode;
      const { recordId } = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Up" } });
      expectOk(await upload(api, token, recordId, { modId: "0" }, "kept"));
      await expectNothingChanged(mode, async () => {
        for (const modId of ["0", "2", "01", "x", ""]) {
          const res = await upload(api, token, recordId, { modId }, "lost");
          expectError(res, fm(400), "306");
        }
        expectError(await upload(api, token, "999999", { modId: "0" }, "lost"), fm(404), "101");
        expectError(await api.call("POST", `${recordPath(CONTACTS, recordId)}/containers/Photo/1?modId=1&modId=1`, { token, body: new FormData() }), 400, "1708");
        const unknown = await upload(api, token, recordId, { modid: "1" }, "lost");
        expectError(unknown, 400, "960");
        expect(unknown.body.messages[0]!.message).toBe("Unknown parameter(s): modid");
      });
      expect(await containerFileName((await api.getOk(token, CONTACTS, recordId)).fieldData.Photo)).toBe("kept.txt");
    }
  });

  // FileMaker Server takes the upload URL without its repetition segment as repetition 1; @proofkit/fmdapi sends
  // it that way unless told a repetition (docs/emulator.md, section 7).
  it("7. an upload without the repetition segment (.../containers/{field}) goes into repetition 1, ?modId= checked as with it", async () => {
    const bare = (api: DataApi, token: string, recordId: string, field: string, query: Record<string, string>, text: string) => {
      const form = new FormData();
      form.append("upload", new Blob([text], { type: "text/plain" }), `${text}.txt`);
      return api.call("POST", `${recordPath(CONTACTS, recordId)}${p`/containers/${field}`}${qs(query)}`, { token, body: form });
    };
    await eachVersion(async (api, token) => {
      const { recordId } = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Bare" } });
      expect(expectOk(await bare(api, token, recordId, "Photo", {}, "photo"))).toEqual({ modId: "1" });
      expect(expectOk(await bare(api, token, recordId, "Attachments", { modId: "1" }, "first"))).toEqual({ modId: "2" });
      const { fieldData } = await api.getOk(token, CONTACTS, recordId);
      expect(await containerFileName(fieldData.Photo)).toBe("photo.txt");
      expect(await containerFileName(fieldData.Attachments)).toBe("first.txt");
      expect(fieldData["Attachments(2)"]).toBe("");
      expect((await api.call("GET", `${recordPath(CONTACTS, recordId)}/containers/Photo`, { token })).status).toBe(405);
    });
    for (const mode of await statusModes()) {
      const { api, token, fm } = mode;
      const { recordId } = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Bare" } });
      await expectNothingChanged(mode, async () => {
        expectError(await bare(api, token, recordId, "Photo", { modId: "5" }, "lost"), fm(400), "306");
        expectError(await bare(api, token, recordId, "First Name", {}, "lost"), fm(404), "102");
        expectError(await bare(api, token, recordId, "Nope", {}, "lost"), fm(404), "102");
        expectError(await bare(api, token, "999999", "Photo", {}, "lost"), fm(404), "101");
      });
    }
  });
});
