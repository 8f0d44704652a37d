import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { startEmulator, type RunningEmulator } from "../../src/emulator/index.js";
import type { TablesPullResult } from "../../src/pull/index.js";
import { memoryIo, PULL_PASSWORD, PULL_USER, tempDir } from "../pull/helpers.js";
import { CONTACTS_LAYOUT, INVOICES, ODD, TABLES, tableProject } from "../pull/odata-support.js";

// `fmgen pull --odata` as a command: where files go, the report, --check's exit code, --list, --json, --name, --dir,
// and the flags that belong to the layout pull refused.

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ layouts: [CONTACTS_LAYOUT], tables: TABLES, accounts: [{ username: PULL_USER, password: PULL_PASSWORD }], log: () => {} });
});
afterAll(() => emu.close());

async function pullOData(root: string, args: string[] = []): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIo();
  const code = await run(["pull", "--odata", "--config", join(root, "fmgen.config.json"), "--server", emu.url, ...args], io);
  return { code, out: io.out.join("\n"), err: io.err.join("\n") };
}

describe("fmgen pull --odata", () => {
  it("writes every table into the config's tables folder, reports, and --check exits 1 on drift only", async () => {
    const root = await tableProject();
    const check = await pullOData(root, ["--check"]);
    expect(check.code).toBe(1);
    expect(check.err).toBe(
      `fmgen pull --odata --check: the descriptions differ from the server: Contacts (no description file), Invoices (no description file), ${ODD.table} (no description file). Run "fmgen pull --odata" and commit the result.`,
    );
    expect(await readdir(join(root, "tables"))).toEqual([]);

    const first = await pullOData(root);
    expect(first.code).toBe(0);
    expect(first.out.split("\n")).toEqual([
      `fmgen pull --odata: database "Office" on ${emu.url}`,
      "Contacts -> tables/Contacts.table.json: new file, 10 fields, 1 relation",
      // $metadata states no match fields: the line that lets the emulator join the relation (docs/pull.md).
      '  note: relation "Invoices": $metadata does not state its match fields, which the emulator joins by (fmgen serve --tables serves it with no related rows): ' +
        'add "match": { "field": "<a field of Contacts>", "relatedField": "<the field of Invoices it equals>" } to relations[0] in tables/Contacts.table.json (or its reverse to relations[0] in tables/Invoices.table.json)',
      "Invoices -> tables/Invoices.table.json: new file, 4 fields, 1 relation",
      `${ODD.table} -> tables/OddNamesCo.table.json: new file, 5 fields, 0 relations`,
      "fmgen pull --odata: wrote tables/Contacts.table.json, tables/Invoices.table.json, tables/OddNamesCo.table.json, fmgen.pulled.json",
    ]);
    expect(await pullOData(root, ["--check"])).toEqual({ code: 0, out: `fmgen pull --odata --check: database "Office" on ${emu.url}\nContacts -> tables/Contacts.table.json: up to date\nInvoices -> tables/Invoices.table.json: up to date\n${ODD.table} -> tables/OddNamesCo.table.json: up to date\nfmgen pull --odata --check: 3 tables match the server`, err: "" });

    // A hand change is kept while the server says what it said at the last pull (fmgen.pulled.json): no drift.
    const file = join(root, "tables", "Invoices.table.json");
    await writeFile(file, (await readFile(file, "utf8")).replace('"name": "Amount", "type": "number"', '"name": "Amount", "type": "text"'));
    expect((await pullOData(root, ["--check", "Invoices"])).code).toBe(0);
    // Without the last pull's $metadata, the server's type wins: drift, reported with its mark.
    await rm(join(root, "fmgen.pulled.json"));
    const drift = await pullOData(root, ["--check", "Invoices"]);
    expect(drift.code).toBe(1);
    expect(drift.out).toContain('Invoices -> tables/Invoices.table.json: 1 change, 1 breaking\n  ~ field "Amount": retyped text -> number  [breaking]');
    expect(drift.err).toMatch(/differ from the server: Invoices \(1 change, 1 breaking\)/);
  });

  it("without tables in the config, writes to tables/ beside it; --dir and --name choose the file", async () => {
    const root = await tableProject({ tables: undefined, layouts: ["layouts"] });
    expect((await pullOData(root, ["Invoices"])).code).toBe(0);
    expect(await readdir(join(root, "tables"))).toEqual(["Invoices.table.json"]);
    expect((await pullOData(root, ["Contacts", "--name", "Person", "--dir", join(root, "elsewhere")])).code).toBe(0);
    expect(await readdir(join(root, "elsewhere"))).toEqual(["Person.table.json"]);
    expect(JSON.parse(await readFile(join(root, "elsewhere", "Person.table.json"), "utf8"))).toMatchObject({ table: "Contacts", name: "Person" });
  });

  it("--list prints the table occurrences; --json the whole result", async () => {
    const root = await tableProject();
    expect(await pullOData(root, ["--list"])).toEqual({ code: 0, out: `Contacts\t(FMTID:1065089)\nInvoices\t(FMTID:1065200)\n${ODD.table}\t(FMTID:1065300)`, err: "" });
    const json = await pullOData(root, ["--json", "Invoices"]);
    expect(json.code).toBe(0);
    const result = JSON.parse(json.out) as TablesPullResult;
    expect(result).toMatchObject({ database: "Office", check: false, drift: true, failed: false, written: ["tables/Invoices.table.json", "fmgen.pulled.json"], tables: [{ table: "Invoices", file: "tables/Invoices.table.json", status: "created" }] });
    expect(JSON.parse(await readFile(join(root, "tables", "Invoices.table.json"), "utf8"))).toEqual(INVOICES);
  });

  it("an unknown table is an error listing the server's; layout-only flags are usage errors", async () => {
    const root = await tableProject();
    const unknown = await pullOData(root, ["Nope"]);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toBe(`fmgen: no table occurrence "Nope" in database "Office" on ${emu.url}; its $metadata lists: "Contacts", "Invoices", ${JSON.stringify(ODD.table)}`);
    const source = await pullOData(root, ["--source", "sample"]);
    expect(source.code).toBe(2);
    expect(source.err).toMatch(/^--source and --sample choose how layouts are read; --odata reads \$metadata, so leave them out/);
    // The layout pull, in a project of tables only, points to --odata.
    const io = memoryIo();
    expect(await run(["pull", "--config", join(root, "fmgen.config.json"), "--server", emu.url], io)).toBe(2);
    expect(io.err.join("\n")).toMatch(/^no layouts to pull: the config names tables and no layouts; pull the tables with fmgen pull --odata/);
    const name = await pullOData(root, ["--name", "X"]);
    expect(name.code).toBe(2);
    expect(name.err).toMatch(/^--name names one table: pull it alone/);
  });
});

describe("fmgen init, then fmgen pull --odata", () => {
  it("a project of tables only: init writes tables into the config, and pull --odata fills that folder", async () => {
    const root = await tempDir("init-odata");
    expect(await run(["init", "--dir", root, "--server", emu.url, "--database", "Office", "--tables", "fm/tables"], memoryIo())).toBe(0);
    await writeFile(join(root, ".env"), `FM_USERNAME=${PULL_USER}\nFM_PASSWORD="${PULL_PASSWORD}"\n`);
    const io = memoryIo();
    expect(await run(["pull", "--odata", "--config", join(root, "fmgen.config.json"), "Invoices"], io)).toBe(0);
    expect(io.out.at(-1)).toBe("fmgen pull --odata: wrote fm/tables/Invoices.table.json, fmgen.pulled.json");
    expect(JSON.parse(await readFile(join(root, "fm", "tables", "Invoices.table.json"), "utf8"))).toEqual(INVOICES);
  });
});
