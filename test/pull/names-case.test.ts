import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LayoutDescriptionInput } from "../../src/layout/index.js";
import type { PullResult } from "../../src/pull/index.js";
import { copyExample, readTree, runPull, startExampleEmulator, type Emulator } from "./helpers.js";

// A layout named in another case than the server spells it: a real server (and the emulator) finds it, as FileMaker
// matches names without regard to case. The description must name it as the server does: the generated client sends
// that name, the file name and the TypeScript name derive from it, and a later pull must see no drift.

async function readJson(path: string): Promise<LayoutDescriptionInput> {
  return JSON.parse(await readFile(path, "utf8")) as LayoutDescriptionInput;
}

describe.each([
  ["metadata", true, []],
  ["sampling", false, []],
  ["--source sample", true, ["--source", "sample"]],
] as const)("fmgen pull of a layout named in another case, read by %s", (_, metadata, source) => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startExampleEmulator("contacts", { metadata });
  });
  afterAll(() => emu.close());

  it("writes the description under the server's name, says what was asked, and a second pull sees no drift", async () => {
    const root = await copyExample("contacts", { withLayouts: false, withState: false });
    const pulled = await runPull(root, emu.url, ["contacts web", ...source]);
    expect(pulled.code).toBe(0);
    expect(pulled.out).toMatch(/^Contacts Web \(asked as "contacts web"\) -> layouts\/ContactsWeb\.layout\.json \(.*\): new file/m);
    const description = await readJson(join(root, "layouts/ContactsWeb.layout.json"));
    expect(description.layout).toBe("Contacts Web");
    const state = JSON.parse(await readFile(join(root, "fmgen.pulled.json"), "utf8")) as { layouts: { layout: string }[] };
    expect(state.layouts.map((l) => l.layout)).toEqual(["Contacts Web"]);

    const again = await runPull(root, emu.url, ["--check", ...source]);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/^Contacts Web -> layouts\/ContactsWeb\.layout\.json .*: up to date$/m);
  });

  it("finds the existing description of the layout, not a second file, and the same layout named in two spellings is pulled once", async () => {
    const root = await copyExample("contacts");
    const before = await readTree(root);
    const check = await runPull(root, emu.url, ["--check", "--json", "CONTACTS WEB", "Contacts Web", ...source]);
    expect(check.code).toBe(0);
    const result = JSON.parse(check.out) as PullResult;
    expect(result.layouts.map((l) => [l.layout, l.askedAs, l.file, l.status])).toEqual([["Contacts Web", "CONTACTS WEB", "layouts/Contact.layout.json", "unchanged"]]);
    expect(await readTree(root)).toEqual(before);
  });
});
