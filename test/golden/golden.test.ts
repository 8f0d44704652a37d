import { readdir } from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { loadLayouts } from "../../src/layout/index.js";
import { generate, prettierFormat, type GeneratedFile } from "../../src/generate/index.js";
import { GOLDEN_SETS, goldenPath } from "./golden-sets.js";

async function generateSet(name: keyof typeof GOLDEN_SETS): Promise<GeneratedFile[]> {
  return generate(await loadLayouts(GOLDEN_SETS[name].map(goldenPath)));
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)).split("\\").join("/"));
}

describe("golden files (update with `npx vitest run test/golden -u`)", () => {
  for (const name of Object.keys(GOLDEN_SETS) as (keyof typeof GOLDEN_SETS)[]) {
    it(`generates the ${name} set as committed in test/golden/generated/${name}/`, async () => {
      for (const file of await generateSet(name)) {
        await expect(file.contents).toMatchFileSnapshot(`./generated/${name}/${file.path}`);
      }
    });

    it(`leaves the ${name} set as prettier (pinned options) formats it`, async () => {
      for (const file of await generateSet(name)) expect(await prettierFormat(file.contents), file.path).toBe(file.contents);
    });
  }

  it("has no orphaned golden file", async () => {
    const expected = new Set<string>();
    for (const name of Object.keys(GOLDEN_SETS) as (keyof typeof GOLDEN_SETS)[]) {
      for (const file of await generateSet(name)) expected.add(`${name}/${file.path}`);
    }
    const onDisk = await listFiles(goldenPath("./generated"));
    expect(onDisk.filter((f) => !expected.has(f)).sort()).toEqual([]);
  });
});
