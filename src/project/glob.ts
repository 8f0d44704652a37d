import { readdir } from "node:fs/promises";
import { join, posix } from "node:path";
import { compareCodeUnits } from "./compare.js";
import { toPosixPath } from "./paths.js";

/**
 * A small glob matcher for layout paths (Node 20 has no `fs.promises.glob`): `*` matches within one path
 * segment, `?` one character, `**` any number of whole segments. `*`, `?` and `**` never match a name that
 * starts with a dot.
 */

export function isGlob(pattern: string): boolean {
  return /[*?]/.test(pattern);
}

/** The pattern's leading segments that hold no wildcard: where the walk starts. */
export function globBase(pattern: string): string {
  const segments = toPosixPath(pattern).split("/");
  const firstWild = segments.findIndex(isGlob);
  const base = segments.slice(0, firstWild < 0 ? segments.length : firstWild).join("/");
  return base === "" ? (pattern.startsWith("/") ? "/" : ".") : base;
}

/** A RegExp for a whole `/`-separated path. */
export function globToRegExp(pattern: string): RegExp {
  const segments = toPosixPath(pattern).split("/");
  let source = "";
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1;
    if (segment === "**") {
      source += last ? "(?:(?!\\.)[^/]+/)*(?!\\.)[^/]+" : "(?:(?!\\.)[^/]+/)*";
      return;
    }
    let part = /^[*?]/.test(segment) ? "(?!\\.)" : "";
    for (const c of segment) part += c === "*" ? "[^/]*" : c === "?" ? "[^/]" : c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
    source += last ? part : `${part}/`;
  });
  return new RegExp(`^${source}$`);
}

/** The files a glob matches, sorted by path. */
export async function expandGlob(pattern: string): Promise<string[]> {
  const posixPattern = posix.normalize(toPosixPath(pattern));
  const base = globBase(posixPattern);
  const matcher = globToRegExp(posixPattern);
  const deep = posixPattern.includes("**");
  const depth = posixPattern.split("/").length - (base === "." ? 0 : base.split("/").length);
  const found: string[] = [];
  const walk = async (dir: string, level: number): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = dir === "." ? entry.name : join(dir, entry.name);
      const candidate = toPosixPath(path);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith(".") && (deep || level + 1 < depth)) await walk(path, level + 1);
      } else if (matcher.test(candidate)) {
        found.push(path);
      }
    }
  };
  await walk(base, 0);
  return found.sort(compareCodeUnits);
}
