import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator } from "../../../src/emulator/index.js";
import { findByName, NameMap, sameName } from "../../../src/emulator/hosted-file/name-map.js";
import { resolveDatabase } from "../../../src/emulator/hosted-file/database-name.js";

// docs/emulator.md, "Names": the one map every lookup by name goes through, the one rule naming a database, and the
// descriptions the emulator refuses because they spell one FileMaker name two ways.

describe("NameMap", () => {
  it("finds a name in any case, iterates under the held names, and replaces a name set in another case", () => {
    const map = new NameMap([["Planets", 1], ["Straße", 2], ["ΟΔΟΣ", 3]]);
    expect([map.get("planets"), map.get("PLANETS"), map.get("STRASSE"), map.get("straße"), map.get("οδος"), map.get("οδοσ")]).toEqual([1, 1, undefined, 2, 3, 3]);
    expect(map.ownName("planets")).toBe("Planets");
    expect(map.has("Planet")).toBe(false);
    map.set("PLANETS", 4);
    expect([...map.keys()]).toEqual(["Straße", "ΟΔΟΣ", "PLANETS"]);
    expect(map.delete("planets")).toBe(true);
    expect(map.size).toBe(2);
    expect(map.get("PLANETS")).toBeUndefined();
  });

  it("findByName prefers the exact spelling, then the first that differs only by case", () => {
    const items = ["echo", "Echo"];
    expect(findByName(items, "Echo", (s) => s)).toBe("Echo");
    expect(findByName(items, "ECHO", (s) => s)).toBe("echo");
    expect(sameName("İ", "i̇")).toBe(true);
    expect(sameName("a", "b")).toBe(false);
  });

  it("resolveDatabase: as given, else without .fmp12, case aside", () => {
    const dbs = new NameMap([["Contacts", "c"], ["Web.fmp12", "w"]]);
    expect(resolveDatabase(dbs, "contacts.FMP12")).toEqual({ name: "Contacts", db: "c" });
    expect(resolveDatabase(dbs, "web.fmp12")).toEqual({ name: "Web.fmp12", db: "w" });
    expect(resolveDatabase(dbs, "Contacts.fmp12.fmp12")).toBeUndefined();
  });
});

describe("descriptions that spell one name two ways", () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  const layout = (file: string, description: object) => writeFile(join(dir!, file), JSON.stringify(description));
  const start = async (...descriptions: [string, object][]) => {
    dir = await mkdtemp(join(tmpdir(), "fmgen-names-"));
    for (const [file, d] of descriptions) await layout(file, d);
    return startEmulator({ layouts: [dir] });
  };

  it.each<[string, object, object, RegExp]>([
    ["a field", { fields: [{ name: "id", type: "number" }] }, { fields: [{ name: "ID", type: "number" }] }, /B\.layout\.json names the field of table "Contacts" "ID", which .*A\.layout\.json names "id"/],
    ["a table", { table: "Contacts" }, { table: "contacts" }, /B\.layout\.json names the table of database "Office" "contacts", which .*A\.layout\.json names "Contacts"/],
    ["a database", { database: "Office" }, { database: "OFFICE" }, /B\.layout\.json names the database "OFFICE", which .*A\.layout\.json names "Office"/],
    ["a layout", { layout: "People" }, { layout: "people" }, /B\.layout\.json names the layout of database "Office" "people", which .*A\.layout\.json names "People"/],
  ])("refuses %s spelt two ways, naming both files and both names", async (_what, a, b, message) => {
    const base = { database: "Office", table: "Contacts", fields: [{ name: "Name", type: "text" }] };
    const layoutA = { layout: "People", ...base, ...a };
    const layoutB = { layout: "Other", ...base, ...b };
    await expect(start(["A.layout.json", layoutA], ["B.layout.json", layoutB])).rejects.toThrow(message);
  });

  // The layout and table formats take such names (the generator suffixes their identifiers: the torture set); the
  // emulator, which matches names as FileMaker does, cannot tell them apart.
  it.each<[string, object, RegExp]>([
    ["two fields of a layout", { fields: [{ name: "id", type: "number" }, { name: "ID", type: "number" }] }, /A\.layout\.json names the field of table "Contacts" "ID", which .*A\.layout\.json names "id"/],
    ["two related fields of a layout", { fields: [{ name: "Company::Name", type: "text" }, { name: "company::name", type: "text" }] }, /names the field of table "Contacts" "company::name", which .*names "Company::Name"/],
    [
      "two portals of a layout",
      { portals: [{ name: "Planets", table: "Planets", fields: [] }, { name: "planets", table: "Moons", fields: [] }] },
      /A\.layout\.json names the portal of layout "People" "planets", which .*A\.layout\.json names "Planets"/,
    ],
    ["two portal fields", { portals: [{ name: "P", table: "Planets", fields: [{ name: "Planets::Mass", type: "number" }, { name: "Planets::mass", type: "number" }] }] }, /names the field of table "Planets" "mass", which .*names "Mass"/],
  ])("refuses %s that differ only by case", async (_what, extra, message) => {
    await expect(start(["A.layout.json", { database: "Office", layout: "People", table: "Contacts", fields: [{ name: "Name", type: "text" }], ...extra }])).rejects.toThrow(message);
  });

  it("refuses two fields of a table description that differ only by case", async () => {
    dir = await mkdtemp(join(tmpdir(), "fmgen-names-"));
    await writeFile(join(dir, "Things.table.json"), JSON.stringify({ database: "Office", table: "Things", fields: [{ name: "id", type: "text" }, { name: "ID", type: "text" }] }));
    await expect(startEmulator({ tables: [join(dir, "Things.table.json")] })).rejects.toThrow(/Things\.table\.json names the field of table "Things" "ID", which .*Things\.table\.json names "id"/);
  });
});
