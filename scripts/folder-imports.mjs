#!/usr/bin/env node
// The imports between the folders of src/ (`npm run imports`): a matrix of how many import statements each folder
// has of each other folder, and the cycles, which must not exist. Exits 1 when two folders import each other
// (directly or around a ring), or when two files do.
//
//   node scripts/folder-imports.mjs            the matrix and the cycles of ./src
//   node scripts/folder-imports.mjs --src DIR  of another tree (a checkout of an older commit, a test fixture)
//   node scripts/folder-imports.mjs --json     as JSON: { folders, matrix, folderCycles, fileCycles }
//   node scripts/folder-imports.mjs --within emulator
//                                              of the sub-folders of src/emulator: its files directly in it are
//                                              "(emulator)", imports that leave it are not counted
//   node scripts/folder-imports.mjs --within runtime
//                                              of src/runtime: core/ (what both APIs share), data-api/, odata/ and
//                                              "(runtime)", the package's entries directly in it
//
// Every `import ... from`, `export ... from`, `import "..."` and `import("...")` counts, type-only ones too: a
// type cycle is still two modules that cannot be understood one without the other. `@fmgen/runtime` (and its
// subpaths) is the runtime folder. A file directly in src/ is the folder "(root)".

import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

const args = process.argv.slice(2);
const srcAt = args.indexOf("--src");
const SRC = resolve(srcAt >= 0 ? args[srcAt + 1] : join(dirname(new URL(import.meta.url).pathname), "../src"));
const JSON_OUT = args.includes("--json");
const withinAt = args.indexOf("--within");
const WITHIN = withinAt >= 0 ? args[withinAt + 1] : undefined;
if (withinAt >= 0 && (!WITHIN || WITHIN.startsWith("--"))) {
  console.error("folder-imports: --within needs a folder of src/ (--within emulator)");
  process.exit(2);
}
/** The tree whose folders are the units: src/, or the folder --within names. */
const ROOT = WITHIN === undefined ? SRC : resolve(SRC, WITHIN);
const ROOT_LABEL = WITHIN === undefined ? "(root)" : `(${WITHIN.split(/[\\/]/).filter(Boolean).pop()})`;
try {
  if (!statSync(ROOT).isDirectory()) throw new Error();
} catch {
  console.error(`folder-imports: no folder ${relative(process.cwd(), ROOT) || "."}`);
  process.exit(2);
}

function sourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|mts|js|mjs)$/.test(name) && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

const SPECIFIER = /(?:^|[\s;}])(?:import|export)\s[^'"`;]*?from\s*["']([^"']+)["']|(?:^|[\s;])import\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** The specifiers a file imports, comments left out. */
function specifiersOf(text) {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
  return [...code.matchAll(SPECIFIER)].map((m) => m[1] ?? m[2] ?? m[3]);
}

const folderOf = (file) => {
  const parts = relative(ROOT, file).split(sep);
  return parts.length === 1 ? ROOT_LABEL : parts[0];
};

/** The file a relative specifier names (`./x.js` is `./x.ts` in the sources), or undefined when it leaves the tree. */
function resolveFile(from, specifier) {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, base.replace(/\.js$/, ".ts"), base.replace(/\.mjs$/, ".mts"), `${base}.ts`, join(base, "index.ts")]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {}
  }
  return undefined;
}

const files = sourceFiles(ROOT);
const folders = [...new Set(files.map(folderOf))].sort();
const matrix = Object.fromEntries(folders.map((f) => [f, Object.fromEntries(folders.map((g) => [g, 0]))]));
const fileEdges = new Map(files.map((f) => [f, new Set()]));
for (const file of files) {
  const from = folderOf(file);
  for (const specifier of specifiersOf(readFileSync(file, "utf8"))) {
    let to;
    if (/^@fmgen\/runtime(\/|$)/.test(specifier)) {
      if (WITHIN !== undefined) continue;
      to = "runtime";
    } else if (specifier.startsWith(".")) {
      const target = resolveFile(file, specifier);
      if (!target || relative(ROOT, target).startsWith("..")) continue;
      fileEdges.get(file).add(target);
      to = folderOf(target);
    } else continue;
    if (to !== from && matrix[from][to] !== undefined) matrix[from][to]++;
  }
}

/** Strongly connected components with more than one member (Tarjan). */
function cycles(nodes, next) {
  let index = 0;
  const indices = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (node) => {
    indices.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const other of next(node)) {
      if (!indices.has(other)) {
        visit(other);
        low.set(node, Math.min(low.get(node), low.get(other)));
      } else if (onStack.has(other)) low.set(node, Math.min(low.get(node), indices.get(other)));
    }
    if (low.get(node) === indices.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of nodes) if (!indices.has(node)) visit(node);
  return found;
}

const folderCycles = cycles(folders, (f) => folders.filter((g) => matrix[f][g] > 0));
const fileCycles = cycles(files, (f) => fileEdges.get(f)).map((c) => c.map((f) => relative(ROOT, f).split(sep).join("/")));

if (JSON_OUT) {
  console.log(JSON.stringify({ folders, matrix, folderCycles, fileCycles }, null, 2));
} else {
  const width = Math.max(...folders.map((f) => f.length), "imports ->".length);
  const cell = (text, w) => String(text).padStart(w);
  console.log(`Imports between the folders of ${relative(process.cwd(), ROOT) || "."} (row imports column; type-only imports included):\n`);
  console.log(`${"".padEnd(width)} ${folders.map((f) => cell(f, Math.max(f.length, 3))).join(" ")}`);
  for (const f of folders) console.log(`${f.padEnd(width)} ${folders.map((g) => cell(f === g ? "." : matrix[f][g] || "", Math.max(g.length, 3))).join(" ")}`);
  console.log("");
  console.log(folderCycles.length ? `Folder cycles: ${folderCycles.map((c) => c.join(" <-> ")).join("; ")}` : "Folder cycles: none");
  console.log(fileCycles.length ? `File cycles:\n${fileCycles.map((c) => `  ${c.join(" <-> ")}`).join("\n")}` : "File cycles: none");
}
process.exitCode = folderCycles.length || fileCycles.length ? 1 : 0;
