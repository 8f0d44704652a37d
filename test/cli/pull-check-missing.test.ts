import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closestNames } from "../../src/pull/errors.js";
import { copyExample, runPull, startExampleEmulator, type Emulator } from "../pull/helpers.js";

// A layout name the server does not have is a mistake of the name, not drift: `fmgen pull NAME --check` says so and
// names the layouts the server does have, closest first, instead of asking for a pull whose result would be the same.

let emu: Emulator;
beforeAll(async () => {
  emu = await startExampleEmulator("contacts");
});
afterAll(() => emu.close());

describe("fmgen pull NAME of a layout the server does not have", () => {
  it("--check: says that no such layout exists and suggests the closest names, without asking for a pull", async () => {
    const root = await copyExample("contacts");
    const { code, out, err } = await runPull(root, emu.url, ["Contacts Wbe", "--check"]);
    expect(code).toBe(1);
    expect(out).toContain('Contacts Wbe -> layouts/ContactsWbe.layout.json: FAILED: no layout named "Contacts Wbe" in database "Contacts" (FileMaker error 105): did you mean "Contacts Web"? The server\'s layouts, closest first: "Contacts Web", "Invoices Web"');
    expect(err).toBe('fmgen pull --check: no layout named "Contacts Wbe" (did you mean "Contacts Web"?) on the server; check the name: fmgen pull --list shows the server\'s layouts');
    expect(err).not.toMatch(/commit the result/);
  });

  it("--check with a missing layout and a drifting one: names both, and asks for a pull for the drift only", async () => {
    const root = await copyExample("contacts");
    const { rm } = await import("node:fs/promises");
    await rm(`${root}/layouts/Invoice.layout.json`);
    const { code, err } = await runPull(root, emu.url, ["Contacts Wbe", "Invoices Web", "--check"]);
    expect(code).toBe(1);
    expect(err).toBe(
      'fmgen pull --check: no layout named "Contacts Wbe" (did you mean "Contacts Web"?) on the server; the descriptions differ from the server: Invoices Web (no description file). Run "fmgen pull" and commit the result.',
    );
  });

  it("without --check: the same suggestion in the layout's line", async () => {
    const root = await copyExample("contacts");
    // Not "invoices web": the server matches layout names case aside, as FileMaker does (docs/emulator.md, "Names").
    const { code, out } = await runPull(root, emu.url, ["Invoice Web"]);
    expect(code).toBe(1);
    expect(out).toContain('no layout named "Invoice Web" in database "Contacts" (FileMaker error 105): did you mean "Invoices Web"?');
  });
});

describe("closestNames", () => {
  it("orders by edit distance ignoring case, then by name; keeps at most the first few", () => {
    expect(closestNames("Contacts Wbe", ["Invoices Web", "Contacts Web", "Contacts"])).toEqual(["Contacts Web", "Contacts", "Invoices Web"]);
    expect(closestNames("invoices web", ["Contacts Web", "Invoices Web"])).toEqual(["Invoices Web", "Contacts Web"]);
    expect(closestNames("X", ["A", "B", "C", "D", "E", "F"])).toEqual(["A", "B", "C", "D", "E"]);
    expect(closestNames("X", [])).toEqual([]);
  });
});
