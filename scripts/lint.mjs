#!/usr/bin/env node
// The repository's hygiene (`npm run lint`; `npm test` runs it before vitest): checks that read the repository's files
// rather than run the product.
// - No file cites a document that is not in the repository (the design notes, style guide and API captures the
//   project was written from live outside it): a reader of the repository could not follow the reference.
// - No file names a path of one machine (a home or work folder): it holds on no other machine.
// - No file holds a merge's conflict markers.
// - .gitignore ignores no tracked file (git would go on tracking it while the list claims otherwise), and does ignore
//   what the build, tsc -b and npm install write.
// The files are git's (tracked, and new ones not ignored), or, outside a git checkout, every file but node_modules/,
// dist/ and examples/.build/. Prints each problem as `file:line: what` and exits 1 on any.
// Usage: node scripts/lint.mjs [--root <dir>] (test/lint.test.ts runs it on planted problems).

import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const rootAt = process.argv.indexOf("--root");
const ROOT = rootAt >= 0 ? process.argv[rootAt + 1] : fileURLToPath(new URL("..", import.meta.url));

/** Documents kept outside the repository, by name (built from parts so that this file does not cite them). */
const OUTSIDE_DOCUMENTS = [["DES", "IGN"], ["STY", "LE"], ["data-", "api"], ["data-", "api-server"], ["odata-", "server"]].map((parts) => `${parts.join("")}.md`);
/** The start of a path of one machine: a home or work folder (unix, macOS, Windows). */
const MACHINE_PATH = new RegExp(String.raw`(?<![\w.~-])(?:/(?:${["ho", "me"].join("")}|${["Us", "ers"].join("")}|${["wo", "rk"].join("")})/[\w.-]|[A-Za-z]:\\(?:Users|Documents and Settings)\\)`);
const CONFLICT_MARKER = /^(?:<{7}|>{7})(?: |$)|^\|{7} /;
/** What the build (dist/), tsc -b (.tsbuildinfo), the example runner and npm install and pack write. */
const MUST_BE_IGNORED = [
  "dist/index.js",
  "packages/runtime/dist/index.js",
  "node_modules/x",
  "test/peer-clients/node_modules/x",
  "examples/.build/app.js",
  "fmgen-0.1.0.tgz",
  "tsconfig.tsbuildinfo",
  "test/golden/tsconfig.tsbuildinfo",
];
const SKIP_DIRS = new Set(["node_modules", "dist", ".build", ".git"]);

const isGit = existsSync(join(ROOT, ".git"));
const git = (...args) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 2 ** 20 });

function filesOf(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) found.push(...filesOf(join(dir, entry.name)));
    } else if (entry.isFile()) found.push(relative(ROOT, join(dir, entry.name)));
  }
  return found;
}

const files = (isGit ? git("ls-files", "-z", "--cached", "--others", "--exclude-standard").split("\0").filter(Boolean) : filesOf(ROOT))
  .filter((file) => existsSync(join(ROOT, file)) && statSync(join(ROOT, file)).isFile())
  .sort();
const names = new Set(files.map((file) => basename(file)));
// A document of that name in the repository may be cited, of course.
const outside = OUTSIDE_DOCUMENTS.filter((name) => !names.has(name));
const CITATION = outside.length ? new RegExp(String.raw`(?<![\w-])(?:${outside.map((n) => n.replace(/[.]/g, "\\.")).join("|")})(?![\w])`) : undefined;

const problems = [];
for (const file of files) {
  const bytes = readFileSync(join(ROOT, file));
  if (bytes.subarray(0, 8000).includes(0)) continue; // binary
  const lines = bytes.toString("utf8").split("\n");
  lines.forEach((line, i) => {
    const at = `${file}:${i + 1}`;
    const cited = CITATION?.exec(line);
    if (cited) problems.push(`${at}: cites ${cited[0]}, which is not in the repository`);
    const path = MACHINE_PATH.exec(line);
    if (path) problems.push(`${at}: names a path of one machine (${line.slice(path.index, path.index + 24).trim()}...)`);
    if (CONFLICT_MARKER.test(line)) problems.push(`${at}: a merge conflict marker`);
  });
}

if (isGit) {
  for (const file of git("ls-files", "--cached", "--ignored", "--exclude-standard").split("\n").filter(Boolean)) problems.push(`${file}: tracked, yet .gitignore ignores it`);
  let ignored = "";
  try {
    ignored = git("check-ignore", "--no-index", ...MUST_BE_IGNORED);
  } catch (error) {
    ignored = error.stdout ?? ""; // exit 1: none of them ignored
  }
  const got = new Set(ignored.split("\n").filter(Boolean));
  for (const path of MUST_BE_IGNORED) if (!got.has(path)) problems.push(`.gitignore: does not ignore ${path}, which is written by the build or an install`);
}

for (const problem of problems) console.error(problem);
console.log(`lint: ${files.length} files${isGit ? " and .gitignore" : ""}: ${problems.length ? `${problems.length} problem(s)` : "no problems"}`);
process.exit(problems.length ? 1 : 0);
