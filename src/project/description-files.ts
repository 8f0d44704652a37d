import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { compareCodeUnits } from "./compare.js";
import { expandGlob, isGlob } from "./glob.js";
import { JsonFileError } from "./json-file.js";

/**
 * Which description files a list of entries names: the one place fmgen turns `layouts` entries (of the config,
 * of `--layouts`, of `fmgen serve`) into files. An entry is a file, a folder (every file in it that ends in the
 * suffix, sorted by name; not its subfolders) or a glob (`*`, `?`, `**`: the files it matches, sorted by path).
 * Each file comes once, in the order the entries name them.
 */

export const LAYOUT_FILE_SUFFIX = ".layout.json";
/** Table descriptions (`<Name>.table.json`, src/table): never read as layouts, though they may sit beside them. */
export const TABLE_FILE_SUFFIX = ".table.json";

/** An entry that names no description where one is needed; the message names the entry. */
export class DescriptionPathError extends JsonFileError {}

export interface DiscoveryOptions {
  /** What the files of a folder end in (default `.layout.json`). */
  suffix?: string;
  /**
   * `"error"` (default: generate, the emulator): an entry that does not exist, a folder that holds no such file
   * and a glob that matches nothing are errors. `"skip"` (pull, which may be about to write the first
   * description): they name no file.
   */
  missing?: "error" | "skip";
}

export async function descriptionFiles(entries: readonly string[], options: DiscoveryOptions = {}): Promise<string[]> {
  const suffix = options.suffix ?? LAYOUT_FILE_SUFFIX;
  const strict = (options.missing ?? "error") === "error";
  const files: string[] = [];
  const fail = (entry: string, message: string) => {
    if (strict) throw new DescriptionPathError(entry, [{ path: "", message }]);
  };
  for (const entry of entries) {
    if (isGlob(entry)) {
      const matched = await expandGlob(entry);
      if (matched.length === 0) fail(entry, "the glob matches no file");
      files.push(...matched);
      continue;
    }
    const info = await stat(entry).catch(() => undefined);
    if (!info) {
      fail(entry, "no such file or folder");
      continue;
    }
    if (!info.isDirectory()) {
      files.push(entry);
      continue;
    }
    const names = (await readdir(entry)).filter((name) => name.endsWith(suffix)).sort(compareCodeUnits);
    if (names.length === 0) fail(entry, `folder holds no *${suffix} file`);
    files.push(...names.map((name) => join(entry, name)));
  }
  return [...new Set(files)];
}
