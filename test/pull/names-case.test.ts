import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../src/emulator/index.js";
import type { LayoutDescriptionInput } from "../../src/layout/index.js";
import { closingLine, pullTables, reportLines, tableReport, type PullResult } from "../../src/pull/index.js";
import type { TableDescriptionInput } from "../../src/table/schema.js";
import { copyExample, EXAMPLES, PULL_PASSWORD, PULL_USER, readTree, runPull, startExampleEmulator, tempDir, type Emulator } from "./helpers.js";
import { CONTACTS, CONTACTS_LAYOUT, TABLES, tableProject } from "./odata-support.js";

// A layout named in another case than the server spells it: a real server (and the emulator) finds it, as FileMaker
// matches names without regard to case. The description must name it as the server does: the generated client sends
// that name, the file name and the TypeScript name derive from it, and a later pull must see no drift.

async function readJson(path: string): Promise<LayoutDescriptionInput> {
  return JSON.parse(await readFile(path, "utf8")) as LayoutDescriptionInput;
}

describe.each([
  ["metadata", true, []],
  ["sampling", false, []],
  ["--source sample", true, ["--source", "sample"]],
] as const)("fmgen pull of a layout named in another case, read by %s", (_, metadata, source) => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startExampleEmulator("contacts", { metadata });
  });
  afterAll(() => emu.close());

  it("writes the description under the server's name, says what was asked, and a second pull sees no drift", async () => {
    const root = await copyExample("contacts", { withLayouts: false, withState: false });
    const pulled = await runPull(root, emu.url, ["contacts web", ...source]);
    expect(pulled.code).toBe(0);
    expect(pulled.out).toMatch(/^Contacts Web \(asked as "contacts web"\) -> layouts\/ContactsWeb\.layout\.json \(.*\): new file/m);
    const description = await readJson(join(root, "layouts/ContactsWeb.layout.json"));
    expect(description.layout).toBe("Contacts Web");
    const state = JSON.parse(await readFile(join(root, "fmgen.pulled.json"), "utf8")) as { layouts: { layout: string }[] };
    expect(state.layouts.map((l) => l.layout)).toEqual(["Contacts Web"]);

    const again = await runPull(root, emu.url, ["--check", ...source]);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/^Contacts Web -> layouts\/ContactsWeb\.layout\.json .*: up to date$/m);
  });

  it("finds the existing description of the layout, not a second file, and the same layout named in two spellings is pulled once", async () => {
    const root = await copyExample("contacts");
    const before = await readTree(root);
    const check = await runPull(root, emu.url, ["--check", "--json", "CONTACTS WEB", "Contacts Web", ...source]);
    expect(check.code).toBe(0);
    const result = JSON.parse(check.out) as PullResult;
    expect(result.layouts.map((l) => [l.layout, l.askedAs, l.file, l.status])).toEqual([["Contacts Web", "CONTACTS WEB", "layouts/Contact.layout.json", "unchanged"]]);
    expect(await readTree(root)).toEqual(before);
  });
});

describe("a layout the server renames in case only", () => {
  let emu: Emulator;
  beforeAll(async () => {
    const dir = await tempDir("renamed-in-case");
    await cp(join(EXAMPLES, "contacts/layouts"), dir, { recursive: true });
    const contact = await readJson(join(dir, "Contact.layout.json"));
    await writeFile(join(dir, "Contact.layout.json"), JSON.stringify({ ...contact, layout: "CONTACTS WEB" }));
    emu = await startExampleEmulator("contacts", { layouts: dir });
  });
  afterAll(() => emu.close());

  it("is drift: --check names the new spelling (not breaking), and a pull writes it into the same file", async () => {
    const root = await copyExample("contacts");
    const check = await runPull(root, emu.url, ["--check"]);
    expect(check.code).toBe(1);
    expect(check.out).toMatch(/^CONTACTS WEB \(asked as "Contacts Web"\) -> layouts\/Contact\.layout\.json \(metadata\): 1 change$/m);
    expect(check.out).toMatch(/^ {2}~ layout renamed from "Contacts Web" to "CONTACTS WEB"$/m);
    expect((await runPull(root, emu.url)).code).toBe(0);
    expect((await readJson(join(root, "layouts/Contact.layout.json"))).layout).toBe("CONTACTS WEB");
    // fmgen.pulled.json keeps one entry of the layout, under the new spelling: the old one's is replaced, not left.
    const state = JSON.parse(await readFile(join(root, "fmgen.pulled.json"), "utf8")) as { layouts: { layout: string }[] };
    expect(state.layouts.map((l) => l.layout)).toEqual(["CONTACTS WEB", "Invoices Web"]);
    const again = await runPull(root, emu.url, ["--check"]);
    expect(again.code).toBe(0);
  });
});

