import fc from "fast-check";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { createState, startEmulator, type Calculations, type RunningEmulator, type SeedData } from "../../../src/emulator/index.js";
import { exportSeed, seedText } from "../../../src/emulator/store/seed-snapshot.js";
import type { LayoutDescriptionInput } from "../../../src/layout/schema.js";
import { createClient, defineLayout } from "../../../src/runtime/index.js";
import { createODataClient } from "../../../src/runtime/odata/index.js";

// docs/emulator.md, "Snapshots": the hosted data as a seed document (exportData(), --export-on-exit), which `data`
// reads back: start from an export, export again, the same document. Records keep their ids and modIds, tables their
// counters and globals, schema changes are made again, container files are included; hostile documents are refused
// whole, naming the file and the JSON path.

const DB = "Shop";
const ACCOUNT = { username: "web", password: "s3cret" };
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});
async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "fmgen-snapshot-"));
  dirs.push(dir);
  return dir;
}

const LAYOUT: LayoutDescriptionInput = {
  database: DB,
  layout: "Items Web",
  table: "Items",
  fields: [
    { name: "id", type: "number", readOnly: true, autoEnter: "serial" },
    { name: "Name", type: "text" },
    { name: "Qty", type: "number" },
    { name: "Day", type: "date" },
    { name: "At", type: "time" },
    { name: "Stamp", type: "timestamp" },
    { name: "Tags", type: "text", repetitions: 3 },
    { name: "Photo", type: "container" },
    { name: "gNote", type: "text", global: true },
    { name: "gPic", type: "container", global: true },
  ],
};
const Item = defineLayout({
  database: DB,
  layout: "Items Web",
  fields: { Name: { type: "text" }, Qty: { type: "number" } },
  readOnly: { id: { type: "number" } },
  containers: { Photo: {} },
});

async function start(data?: SeedData | string, extra: Partial<Parameters<typeof startEmulator>[0]> = {}): Promise<RunningEmulator> {
  return startEmulator({ port: 0, layouts: [LAYOUT], data: data ?? { accounts: [ACCOUNT], records: { Items: [{ Name: "seeded", Qty: 1 }] } }, log: () => {}, ...extra });
}

/** The document a state started from `data` exports (no HTTP: the hosted state itself). */
async function exportOf(data: SeedData): Promise<SeedData> {
  return exportSeed(await createState({ layouts: [LAYOUT], data, log: () => {} }));
}

