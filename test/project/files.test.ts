import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDatabaseDescriptionsBeside, loadLayouts } from "../../src/layout/index.js";
import { writeFilesThroughTemps } from "../../src/project/files.js";
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

  it("never writes through a symlink planted at a temporary file's name (the names it once used: pid and a counter)", async () => {
    const out = await mkdtemp(join(dir, "write-"));
    const victim = join(await mkdtemp(join(dir, "victim-")), "victim.txt");
    await writeFile(victim, "the victim's own");
    // Up to fmgen 0.1.0 the temporary file of a.txt was .a.txt.<pid>.<n>.fmgen-tmp, written with flag "w", which
    // follows a symlink: anyone able to write to the folder could have fmgen overwrite any file its user can write.
    const planted = Array.from({ length: 50 }, (_, n) => `.a.txt.${process.pid}.${n + 1}.fmgen-tmp`);
    for (const name of planted) await symlink(victim, join(out, name));
    await writeFilesAtomically([{ file: join(out, "a.txt"), contents: "generated" }]);
    expect(await readFile(victim, "utf8")).toBe("the victim's own");
    expect((await lstat(join(out, "a.txt"))).isFile()).toBe(true);
    expect(await readFile(join(out, "a.txt"), "utf8")).toBe("generated");
    expect((await readdir(out)).sort()).toEqual(["a.txt", ...planted].sort());
  });

  it("leaves a file or symlink already at a temporary name alone, and takes another name", async () => {
    const out = await mkdtemp(join(dir, "write-"));
    const victim = join(await mkdtemp(join(dir, "victim-")), "victim.txt");
    await writeFile(victim, "the victim's own");
    await writeFile(join(out, ".a.txt.taken.fmgen-tmp"), "someone's file");
    await symlink(victim, join(out, ".a.txt.linked.fmgen-tmp"));
    const names = ["taken", "linked", "free"];
    const asked: string[] = [];
    await writeFilesThroughTemps([{ file: join(out, "a.txt"), contents: "generated" }], () => {
      asked.push(names[asked.length]!);
      return asked.at(-1)!;
    });
    expect(asked).toEqual(["taken", "linked", "free"]);
    expect(await readFile(join(out, "a.txt"), "utf8")).toBe("generated");
    expect(await readFile(join(out, ".a.txt.taken.fmgen-tmp"), "utf8")).toBe("someone's file");
    expect(await readFile(victim, "utf8")).toBe("the victim's own");
    expect((await readdir(out)).sort()).toEqual([".a.txt.linked.fmgen-tmp", ".a.txt.taken.fmgen-tmp", "a.txt"]);
  });

  it("gives up (EEXIST) when every name it tries is taken, changing no file and removing none", async () => {
    const out = await mkdtemp(join(dir, "write-"));
    await writeFile(join(out, "a.txt"), "old a");
    await writeFile(join(out, "b.txt"), "old b");
    await writeFile(join(out, ".b.txt.taken.fmgen-tmp"), "someone's file");
    let calls = 0;
    const error = await writeFilesThroughTemps(
      [
        { file: join(out, "a.txt"), contents: "new a" },
        { file: join(out, "b.txt"), contents: "new b" },
      ],
      () => (++calls === 1 ? "free" : "taken"),
    ).catch((e: unknown) => e);
    expect((error as NodeJS.ErrnoException).code).toBe("EEXIST");
    expect(calls).toBe(4);
    expect(await readFile(join(out, "a.txt"), "utf8")).toBe("old a");
    expect(await readFile(join(out, "b.txt"), "utf8")).toBe("old b");
    expect(await readFile(join(out, ".b.txt.taken.fmgen-tmp"), "utf8")).toBe("someone's file");
    // a.txt's temporary file was removed; the file it did not create stays.
    expect((await readdir(out)).sort()).toEqual([".b.txt.taken.fmgen-tmp", "a.txt", "b.txt"]);
  });

  it.skipIf(process.platform === "win32")("keeps the mode of the file it replaces; a new file gets 0o666 less the umask", async () => {
    const out = await mkdtemp(join(dir, "write-"));
    await writeFile(join(out, "private.json"), "{}");
    await chmod(join(out, "private.json"), 0o600);
    await writeFilesAtomically([
      { file: join(out, "private.json"), contents: '{ "a": 1 }' },
      { file: join(out, "new.json"), contents: "{}" },
    ]);
    expect(await readFile(join(out, "private.json"), "utf8")).toBe('{ "a": 1 }');
    expect((await stat(join(out, "private.json"))).mode & 0o777).toBe(0o600);
    expect((await stat(join(out, "new.json"))).mode & 0o777).toBe(0o666 & ~process.umask());
  });
});
