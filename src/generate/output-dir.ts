import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { readIfExists } from "../project/index.js";

/** Reading the output folder, shared by the writer and the checker. */

export function isGenerated(text: string, header: string): boolean {
  return text === header || text.startsWith(`${header}\n`) || text.startsWith(`${header}\r\n`);
}

/**
 * The `.ts` files directly in `outDir` that start with the header and are not in `keep`: modules of layouts
 * that are gone. Files without the header are the user's, and never touched.
 */
export async function staleGeneratedFiles(outDir: string, keep: ReadonlySet<string>, header: string): Promise<{ path: string; contents: string }[]> {
  let names: string[];
  try {
    names = (await readdir(outDir, { withFileTypes: true })).filter((e) => e.isFile() && e.name.endsWith(".ts")).map((e) => e.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const stale: { path: string; contents: string }[] = [];
  for (const name of names.sort()) {
    if (keep.has(name)) continue;
    const contents = await readIfExists(join(outDir, name));
    if (contents !== undefined && isGenerated(contents, header)) stale.push({ path: name, contents });
  }
  return stale;
}
