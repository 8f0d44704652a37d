import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { generateAndCheck, resolveGenerateSettings } from "../src/generate/index.js";

const run = promisify(execFile);
const examples = readdirSync("examples", { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !entry.name.startsWith("."))
  .map((entry) => entry.name);

/** Lines an example's app prints when it works (the invoices app's scripts run by the emulator: scripts.mjs). */
const APP_OUTPUT: Record<string, string[]> = {
  invoices: [
    'create with a script: record 4, scriptResult "sent INV-2024-004 (modId 1)", scriptError 0',
    "the script's edit is in the record: Sent, due 05/02/2024, modId 1",
    'standalone "Invoice Total": 240.50 (scriptError 0)',
    "a script that fails still answers code 0: scriptError 3",
  ],
};

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
    for (const line of APP_OUTPUT[name] ?? []) expect(stdout).toContain(line);
  });
});

it("finds both bundled examples", () => {
  expect(examples).toEqual(expect.arrayContaining(["contacts", "invoices"]));
});
