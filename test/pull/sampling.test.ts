import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../src/emulator/index.js";
import type { LayoutDescriptionInput } from "../../src/layout/index.js";
import type { PullResult } from "../../src/pull/index.js";
import { createClient, defineLayout } from "../../src/runtime/index.js";
import { copyExample, EXAMPLES, PULL_PASSWORD, PULL_USER, runPull, startExampleEmulator, type Emulator, type ExampleName } from "./helpers.js";

// A server without the layout metadata endpoint: fmgen pull samples records and infers each field's type from
// its wire values, on the same seed data the metadata tests use.

async function descriptionsIn(dir: string): Promise<Map<string, LayoutDescriptionInput>> {
  const out = new Map<string, LayoutDescriptionInput>();
  // Layout descriptions only: a folder may hold the database's description (<Database>.database.json) too.
  for (const file of (await readdir(dir)).filter((f) => f.endsWith(".layout.json"))) {
    const json = JSON.parse(await readFile(join(dir, file), "utf8")) as LayoutDescriptionInput;
    out.set(json.layout, json);
  }
  return out;
}

/** `layout / portal / field -> type[repetitions]` for every field of every description. */
function types(descriptions: Map<string, LayoutDescriptionInput>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [layout, d] of descriptions) {
    for (const f of d.fields) out[`${layout} / ${f.name}`] = `${f.type}${(f.repetitions ?? 1) > 1 ? `[${f.repetitions}]` : ""}`;
    for (const p of d.portals ?? []) for (const f of p.fields) out[`${layout} / ${p.name} / ${f.name}`] = f.type;
  }
  return out;
}

function uncertainOf(result: PullResult): string[] {
  return result.layouts.flatMap((l) => l.uncertain.map((u) => `${l.layout} / ${u.portal !== undefined ? `${u.portal} / ` : ""}${u.field}: ${u.type} (${u.confidence})`)).sort();
}

const UNCERTAIN: Record<ExampleName, string[]> = {
  contacts: ["Contacts Web / Photo: text (low)", "Contacts Web / Wake Up: time (medium)"],
  invoices: [
    "Customers / Invoices / Invoices::Issued: date (medium)",
    "Customers / Since: date (medium)",
    "Invoice Detail / Due: date (medium)",
    "Invoice Detail / Issued: date (medium)",
    "Invoice Detail / Modified: timestamp (medium)",
    "Invoice Detail / Notes: text (low)",
    // A global field no session has set: seen only empty.
    "Invoice Detail / gCurrency: text (low)",
  ],
};

describe.each(["contacts", "invoices"] as const)("examples/%s: fmgen pull by sampling (no metadata endpoint)", (name) => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startExampleEmulator(name, { metadata: false });
  });
  afterAll(() => emu.close());

  it("infers every field type and repetition the seed data shows, and reports the uncertain fields", async () => {
    const expected = await descriptionsIn(join(EXAMPLES, name, "layouts"));
    const root = await copyExample(name, { withLayouts: false, withState: false });
    const { code, out } = await runPull(root, emu.url, [...expected.keys(), "--json"]);
    expect(code).toBe(0);
    const result = JSON.parse(out) as PullResult;
    expect(result.layouts.map((l) => [l.layout, l.status, l.source])).toEqual([...expected.keys()].map((l) => [l, "created", "sample"]));
    expect(uncertainOf(result)).toEqual(UNCERTAIN[name]);

    const want = types(expected);
    // The seed has no photo: a field seen only empty stays text, with the warning above.
    if (name === "contacts") want["Contacts Web / Photo"] = "text";
    expect(types(await descriptionsIn(join(root, "layouts")))).toEqual(want);
  });
});

describe("sampling, after data changes", () => {
  it("retypes a field seen only empty once a value shows its type (a container after an upload)", async () => {
    const emu = await startExampleEmulator("contacts", { metadata: false });
    try {
      const root = await copyExample("contacts", { withLayouts: false, withState: false });
      expect((await runPull(root, emu.url, ["Contacts Web"])).code).toBe(0);
      const fm = createClient({ server: emu.url, database: "Contacts", auth: { username: PULL_USER, password: PULL_PASSWORD } });
      const contacts = fm.layout(defineLayout({ layout: "Contacts Web", fields: { Photo: { type: "container" } }, validate: false }));
      await contacts.upload(1, "Photo", new Blob([new Uint8Array([1, 2, 3])]), { filename: "ada.png" });
      await fm.close();

      const check = await runPull(root, emu.url, ["--check"]);
      expect(check.code).toBe(1);
      expect(check.out).toMatch(/~ field "Photo": retyped text -> container {2}\[breaking\]/);
      const again = await runPull(root, emu.url);
      expect(again.code).toBe(0);
      const written = await descriptionsIn(join(root, "layouts"));
      expect(written.get("Contacts Web")?.fields.find((f) => f.name === "Photo")).toEqual({ name: "Photo", type: "container" });
      expect((await runPull(root, emu.url, ["--check"])).code).toBe(0);
    } finally {
      await emu.close();
    }
  });
});

describe("layouts that cannot be read", () => {
  let emu: Emulator;
  let bare: Emulator;
  beforeAll(async () => {
    emu = await startExampleEmulator("contacts", { metadata: false });
    // The example's layouts with accounts but no records: every table is empty.
    bare = await startEmulator({ layouts: [join(EXAMPLES, "contacts/layouts")], accounts: [{ username: PULL_USER, password: PULL_PASSWORD }], metadata: false });
  });
  afterAll(async () => {
    await emu.close();
    await bare.close();
  });

  it("says an empty table (101 on list) gives nothing to sample, and exits 1", async () => {
    const root = await copyExample("contacts", { withLayouts: false, withState: false });
    const { code, out, err } = await runPull(root, bare.url, ["Invoices Web"]);
    expect(code).toBe(1);
    expect(out).toMatch(/Invoices Web -> .*: FAILED: layout "Invoices Web" shows no record \(the list call answers 101\), so its fields cannot be sampled: add a record, or pull from a server with the layout metadata endpoint/);
    // Every layout failed: it says so, rather than that the descriptions match the server.
    expect(err).toBe("fmgen pull: every layout failed (Invoices Web, see above); nothing written");
    expect(await readdir(root)).not.toContain("layouts");
  });

  it("says a missing layout (105) is missing, with or without metadata, and pulls the others", async () => {
    for (const server of [emu, await startExampleEmulator("contacts")]) {
      const root = await copyExample("contacts", { withLayouts: false, withState: false });
      const { code, out } = await runPull(root, server.url, ["Contacts Wbe", "Invoices Web"]);
      expect(code).toBe(1);
      // With the layout list (the metadata endpoints), the names the server has, closest first.
      const hint = server === emu ? "check the name; fmgen pull --list shows the server's layouts" : 'did you mean "Contacts Web"\\? The server\'s layouts, closest first: "Contacts Web", "Invoices Web"';
      expect(out).toMatch(new RegExp(`Contacts Wbe -> .*: FAILED: no layout named "Contacts Wbe" in database "Contacts" \\(FileMaker error 105\\): ${hint}`));
      expect(out).toMatch(/Invoices Web -> .*: new file/);
      if (server !== emu) await server.close();
    }
  });

  it("--source metadata refuses a server without the endpoint, naming its answer", async () => {
    const root = await copyExample("contacts");
    const { code, err } = await runPull(root, emu.url, ["--source", "metadata"]);
    expect(code).toBe(1);
    expect(err).toMatch(/has no layout metadata endpoint \(it answers HTTP 404, code 1630\); pull with --source sample/);
  });
});