describe("fmgen pull --odata of a table named in another case", () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startEmulator({ layouts: [CONTACTS_LAYOUT], tables: TABLES, accounts: [{ username: PULL_USER, password: PULL_PASSWORD }], log: () => {} });
  });
  afterAll(() => emu.close());

  it("writes the table under $metadata's name, says what was asked, finds its existing file, and pulls it once", async () => {
    const root = await tableProject();
    const first = await pullTables({ cwd: root, server: emu.url, tables: ["CONTACTS"] });
    expect(first.tables.map((t) => [t.table, t.askedAs, t.status])).toEqual([["Contacts", "CONTACTS", "created"]]);
    expect(reportLines(tableReport(first))).toContainEqual(expect.stringMatching(/^Contacts \(asked as "CONTACTS"\) -> tables\/Contacts\.table\.json: new file/));
    const written = JSON.parse(await readFile(join(root, "tables/Contacts.table.json"), "utf8")) as TableDescriptionInput;
    expect(written).toEqual(CONTACTS);

    const again = await pullTables({ cwd: root, server: emu.url, tables: ["contacts", "Contacts"], check: true });
    expect(again.tables.map((t) => [t.table, t.askedAs, t.file.endsWith("Contacts.table.json"), t.status])).toEqual([["Contacts", "contacts", true, "unchanged"]]);
    expect(closingLine(tableReport(again)).line).toMatch(/1 table matches the server/);
  });
});

describe("a database named with its .fmp12 extension", () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startExampleEmulator("contacts");
  });
  afterAll(() => emu.close());

  it("pulls as the file's own name does, and the descriptions name the database as configured, so a second pull sees no drift", async () => {
    const root = await copyExample("contacts", { withLayouts: false, withState: false });
    const pulled = await runPull(root, emu.url, ["Contacts Web", "--database", "Contacts.fmp12"]);
    expect(pulled.code).toBe(0);
    expect(pulled.out).toMatch(/^fmgen pull: database "Contacts\.fmp12" on /m);
    const description = await readJson(join(root, "layouts/ContactsWeb.layout.json"));
    expect(description.database).toBe("Contacts.fmp12");
    const again = await runPull(root, emu.url, ["--check", "--database", "Contacts.fmp12"]);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/^Contacts Web -> layouts\/ContactsWeb\.layout\.json \(metadata\): up to date$/m);
    // The descriptions are of "Contacts.fmp12": a pull of "Contacts" takes them for another database's, and says so.
    const other = await runPull(root, emu.url, ["--check", "--database", "Contacts"]);
    expect(other.code).toBe(2);
    expect(other.err).toMatch(/no description file is of database "Contacts".*did you mean "Contacts\.fmp12"\?/);
  });

  it("writes the database description of the file's scripts under the name as configured", async () => {
    const invoices = await startExampleEmulator("invoices");
    try {
      const root = await copyExample("invoices", { withLayouts: false, withState: false });
      const pulled = await runPull(root, invoices.url, ["Customers", "--database", "Invoicing.fmp12"]);
      expect(pulled.code, pulled.err).toBe(0);
      expect(pulled.out).toMatch(/^scripts of "Invoicing\.fmp12" -> layouts\/InvoicingFmp12\.database\.json: new file, /m);
      const database = JSON.parse(await readFile(join(root, "layouts/InvoicingFmp12.database.json"), "utf8")) as { database: string; scripts: unknown[] };
      expect(database.database).toBe("Invoicing.fmp12");
      expect(database.scripts.length).toBeGreaterThan(0);
      expect((await runPull(root, invoices.url, ["--check", "--database", "Invoicing.fmp12"])).code).toBe(0);
    } finally {
      await invoices.close();
    }
  });
});
