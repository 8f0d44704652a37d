import { access, mkdir, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/** Whether there is a file or folder at `path` (one that cannot be reached counts as none). */
export function pathExists(path: string): Promise<boolean> {
  return access(path).then(() => true, () => false);
}

/** The text of a file, or undefined when there is none. */
export async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
}

/** Temporary files end in this; watchers ignore them. */
export const TEMP_FILE_SUFFIX = ".fmgen-tmp";

let tempCounter = 0;

/**
 * The one way fmgen writes files (generated modules, descriptions, fmgen.pulled.json, fmgen.config.json): each is
 * first written in full to a temporary file beside its target, and only when all of them are written are they
 * renamed into place, so an error leaves no file half written and no temporary file behind.
 */
export async function writeFilesAtomically(files: readonly { file: string; contents: string }[]): Promise<void> {
  const temps: { temp: string; file: string }[] = [];
  try {
    for (const { file, contents } of files) {
      await mkdir(dirname(file), { recursive: true });
      const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${++tempCounter}${TEMP_FILE_SUFFIX}`);
      temps.push({ temp, file });
      await writeFile(temp, contents, "utf8");
    }
    for (const { temp, file } of temps) await rename(temp, file);
  } catch (error) {
    await Promise.all(temps.map(({ temp }) => unlink(temp).catch(() => undefined)));
    throw error;
  }
}
