// `--export-on-exit FILE` (docs/emulator.md, "Snapshots"): the seed document written at a graceful stop, atomically,
// so that FILE is either the last export whole or what it was before, never half of one (it may be the --data file
// the emulator started from).
import { open, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { seedText } from "./seed-snapshot.js";

/** Writes `document` as JSON to `file`: a temporary file beside it, synced, then renamed over it. Throws naming `file` and why. */
export async function writeExportFile(file: string, document: object): Promise<void> {
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${Date.now()}.tmp`);
  try {
    const handle = await open(temp, "wx");
    try {
      await handle.writeFile(seedText(document));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {});
    throw new Error(`${file}: cannot write the export: ${(error as Error).message}`);
  }
}
