import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../src/emulator/index.js";
import { changeLine, closingLine, pullTables, reportLines, tableReport, type TablesPullResult } from "../../src/pull/index.js";
import { loadTables } from "../../src/table/index.js";
import type { TableDescriptionInput } from "../../src/table/schema.js";
import { LAYOUTS, startOffice } from "../emulator/odata/serve-support.js";
import { PULL_PASSWORD, PULL_USER } from "./helpers.js";
import { CONTACTS, CONTACTS_LAYOUT, DB, fmfid, INVOICES, ODD, TABLES, tableProject } from "./odata-support.js";

// `fmgen pull --odata` against the emulator over loopback: the table descriptions it is given come back from its
// `$metadata` as they were (every annotation a description holds); a layouts-only emulator gives sensible tables;
// hand edits survive a pull; a rename in FileMaker (same FMFID/FMTID) is reported as one.

const accounts = [{ username: PULL_USER, password: PULL_PASSWORD }];
const start = (tables: readonly TableDescriptionInput[]) => startEmulator({ layouts: [CONTACTS_LAYOUT], tables, accounts, log: () => {} });

async function readTables(root: string): Promise<Map<string, TableDescriptionInput>> {
  const out = new Map<string, TableDescriptionInput>();
  for (const file of (await readdir(join(root, "tables"))).sort()) out.set(file, JSON.parse(await readFile(join(root, "tables", file), "utf8")) as TableDescriptionInput);
  return out;
}

const statuses = (result: TablesPullResult) => result.tables.map((t) => [t.table, t.status]);

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await start(TABLES);
});
afterAll(() => emu.close());

describe("fmgen pull --odata: round trip through the emulator's $metadata", () => {
  it("gives back the table descriptions the emulator was given, ids, key, relations, repetitions and comments included", async () => {
    const root = await tableProject();
    const result = await pullTables({ cwd: root, server: emu.url });
    expect(statuses(result)).toEqual([
      ["Contacts", "created"],
      ["Invoices", "created"],
      [ODD.table, "created"],
    ]);
    expect(result.failed).toBe(false);
    const files = await readTables(root);
    expect([...files.keys()]).toEqual(["Contacts.table.json", "Invoices.table.json", "OddNamesCo.table.json"]);
    expect(files.get("Contacts.table.json")).toEqual(CONTACTS);
    expect(files.get("Invoices.table.json")).toEqual(INVOICES);
    expect(files.get("OddNamesCo.table.json")).toEqual(ODD);
    // The files load as one valid set, as generate and the emulator read them.
    expect((await loadTables([join(root, "tables")])).map((t) => t.name)).toEqual(["Contacts", "Invoices", "OddNamesCo"]);

    const again = await pullTables({ cwd: root, server: emu.url });
    expect(statuses(again).map(([, s]) => s)).toEqual(["unchanged", "unchanged", "unchanged"]);
    expect(again).toMatchObject({ written: [], drift: false });
    expect((await pullTables({ cwd: root, server: emu.url, check: true })).drift).toBe(false);
  });

  it("pulls only the tables named, and refuses an unknown name listing what exists", async () => {
    const root = await tableProject();
    const one = await pullTables({ cwd: root, server: emu.url, tables: ["Invoices"], name: "Bill" });
    expect(statuses(one)).toEqual([["Invoices", "created"]]);
    expect([...(await readTables(root)).entries()]).toEqual([["Bill.table.json", { ...INVOICES, name: "Bill" }]]);
    await expect(pullTables({ cwd: root, server: emu.url, tables: ["Invoices", "Nope"] })).rejects.toThrow(
      `no table occurrence "Nope" in database "Office" on ${emu.url}; its $metadata lists: "Contacts", "Invoices", ${JSON.stringify(ODD.table)}`,
    );
  });

  it("describes a layouts-only emulator's tables: key, read-only calculation, repetitions, container, relation", async () => {
    const office = await startOffice(0, { accounts, log: () => {} });
    try {
      const root = await tableProject();
      const result = await pullTables({ cwd: root, server: office.url });
      expect(statuses(result)).toEqual([
        ["Contacts", "created"],
        ["Notes", "created"],
      ]);
      const files = await readTables(root);
      const contacts = files.get("Contacts.table.json")!;
      expect(contacts).toMatchObject({ database: DB, table: "Contacts", key: "id", relations: [{ name: "Notes", table: "Notes", many: true }] });
      const field = (name: string) => contacts.fields.find((f) => f.name === name);
      expect(field("id")).toMatchObject({ type: "text", notNull: true, autoEnter: "uuid" });
      expect(field("Label")).toMatchObject({ type: "text", readOnly: true });
      expect(field("Tags")).toMatchObject({ repetitions: 2 });
      expect(field("Photo")).toMatchObject({ type: "container" });
      expect(contacts.fields.map((f) => f.type)).toEqual(["text", "text", "number", "date", "time", "timestamp", "container", "text", "text"]);
      // Notes is keyless: rows are addressed by ROWID.
      expect(files.get("Notes.table.json")!.key).toBeUndefined();
      expect(await loadTables([join(root, "tables")])).toHaveLength(2);
      // Served back beside the same layouts, the pulled tables are the same tables: a second pull changes nothing.
      const again = await startEmulator({ layouts: LAYOUTS, tables: [join(root, "tables")], accounts, log: () => {} });
      try {
        expect(statuses(await pullTables({ cwd: root, server: again.url, check: true }))).toEqual([
          ["Contacts", "unchanged"],
          ["Notes", "unchanged"],
        ]);
      } finally {
        await again.close();
      }
    } finally {
      await office.close();
    }
  });
});

