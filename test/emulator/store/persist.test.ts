import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import type { LayoutDescriptionInput } from "../../../src/layout/schema.js";
import { createClient, defineLayout } from "../../../src/runtime/index.js";
import { createODataClient } from "../../../src/runtime/odata/index.js";

// docs/emulator.md, "Hosted files that persist": with a data directory, what clients wrote survives a restart (records,
// ids, modIds, serials, container files, schema changes), into descriptions changed since; --reset starts over.

const DB = "Shop";
const ACCOUNT = { username: "web", password: "s3cret" };
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

function layout(fields: LayoutDescriptionInput["fields"]): LayoutDescriptionInput {
  return { database: DB, layout: "Items Web", table: "Items", fields };
}
const FIELDS: LayoutDescriptionInput["fields"] = [
  { name: "id", type: "number", readOnly: true, autoEnter: "serial" },
  { name: "Name", type: "text" },
  { name: "Qty", type: "number" },
  { name: "Photo", type: "container" },
];
const Item = defineLayout({ database: DB, layout: "Items Web", fields: { Name: { type: "text" }, Qty: { type: "number" } }, readOnly: { id: { type: "number" } }, containers: { Photo: {} } });

async function start(dataDir: string, fields = FIELDS, extra: { reset?: boolean; data?: object } = {}): Promise<RunningEmulator> {
  return startEmulator({ port: 0, layouts: [layout(fields)], data: { accounts: [ACCOUNT], records: { Items: [{ Name: "seeded", Qty: 1 }] }, ...extra.data }, dataDir, ...(extra.reset ? { reset: true } : {}) });
}

async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "fmgen-persist-"));
  dirs.push(dir);
  return dir;
}

