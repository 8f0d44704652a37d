import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseDescriptionSchema, DatabaseFileError, layoutDescriptionSchema, LayoutFileError, type DatabaseDescriptionInput, type LayoutDescriptionInput } from "../../src/layout/index.js";
import { formatJson } from "../../src/project/index.js";
import { readExistingDatabase } from "../../src/pull/database-file.js";
import { descriptionOutcome, readDescriptionFile } from "../../src/pull/description-file.js";
import { diffDatabase, diffDescriptions } from "../../src/pull/index.js";

// The one reader and the one outcome of the files a pull merges into: layout descriptions and the database's alike.

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "fmgen-description-file-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const layout: LayoutDescriptionInput = { database: "Contacts", layout: "Contacts", table: "Contacts", fields: [{ name: "Name", type: "text" }] };
const database: DatabaseDescriptionInput = { database: "Contacts", scripts: [{ name: "Send Invoice", folder: "Billing" }] };

describe("readDescriptionFile", () => {
  it("gives the file, its text as read and its validated description", async () => {
    const file = join(dir, "Contacts.layout.json");
    const text = JSON.stringify(layout);
    await writeFile(file, text);
    expect(await readDescriptionFile(file, layoutDescriptionSchema, LayoutFileError)).toEqual({ file, text, description: layout });
  });

  it("refuses bad JSON and a schema complaint with the error class given, naming the file and the path inside it", async () => {
    const broken = join(dir, "Broken.layout.json");
    await writeFile(broken, "{\n  \"database\": ");
    const syntax = await readDescriptionFile(broken, layoutDescriptionSchema, LayoutFileError).catch((e: unknown) => e);
    expect(syntax).toBeInstanceOf(LayoutFileError);
    expect((syntax as Error).message).toMatch(new RegExp(`^${broken.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: invalid JSON`));

    const wrong = join(dir, "Wrong.database.json");
    await writeFile(wrong, JSON.stringify({ database: "Contacts", scripts: [{ folder: "Billing" }] }));
    const schema = await readDescriptionFile(wrong, databaseDescriptionSchema, DatabaseFileError).catch((e: unknown) => e);
    expect(schema).toBeInstanceOf(DatabaseFileError);
    expect((schema as Error).message).toContain(`${wrong}: scripts[0].name: `);
  });

  it("is what the database file's lookup reads with: two files of one database are refused", async () => {
    const folder = await mkdtemp(join(dir, "twice-"));
    await writeFile(join(folder, "A.database.json"), JSON.stringify(database));
    await writeFile(join(folder, "B.database.json"), JSON.stringify(database));
    await writeFile(join(folder, "Other.database.json"), JSON.stringify({ database: "Other" }));
    await expect(readExistingDatabase([folder], "Other")).resolves.toMatchObject({ file: join(folder, "Other.database.json"), description: { database: "Other" } });
    await expect(readExistingDatabase([folder], "Contacts")).rejects.toThrow(/database "Contacts" is described twice: also in .*A\.database\.json/);
  });
});

describe("descriptionOutcome", () => {
  const file = "/p/layouts/Contacts.layout.json";
  const existing = (description: LayoutDescriptionInput, text = formatJson(description)) => ({ file, text, description });

  it("is created, with the formatted text to write and no changes, when there is no file", () => {
    expect(descriptionOutcome(file, undefined, layout, diffDescriptions)).toEqual({ status: "created", changes: [], write: { file, contents: formatJson(layout) } });
  });

  it("is unchanged, writing nothing, when the merge gives the file's own text", () => {
    expect(descriptionOutcome(file, existing(layout), layout, diffDescriptions)).toEqual({ status: "unchanged", changes: [] });
  });

  it("is reformatted when only the text differs, and updated when the description does", () => {
    expect(descriptionOutcome(file, existing(layout, JSON.stringify(layout)), layout, diffDescriptions)).toEqual({ status: "reformatted", changes: [], write: { file, contents: formatJson(layout) } });
    const merged = { ...layout, fields: [...layout.fields, { name: "Email", type: "text" as const }] };
    const updated = descriptionOutcome(file, existing(layout), merged, diffDescriptions);
    expect(updated.status).toBe("updated");
    expect(updated.changes).toEqual(diffDescriptions(layout, merged));
    expect(updated.changes.length).toBeGreaterThan(0);
    expect(updated.write).toEqual({ file, contents: formatJson(merged) });
  });

  it("decides the database file's outcome the same way", () => {
    const at = "/p/layouts/Contacts.database.json";
    const merged = { ...database, scripts: [...database.scripts!, { name: "Log Find" }] };
    const outcome = descriptionOutcome(at, { file: at, text: formatJson(database), description: database }, merged, diffDatabase);
    expect(outcome).toEqual({ status: "updated", changes: [{ kind: "added", name: "Log Find", to: "", breaking: false }], write: { file: at, contents: formatJson(merged) } });
  });
});
