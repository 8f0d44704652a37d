import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DatabaseFileError, loadDatabaseDescriptionsBeside, loadDatabaseFile, parseDatabaseDescription } from "../../src/layout/index.js";
import { databaseJsonSchemaText } from "../../src/layout/json-schema.js";

// The database description file (`<Database>.database.json`: docs/describing.md, "Database description files"): one zod
// schema, a shipped JSON Schema generated from it, and the loader the emulator uses to find descriptions beside the
// layout descriptions.

describe("database descriptions", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "fmgen-database-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("applies defaults: no scripts; a folder is a path, a single name taken whole", () => {
    expect(parseDatabaseDescription({ database: "Contacts" }, "c.json")).toEqual({ database: "Contacts", scripts: [], source: "c.json" });
    const d = parseDatabaseDescription({
      $schema: "../schema/database.schema.json",
      database: "Invoicing",
      scripts: [{ name: "Top" }, { name: "Send Invoice", folder: "Billing" }, { name: "Close Month", folder: ["Billing", "Monthly"] }, { name: "x", folder: "A/B" }],
    });
    expect(d.scripts).toEqual([
      { name: "Top", folder: [] },
      { name: "Send Invoice", folder: ["Billing"] },
      { name: "Close Month", folder: ["Billing", "Monthly"] },
      { name: "x", folder: ["A/B"] },
    ]);
  });

  it.each([
    [{ scripts: [] }, /database: /],
    [{ database: "" }, /database: /],
    [{ database: "C", scripts: [{ name: "" }] }, /scripts\[0\]\.name: /],
    [{ database: "C", scripts: [{ name: "A", folder: [] }] }, /scripts\[0\]\.folder: /],
    [{ database: "C", scripts: [{ name: "A", folder: 3 }] }, /scripts\[0\]\.folder: /],
    [{ database: "C", scripts: [{ name: "A", bogus: true }] }, /scripts\[0\]: .*bogus/],
    [{ database: "C", layouts: [] }, /layouts/],
  ])("refuses %j, naming where", (json, message) => {
    expect(() => parseDatabaseDescription(json, "bad.database.json")).toThrowError(DatabaseFileError);
    expect(() => parseDatabaseDescription(json, "bad.database.json")).toThrowError(message);
  });

  it("loads every *.database.json inside folders (sorted), skips files and folders without one, names a broken file", async () => {
    const folder = join(dir, "layouts");
    await mkdir(folder);
    await writeFile(join(folder, "B.database.json"), JSON.stringify({ database: "B" }));
    await writeFile(join(folder, "A.database.json"), JSON.stringify({ database: "A", scripts: [{ name: "S" }] }));
    await writeFile(join(folder, "A.layout.json"), "{}");
    const empty = join(dir, "empty");
    await mkdir(empty);
    const loaded = await loadDatabaseDescriptionsBeside([join(folder, "A.layout.json"), folder, empty]);
    expect(loaded.map((d) => [d.database, d.source])).toEqual([
      ["A", join(folder, "A.database.json")],
      ["B", join(folder, "B.database.json")],
    ]);
    await writeFile(join(folder, "C.database.json"), "{ nope");
    await expect(loadDatabaseFile(join(folder, "C.database.json"))).rejects.toThrowError(/C\.database\.json: invalid JSON at line 1/);
  });

  it("ships a JSON Schema that matches the zod schema (run `npm run schema` when this fails)", async () => {
    const shipped = await readFile(new URL("../../schema/database.schema.json", import.meta.url), "utf8");
    expect(shipped).toBe(databaseJsonSchemaText());
  });

  it("is exported by the package as fmgen/schema/database.schema.json", async () => {
    const pkg = JSON.parse(await readFile(new URL("../../package.json", import.meta.url), "utf8"));
    expect(pkg.exports["./schema/database.schema.json"]).toBe("./schema/database.schema.json");
  });
});
