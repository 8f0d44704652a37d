import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// `npm run lint` (scripts/lint.mjs) checks the repository's hygiene, and `npm test` runs it on the repository before
// vitest. Here it runs on planted problems in a temp checkout, so that a lint that stopped finding them fails: the
// citations of documents kept outside the repository, machine paths, conflict markers, and the .gitignore checks
// (once this file's own tests: no tracked file ignored, what the build, tsc -b and npm install write ignored).

const LINT = fileURLToPath(new URL("../scripts/lint.mjs", import.meta.url));
// Built from parts, so that this file names none of them itself.
const OUTSIDE = ["DES", "IGN.md"].join("");
const MACHINE = `/${["ho", "me"].join("")}/someone/fmgen`;
const MARKER = "<".repeat(7);
const GOOD_IGNORE = "node_modules/\ndist/\nexamples/.build/\n*.tgz\n*.tsbuildinfo\n";

function checkout(files: Record<string, string>, track: string[] = []): string {
  const root = mkdtempSync(join(tmpdir(), "fmgen-lint-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  execFileSync("git", ["init", "-q"], { cwd: root });
  if (track.length) execFileSync("git", ["add", "-f", ...track], { cwd: root });
  return root;
}

const lint = (root: string) => spawnSync(process.execPath, [LINT, "--root", root], { encoding: "utf8" });

describe("npm run lint (scripts/lint.mjs)", () => {
  it("passes a clean checkout, one citing a document the repository holds included", () => {
    const root = checkout({ ".gitignore": GOOD_IGNORE, "README.md": `See [the design](docs/${OUTSIDE}) and /tmp/x.\n`, [`docs/${OUTSIDE}`]: "# Design\n" });
    const result = lint(root);
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/no problems/);
    expect(result.status).toBe(0);
  });

  it("fails on each planted problem, naming the file and the line", () => {
    const root = checkout(
      {
        ".gitignore": "node_modules/\ndist/\n*.log\n",
        "docs/guide.md": `# Guide\nAs ${OUTSIDE} says.\n`,
        "src/a.ts": `// from ${MACHINE}/notes\nexport const a = 1;\n`,
        "test/b.ts": `${MARKER} HEAD\nconst b = 1;\n`,
        "build.log": "tracked by mistake\n",
      },
      ["build.log"],
    );
    const result = lint(root);
    expect(result.status).toBe(1);
    const problems = result.stderr.split("\n").filter(Boolean);
    expect(problems).toEqual(
      expect.arrayContaining([
        `docs/guide.md:2: cites ${OUTSIDE}, which is not in the repository`,
        expect.stringMatching(/^src\/a\.ts:1: names a path of one machine/),
        "test/b.ts:1: a merge conflict marker",
        "build.log: tracked, yet .gitignore ignores it",
        ".gitignore: does not ignore examples/.build/app.js, which is written by the build or an install",
        ".gitignore: does not ignore tsconfig.tsbuildinfo, which is written by the build or an install",
      ]),
    );
    expect(result.stdout).toMatch(/problem\(s\)/);
  });
});
