import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FieldDescription, LayoutDescriptionInput, PortalDescription } from "../../src/layout/index.js";
import { run } from "../../src/cli/run.js";
import { copyExample, EXAMPLE_NAMES, EXAMPLES, memoryIo, PULL_PASSWORD, PULL_USER, readTree, runPull, startExampleEmulator, tempDir, type Emulator } from "./helpers.js";

// "Pull from metadata reproduces each example's description files exactly": over the committed files nothing
// changes, byte for byte; into an empty project it writes everything but what only a person can say.

async function exampleDescriptions(name: string): Promise<Map<string, { file: string; text: string; json: LayoutDescriptionInput }>> {
  const dir = join(EXAMPLES, name, "layouts");
  const out = new Map<string, { file: string; text: string; json: LayoutDescriptionInput }>();
  // Layout descriptions only: a folder may hold the database's description (<Database>.database.json) too.
  for (const file of (await readdir(dir)).filter((f) => f.endsWith(".layout.json")).sort()) {
    const text = await readFile(join(dir, file), "utf8");
    const json = JSON.parse(text) as LayoutDescriptionInput;
    out.set(json.layout, { file, text, json });
  }
  return out;
}

/**
 * A description without what the metadata endpoint cannot tell: the TypeScript name, descriptions, `unique`, `exact`
 * (pull proposes it in a note, never sets it), relations, the auto-enter kind and `readOnly` of protected auto-enter
 * fields, and `$schema`.
 */
function serverVisible(description: LayoutDescriptionInput): LayoutDescriptionInput {
  const field = ({ description: _d, unique: _u, exact: _e, autoEnter, readOnly, ...rest }: FieldDescription): FieldDescription => ({
    ...rest,
    ...(readOnly && !autoEnter ? { readOnly } : {}),
  });
  const portal = ({ relation: _r, ...rest }: PortalDescription): PortalDescription => ({ ...rest, fields: rest.fields.map(field) });
  const { $schema: _s, name: _n, description: _d, ...rest } = description;
  return { ...rest, fields: rest.fields.map(field), ...(rest.portals ? { portals: rest.portals.map(portal) } : {}) };
}

describe.each(EXAMPLE_NAMES)("examples/%s: fmgen pull from the layout metadata", (name) => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startExampleEmulator(name);
  });
  afterAll(() => emu.close());

  it("leaves the committed descriptions and fmgen.pulled.json byte-identical", async () => {
    const root = await copyExample(name);
    const before = await readTree(root);
    const { code, out } = await runPull(root, emu.url);
    expect(code).toBe(0);
    const descriptions = await exampleDescriptions(name);
    for (const layout of descriptions.keys()) expect(out).toMatch(new RegExp(`^${layout} -> .* \\(metadata\\): up to date$`, "m"));
    expect(out).toMatch(/nothing to write: the descriptions match the server/);
    expect(await readTree(root)).toEqual(before);
    for (const { file, text } of descriptions.values()) expect(before.get(join(root, "layouts", file))).toBe(text);
  });

  it("--check passes on the committed example folder itself, writing nothing", async () => {
    const env = join(await tempDir("env"), ".env");
    await writeFile(env, `FM_USERNAME=${PULL_USER}\nFM_PASSWORD=${PULL_PASSWORD}\n`);
    const before = await readTree(join(EXAMPLES, name, "layouts"));
    const io = memoryIo();
    const code = await run(["pull", "--config", join(EXAMPLES, name, "fmgen.config.json"), "--server", emu.url, "--env-file", env, "--check"], io);
    expect(io.err).toEqual([]);
    expect(code).toBe(0);
    // The invoices example describes its scripts; the contacts example has none, and needs no database description.
    expect(io.out.at(-1)).toMatch(name === "invoices" ? /^fmgen pull --check: 3 layouts match the server and so does layouts\/Invoicing\.database\.json$/ : /^fmgen pull --check: 2 layouts match the server$/);
    expect(await readTree(join(EXAMPLES, name, "layouts"))).toEqual(before);
  });

  it("into an empty project, writes every description again but for what only a person can say, and names that", async () => {
    const root = await copyExample(name, { withLayouts: false, withState: false });
    const descriptions = await exampleDescriptions(name);
    const { code, out } = await runPull(root, emu.url, [...descriptions.keys()]);
    expect(code).toBe(0);
    const written = new Map<string, LayoutDescriptionInput>();
    for (const file of (await readdir(join(root, "layouts"))).filter((f) => f.endsWith(".layout.json"))) {
      const json = JSON.parse(await readFile(join(root, "layouts", file), "utf8")) as LayoutDescriptionInput;
      written.set(json.layout, json);
    }
    expect([...written.keys()].sort()).toEqual([...descriptions.keys()].sort());
    for (const [layout, { json }] of descriptions) expect(written.get(layout), layout).toEqual(serverVisible(json));
    // The database description too (where the example has scripts), but for its $schema (the project does not hold fmgen's schema).
    const databaseFiles = (await readdir(join(EXAMPLES, name, "layouts"))).filter((f) => f.endsWith(".database.json"));
    expect((await readdir(join(root, "layouts"))).filter((f) => f.endsWith(".database.json"))).toEqual(databaseFiles);
    for (const file of databaseFiles) {
      const { $schema: _schema, ...committed } = JSON.parse(await readFile(join(EXAMPLES, name, "layouts", file), "utf8")) as { $schema?: string };
      expect(JSON.parse(await readFile(join(root, "layouts", file), "utf8"))).toEqual(committed);
    }
    expect(out).toMatch(/new file, \d+ fields/);
    expect(out).toMatch(/the server auto-enters a value; set "autoEnter"/);
    expect(out).toMatch(/add "relation" by hand/);
  });

  it("by sampling over the committed descriptions, also leaves them byte-identical (sampling keeps what it cannot tell)", async () => {
    const root = await copyExample(name);
    const layouts = await readTree(join(root, "layouts"));
    const { code, out } = await runPull(root, emu.url, ["--source", "sample"]);
    expect(code).toBe(0);
    expect(out).toMatch(/\(sampled \d+ records\): up to date/);
    expect(await readTree(join(root, "layouts"))).toEqual(layouts);
  });
});