describe("an export read back is the same document", () => {
  it("carries records with their ids and modIds, counters, globals, containers and schema changes", async () => {
    const emu = await start();
    const fm = createClient({ server: emu.url, database: DB, auth: ACCOUNT });
    const od = createODataClient({ server: emu.url, database: DB, auth: ACCOUNT });
    try {
      const items = fm.layout(Item);
      const ada = await items.create({ fieldData: { Name: "Ada", Qty: 3 } });
      await items.edit(ada.recordId, { fieldData: { Qty: 4 } });
      await items.upload(ada.recordId, "Photo", new File([new Uint8Array([137, 80, 78, 71, 0, 255])], "ada.png", { type: "image/png" }));
      const gone = await items.create({ fieldData: { Name: "gone" } });
      await items.delete(gone.recordId);
      await od.schema.createTable("Notes", [{ name: "Text", type: "varchar" }, { name: "Extra", type: "int" }]);
      await od.schema.deleteField("Notes", "Extra");
      await od.schema.createIndex("Notes", "Text");
      await od.table({ database: DB, table: "Notes", fields: { Text: { type: "text" } } } as never).create({ Text: "kept" } as never);
      const first = emu.exportData();
      const items1 = first.files!.Shop!.tables!.Items!;
      expect(items1.records!.map((r) => [r.recordId, r.modId])).toEqual([
        [1, 0],
        [2, 2],
      ]);
      expect(items1.records![1]!.fieldData).toEqual({ id: 2, Name: "Ada", Qty: 4, Photo: { filename: "ada.png", contentType: "image/png", size: 6, base64: "iVBORwD/" } });
      expect([items1.nextRecordId, items1.serials]).toEqual([4, { id: "4" }]);
      expect(first.files!.Shop!.schema!.map((c) => c.op)).toEqual(["createTable", "deleteField", "setFieldIndex"]);
      expect(first.files!.Shop!.tables!.Notes!.records).toEqual([{ recordId: 1, modId: 0, fieldData: { Text: "kept" } }]);
      expect(first.accounts).toEqual([ACCOUNT]);
      expect(JSON.parse(JSON.stringify(first))).toEqual(first);

      const again = await start(first);
      try {
        expect(seedText(again.exportData())).toBe(seedText(first));
        // The record is the same record: its id, its modId, its container's bytes; the serial goes on.
        const fm2 = createClient({ server: again.url, database: DB, auth: ACCOUNT });
        const read = await fm2.layout(Item).get(ada.recordId);
        expect([read.modId, read.fieldData.Name, read.fieldData.Qty]).toEqual(["2", "Ada", 4]);
        const file = await fm2.layout(Item).download(ada.recordId, "Photo");
        expect([...(await file!.bytes())]).toEqual([137, 80, 78, 71, 0, 255]);
        const next = await fm2.layout(Item).create({ fieldData: { Name: "next" } });
        expect([next.recordId, (await fm2.layout(Item).get(next.recordId)).fieldData.id]).toEqual(["4", 4]);
        await fm2.close();
      } finally {
        await again.close();
      }
    } finally {
      await fm.close();
      await od.close();
      await emu.close();
    }
  });

  const text = fc.string({ maxLength: 12 });
  const digits = fc.stringMatching(/^-?[1-9][0-9]{20,40}$/);
  const day = fc.date({ min: new Date("1900-01-01T00:00:00Z"), max: new Date("2100-12-31T00:00:00Z"), noInvalidDate: true });
  const pad = (n: number) => String(n).padStart(2, "0");
  const wireDate = (d: Date) => `${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/${d.getUTCFullYear()}`;
  const wireTime = (d: Date) => `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const record = fc.record(
    {
      Name: text,
      Qty: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), digits),
      Day: day.map(wireDate),
      At: day.map(wireTime),
      Stamp: day.map((d) => `${wireDate(d)} ${wireTime(d)}`),
      Tags: fc.array(text, { minLength: 1, maxLength: 3 }),
      Photo: fc.record({ filename: fc.stringMatching(/^[a-z]{1,8}\.bin$/), bytes: fc.uint8Array({ maxLength: 40 }) }).map(({ filename, bytes }) => ({
        filename,
        contentType: "application/octet-stream",
        size: bytes.length,
        base64: Buffer.from(bytes).toString("base64"),
      })),
    },
    { requiredKeys: [] },
  );

  it("for any records, ids, modIds, serials and globals (property, seeded)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.record({ recordId: fc.integer({ min: 1, max: 10_000 }), modId: fc.nat({ max: 50 }), fieldData: record }), { selector: (r) => r.recordId, maxLength: 8 }),
        fc.bigInt({ min: 1n, max: 10n ** 20n }),
        fc.option(text, { nil: undefined }),
        async (records, serial, note) => {
          const seed: SeedData = { files: { [DB]: { tables: { Items: { serials: { id: String(serial) }, records, ...(note ? { globals: { gNote: note } } : {}) } } } } };
          const first = await exportOf(seed);
          const second = await exportOf(first);
          expect(seedText(second)).toBe(seedText(first));
          const items = first.files![DB]!.tables!.Items!;
          expect(items.records!.map((r) => r.recordId)).toEqual(records.map((r) => r.recordId).sort((a, b) => a - b));
          expect(items.serials).toEqual({ id: String(serial) });
          // A long number keeps every digit.
          for (const r of records) {
            if (typeof r.fieldData.Qty !== "string") continue;
            const qty = items.records!.find((x) => x.recordId === r.recordId)!.fieldData!.Qty;
            expect(String(typeof qty === "number" ? BigInt(qty) : qty)).toBe(r.fieldData.Qty);
          }
        },
      ),
      { seed: 36, numRuns: 40 },
    );
  });

  it("reads a file global's container back, and creates the seed's records after the export's", async () => {
    const seed: SeedData = {
      files: { [DB]: { tables: { Items: { records: [{ recordId: 7, fieldData: { Name: "kept" } }], globals: { gPic: { filename: "g.txt", contentType: "text/plain", size: 2, base64: "aGk=" } } } } } },
      records: { Items: [{ Name: "created" }] },
    };
    const state = await createState({ layouts: [LAYOUT], data: seed, log: () => {} });
    await Promise.resolve();
    const doc = exportSeed(state);
    const items = doc.files[DB]!.tables!.Items!;
    expect(items.records!.map((r) => [r.recordId, r.fieldData!.Name])).toEqual([
      [7, "kept"],
      [8, "created"],
    ]);
    expect(items.globals).toEqual({ gPic: { filename: "g.txt", contentType: "text/plain", size: 2, base64: "aGk=" } });
    expect(state.containers.count()).toBe(1);
  });

  it("leaves calculations and related fields out: they are computed", async () => {
    const fixture = fileURLToPath(new URL("../../fixtures/calculations/", import.meta.url));
    const calculations = ((await import(`${fixture}calculations.mjs`)) as { calculations: Calculations }).calculations;
    const state = await createState({ layouts: [`${fixture}layouts`], data: `${fixture}seed.json`, calculations, log: () => {} });
    const doc = exportSeed(state);
    const orders = doc.files.Shop!.tables!.Orders!.records!;
    expect(orders.length).toBeGreaterThan(0);
    for (const r of orders) for (const f of ["Total", "Label", "Check", "Customers::Name"]) expect(Object.keys(r.fieldData!)).not.toContain(f);
    const back = exportSeed(await createState({ layouts: [`${fixture}layouts`], data: doc, calculations, log: () => {} }));
    expect(seedText(back)).toBe(seedText(doc));
    await expect(createState({ layouts: [`${fixture}layouts`], data: { files: { Shop: { tables: { Orders: { records: [{ recordId: 1, fieldData: { Total: 3 } }] } } } } }, calculations, log: () => {} })).rejects.toThrow(
      '<seed>: files.Shop.tables.Orders.records[0].fieldData.Total: "Total" is a calculation, computed on every read: remove it',
    );
  });
});

describe('names such as "__proto__"', () => {
  it("are tables, fields and globals like any other: exported as own keys and read back", async () => {
    const layouts: LayoutDescriptionInput[] = [
      { database: "Proto", layout: "P", table: "__proto__", fields: [{ name: "__proto__", type: "text" }, { name: "constructor", type: "number" }] },
      { database: "Proto", layout: "G", table: "G", fields: [{ name: "__proto__", type: "text", global: true }] },
    ];
    const seed = JSON.parse('{"files":{"Proto":{"tables":{"__proto__":{"records":[{"recordId":2,"fieldData":{"__proto__":"seeded","constructor":7}}]},"G":{"globals":{"__proto__":"global"}}}}}}') as SeedData;
    const exportFrom = async (data: SeedData) => exportSeed(await createState({ layouts, data, log: () => {} }));
    const first = await exportFrom(seed);
    const text = seedText(first);
    expect(text).toContain('"__proto__": "seeded"');
    expect(text).toContain('"__proto__": "global"');
    expect(seedText(await exportFrom(JSON.parse(text) as SeedData))).toBe(text);
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });
});

describe("accounts", () => {
  it("exportData() carries the accounts the emulator was started with, as given, the seed's first", async () => {
    const emu = await start({ accounts: [{ username: "a", password: "pa", privileges: ["fmrest"] }, { fmid: "token-x" }] }, { accounts: [{ username: "cli", password: "pc" }] });
    try {
      expect(emu.exportData().accounts).toEqual([{ username: "a", password: "pa", privileges: ["fmrest"] }, { fmid: "token-x" }, { username: "cli", password: "pc" }]);
    } finally {
      await emu.close();
    }
  });
});

describe("exportOnExit", () => {
  it("writes the export when closed, atomically (nothing left beside it), and a start from it is the session", async () => {
    const dir = await freshDir();
    const file = join(dir, "session.json");
    const emu = await start(undefined, { exportOnExit: file });
    const fm = createClient({ server: emu.url, database: DB, auth: ACCOUNT });
    await fm.layout(Item).create({ fieldData: { Name: "hand-made" } });
    await fm.close();
    const expected = emu.exportData();
    await emu.close();
    expect(await readdir(dir)).toEqual(["session.json"]);
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual(expected);
    // Read back from the very file, and written over it again: nothing lost.
    const again = await start(file, { exportOnExit: file });
    expect(seedText(again.exportData())).toBe(seedText(expected));
    await again.close();
    expect(await readFile(file, "utf8")).toBe(seedText(expected));
  });

  it("a failure names the file and the reason, and the emulator (and its data directory) still stop", async () => {
    const dir = await freshDir();
    const file = join(dir, "missing-folder", "out.json");
    const dataDir = join(dir, "data");
    const emu = await start(undefined, { exportOnExit: file, dataDir });
    const url = emu.url;
    await expect(emu.close()).rejects.toThrow(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: cannot write the export: ENOENT`));
    await expect(fetch(url)).rejects.toThrow();
    // The folder was let go: another emulator opens it.
    const next = await start(undefined, { dataDir });
    await next.close();
  });

  it("is refused when not a non-empty string", async () => {
    await expect(start(undefined, { exportOnExit: "" })).rejects.toThrow("options.exportOnExit must be a non-empty string");
  });

  it("keeps a seed's schema changes in a data directory filled from it", async () => {
    const dir = await freshDir();
    const seed: SeedData = {
      files: { [DB]: { schema: [{ op: "createTable", table: "Notes", fields: [{ name: "Text", type: "text", repetitions: 1, primary: false, unique: false, required: false, global: false }] }], tables: { Notes: { records: [{ recordId: 3, fieldData: { Text: "n" } }] } } } },
    };
    let emu = await start(seed, { dataDir: dir });
    const first = emu.exportData();
    await emu.close();
    emu = await start(undefined, { dataDir: dir });
    expect(first.files![DB]!.schema).toHaveLength(1);
    expect(JSON.stringify(emu.exportData().files)).toBe(JSON.stringify(first.files));
    await emu.close();
  });
});

