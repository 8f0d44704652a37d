import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { generateAndCheck, resolveGenerateSettings } from "../src/generate/index.js";

const run = promisify(execFile);
const examples = readdirSync("examples", { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !entry.name.startsWith("."))
  .map((entry) => entry.name);

describe.each(examples)("examples/%s", (name) => {
  it("has committed generated code that is up to date with its descriptions (fmgen generate --check)", async () => {
    const settings = await resolveGenerateSettings({ config: `examples/${name}/fmgen.config.json`, cwd: process.cwd() });
    const drift = await generateAndCheck(settings);
    expect(drift.map((d) => d.diff).join("\n")).toBe("");
  });

  it("runs end to end: emulator, generate, tsc, the app against the emulator", async () => {
    // Needs dist/ (npm test builds first), like the README's command.
    const { stdout } = await run(process.execPath, ["examples/run.mjs", name], { timeout: 60_000 });
    expect(stdout).toMatch(/== fmgen serve/);
    expect(stdout).toMatch(/emulator at http:\/\/127\.0\.0\.1:\d+/);
    expect(stdout).toMatch(/is up to date/);
    expect(stdout).toMatch(new RegExp(`== node examples/\\.build/${name}/app\\.js`));
  });
});

it("finds both bundled examples", () => {
  expect(examples).toEqual(expect.arrayContaining(["contacts", "invoices"]));
});
