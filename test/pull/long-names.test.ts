import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../src/emulator/index.js";
import { MAX_DERIVED_NAME } from "../../src/layout/index.js";
import { PULL_PASSWORD, PULL_USER, runPull, tempDir, type Emulator } from "./helpers.js";

/** 300 characters of words: its PascalCase alone is longer than most file systems take in a file name. */
const LONG = Array.from({ length: 60 }, (_, i) => `Part${i}`)
  .join(" ")
  .slice(0, 300);

describe("fmgen pull of a layout with a 300-character name", () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startEmulator({
      layouts: [{ database: "Reports", layout: LONG, table: "Reports", fields: [{ name: "id", type: "number" }] }],
      accounts: [{ username: PULL_USER, password: PULL_PASSWORD }],
    });
  });
  afterAll(() => emu.close());

  it("writes its new description under a bounded file name that names the whole layout inside", async () => {
    const root = await tempDir("pull-long");
    await writeFile(join(root, "fmgen.config.json"), JSON.stringify({ database: "Reports", layouts: ["layouts"], outDir: "generated" }));
    await writeFile(join(root, ".env"), `FM_USERNAME=${PULL_USER}\nFM_PASSWORD="${PULL_PASSWORD}"\n`);
    const { code, out } = await runPull(root, emu.url, [LONG]);
    expect(out).not.toMatch(/FAILED/);
    expect(code).toBe(0);
    const [file, ...more] = (await readdir(join(root, "layouts"))).filter((f) => f.endsWith(".layout.json"));
    expect(more).toEqual([]);
    expect(file).toMatch(/^Part0Part1Part2\w+_[0-9a-f]{6}\.layout\.json$/);
    expect(file!.length).toBeLessThanOrEqual(MAX_DERIVED_NAME + ".layout.json".length);
    expect(JSON.parse(await readFile(join(root, "layouts", file!), "utf8"))).toMatchObject({ layout: LONG });
  });
});
