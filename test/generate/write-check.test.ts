import { lstat, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkGeneratedFiles, unifiedDiff, writeGeneratedFiles, layoutModuleTemplate } from "../../src/generate/index.js";

const HEADER = layoutModuleTemplate().header;
const file = (path: string, body: string) => ({ path, contents: `${HEADER}\n\n${body}\n` });

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "fmgen-write-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("unifiedDiff", () => {
  it("is empty for equal texts", () => {
    expect(unifiedDiff("a\n", "a\n", "a", "b")).toBe("");
  });

  it("shows one hunk with three lines of context", () => {
    const before = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
    const after = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n";
    expect(unifiedDiff(before, after, "a/x.ts", "b/x.ts")).toBe("--- a/x.ts\n+++ b/x.ts\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n");
  });

  it("splits distant changes into hunks and numbers empty ranges like diff -u", () => {
    const before = Array.from({ length: 20 }, (_, i) => `${i + 1}`).join("\n") + "\n";
    const after = before.replace("2\n", "two\n").replace("19\n", "19\nnew\n");
    expect(unifiedDiff(before, after, "a", "b")).toBe(
      "--- a\n+++ b\n@@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n 4\n 5\n@@ -17,4 +17,5 @@\n 17\n 18\n 19\n+new\n 20\n",
    );
    expect(unifiedDiff("", "x\n", "/dev/null", "b")).toBe("--- /dev/null\n+++ b\n@@ -0,0 +1 @@\n+x\n");
    expect(unifiedDiff("x\n", "", "a", "/dev/null")).toBe("--- a\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n");
  });

  it("applies back: the diff's - and context lines are the old file, + and context the new one", () => {
    const before = "a\nb\nc\nd\ne\nf\ng\nh\n";
    const after = "b\nc\nX\ne\nf\nY\nZ\nh\ni\n";
    const lines = unifiedDiff(before, after, "a", "b").split("\n").filter((l) => /^[ +-]/.test(l) && !/^(---|\+\+\+) /.test(l));
    expect(lines.filter((l) => l[0] !== "+").map((l) => l.slice(1)).join("\n")).toBe(before.trimEnd());
    expect(lines.filter((l) => l[0] !== "-").map((l) => l.slice(1)).join("\n")).toBe(after.trimEnd());
  });
});

describe("writeGeneratedFiles", () => {
  it("writes new files, leaves unchanged ones untouched, and deletes stale generated files only", async () => {
    const out = join(dir, "out-1");
    expect(await writeGeneratedFiles(out, [file("a.ts", "a"), file("b.ts", "b")])).toEqual({ written: ["a.ts", "b.ts"], unchanged: [], deleted: [] });
    const before = await stat(join(out, "a.ts"));
    await writeFile(join(out, "mine.ts"), "// hand-written\n");
    await writeFile(join(out, "notes.md"), `${HEADER}\n`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await writeGeneratedFiles(out, [file("a.ts", "a"), file("c.ts", "c")])).toEqual({ written: ["c.ts"], unchanged: ["a.ts"], deleted: ["b.ts"] });
    expect((await stat(join(out, "a.ts"))).mtimeMs).toBe(before.mtimeMs);
    expect((await readdir(out)).sort()).toEqual(["a.ts", "c.ts", "mine.ts", "notes.md"]);
  });

  it("refuses to overwrite a file that fmgen did not generate, and writes nothing then", async () => {
    const out = join(dir, "out-2");
    await writeGeneratedFiles(out, [file("a.ts", "a")]);
    await writeFile(join(out, "b.ts"), "export const mine = 1;\n");
    await expect(writeGeneratedFiles(out, [file("a.ts", "changed"), file("b.ts", "b")])).rejects.toThrow(/refusing to overwrite .*b\.ts/);
    expect(await readFile(join(out, "a.ts"), "utf8")).toBe(file("a.ts", "a").contents);
  });

  it("leaves no half-written output and no temporary file when a write fails", async () => {
    const out = join(dir, "out-3");
    await writeGeneratedFiles(out, [file("a.ts", "a")]);
    // "sub" is a file, so "sub/x.ts" cannot be written, after "a.ts" has been written to its temporary file.
    await writeFile(join(out, "sub"), "not a folder");
    await expect(writeGeneratedFiles(out, [file("a.ts", "new a"), file("sub/x.ts", "x")])).rejects.toThrow();
    expect((await readdir(out)).sort()).toEqual(["a.ts", "sub"]);
    expect(await readFile(join(out, "a.ts"), "utf8")).toBe(file("a.ts", "a").contents);
  });

  it("writes no file through a symlink planted in the output folder where a temporary file could be", async () => {
    const out = join(dir, "planted");
    await mkdir(out);
    const victim = join(dir, "victim.txt");
    await writeFile(victim, "the victim's own");
    // The names fmgen's temporary files had (.<name>.<pid>.<n>.fmgen-tmp, written with flag "w", which follows a
    // symlink); today's have a random part and are created exclusively.
    for (let n = 1; n <= 50; n++) await symlink(victim, join(out, `.a.ts.${process.pid}.${n}.fmgen-tmp`));
    expect((await writeGeneratedFiles(out, [file("a.ts", "a")])).written).toEqual(["a.ts"]);
    expect(await readFile(victim, "utf8")).toBe("the victim's own");
    expect((await lstat(join(out, "a.ts"))).isSymbolicLink()).toBe(false);
    expect(await readFile(join(out, "a.ts"), "utf8")).toBe(file("a.ts", "a").contents);
  });
});

describe("checkGeneratedFiles", () => {
  it("finds changed, missing and stale files, with unified diffs, and nothing when up to date", async () => {
    const out = join(dir, "out-4");
    await writeGeneratedFiles(out, [file("a.ts", "a"), file("b.ts", "b")]);
    expect(await checkGeneratedFiles(out, [file("a.ts", "a"), file("b.ts", "b")], { cwd: dir })).toEqual([]);
    const drift = await checkGeneratedFiles(out, [file("a.ts", "A"), file("c.ts", "c")], { cwd: dir });
    expect(drift.map((d) => [d.path, d.kind])).toEqual([
      ["a.ts", "changed"],
      ["c.ts", "missing"],
      ["b.ts", "stale"],
    ]);
    expect(drift[0]!.diff).toBe(`--- a/out-4/a.ts\n+++ b/out-4/a.ts\n@@ -1,3 +1,3 @@\n ${HEADER}\n \n-a\n+A\n`);
    expect(drift[1]!.diff).toMatch(/^--- \/dev\/null\n\+\+\+ b\/out-4\/c\.ts\n/);
    expect(drift[2]!.diff).toMatch(/^--- a\/out-4\/b\.ts\n\+\+\+ \/dev\/null\n/);
    expect((await readdir(out)).sort()).toEqual(["a.ts", "b.ts"]);
  });
});
