import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * `npm ci` refuses a lockfile that is out of sync with its package.json, or that leaves out a package one of
 * its packages depends on, optional platform packages included (npm 11: "Missing: @rollup/rollup-darwin-arm64
 * from lock file"), whatever the platform it runs on. A lockfile written where the registry lacked some platform
 * packages records only the others, and `npm ci` then fails on every machine. This checks every lockfile of
 * the repository the same way, offline: the root entry matches package.json, and every dependency, optional
 * dependency and required peer of every entry resolves, by Node's lookup through `node_modules` folders, to an
 * entry of the lockfile.
 */

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SKIP = new Set(["node_modules", ".git", "dist", ".build"]);

function findLockfiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory() && !SKIP.has(entry.name)) found.push(...findLockfiles(join(dir, entry.name)));
    else if (entry.isFile() && entry.name === "package-lock.json") found.push(join(dir, entry.name));
  }
  return found;
}

interface LockEntry {
  link?: boolean;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/** The entry Node would load `name` from when required by the package at `from` ("" is the root). */
function resolveIn(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  for (let base = from; ; ) {
    const candidate = `${base ? `${base}/` : ""}node_modules/${name}`;
    if (Object.hasOwn(packages, candidate)) return candidate;
    if (!base) return undefined;
    const parent = base.lastIndexOf("/node_modules/");
    base = parent >= 0 ? base.slice(0, parent) : "";
  }
}

/** `"<entry> needs <name>"` for every package an entry depends on that the lockfile does not hold. */
function missingFromLockfile(packages: Record<string, LockEntry>): string[] {
  const missing: string[] = [];
  for (const [path, entry] of Object.entries(packages)) {
    if (entry.link) continue;
    const peers = Object.keys(entry.peerDependencies ?? {}).filter((name) => !entry.peerDependenciesMeta?.[name]?.optional);
    const names = [...Object.keys(entry.dependencies ?? {}), ...Object.keys(entry.optionalDependencies ?? {}), ...peers, ...(path === "" ? Object.keys(entry.devDependencies ?? {}) : [])];
    for (const name of names) if (resolveIn(packages, path, name) === undefined) missing.push(`${path || "the root"} needs ${name}`);
  }
  return missing;
}

const lockfiles = findLockfiles(ROOT);

describe("lockfiles that npm ci takes on any machine", () => {
  it("finds the root's and the peers benchmark's", () => {
    expect(lockfiles.map((file) => relative(ROOT, file)).sort()).toEqual(expect.arrayContaining(["package-lock.json", "test/bench/peers/package-lock.json"]));
  });

  it("flags a lockfile that leaves out an optional platform package", () => {
    const packages: Record<string, LockEntry> = {
      "": { dependencies: { rollup: "4.0.0" } },
      "node_modules/rollup": { optionalDependencies: { "@rollup/rollup-linux-x64-gnu": "4.0.0", "@rollup/rollup-darwin-arm64": "4.0.0" } },
      "node_modules/@rollup/rollup-linux-x64-gnu": {},
    };
    expect(missingFromLockfile(packages)).toEqual(["node_modules/rollup needs @rollup/rollup-darwin-arm64"]);
  });

  describe.each(lockfiles.map((file) => [relative(ROOT, file), file]))("%s", (_, file) => {
    const lock = JSON.parse(readFileSync(file, "utf8")) as { lockfileVersion: number; packages: Record<string, LockEntry> };
    const manifest = JSON.parse(readFileSync(join(file, "../package.json"), "utf8")) as LockEntry;

    it("is a version 3 lockfile whose root entry matches package.json", () => {
      expect(lock.lockfileVersion).toBe(3);
      const root = lock.packages[""]!;
      for (const field of ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"] as const) expect(root[field], field).toEqual(manifest[field]);
    });

    it("holds every package its packages depend on, optional platform packages included", () => {
      expect(missingFromLockfile(lock.packages)).toEqual([]);
    });
  });
});
