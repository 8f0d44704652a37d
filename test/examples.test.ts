import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { generateAndCheck, resolveGenerateSettings } from "../src/generate/index.js";

const run = promisify(execFile);
const examples = readdirSync("examples", { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !entry.name.startsWith("."))
  .map((entry) => entry.name);

/**
 * Lines an example's app prints when it works: the runtime's scripts (run by the emulator from the invoices
 * example's scripts.mjs), global field, portal ranges, portalRows, response layout and duplicate.
 */
const APP_OUTPUT: Record<string, string[]> = {
  contacts: [
    "Ada Lovelace: 2 invoices, the first for 120.5",
    "duplicated it as record 4: now 3 invoices, the third for 120.5",
  ],
  odata: [
    "2 active contacts at @example.com:\n  Ada <ada@example.com>, born 1815-12-10\n  Grace <grace@example.com>, born 1906-12-09",
    "Ada (phones 555-0100, 555-0199) has 2 invoices, 200.5 in all",
    "; invoice #4 for 99.95",
    'script "Count Invoices": code 0, result 3',
    "container: katherine.png (image/png), 70 bytes, the same bytes",
    "removed 1 contact(s) and invoice #4",
  ],
  invoices: [
    "Ledger ID 1260192307254815040618113479212958103720612937215089463711 (58 digits) finds Acme Corporation",
    'created record 3; "Send Invoice" answered "sent INV-2024-003 (modId 1)" (error 0)',
    "INV-2024-003 for Acme Corporation is Sent, due 2024-04-30, with 2 lines, total 1053.99",
    "  line 4: 1 x Giant magnet at 999.99\n  line 5: 12 x Bird seed at 4.5",
    "Acme Corporation's first invoice of 2: INV-2024-001",
    'standalone "Invoice Total": 1053.99 EUR (error 0)',
    '"Export PDF" failed, as data: error 3',
    "assertScripts threw: after script failed: error 3",
    "sent or paid, not for Globex, newest first: INV-2024-003 (Sent, 1053.99); INV-2024-001 (Paid, 1250.00)",
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
    // Every example has its app's output checked: a new example must say what its app prints.
    expect(APP_OUTPUT[name]?.length).toBeGreaterThan(0);
    for (const line of APP_OUTPUT[name]!) expect(stdout).toContain(line);
  });
});

it("finds the three bundled examples", () => {
  expect(examples).toEqual(expect.arrayContaining(["contacts", "invoices", "odata"]));
});