describe("fmgen pull --odata: merging into the files", () => {
  it("keeps hand edits: TypeScript name, descriptions, an auto-enter kind the server leaves open, $schema, and a type the server still states as at the last pull", async () => {
    const root = await tableProject();
    await pullTables({ cwd: root, server: emu.url });
    const contactsFile = join(root, "tables", "Contacts.table.json");
    const invoicesFile = join(root, "tables", "Invoices.table.json");
    const edited: TableDescriptionInput = {
      ...CONTACTS,
      $schema: "../schema/table.schema.json",
      name: "Person",
      description: "Everyone we bill",
      fields: CONTACTS.fields.map((f) =>
        f.name === "id" ? { ...f, autoEnter: "serial" as const } : f.name === "Age" ? { ...f, type: "text" as const, description: "in years" } : f.name === "Name" ? { ...f, description: "Shown on invoices" } : f,
      ),
    };
    await writeFile(contactsFile, JSON.stringify(edited));
    const invoices = JSON.parse(await readFile(invoicesFile, "utf8")) as TableDescriptionInput;
    // Created carries no VersionID: a modification timestamp without one is as likely as a creation timestamp.
    // Amount's values travel as decimal text: the file's flag, which $metadata never states.
    await writeFile(invoicesFile, JSON.stringify({ ...invoices, fields: invoices.fields.map((f) => (f.name === "Created" ? { ...f, autoEnter: "modificationTimestamp" } : f.name === "Amount" ? { ...f, exact: true } : f)) }));

    const result = await pullTables({ cwd: root, server: emu.url });
    const contacts = result.tables.find((t) => t.table === "Contacts")!;
    // The server still says number, as at the last pull: Age's hand-set type is kept, and nothing changes.
    expect(contacts.status).toBe("reformatted");
    expect(contacts.changes).toEqual([]);
    // (Beside the note on its relation's match fields: the next test.)
    expect(contacts.notes.filter((n) => !n.startsWith("relation "))).toEqual(['field "Age": your type text is kept (the server says number, as at the last pull)']);
    const after = JSON.parse(await readFile(contactsFile, "utf8")) as TableDescriptionInput;
    expect(after).toMatchObject({ $schema: "../schema/table.schema.json", name: "Person", description: "Everyone we bill" });
    expect(after.fields.find((f) => f.name === "id")!.autoEnter).toBe("serial");
    expect(after.fields.find((f) => f.name === "Age")).toEqual({ name: "Age", type: "text", id: fmfid(3, 1065089), description: "in years" });
    expect(after.fields.find((f) => f.name === "Name")!.description).toBe("Shown on invoices");
    expect(result.tables.find((t) => t.table === "Invoices")!.status).toBe("reformatted");
    expect((JSON.parse(await readFile(invoicesFile, "utf8")) as TableDescriptionInput).fields.find((f) => f.name === "Created")!.autoEnter).toBe("modificationTimestamp");
    expect((JSON.parse(await readFile(invoicesFile, "utf8")) as TableDescriptionInput).fields.find((f) => f.name === "Amount")!.exact).toBe(true);

    // Once the server retypes Age, its type wins over the hand edit: the one change.
    const retyped = await start([{ ...CONTACTS, fields: CONTACTS.fields.map((f) => (f.name === "Age" ? { ...f, type: "date" as const } : f)) }, INVOICES, ODD]);
    try {
      const next = await pullTables({ cwd: root, server: retyped.url, tables: ["Contacts"] });
      expect(next.tables[0]!.changes.map(changeLine)).toEqual(['~ field "Age": retyped text -> date  [breaking]']);
      expect((JSON.parse(await readFile(contactsFile, "utf8")) as TableDescriptionInput).fields.find((f) => f.name === "Age")).toEqual({ name: "Age", type: "date", id: fmfid(3, 1065089), description: "in years" });
    } finally {
      await retyped.close();
    }
  });

  it("keeps the tables' last $metadata in fmgen.pulled.json beside the layouts'; a file from before, without tables, is no base", async () => {
    const root = await tableProject();
    const stateFile = join(root, "fmgen.pulled.json");
    const layouts = [{ database: DB, layout: "Contacts Web", source: "metadata", table: "Contacts", fields: [{ name: "Name", type: "text" }] }];
    const old = JSON.stringify({ $comment: "Written by fmgen pull", layouts });
    await writeFile(stateFile, old);
    const file = join(root, "tables", "Contacts.table.json");
    const withLength = (maxLength: number) => ({ ...CONTACTS, fields: CONTACTS.fields.map((f) => (f.name === "Name" ? { ...f, maxLength } : f)) });
    await writeFile(file, JSON.stringify(withLength(80)));

    // No base for the table yet: the server's maxLength wins, as before tables had one.
    const first = await pullTables({ cwd: root, server: emu.url, tables: ["Contacts"] });
    expect(first.tables[0]!.changes.map(changeLine)).toEqual(['~ field "Name": maxLength 80 -> 40  [breaking]']);
    const state = JSON.parse(await readFile(stateFile, "utf8")) as { layouts: unknown[]; tables: { table: string; fields: { name: string; maxLength?: number }[] }[] };
    expect(state.layouts).toEqual(layouts);
    expect(state.tables.map((t) => t.table)).toEqual(["Contacts"]);
    expect(state.tables[0]!.fields.find((f) => f.name === "Name")).toEqual({ name: "Name", id: fmfid(2, 1065089), type: "text", maxLength: 40 });

    // With the base, the same hand edit survives while the server says 40, and --check sees no drift.
    await writeFile(file, JSON.stringify(withLength(80)));
    expect((await pullTables({ cwd: root, server: emu.url, tables: ["Contacts"] })).tables[0]!.changes).toEqual([]);
    expect((JSON.parse(await readFile(file, "utf8")) as TableDescriptionInput).fields.find((f) => f.name === "Name")!.maxLength).toBe(80);
    expect((await pullTables({ cwd: root, server: emu.url, tables: ["Contacts"], check: true })).drift).toBe(false);
  });

  it("--check reports drift and writes nothing; a rename in FileMaker (same id) is a rename, not a removal and an addition", async () => {
    const root = await tableProject();
    await pullTables({ cwd: root, server: emu.url });
    const before = await readTables(root);
    // The same file after changes in FileMaker: Contacts' Age renamed Years, Alarm deleted, Email added (not empty,
    // no auto-enter: breaking); the odd table renamed.
    const changed = await start([
      {
        ...CONTACTS,
        fields: [
          ...CONTACTS.fields.filter((f) => f.name !== "Alarm").map((f) => (f.name === "Age" ? { ...f, name: "Years" } : f)),
          { name: "Email", type: "text", notNull: true, id: fmfid(11, 1065089) },
        ],
      },
      INVOICES,
      { ...ODD, table: "Odd Renamed" },
    ]);
    try {
      const check = await pullTables({ cwd: root, server: changed.url, check: true });
      expect(check).toMatchObject({ drift: true, written: [] });
      expect(await readTables(root)).toEqual(before);
      const lines = (table: string) => check.tables.find((t) => t.table === table)!.changes.map(changeLine);
      expect(lines("Contacts")).toEqual([
        '~ field "Years": renamed from "Age" (same id)  [breaking]',
        '+ field "Email" (text)  [breaking]',
        '- field "Alarm" (time)  [breaking]',
      ]);
      expect(lines("Odd Renamed")).toEqual([`~ table renamed from ${JSON.stringify(ODD.table)} to "Odd Renamed" (same id)`]);
      expect(statuses(check)).toEqual([
        ["Contacts", "updated"],
        ["Invoices", "unchanged"],
        ["Odd Renamed", "updated"],
      ]);

      const written = await pullTables({ cwd: root, server: changed.url });
      expect(written.written.map((f) => f.slice(root.length + 1))).toEqual(["tables/Contacts.table.json", "tables/OddNamesCo.table.json", "fmgen.pulled.json"]);
      // The renamed table stays in its file and keeps its TypeScript name, so generated exports keep theirs.
      expect((await readTables(root)).get("OddNamesCo.table.json")).toEqual({ ...ODD, table: "Odd Renamed", name: "OddNamesCo" });
      expect((await pullTables({ cwd: root, server: changed.url, check: true })).drift).toBe(false);
    } finally {
      await changed.close();
    }
  });

  it("a field inserted mid-table and a table added on a server whose descriptions pin no ids: one added field, no renames", async () => {
    // The emulator's own descriptions without ids: it derives them from the names (docs/emulator.md, "`$metadata`").
    const unpinned = (t: TableDescriptionInput): TableDescriptionInput => {
      const { id: _tableId, ...rest } = t;
      return { ...rest, fields: t.fields.map(({ id: _fieldId, ...f }) => f) };
    };
    const served = [unpinned(CONTACTS), unpinned(INVOICES)];
    const first = await start(served);
    const root = await tableProject();
    try {
      await pullTables({ cwd: root, server: first.url });
    } finally {
      await first.close();
    }
    const before = await readTables(root);
    // Restarted on edited descriptions: "Email" inserted before "Age", a table "Audit" added (its name sorts first).
    const contacts = served[0]!;
    const at = contacts.fields.findIndex((f) => f.name === "Age");
    const edited = { ...contacts, fields: [...contacts.fields.slice(0, at), { name: "Email", type: "text" as const }, ...contacts.fields.slice(at)] };
    const audit: TableDescriptionInput = { database: DB, table: "Audit", fields: [{ name: "Event", type: "text" }] };
    const restarted = await start([edited, served[1]!, audit]);
    try {
      const check = await pullTables({ cwd: root, server: restarted.url, check: true });
      expect(check.tables.map((t) => [t.table, t.status, t.changes.map(changeLine)])).toEqual([
        ["Audit", "created", []],
        ["Contacts", "updated", ['+ field "Email" (text)']],
        ["Invoices", "unchanged", []],
      ]);
      expect(await readTables(root)).toEqual(before);
      // Pulled, every other field keeps the id it had; the generated module's ids stay.
      await pullTables({ cwd: root, server: restarted.url });
      const after = (await readTables(root)).get("Contacts.table.json")!;
      const idsOf = (t: TableDescriptionInput) => new Map(t.fields.map((f) => [f.name, f.id]));
      const old = idsOf(before.get("Contacts.table.json")!);
      for (const [name, id] of idsOf(after)) if (name !== "Email") expect(id, name).toBe(old.get(name));
      expect(after.id).toBe(before.get("Contacts.table.json")!.id);
      expect((await readTables(root)).get("Invoices.table.json")).toEqual(before.get("Invoices.table.json"));
    } finally {
      await restarted.close();
    }
  });

  it("a fresh pull starts the emulator as it is: a relation $metadata gives no match fields for is served, and the note names the line that joins it", async () => {
    const root = await tableProject();
    const pulled = await pullTables({ cwd: root, server: emu.url });
    const notesOf = (result: TablesPullResult, table: string) => result.tables.find((t) => t.table === table)!.notes;
    // $metadata never states a relation's match fields: one note per relationship, on its first table, naming the line.
    const line = 'add "match": { "field": "<a field of Contacts>", "relatedField": "<the field of Invoices it equals>" } to relations[0] in tables/Contacts.table.json';
    expect(notesOf(pulled, "Contacts").filter((n) => n.startsWith('relation "Invoices"'))).toEqual([
      `relation "Invoices": $metadata does not state its match fields, which the emulator joins by (fmgen serve --tables serves it with no related rows): ${line} (or its reverse to relations[0] in tables/Invoices.table.json)`,
    ]);
    expect(notesOf(pulled, "Invoices").filter((n) => n.startsWith("relation"))).toEqual([]);
    const tables = [join(root, "tables")];
    const served = await startEmulator({ tables, accounts, log: () => {} });
    const expand = async (url: string) => {
      const res = await fetch(`${url}/fmi/odata/v4/${DB}/Contacts?$expand=Invoices`, { headers: { Authorization: `Basic ${Buffer.from(`${PULL_USER}:${PULL_PASSWORD}`).toString("base64")}` } });
      return { status: res.status, body: (await res.json()) as { value: { Invoices: unknown[] }[] } };
    };
    try {
      expect((await expand(served.url)).status).toBe(200);
    } finally {
      await served.close();
    }
    // The line added, the emulator joins by it; the next pull keeps it and has no note for it.
    const file = join(root, "tables", "Contacts.table.json");
    const contacts = JSON.parse(await readFile(file, "utf8")) as TableDescriptionInput;
    await writeFile(file, JSON.stringify({ ...contacts, relations: [{ ...contacts.relations![0]!, match: { field: "id", relatedField: "ContactId" } }] }));
    const joined = await startEmulator({ tables, accounts, log: () => {}, data: { records: { Contacts: [{ id: "c1", Name: "Ada" }], Invoices: [{ ContactId: "c1", Amount: 5 }] } } });
    try {
      const answer = await expand(joined.url);
      expect(answer.body.value.map((c) => c.Invoices.length)).toEqual([1]);
    } finally {
      await joined.close();
    }
    // Invoices' file written anew: its relation back joins by Contacts' match, so no note on either.
    await rm(join(root, "tables", "Invoices.table.json"));
    const again = await pullTables({ cwd: root, server: emu.url });
    expect(again.tables.find((t) => t.table === "Invoices")!.status).toBe("created");
    expect(again.tables.flatMap((t) => t.notes).filter((n) => n.startsWith("relation"))).toEqual([]);
    expect((JSON.parse(await readFile(file, "utf8")) as TableDescriptionInput).relations).toEqual([{ name: "Invoices", table: "Invoices", many: true, match: { field: "id", relatedField: "ContactId" } }]);
    expect((await pullTables({ cwd: root, server: emu.url, check: true })).drift).toBe(false);
  });

  it("notes auto-entered fields a server that marks no protected field leaves writable, naming the line that protects one", async () => {
    // No field is read-only with auto-enter, so the document has no Computed: a server before 26 writes none.
    const plain = await start([{ ...INVOICES, fields: INVOICES.fields.map(({ readOnly: _r, ...f }) => f) }, { ...CONTACTS, fields: CONTACTS.fields.filter((f) => f.name !== "Changed") }, ODD]);
    try {
      const root = await tableProject();
      const result = await pullTables({ cwd: root, server: plain.url, tables: ["Invoices"] });
      expect(result.tables[0]!.notes.filter((n) => n.startsWith("field "))).toEqual([
        'field "InvoiceNo": auto-entered, and $metadata does not say whether it is protected from edits: if it is, add "readOnly": true to fields[0] in tables/Invoices.table.json',
        'field "Created": auto-entered, and $metadata does not say whether it is protected from edits: if it is, add "readOnly": true to fields[3] in tables/Invoices.table.json',
      ]);
      // Where the server marks protected fields (Computed), an auto-entered field it leaves unmarked is writable: no note.
      expect((await pullTables({ cwd: root, server: emu.url, tables: ["Invoices"] })).tables[0]!.notes.filter((n) => n.startsWith("field "))).toEqual([]);
    } finally {
      await plain.close();
    }
  });

  it("reports a described table the server no longer lists, and leaves descriptions of another database alone", async () => {
    const root = await tableProject();
    await writeFile(join(root, "tables", "Gone.table.json"), JSON.stringify({ database: DB, table: "Gone", id: "FMTID:1065999", fields: [{ name: "x", type: "text" }] }));
    await writeFile(join(root, "tables", "Other.table.json"), JSON.stringify({ database: "Elsewhere", table: "T", fields: [{ name: "x", type: "text" }] }));
    const result = await pullTables({ cwd: root, server: emu.url, tables: [] });
    expect(result.failed).toBe(true);
    expect(result.tables.at(-1)).toMatchObject({ table: "Gone", status: "failed", error: 'the server lists no table occurrence "Gone" (or FMTID:1065999): delete the file if the table is gone, or fix its "table"' });
    expect(result.skipped).toEqual([join(root, "tables", "Other.table.json")]);
    // Reported as a layout pull reports a failed layout: the others written, the failed one named.
    expect(closingLine(tableReport(result))).toEqual({
      line: "fmgen pull --odata: wrote tables/Contacts.table.json, tables/Invoices.table.json, tables/OddNamesCo.table.json, fmgen.pulled.json; failed: Gone, see above",
      toStderr: true,
    });
    expect(reportLines(tableReport(result)).slice(-2)).toEqual([
      `Gone -> tables/Gone.table.json: FAILED: the server lists no table occurrence "Gone" (or FMTID:1065999): delete the file if the table is gone, or fix its "table"`,
      "skipped tables/Other.table.json: it describes another database",
    ]);

    // Two files of one table would each claim it: refused before any request, naming both.
    await writeFile(join(root, "tables", "Gone2.table.json"), JSON.stringify({ database: DB, table: "Gone", fields: [{ name: "x", type: "text" }] }));
    await expect(pullTables({ cwd: root, server: emu.url })).rejects.toThrow(/Gone2\.table\.json.*table: table "Gone" of database "Office" is also described by .*Gone\.table\.json/s);
  });
});
