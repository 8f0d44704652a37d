import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDatabaseDescriptionsBeside, loadLayouts } from "../../src/layout/index.js";
import { DescriptionPathError, descriptionFiles, expandGlob, pathExists, posixRelative, toPosixPath, writeFilesAtomically } from "../../src/project/index.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "fmgen-project-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const description = (layout: string) => JSON.stringify({ database: "D", layout, table: "T", fields: [] });

describe("descriptionFiles: the one place layouts entries become files", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(dir, "entries-"));
    await mkdir(join(root, "a", "deep"), { recursive: true });
    await mkdir(join(root, "empty"));
    await writeFile(join(root, "a", "one.layout.json"), description("One"));
    await writeFile(join(root, "a", "b.layout.json"), description("B"));
    await writeFile(join(root, "a", "deep", "two.layout.json"), description("Two"));
    await writeFile(join(root, "a", "deep", "notes.txt"), "");
    await writeFile(join(root, "a", "Contacts.database.json"), JSON.stringify({ database: "Contacts" }));
  });

  it("expands files, folders (not their subfolders) and globs, each file once, in the order named", async () => {
    expect(await expandGlob(join(root, "a/**/*.layout.json"))).toEqual([join(root, "a/b.layout.json"), join(root, "a/deep/two.layout.json"), join(root, "a/one.layout.json")]);
    expect(await descriptionFiles([join(root, "a/one.layout.json"), join(root, "a/**/*.layout.json"), join(root, "a")])).toEqual([
      join(root, "a/one.layout.json"),
      join(root, "a/b.layout.json"),
      join(root, "a/deep/two.layout.json"),
    ]);
  });

  it.each([
    ["nothing/*.json", /nothing\/\*\.json: the glob matches no file/],
    ["missing", /missing: no such file or folder/],
    ["empty", /empty: folder holds no \*\.layout\.json file/],
  ])("refuses %s where descriptions are needed (generate, the emulator)", async (entry, message) => {
    const error = await descriptionFiles([join(root, entry)]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DescriptionPathError);
    expect((error as Error).message).toMatch(message);
  });

  it("finds none there where a description may be about to be written (pull)", async () => {
    const entries = ["nothing/*.json", "missing", "empty", "a"].map((e) => join(root, e));
    expect(await descriptionFiles(entries, { missing: "skip" })).toEqual([join(root, "a/b.layout.json"), join(root, "a/one.layout.json")]);
  });

  it("is what loading descriptions and database descriptions go through", async () => {
    expect((await loadLayouts([join(root, "a/**/*.layout.json")])).map((l) => l.layout)).toEqual(["B", "Two", "One"]);
    await expect(loadLayouts([join(root, "empty")])).rejects.toThrow(DescriptionPathError);
    // Database descriptions sit in the folders named; files named are layout descriptions.
    const databases = await loadDatabaseDescriptionsBeside([join(root, "a/one.layout.json"), join(root, "a"), join(root, "missing")]);
    expect(databases.map((d) => d.database)).toEqual(["Contacts"]);
  });
});

describe("pathExists: the one existence check of the config lookup, pull's settings and init", () => {
  it("is true for a file and for a folder, false for a missing path and for a path through a file", async () => {
    const at = await mkdtemp(join(dir, "exists-"));
    await writeFile(join(at, "file.txt"), "");
    expect(await pathExists(join(at, "file.txt"))).toBe(true);
    expect(await pathExists(at)).toBe(true);
    expect(await pathExists(join(at, "missing.txt"))).toBe(false);
    expect(await pathExists(join(at, "file.txt", "inside"))).toBe(false);
  });
});

describe("posixRelative and toPosixPath: the one way pull, generate --check and schema references show paths", () => {
  it("gives the path from a root, /-separated, and \"\" for the root itself (the caller says what to show)", () => {
    const root = join(sep, "project");
    expect(posixRelative(root, join(root, "layouts", "deep", "A.layout.json"))).toBe("layouts/deep/A.layout.json");
    expect(posixRelative(join(root, "layouts"), join(root, "node_modules", "fmgen", "schema", "layout.schema.json"))).toBe("../node_modules/fmgen/schema/layout.schema.json");
    expect(posixRelative(root, root)).toBe("");
  });

  it("turns the platform's separator into /, and nothing else", () => {
    expect(toPosixPath("layouts\\deep\\A.layout.json", "\\")).toBe("layouts/deep/A.layout.json");
    expect(toPosixPath("C:\\project\\a", "\\")).toBe("C:/project/a");
    // On POSIX a backslash is part of a name.
    expect(toPosixPath("odd\\name/A.layout.json", "/")).toBe("odd\\name/A.layout.json");
    expect(toPosixPath(join("a", "b"))).toBe("a/b");
  });
});

describe("writeFilesAtomically: the one writer of generate, pull and init", () => {
  it("writes every file, creating folders, and leaves no temporary file", async () => {
    const out = await mkdtemp(join(dir, "write-"));
    await writeFilesAtomically([
      { file: join(out, "a.txt"), contents: "a" },
      { file: join(out, "sub", "b.txt"), contents: "b" },
    ]);
    expect(await readFile(join(out, "a.txt"), "utf8")).toBe("a");
    expect(await readFile(join(out, "sub", "b.txt"), "utf8")).toBe("b");
    expect((await readdir(out)).sort()).toEqual(["a.txt", "sub"]);
  });

  it("changes no file when one of them cannot be written", async () => {
    const out = await mkdtemp(join(dir, "write-"));
    await writeFile(join(out, "a.txt"), "old a");
    await writeFile(join(out, "not-a-folder"), "");
    await expect(
      writeFilesAtomically([
        { file: join(out, "a.txt"), contents: "new a" },
        { file: join(out, "not-a-folder", "b.txt"), contents: "b" },
      ]),
    ).rejects.toThrow();
    expect(await readFile(join(out, "a.txt"), "utf8")).toBe("old a");
    expect((await readdir(out)).sort()).toEqual(["a.txt", "not-a-folder"]);
  });
});
