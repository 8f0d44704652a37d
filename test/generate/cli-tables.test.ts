import { cp, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CliIo } from "../../src/cli/io.js";
import { run } from "../../src/cli/run.js";
import { generate } from "../../src/generate/index.js";
import { loadLayouts } from "../../src/layout/index.js";
import { loadTables } from "../../src/table/index.js";

const EXAMPLE_LAYOUTS = new URL("../../examples/contacts/layouts/", import.meta.url).pathname;
const TABLES = ["Contacts.table.json", "Invoices.table.json"].map((name) => new URL(`../golden/odata/${name}`, import.meta.url).pathname);

function memoryIo(stop: Promise<void> = new Promise(() => {})): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (l) => out.push(l), stderr: (l) => err.push(l), stopSignal: () => stop };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "fmgen-cli-tables-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The contacts example's layouts, and two table descriptions that relate both ways, in a fresh project. */
async function project(): Promise<{ root: string; layouts: string; tables: string; out: string }> {
  const root = await mkdtemp(join(dir, "project-"));
  const layouts = join(root, "layouts");
  const tables = join(root, "tables");
  await cp(EXAMPLE_LAYOUTS, layouts, { recursive: true });
  for (const file of TABLES) await cp(file, join(tables, file.slice(file.lastIndexOf("/") + 1)), { recursive: true });
  return { root, layouts, tables, out: join(root, "generated") };
}

describe("fmgen generate --tables", () => {
  it("writes a module per table beside the layouts' as generate() returns them; --check passes, then reports a changed table", async () => {
    const { layouts, tables, out } = await project();
    const io = memoryIo();
    expect(await run(["generate", "--layouts", layouts, "--tables", tables, "--out", out], io)).toBe(0);
    expect(io.out.join("\n")).toMatch(/wrote contact\.ts, wrote contacts\.table\.ts, wrote contacts\.ts, wrote index\.ts, wrote invoice\.ts, wrote invoices\.table\.ts \(6 files\)/);
    const expected = await generate(await loadLayouts([layouts]), { tables: await loadTables([tables]) });
    for (const file of expected) expect(await readFile(join(out, file.path), "utf8"), file.path).toBe(file.contents);
    // The example's database module keeps its name `Contacts`; the table Contacts yields.
    expect(await readFile(join(out, "contacts.table.ts"), "utf8")).toMatch(/^export const ContactsTable: ContactsTableDefinition = ContactsTableSpec;$/m);

    expect(await run(["generate", "--layouts", layouts, "--tables", tables, "--out", out, "--check"], memoryIo())).toBe(0);
    const invoices = join(tables, "Invoices.table.json");
    const json = JSON.parse(await readFile(invoices, "utf8")) as { fields: unknown[] };
    json.fields.push({ name: "Paid", type: "date" });
    await writeFile(invoices, JSON.stringify(json));
    const stale = memoryIo();
    expect(await run(["generate", "--layouts", layouts, "--tables", tables, "--out", out, "--check"], stale)).toBe(1);
    expect(stale.out.join("\n")).toMatch(/^\+ {4}Paid: \{ type: "date" \},$/m);
    expect(stale.err.join("\n")).toMatch(/is stale: invoices\.table\.ts \(changed\)/);
  });

  it("reads the config's tables (with or without layouts), lets --tables replace them, and deletes the module of a removed table", async () => {
    const { root, out } = await project();
    const config = join(root, "fmgen.config.json");
    await writeFile(config, JSON.stringify({ tables: ["tables/*.table.json"], outDir: "generated" }));
    expect(await run(["generate", "--config", config], memoryIo())).toBe(0);
    expect((await readdir(out)).sort()).toEqual(["contacts.table.ts", "index.ts", "invoices.table.ts"]);
    // Only tables: the table Contacts keeps its name.
    expect(await readFile(join(out, "contacts.table.ts"), "utf8")).toMatch(/^export const Contacts: ContactsDefinition = ContactsSpec;$/m);
    await writeFile(config, JSON.stringify({ layouts: ["layouts"], tables: ["tables"], outDir: "generated" }));
    expect(await run(["generate", "--config", config], memoryIo())).toBe(0);
    expect((await readdir(out)).sort()).toEqual(["contact.ts", "contacts.table.ts", "contacts.ts", "index.ts", "invoice.ts", "invoices.table.ts"]);
    // --tables replaces the config's tables, and keeps its layouts. Invoices is gone, so Contacts' relation to it is refused.
    const io = memoryIo();
    expect(await run(["generate", "--config", config, "--tables", join(root, "tables/Contacts.table.json")], io)).toBe(1);
    expect(io.err.join("\n")).toMatch(/Contacts\.table\.json: relations\[0\]\.table: names no table of database "Contacts": "Invoices"/);
    const contacts = join(root, "tables/Contacts.table.json");
    const json = JSON.parse(await readFile(contacts, "utf8")) as { relations?: { table: string }[] };
    json.relations = json.relations!.filter((r) => r.table !== "Invoices");
    await writeFile(contacts, JSON.stringify(json));
    const removed = memoryIo();
    expect(await run(["generate", "--config", config, "--tables", contacts], removed)).toBe(0);
    expect(removed.out.join("\n")).toMatch(/deleted invoices\.table\.ts/);
    expect((await readdir(out)).sort()).toEqual(["contact.ts", "contacts.table.ts", "contacts.ts", "index.ts", "invoice.ts"]);
  });

  it("is a usage error (exit 2) with --tables and no output folder, and names a bad table description (exit 1), writing nothing", async () => {
    const none = memoryIo();
    expect(await run(["generate", "--tables", TABLES[0]!], none)).toBe(2);
    expect(none.err.join("\n")).toMatch(/needs --out and --layouts, --tables or both/);
    const { tables, out } = await project();
    await writeFile(join(tables, "Broken.table.json"), '{ "database": "Contacts", "table": "B", "fields": [{ "name": "a", "type": "txt" }] }');
    const io = memoryIo();
    expect(await run(["generate", "--tables", tables, "--out", out], io)).toBe(1);
    expect(io.err.join("\n")).toMatch(/Broken\.table\.json: fields\[0\]\.type/);
    await expect(readdir(out)).rejects.toThrow();
  });

  it("--watch regenerates when a table description changes", async () => {
    const { tables, out } = await project();
    let stop!: () => void;
    const io = memoryIo(new Promise<void>((resolve) => (stop = resolve)));
    const done = run(["generate", "--tables", tables, "--out", out, "--watch"], io);
    await expect.poll(() => io.out.join("\n"), { timeout: 5000 }).toMatch(/wrote contacts\.table\.ts/);
    const invoices = join(tables, "Invoices.table.json");
    const json = JSON.parse(await readFile(invoices, "utf8")) as { fields: unknown[] };
    json.fields.push({ name: "Paid", type: "date" });
    await writeFile(invoices, JSON.stringify(json));
    await expect.poll(() => io.out.join("\n"), { timeout: 5000 }).toMatch(/: wrote invoices\.table\.ts \(3 files\)/);
    expect(await readFile(join(out, "invoices.table.ts"), "utf8")).toContain('Paid: { type: "date" }');
    stop();
    expect(await done).toBe(0);
  });
});
