import { stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { LayoutFileError } from "../layout/index.js";
import { expandGlob, globBase, isGlob } from "./glob.js";

/** What the `layouts` entries of a run resolve to. */
export interface LayoutInputs {
  /** Files and folders for `loadLayouts`, globs expanded, each once, in the order given. */
  paths: string[];
  /** Folders to watch for changes: folders given, the folders of files given, the bases of globs. */
  watchDirs: { dir: string; recursive: boolean }[];
}

/** Resolves `layouts` entries (files, folders, globs) against `baseDir`. A glob that matches nothing is an error. */
export async function resolveLayoutInputs(entries: readonly string[], baseDir: string): Promise<LayoutInputs> {
  const paths: string[] = [];
  const watchDirs = new Map<string, boolean>();
  const seen = new Set<string>();
  const add = (path: string) => {
    if (!seen.has(path)) paths.push(path);
    seen.add(path);
  };
  for (const entry of entries) {
    const absolute = resolve(baseDir, entry);
    if (isGlob(entry)) {
      const files = await expandGlob(absolute);
      if (!files.length) throw new LayoutFileError(entry, [{ path: "", message: "the glob matches no file" }]);
      files.forEach(add);
      watchDirs.set(globBase(absolute), watchDirs.get(globBase(absolute)) || absolute.includes("**"));
      continue;
    }
    add(absolute);
    const isDir = await stat(absolute).then(
      (s) => s.isDirectory(),
      () => false,
    );
    const dir = isDir ? absolute : dirname(absolute);
    watchDirs.set(dir, watchDirs.get(dir) ?? false);
  }
  return { paths, watchDirs: [...watchDirs].map(([dir, recursive]) => ({ dir, recursive })) };
}
