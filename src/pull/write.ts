import { mkdir, rename, unlink, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

let tempCounter = 0;

/** Writes every file in full beside its target, then renames them into place: an error leaves no half-written file. */
export async function writeAll(files: readonly { file: string; text: string }[]): Promise<string[]> {
  const temps: { temp: string; file: string }[] = [];
  try {
    for (const { file, text } of files) {
      await mkdir(dirname(file), { recursive: true });
      const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${++tempCounter}.fmgen-tmp`);
      temps.push({ temp, file });
      await writeFile(temp, text, "utf8");
    }
    for (const { temp, file } of temps) await rename(temp, file);
  } catch (error) {
    await Promise.all(temps.map(({ temp }) => unlink(temp).catch(() => undefined)));
    throw error;
  }
  return temps.map((t) => t.file);
}
