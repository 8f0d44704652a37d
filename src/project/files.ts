import { randomBytes } from "node:crypto";
import { access, mkdir, open, readFile, rename, stat, unlink } from "node:fs/promises";
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

/** A temporary file's name part no one can guess: 16 random bytes, hex. */
const randomName = (): string => randomBytes(16).toString("hex");

/** How many names `writeFilesAtomically` tries for one temporary file before it gives up. */
const TEMP_NAME_ATTEMPTS = 3;

/**
 * The one way fmgen writes files (generated modules, descriptions, fmgen.pulled.json, fmgen.config.json,
 * .env.example): each is first written in full to a temporary file beside its target, and only when all of them
 * are written are they renamed into place, so an error leaves no file half written and no temporary file behind.
 *
 * A temporary file is always a new file: its name has a part no one can guess (crypto random), and it is created exclusively (`wx`: O_CREAT | O_EXCL, which also refuses a symlink), so a file or
 * symlink someone planted in the folder is never written through; a name that is taken is left alone and another
 * tried. Its mode is the target's when there is one (a file the user made private stays private), else 0o666, as
 * any new file a program creates (none of these files holds a secret); the umask applies either way.
 */
export function writeFilesAtomically(files: readonly { file: string; contents: string }[]): Promise<void> {
  return writeFilesThroughTemps(files, randomName);
}

/**
 * `writeFilesAtomically`, with the temporary names' random part from `random`: tests give a predictable one, to take
 * a name first. Not exported from the project's index.
 */
export async function writeFilesThroughTemps(files: readonly { file: string; contents: string }[], random: () => string): Promise<void> {
  const temps: { temp: string; file: string }[] = [];
  try {
    for (const { file, contents } of files) {
      await mkdir(dirname(file), { recursive: true });
      const mode = await stat(file).then(({ mode }) => mode & 0o777, () => 0o666);
      for (let attempt = 1; ; attempt++) {
        const temp = join(dirname(file), `.${basename(file)}.${random()}${TEMP_FILE_SUFFIX}`);
        const handle = await open(temp, "wx", mode).catch((error: NodeJS.ErrnoException) => {
          if (error.code === "EEXIST" && attempt < TEMP_NAME_ATTEMPTS) return undefined;
          throw error;
        });
        if (!handle) continue;
        // Ours from here on: removed again if anything fails.
        temps.push({ temp, file });
        try {
          await handle.writeFile(contents, "utf8");
        } finally {
          await handle.close();
        }
        break;
      }
    }
    for (const { temp, file } of temps) await rename(temp, file);
  } catch (error) {
    await Promise.all(temps.map(({ temp }) => unlink(temp).catch(() => undefined)));
    throw error;
  }
}
