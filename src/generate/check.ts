import { join } from "node:path";
import { unifiedDiff } from "./diff.js";
import type { GeneratedFile } from "./generate.js";
import { posixRelative, readIfExists } from "../project/index.js";
import { staleGeneratedFiles } from "./output-dir.js";
import { layoutModuleTemplate } from "./template.js";

export interface FileDrift {
  /** Relative to the output folder. */
  path: string;
  kind: "changed" | "missing" | "stale";
  /** Unified diff from the file on disk to the file generate would write (`/dev/null` for none). */
  diff: string;
}

/**
 * `--check`: compares what generate would write with the output folder, touching nothing. Returns one entry per
 * file that differs, is missing, or would be deleted; none when the folder is up to date. Diff labels are
 * relative to `cwd`.
 */
export async function checkGeneratedFiles(
  outDir: string,
  files: readonly GeneratedFile[],
  options: { cwd?: string; header?: string } = {},
): Promise<FileDrift[]> {
  const header = options.header ?? layoutModuleTemplate().header;
  const label = (path: string) => posixRelative(options.cwd ?? process.cwd(), join(outDir, path));
  const drift: FileDrift[] = [];
  for (const file of files) {
    const existing = await readIfExists(join(outDir, file.path));
    if (existing === file.contents) continue;
    drift.push({
      path: file.path,
      kind: existing === undefined ? "missing" : "changed",
      diff: unifiedDiff(existing ?? "", file.contents, existing === undefined ? "/dev/null" : `a/${label(file.path)}`, `b/${label(file.path)}`),
    });
  }
  for (const stale of await staleGeneratedFiles(outDir, new Set(files.map((f) => f.path)), header)) {
    drift.push({ path: stale.path, kind: "stale", diff: unifiedDiff(stale.contents, "", `a/${label(stale.path)}`, "/dev/null") });
  }
  return drift;
}
