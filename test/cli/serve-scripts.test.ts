import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { CliIo } from "../../src/cli/io.js";
import { run } from "../../src/cli/run.js";
import { DataApi, expectOk, p } from "../support/data-api-http.js";

// `fmgen serve --scripts <module>` (docs/emulator.md, "Scripts: handlers"): the module is imported from a path resolved
// against the current directory; its default export maps script names to handlers. A module that does not load, or
// whose default export is not an object of functions, stops the command with exit code 1 and a message naming it.

const FIXTURES = fileURLToPath(new URL("../fixtures/", import.meta.url));

function memoryIo(stop: Promise<void> = new Promise(() => {})): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (l) => out.push(l), stderr: (l) => err.push(l), stopSignal: () => stop };
}

/** Runs `fmgen serve` in-process from `cwd` until `work` is done with its base URL. */
async function serving(cwd: string, args: string[], work: (url: string) => Promise<void>): Promise<void> {
  let stop!: () => void;
  const io = memoryIo(new Promise<void>((resolve) => (stop = resolve)));
  const previous = process.cwd();
  process.chdir(cwd);
  let done: Promise<number>;
  try {
    done = run(["serve", ...args], io);
    await expect.poll(() => io.out.length + io.err.length, { timeout: 30_000 }).toBeGreaterThan(0);
  } finally {
    process.chdir(previous);
  }
  expect(io.err).toEqual([]);
  try {
    await work(io.out[0]!);
  } finally {
    stop();
    expect(await done).toBe(0);
  }
}

describe("fmgen serve --scripts", () => {
  it("2. scripts via the CLI: the module path is resolved from the current directory, its handlers answer scripts on calls and standalone", async () => {
    await serving(`${FIXTURES}scripts`, ["--layouts", "../conformance/layouts", "--data", "../conformance/seed.json", "--scripts", "scripts.mjs"], async (url) => {
      const api = new DataApi(url);
      const token = await api.login();
      const standalone = await api.call("GET", `${p`/databases/Contacts/layouts/Contacts Web/script/${"Echo Param"}`}?script.param=cli`, { token });
      expect(expectOk(standalone)).toEqual({ scriptResult: "cli", scriptError: "0" });
      const edited = expectOk(await api.edit(token, "Contacts Web", "2", { fieldData: { Age: 86 }, script: "Rename Contact", "script.param": "2" }));
      expect(edited).toEqual({ modId: "2", scriptResult: "2", scriptError: "0" });
      expect((await api.getOk(token, "Contacts Web", "2")).fieldData["Last Name"]).toBe("Renamed");
      const found = expectOk(await api.find(token, "Contacts Web", { query: [{ Status: "Active" }], "script.presort": "Count Found", script: "Fails" }));
      expect([found["scriptResult.presort"], found["scriptError.presort"], found.scriptError]).toEqual(["3", "0", "3"]);
      const scripts = expectOk(await api.call("GET", "/databases/Contacts/scripts", { token })).scripts;
      expect(scripts.map((s: { name: string }) => s.name)).toEqual(["Echo Param", "Count Found", "Rename Contact", "Fails"]);
    });
  });

  it.each([
    ["scripts/not-functions.mjs", /scripts\/not-functions\.mjs: default export: script "Echo Param" must be a handler function/],
    ["scripts/no-default.mjs", /scripts\/no-default\.mjs: the scripts module has no default export/],
    ["scripts/throws-on-import.mjs", /scripts\/throws-on-import\.mjs: cannot load the scripts module: scripts module exploded while loading/],
    ["scripts/missing.mjs", /scripts\/missing\.mjs: cannot load the scripts module/],
  ])("2. scripts via the CLI: %s stops fmgen serve with exit code 1, naming the file", async (module, message) => {
    const io = memoryIo();
    const previous = process.cwd();
    process.chdir(FIXTURES);
    try {
      expect(await run(["serve", "--layouts", "conformance/layouts", "--scripts", module], io)).toBe(1);
    } finally {
      process.chdir(previous);
    }
    expect(io.out).toEqual([]);
    expect(io.err.join("\n")).toMatch(message);
  });
});
