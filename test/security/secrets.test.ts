import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { generate, writeGeneratedFiles } from "../../src/generate/index.js";
import { loadLayouts } from "../../src/layout/load.js";
import { createClient } from "../../src/runtime/index.js";
import { startRuntimeEmulator, type Emulator } from "../support/runtime-emulator.js";
import { Contact, DATABASE, EXAMPLE_LAYOUTS } from "../support/runtime-layouts.js";

// A password and a live token, used in every failing way we can think of; then generated code, written
// files, every log line and warning, and every error's message, stack, inspect() and JSON are searched for both.

const USER = "leaktest";
const PASSWORD = "Pw-9f3Kq-NEVER-SHOW";
let emu: Emulator;
let token: string;
const seen: string[] = [];
let out: string;

beforeAll(async () => {
  emu = await startRuntimeEmulator({ accounts: [{ username: USER, password: PASSWORD }], faults: { seed: 11, rate: 0.3 } });
  emu.setFaults();
  const res = await fetch(`${emu.url}/fmi/data/vLatest/databases/${DATABASE}/sessions`, {
    method: "POST",
    headers: { authorization: `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}`, "content-type": "application/json" },
    body: "{}",
  });
  token = ((await res.json()) as { response: { token: string } }).response.token;
  out = await mkdtemp(join(tmpdir(), "fmgen-secrets-"));
});
afterAll(async () => {
  await emu.close();
  await rm(out, { recursive: true, force: true });
});

function record(error: unknown): void {
  seen.push(String(error), (error as Error)?.stack ?? "", inspect(error, { depth: 8, showHidden: true }), JSON.stringify(error) ?? "");
}

describe("secrets", () => {
  it("appear in no generated code, written file, log, warning or error", async () => {
    const logs = (["log", "info", "warn", "error", "debug"] as const).map((m) => vi.spyOn(console, m).mockImplementation((...args: unknown[]) => void seen.push(args.map((a) => inspect(a, { depth: 8 })).join(" "))));
    const warnings = vi.spyOn(process, "emitWarning").mockImplementation((w: string | Error) => void seen.push(String(w)));
    try {
      // Generated code and the files written.
      const files = await generate(await loadLayouts([EXAMPLE_LAYOUTS]));
      await writeGeneratedFiles(out, files);
      for (const name of await readdir(out)) seen.push(await readFile(join(out, name), "utf8"));

      // Wrong password, right user with a wrong database, a token-only client after the token dies.
      const wrong = createClient({ server: emu.url, database: DATABASE, auth: { username: USER, password: `${PASSWORD}x` } });
      await wrong.layout(Contact).get(1).catch(record);
      const noDb = createClient({ server: emu.url, database: "Nope", auth: { username: USER, password: PASSWORD } });
      await noDb.layouts().catch(record);
      const byToken = createClient({ server: emu.url, database: DATABASE, auth: { token } });
      await byToken.layout(Contact).get(99_999).catch(record);
      await byToken.logout();
      await byToken.layout(Contact).get(1).catch(record);
      await byToken.logout().catch(record);

      // Faults: dropped, truncated, HTML answers, capacity, revocation; writes that fail.
      emu.setFaults({ seed: 3, rate: 1 });
      const faulty = createClient({ server: emu.url, database: DATABASE, auth: { username: USER, password: PASSWORD }, retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 1 } });
      for (let i = 0; i < 20; i++) {
        await faulty.layout(Contact).get(1).catch(record);
        await faulty.layout(Contact).create({ fieldData: { "First Name": "x" } }).catch(record);
      }
      await faulty.logout().catch(record);
      emu.setFaults();

      // Refused and warned transports, a dead server.
      createClient({ server: "http://fms.example.com", database: DATABASE, auth: { username: USER, password: PASSWORD } });
      try {
        createClient({ server: "http://fms.example.com", database: DATABASE, auth: { token }, insecure: "refuse" });
      } catch (error) {
        record(error);
      }
      const dead = createClient({ server: "http://127.0.0.1:9", database: DATABASE, auth: { username: USER, password: PASSWORD }, retry: { retries: 0 } });
      await dead.layout(Contact).get(1).catch(record);
    } finally {
      for (const spy of logs) spy.mockRestore();
      warnings.mockRestore();
    }
    const text = seen.join("\n");
    expect(seen.length).toBeGreaterThan(100);
    expect(text).toContain("952"); // the failures did happen
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(token);
    expect(text).not.toContain(Buffer.from(`${USER}:${PASSWORD}`).toString("base64"));
  }, 30_000);
});
