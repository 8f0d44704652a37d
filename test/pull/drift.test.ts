import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../src/emulator/index.js";
import type { LayoutDescriptionInput } from "../../src/layout/index.js";
import { formatJson } from "../../src/project/index.js";
import type { PullResult } from "../../src/pull/index.js";
import { copyExample, EXAMPLES, PULL_PASSWORD, PULL_USER, readTree, runPull, startExampleEmulator, tempDir, tokenRecordingProxy, type Emulator } from "./helpers.js";

const CONTACT = "layouts/Contact.layout.json";

async function readJson(path: string): Promise<LayoutDescriptionInput> {
  return JSON.parse(await readFile(path, "utf8")) as LayoutDescriptionInput;
}

/**
 * The live server changed: an emulator on modified copies of the example's descriptions, where "Nickname" was
 * added, "Photo" removed and "Wake Up" turned from a time field into a text field. Sampling sees a retype only in
 * the values, so for it the seed's "Wake Up" values become words a time field could not hold.
 */
async function startChangedServer(metadata: boolean): Promise<Emulator> {
  const dir = await tempDir("changed-server");
  await cp(join(EXAMPLES, "contacts/layouts"), dir, { recursive: true });
  const contact = await readJson(join(dir, "Contact.layout.json"));
  contact.fields = contact.fields
    .filter((f) => f.name !== "Photo")
    .map((f) => (f.name === "Wake Up" ? { ...f, type: "text" as const } : f));
  contact.fields.splice(3, 0, { name: "Nickname", type: "text" });
  await writeFile(join(dir, "Contact.layout.json"), JSON.stringify(contact));
  const seed = JSON.parse(await readFile(join(EXAMPLES, "contacts/seed.json"), "utf8")) as { records: Record<string, Record<string, string | number>[]> };
  if (!metadata) for (const record of seed.records.Contacts ?? []) if (record["Wake Up"] !== undefined) record["Wake Up"] = "early";
  return startEmulator({ layouts: [dir], data: seed, accounts: [{ username: PULL_USER, password: PULL_PASSWORD }], metadata });
}

describe.each([
  ["metadata", true],
  ["sampling", false],
] as const)("drift on the live server, read by %s", (_, metadata) => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startChangedServer(metadata);
  });
  afterAll(() => emu.close());

  it("--check names the added, removed and retyped fields, marks the breaking ones, exits 1 and writes nothing; after a pull it exits 0", async () => {
    const root = await copyExample("contacts");
    const before = await readTree(root);

    const check = await runPull(root, emu.url, ["--check"]);
    expect(check.code).toBe(1);
    expect(check.out).toMatch(/^Contacts Web -> layouts\/Contact\.layout\.json \((metadata|sampled 4 records)\): 3 changes, 2 breaking$/m);
    expect(check.out).toMatch(/^ {2}\+ field "Nickname" \(text\)$/m);
    expect(check.out).toMatch(/^ {2}- field "Photo" \(container\) {2}\[breaking\]$/m);
    expect(check.out).toMatch(/^ {2}~ field "Wake Up": retyped time -> text {2}\[breaking\]$/m);
    expect(check.out).toMatch(/^Invoices Web -> layouts\/Invoice\.layout\.json .*: up to date$/m);
    expect(check.err).toMatch(/the descriptions differ from the server: Contacts Web \(3 changes, 2 breaking\)\. Run "fmgen pull" and commit the result\./);
    expect(await readTree(root)).toEqual(before);

    const json = await runPull(root, emu.url, ["--check", "--json"]);
    expect(json.code).toBe(1);
    const result = JSON.parse(json.out) as PullResult;
    expect(result.drift).toBe(true);
    expect(result.layouts[0]!.changes.map((c) => [c.kind, c.name, c.breaking])).toEqual([
      ["added", "Nickname", false],
      ["retyped", "Wake Up", true],
      ["removed", "Photo", true],
    ]);

    const pulled = await runPull(root, emu.url);
    expect(pulled.code).toBe(0);
    expect(pulled.out).toMatch(/wrote layouts\/Contact\.layout\.json, fmgen\.pulled\.json/);
    const contact = await readJson(join(root, CONTACT));
    expect(contact.fields.map((f) => f.name)).toEqual(["id", "First Name", "Last Name", "Nickname", "Email", "Status", "Birthday", "Wake Up", "Created", "Modified", "Phone", "Company::Name"]);
    expect(contact.fields.find((f) => f.name === "Wake Up")).toEqual({ name: "Wake Up", type: "text" });

    const again = await runPull(root, emu.url, ["--check"]);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/fmgen pull --check: 2 layouts match the server/);
  });
});

