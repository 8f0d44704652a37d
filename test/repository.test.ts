import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// .gitignore says what is built or installed, never a file the repository tracks (git would keep tracking it
// while the ignore list claims otherwise).

const ROOT = fileURLToPath(new URL("../", import.meta.url));

describe(".gitignore", () => {
  it.skipIf(!existsSync(`${ROOT}.git`))("ignores no tracked file", () => {
    const ignoredButTracked = execFileSync("git", ["ls-files", "--cached", "--ignored", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" });
    expect(ignoredButTracked.split("\n").filter(Boolean)).toEqual([]);
  });

  it.skipIf(!existsSync(`${ROOT}.git`))("ignores what the build, tsc -b and npm install write", () => {
    const ignored = execFileSync("git", ["check-ignore", "--no-index", "dist/index.js", "packages/runtime/dist/index.js", "node_modules/x", "test/peer-clients/node_modules/x", "examples/.build/app.js", "fmgen-0.1.0.tgz", "tsconfig.tsbuildinfo", "test/golden/tsconfig.tsbuildinfo"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(ignored.split("\n").filter(Boolean)).toHaveLength(8);
  });
});