describe("hosted files that persist", () => {
  it("keep records, ids, modIds, serials, container files and schema changes across a restart", async () => {
    const dir = await freshDir();
    let emu = await start(dir);
    let fm = createClient({ server: emu.url, database: DB, auth: ACCOUNT });
    const items = fm.layout(Item);
    const { recordId } = await items.create({ fieldData: { Name: "Ada", Qty: 3 } });
    await items.edit(recordId, { fieldData: { Qty: 4 } });
    await items.upload(recordId, "Photo", new File([new Uint8Array([137, 80, 78, 71, 1, 2, 3])], "ada.png", { type: "image/png" }));
    const gone = await items.create({ fieldData: { Name: "gone" } });
    await items.delete(gone.recordId);
    const od = createODataClient({ server: emu.url, database: DB, auth: ACCOUNT });
    await od.schema.createTable("Notes", [{ name: "Text", type: "varchar" }]);
    await od.table({ database: DB, table: "Notes", fields: { Text: { type: "text" } } } as never).create({ Text: "kept" } as never);
    const before = await items.get(recordId);
    await fm.close();
    await od.close();
    await emu.close();

    emu = await start(dir);
    fm = createClient({ server: emu.url, database: DB, auth: ACCOUNT });
    const after = await fm.layout(Item).get(recordId);
    expect({ ...after.fieldData, Photo: undefined }).toEqual({ ...before.fieldData, Photo: undefined });
    expect(after.modId).toBe(before.modId);
    const file = await fm.layout(Item).download(recordId, "Photo");
    expect([file?.name, file?.type]).toEqual(["ada.png", "image/png"]);
    expect([...(await file!.bytes())]).toEqual([137, 80, 78, 71, 1, 2, 3]);
    // The file is back under its id, but the URL key is drawn again at each start: the URL read before the restart
    // no longer opens it (401 / 952), as a real server's URLs do not outlive it; the record gives the new one.
    const old = new URL(before.fieldData.Photo as string);
    expect(after.fieldData.Photo).not.toBe(before.fieldData.Photo);
    const stale = await fetch(`${emu.url}${old.pathname}${old.search}`, { redirect: "manual" });
    expect(stale.status).toBe(401);
    expect(((await stale.json()) as { messages: { code: string }[] }).messages[0]!.code).toBe("952");
    // The seed is not read again; the serial goes on from where it was; the deleted record stays deleted.
    const all = await fm.layout(Item).list();
    expect(all.data.map((r) => r.fieldData.Name)).toEqual(["seeded", "Ada"]);
    const next = await fm.layout(Item).create({ fieldData: { Name: "next" } });
    expect((await fm.layout(Item).get(next.recordId)).fieldData.id).toBe(4);
    expect(Number(next.recordId)).toBe(4);
    const od2 = createODataClient({ server: emu.url, database: DB, auth: ACCOUNT });
    const notes = await od2.table({ database: DB, table: "Notes", fields: { Text: { type: "text" } } } as never).list();
    expect((notes.value as { Text: string }[]).map((n) => n.Text)).toEqual(["kept"]);
    await fm.close();
    await od2.close();
    await emu.close();
  });

  it("carries the data into descriptions changed since: a removed field's values dropped (with a log line), an added one empty", async () => {
    const dir = await freshDir();
    let emu = await start(dir);
    await emu.close();
    const lines: string[] = [];
    emu = await startEmulator({
      port: 0,
      layouts: [layout([...FIELDS.filter((f) => f.name !== "Qty"), { name: "Color", type: "text" }])],
      data: { accounts: [ACCOUNT] },
      dataDir: dir,
      log: (line) => lines.push(line),
    });
    const fm = createClient({ server: emu.url, database: DB, auth: ACCOUNT });
    const Changed = defineLayout({ database: DB, layout: "Items Web", fields: { Name: { type: "text" }, Color: { type: "text" } } });
    const [record] = (await fm.layout(Changed).list()).data;
    expect(record!.fieldData).toEqual({ Name: "seeded", Color: "" });
    // Exactly that line: nothing else (an empty container, say) is taken for a loss.
    expect(lines).toEqual([`${DB}: table "Items" no longer has a stored field "Qty": its values were dropped (1 value)`]);
    await fm.close();
    await emu.close();
  });

  it("keeps a number a double does not hold, digit for digit", async () => {
    const dir = await freshDir();
    const long = "1234567890123456789012345678901234567890123456789012345678.5";
    let emu = await start(dir);
    const fm = createClient({ server: emu.url, database: DB, auth: ACCOUNT });
    const Exact = defineLayout({ database: DB, layout: "Items Web", fields: { Name: { type: "text" }, Qty: { type: "number", exact: true } } });
    const { recordId } = await fm.layout(Exact).create({ fieldData: { Name: "long", Qty: long } });
    await fm.close();
    await emu.close();
    emu = await start(dir);
    const again = createClient({ server: emu.url, database: DB, auth: ACCOUNT });
    expect((await again.layout(Exact).get(recordId)).fieldData.Qty).toBe(long);
    await again.close();
    await emu.close();
  });

  it("reads a snapshot an earlier release wrote (format 1: every record naming its fields), and writes today's at close", async () => {
    const dir = await freshDir();
    const kept = (id: number, mod: number, name: string, qty: number) => [id, mod, { id: [id], Name: [name], Qty: [qty], Photo: [null], Gone: ["x"] }];
    const state = { databases: { [DB]: { schema: [], tables: { Items: { counters: { next: 8, serials: { id: "8" } }, globals: {}, records: [kept(3, 2, "three", 3), kept(7, 5, "seven", 7)] } } } } };
    await writeFile(join(dir, "snapshot.json"), JSON.stringify({ format: 1, seq: 0, state }));
    const lines: string[] = [];
    const emu = await startEmulator({ port: 0, layouts: [layout(FIELDS)], data: { accounts: [ACCOUNT] }, dataDir: dir, log: (line) => lines.push(line) });
    const fm = createClient({ server: emu.url, database: DB, auth: ACCOUNT });
    const all = await fm.layout(Item).list();
    expect(all.data.map((r) => [r.recordId, r.modId, r.fieldData.Name, r.fieldData.Qty])).toEqual([
      ["3", "2", "three", 3],
      ["7", "5", "seven", 7],
    ]);
    expect(lines).toEqual([`${DB}: table "Items" no longer has a stored field "Gone": its values were dropped (2 values)`]);
    const next = await fm.layout(Item).create({ fieldData: { Name: "next" } });
    expect([next.recordId, (await fm.layout(Item).get(next.recordId)).fieldData.id]).toEqual(["8", 8]);
    await fm.close();
    await emu.close();
    const written = JSON.parse(await readFile(join(dir, "snapshot.json"), "utf8"));
    expect(written.format).toBe(2);
    expect(written.state.databases[DB].tables.Items.fields).toEqual(["id", "Name", "Qty", "Photo"]);
    expect(written.state.databases[DB].tables.Items.rows).toHaveLength(3);
  });

  it("reads only a seed file's accounts at later starts: its records come from the folder", async () => {
    const dir = await freshDir();
    const seedFile = join(dir, "..", `${dir.split("/").pop()}-seed.json`);
    dirs.push(seedFile);
    await writeFile(seedFile, JSON.stringify({ accounts: [ACCOUNT], records: { Items: [{ Name: "seeded" }] } }));
    const open = () => startEmulator({ port: 0, layouts: [layout(FIELDS)], data: seedFile, dataDir: dir });
    let emu = await open();
    await emu.close();
    // Records the folder does not take any more (no such field): a later start does not read them; a reset would refuse them.
    await writeFile(seedFile, JSON.stringify({ accounts: [{ username: "other", password: "pw" }], records: { Items: [{ Nope: 1 }] } }));
    emu = await open();
    const fm = createClient({ server: emu.url, database: DB, auth: { username: "other", password: "pw" } });
    expect((await fm.layout(Item).list()).data.map((r) => r.fieldData.Name)).toEqual(["seeded"]);
    await fm.close();
    await emu.close();
    await expect(startEmulator({ port: 0, layouts: [layout(FIELDS)], data: seedFile, dataDir: dir, reset: true })).rejects.toThrow(`${seedFile}: records.Items[0]["Nope"]: table "Items" has no such field`);
  });

  it("starts over with reset, and refuses a second emulator on the same folder", async () => {
    const dir = await freshDir();
    const first = await start(dir);
    await expect(start(dir)).rejects.toThrow(`${dir} is already open in this process`);
    const fm = createClient({ server: first.url, database: DB, auth: ACCOUNT });
    await fm.layout(Item).create({ fieldData: { Name: "later" } });
    await fm.close();
    await first.close();
    const again = await start(dir, FIELDS, { reset: true });
    const fm2 = createClient({ server: again.url, database: DB, auth: ACCOUNT });
    expect((await fm2.layout(Item).list()).data.map((r) => r.fieldData.Name)).toEqual(["seeded"]);
    await fm2.close();
    await again.close();
  });
});
