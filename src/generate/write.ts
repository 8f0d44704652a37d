import { unlink } from "node:fs/promises";
import { join } from "node:path";
import { readIfExists, writeFilesAtomically } from "../project/index.js";
import type { GeneratedFile } from "./generate.js";
import { isGenerated, staleGeneratedFiles } from "./output-dir.js";
import { layoutModuleTemplate } from "./template.js";

export interface WriteReport {
  /** Paths relative to the output folder, each list sorted. */
  written: string[];
  unchanged: string[];
  deleted: string[];
}

/**
 * The only stage that writes. Changed files are written atomically, all or none (`writeFilesAtomically`).
 * Unchanged files are not touched (their modification times stay). Modules of removed layouts are deleted, but
 * only files that start with the generated header; a file at a generated path that does not start with it is
 * the user's, and the writer refuses to overwrite it.
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
  await writeFilesAtomically(changed.map((file) => ({ file: join(outDir, file.path), contents: file.contents })));
  report.written.push(...changed.map((file) => file.path));

  for (const stale of await staleGeneratedFiles(outDir, new Set(files.map((f) => f.path)), header)) {
    await unlink(join(outDir, stale.path));
    report.deleted.push(stale.path);
  }
  report.written.sort();
  report.unchanged.sort();
  return report;
}