describe("with a data directory", () => {
  it("keeps a file global's container file from a seed across restarts (it is held, not dropped as no field's)", async () => {
    const dir = await freshDir();
    const gPic = { filename: "g.txt", contentType: "text/plain", size: 2, base64: "aGk=" };
    let emu = await start({ accounts: [ACCOUNT], files: { [DB]: { tables: { Items: { globals: { gPic } } } } } }, { dataDir: dir });
    await emu.close();
    for (let restart = 0; restart < 2; restart++) {
      emu = await start(undefined, { dataDir: dir });
      expect(emu.exportData().files![DB]!.tables!.Items!.globals).toEqual({ gPic });
      expect(emu.stats().containerFiles).toBe(1);
      await emu.close();
    }
  });
});

describe("hostile documents are refused whole, naming the file and the JSON path", () => {
  const items = (tables: object) => ({ files: { [DB]: { tables: { Items: tables } } } });
  const photo = (c: object) => items({ records: [{ recordId: 1, fieldData: { Photo: { filename: "p.png", contentType: "image/png", size: 3, base64: "AAAA", ...c } } }] });
  const P = "files.Shop.tables.Items.records[0]";
  const cases: [string, unknown, string][] = [
    ["bad base64", photo({ base64: "AA*A" }), `${P}.fieldData.Photo.base64: must be base64`],
    ["base64 without padding", photo({ base64: "AAA" }), `${P}.fieldData.Photo.base64: must be base64`],
    ["a file name with /", photo({ filename: "../x.png" }), `${P}.fieldData.Photo.filename: must be a file name, without / or \\`],
    ["a file name with ..", photo({ filename: ".." }), `${P}.fieldData.Photo.filename: must not hold ..`],
    ["a file name with NUL", photo({ filename: "a\u0000.png" }), `${P}.fieldData.Photo.filename: must hold no control character`],
    ["a file name with a control character", photo({ filename: "a\u001b[31m.png" }), `${P}.fieldData.Photo.filename: must hold no control character`],
    ["a huge declared size", photo({ size: 2 ** 50 }), `${P}.fieldData.Photo.size: must be at most`],
    ["a size the bytes do not have", photo({ size: 1_000_000 }), `${P}.fieldData.Photo.size: is 1000000, but base64 holds 3 bytes`],
    ["a content type that is not one", photo({ contentType: "image/png\r\nX: y" }), `${P}.fieldData.Photo.contentType: must be a media type`],
    ["an unknown key in a container", photo({ path: "/etc/passwd" }), `${P}.fieldData.Photo: Unrecognized key`],
    ["a record id twice", items({ records: [{ recordId: 2 }, { recordId: 2 }] }), "files.Shop.tables.Items.records[1].recordId: record id 2 is given twice"],
    ["a record id of 0", items({ records: [{ recordId: 0 }] }), `${P}.recordId: must be a positive whole number`],
    ["a negative record id", items({ records: [{ recordId: -3 }] }), `${P}.recordId: must be a positive whole number`],
    ["a fractional record id", items({ records: [{ recordId: 1.5 }] }), `${P}.recordId: must be a whole number`],
    ["a record id as text", items({ records: [{ recordId: "1" }] }), `${P}.recordId:`],
    ["a negative modId", items({ records: [{ recordId: 1, modId: -1 }] }), `${P}.modId:`],
    ["nextRecordId not past the records", items({ nextRecordId: 2, records: [{ recordId: 5 }] }), "files.Shop.tables.Items.nextRecordId: is 2, not past the highest record id (5)"],
    ["a serial that is not digits", items({ serials: { id: "12a" } }), `files.Shop.tables.Items.serials.id: must be a whole number's decimal digits`],
    ["a serial of a field that is not one", items({ serials: { Name: "3" } }), `files.Shop.tables.Items.serials.Name: table "Items" has no serial field "Name"`],
    ["__proto__ as a table", { files: { [DB]: { tables: JSON.parse('{"__proto__": {"records": []}}') } } }, `files.Shop.tables.__proto__: the hosted file "Shop" has no table "__proto__"`],
    ["__proto__ as a field", items({ records: [{ recordId: 1, fieldData: JSON.parse('{"__proto__": "x"}') }] }), `${P}.fieldData.__proto__: table "Items" has no field "__proto__"`],
    ["__proto__ as a hosted file", { files: JSON.parse('{"__proto__": {}}') }, `files.__proto__: no hosted file is named "__proto__"`],
    ["an unknown key in a record", items({ records: [{ recordId: 1, fields: {} }] }), `${P}: Unrecognized key`],
    ["a date that is not one", items({ records: [{ recordId: 1, fieldData: { Day: "13/45/2020" } }] }), `${P}.fieldData.Day: "13/45/2020" is not a valid date (expected "MM/DD/YYYY")`],
    ["a container where text goes", items({ records: [{ recordId: 1, fieldData: { Name: { filename: "a", contentType: "a/b", size: 0, base64: "" } } }] }), `${P}.fieldData.Name: "Name" is a text field, not a container`],
    ["text where a container goes", items({ records: [{ recordId: 1, fieldData: { Photo: "http://x/y.png" } }] }), `${P}.fieldData.Photo: "Photo" is a container field`],
    ["too many repetitions", items({ records: [{ recordId: 1, fieldData: { Tags: ["a", "b", "c", "d"] } }] }), `${P}.fieldData.Tags: "Tags" has 3 repetition(s), not 4`],
    ["a global in a record", items({ records: [{ recordId: 1, fieldData: { gNote: "x" } }] }), `${P}.fieldData.gNote: "gNote" is a global field: put it in the table's globals`],
    ["a stored field in globals", items({ globals: { Name: "x" } }), `files.Shop.tables.Items.globals.Name: "Name" is not a global field`],
    ["a value that is an array of nothing", items({ records: [{ recordId: 1, fieldData: { Tags: [] } }] }), `${P}.fieldData.Tags: must hold at least one repetition`],
    ["a schema change of an unknown kind", { files: { [DB]: { schema: [{ op: "dropDatabase" }] } } }, "files.Shop.schema[0]"],
    ["a schema change that cannot be made", { files: { [DB]: { schema: [{ op: "deleteTable", table: "Nope" }] } } }, 'files.Shop.schema[0]: cannot be made again: table "Nope" is not there'],
    [
      "a field definition that is inconsistent",
      { files: { [DB]: { schema: [{ op: "addField", table: "Items", field: { name: "K", type: "container", repetitions: 1, primary: false, unique: true, required: false, global: false } }] } } },
      "files.Shop.schema[0].field.unique: a primary or unique field cannot be global, a container or repeating",
    ],
    ["a format of another version", { format: 2 }, "format:"],
  ];

  it.each(cases)("%s", async (_, seed, message) => {
    const dir = await freshDir();
    const file = join(dir, "hostile.json");
    await writeFile(file, JSON.stringify(seed));
    const prototype = Object.getOwnPropertyNames(Object.prototype).sort();
    const failed = await createState({ layouts: [LAYOUT], data: file, log: () => {} }).then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(failed).toContain(`${file}: ${message}`);
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototype);
  });

  it("a record id too long for a double is refused, not rounded", async () => {
    const dir = await freshDir();
    const file = join(dir, "long-id.json");
    await writeFile(file, '{"files":{"Shop":{"tables":{"Items":{"records":[{"recordId":123456789012345678901234567890}]}}}}}');
    await expect(createState({ layouts: [LAYOUT], data: file, log: () => {} })).rejects.toThrow(`${file}: ${P}.recordId:`);
  });

  it("nothing is half-loaded: a data directory filled from a bad seed stays empty", async () => {
    const dir = await freshDir();
    const bad = { files: { [DB]: { tables: { Items: { records: [{ recordId: 1, fieldData: { Name: "first" } }, { recordId: 2, fieldData: { Day: "nope" } }] } } } } };
    await expect(start(bad as SeedData, { dataDir: dir })).rejects.toThrow("records[1].fieldData.Day");
    const emu = await start({ accounts: [ACCOUNT] }, { dataDir: dir });
    expect(emu.stats().records).toEqual({ Shop: { Items: 0 } });
    await emu.close();
  });
});