describe("hand edits survive a pull", () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startExampleEmulator("contacts");
  });
  afterAll(() => emu.close());

  it("keeps names, descriptions, type overrides, unique, relations, auto-enter kinds, exact, table names and field order", async () => {
    const root = await copyExample("contacts");
    const contact = await readJson(join(root, CONTACT));
    contact.name = "Person";
    contact.description = "People we know.";
    const byName = new Map(contact.fields.map((f) => [f.name, f]));
    byName.get("Email")!.description = "Where invoices go.";
    byName.get("Wake Up")!.type = "text"; // a type override: the raw string, not a time
    byName.get("Last Name")!.unique = true;
    byName.get("Created")!.autoEnter = "modificationTimestamp";
    byName.get("id")!.exact = true; // the file's flag: the server never states it
    contact.fields = [byName.get("Email")!, ...contact.fields.filter((f) => f.name !== "Email")];
    const portal = contact.portals![0]!;
    portal.table = "InvoiceRecords";
    portal.relation = { parentField: "id", childField: "ContactID" };
    portal.fields.find((f) => f.name === "Invoices::Amount")!.exact = true;
    const edited = `${JSON.stringify(contact, null, 2)}\n`;
    await writeFile(join(root, CONTACT), edited);
    const state = await readFile(join(root, "fmgen.pulled.json"), "utf8");

    for (const source of ["auto", "sample", "auto"]) {
      const { code, out } = await runPull(root, emu.url, ["--source", source]);
      expect(code, out).toBe(0);
      expect(out).toMatch(/Contacts Web -> layouts\/Contact\.layout\.json \(.*\): up to date/);
      expect(await readJson(join(root, CONTACT))).toEqual(contact);
      expect(await runPull(root, emu.url, ["--check", "--source", source]).then((r) => r.code)).toBe(0);
    }
    // The first pull rewrote the file in fmgen's layout (one line per field); the content is the hand-edited one.
    expect(await readFile(join(root, CONTACT), "utf8")).not.toBe(edited);
    expect(await readFile(join(root, "fmgen.pulled.json"), "utf8")).toBe(state);
  });
});

describe("a hand-written validate survives a pull", () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startExampleEmulator("contacts");
  });
  afterAll(() => emu.close());

  it("keeps validate on layout and portal fields through pulls by metadata and by sampling; --check sees no drift", async () => {
    const root = await copyExample("contacts");
    const contact = await readJson(join(root, CONTACT));
    const byName = new Map(contact.fields.map((f) => [f.name, f]));
    byName.get("Email")!.validate = "always";
    byName.get("First Name")!.validate = "dataEntry";
    contact.portals![0]!.fields[0]!.validate = "always";
    // Written as fmgen writes it, so that only a change of content would show.
    await writeFile(join(root, CONTACT), formatJson(contact));
    const edited = await readFile(join(root, CONTACT), "utf8");

    for (const source of ["auto", "sample"]) {
      expect(await runPull(root, emu.url, ["--check", "--source", source]).then((r) => [r.code, r.out])).toEqual([0, expect.stringMatching(/2 layouts match the server/)]);
      const { code, out } = await runPull(root, emu.url, ["--source", source]);
      expect(code, out).toBe(0);
      expect(out).toMatch(/Contacts Web -> layouts\/Contact\.layout\.json \(.*\): up to date/);
      expect(await readFile(join(root, CONTACT), "utf8")).toBe(edited);
    }
  });
});

describe("credentials never reach the disk", () => {
  it("no written file, and no report, holds the password or a session token; the session is logged out", async () => {
    const emu = await startExampleEmulator("contacts");
    const proxy = await tokenRecordingProxy(emu.url);
    try {
      const fresh = await copyExample("contacts", { withLayouts: false, withState: false });
      const existing = await copyExample("contacts");
      await writeFile(join(existing, CONTACT), (await readFile(join(existing, CONTACT), "utf8")).replace('"Email", "type": "text"', '"Email", "type": "number"'));
      const reports: string[] = [];
      for (const args of [["Contacts Web", "Invoices Web"], ["--json"], ["--source", "sample"], ["--check"]]) {
        for (const root of [fresh, existing]) {
          const { out, err } = await runPull(root, proxy.url, args);
          reports.push(out, err);
        }
      }
      expect(proxy.tokens.size).toBeGreaterThan(0);
      expect(emu.stats().activeSessions).toBe(0);
      const files = new Map([...(await readTree(fresh)), ...(await readTree(existing))]);
      expect([...files.keys()].some((f) => f.endsWith("Contact.layout.json") || f.endsWith("ContactsWeb.layout.json"))).toBe(true);
      for (const [path, text] of files) {
        // The project's own .env holds the password by design; it is read, never written.
        if (path.endsWith(".env")) continue;
        expect(text, path).not.toContain(PULL_PASSWORD);
        for (const token of proxy.tokens) expect(text, path).not.toContain(token);
      }
      for (const report of reports) {
        expect(report).not.toContain(PULL_PASSWORD);
        for (const token of proxy.tokens) expect(report).not.toContain(token);
      }
    } finally {
      await proxy.close();
      await emu.close();
    }
  });
});
