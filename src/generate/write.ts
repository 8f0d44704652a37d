import { mkdir, rename, unlink, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { GeneratedFile } from "./generate.js";
import { isGenerated, readIfExists, staleGeneratedFiles } from "./output-dir.js";
import { layoutModuleTemplate } from "./template.js";

export interface WriteReport {
  /** Paths relative to the output folder, each list sorted. */
  written: string[];
  unchanged: string[];
  deleted: string[];
}

let tempCounter = 0;

/**
 * The only stage that writes. Every changed file is first written in full to a temporary file beside its
 * target, and only when all of them are written are they renamed into place, so an error leaves no file half
 * written. Unchanged files are not touched (their modification times stay). Modules of removed layouts are
 * deleted, but only files that start with the generated header; a file at a generated path that does not start
 * with it is the user's, and the writer refuses to overwrite it.
 */
export async function writeGeneratedFiles(outDir: string, files: readonly GeneratedFile[], header = layoutModuleTemplate().header): Promise<WriteReport> {
  const report: WriteReport = { written: [], unchanged: [], deleted: [] };
  const changed: GeneratedFile[] = [];
  for (const file of files) {
    const existing = await readIfExists(join(outDir, file.path));
    if (existing !== undefined && !isGenerated(existing, header)) {
      throw new Error(`refusing to overwrite ${join(outDir, file.path)}: it does not start with "${header}", so it is not fmgen's`);
    }
    if (existing === file.contents) report.unchanged.push(file.path);
    else changed.push(file);
  }

  const temps: { temp: string; target: string; path: string }[] = [];
  try {
    for (const file of changed) {
      const target = join(outDir, file.path);
      await mkdir(dirname(target), { recursive: true });
      const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${++tempCounter}.fmgen-tmp`);
      temps.push({ temp, target, path: file.path });
      await writeFile(temp, file.contents, "utf8");
    }
    for (const { temp, target, path } of temps) {
      await rename(temp, target);
      report.written.push(path);
    }
  } catch (error) {
    await Promise.all(temps.map(({ temp }) => unlink(temp).catch(() => undefined)));
    throw error;
  }

  for (const stale of await staleGeneratedFiles(outDir, new Set(files.map((f) => f.path)), header)) {
    await unlink(join(outDir, stale.path));
    report.deleted.push(stale.path);
  }
  report.written.sort();
  report.unchanged.sort();
  return report;
}
