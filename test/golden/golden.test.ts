import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { generate, prettierFormat, type GeneratedFile } from "../../src/generate/index.js";
import { GOLDEN_SETS, goldenPath, loadSet, type GoldenSet } from "./golden-sets.js";

async function generateSet(name: keyof typeof GOLDEN_SETS): Promise<GeneratedFile[]> {
  const { layouts, databases, tables } = await loadSet(GOLDEN_SETS[name]);
  const set: GoldenSet = GOLDEN_SETS[name];
  return generate(layouts, { databases, tables, schemas: set.schemas ?? false });
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)).split("\\").join("/"));
}

describe("golden files (update with `npx vitest run test/golden -u`)", () => {
  for (const name of Object.keys(GOLDEN_SETS) as (keyof typeof GOLDEN_SETS)[]) {
    it(`generates the ${name} set as committed in ${GOLDEN_SETS[name].out}/`, async () => {
      for (const file of await generateSet(name)) {
        await expect(file.contents).toMatchFileSnapshot(`${GOLDEN_SETS[name].out}/${file.path}`);
      }
    });

    it(`leaves the ${name} set as prettier (pinned options) formats it`, async () => {
      for (const file of await generateSet(name)) expect(await prettierFormat(file.contents), file.path).toBe(file.contents);
    });
  }

  it("generates the contacts set with the example's own options.schemas", async () => {
    const config = JSON.parse(await readFile(goldenPath("../../examples/contacts/fmgen.config.json"), "utf8")) as { options?: { schemas?: boolean } };
    expect(GOLDEN_SETS.contacts.schemas).toBe(config.options?.schemas ?? false);
  });

  it("has no orphaned golden file", async () => {
    for (const name of Object.keys(GOLDEN_SETS) as (keyof typeof GOLDEN_SETS)[]) {
      const expected = new Set((await generateSet(name)).map((file) => file.path));
      const onDisk = await listFiles(goldenPath(GOLDEN_SETS[name].out));
      expect(onDisk.filter((f) => !expected.has(f)).sort(), name).toEqual([]);
    }
    // Nothing else lives under generated/: every folder there is a set's output.
    const sets = Object.values(GOLDEN_SETS).map((set) => goldenPath(set.out));
    const folders = (await readdir(goldenPath("./generated"))).map((f) => goldenPath(`./generated/${f}`));
    expect(folders.filter((f) => !sets.includes(f))).toEqual([]);
  });
});
