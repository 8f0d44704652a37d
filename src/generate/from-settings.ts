import { loadDatabaseDescriptionsBeside, loadLayouts } from "../layout/index.js";
import { loadTables } from "../table/index.js";
import { checkGeneratedFiles, type FileDrift } from "./check.js";
import { generate, type GeneratedFile } from "./generate.js";
import type { GenerateSettings } from "./settings.js";
import { writeGeneratedFiles, type WriteReport } from "./write.js";

/** Loads every description the settings name (layouts, the databases' beside them, tables) and generates from them; touches no output. */
export async function generateFromSettings(settings: GenerateSettings): Promise<GeneratedFile[]> {
  const validateRecords = settings.config?.options?.validateRecords;
  const importExtension = settings.importExtension ?? settings.config?.options?.importExtension;
  const [layouts, databases, tables] = await Promise.all([loadLayouts(settings.layouts), loadDatabaseDescriptionsBeside(settings.layouts), loadTables(settings.tables)]);
  return generate(layouts, { databases, tables, ...(validateRecords === false ? { validateRecords } : {}), ...(importExtension !== undefined ? { importExtension } : {}) });
}

/** `fmgen generate`: generate and write. */
export async function generateAndWrite(settings: GenerateSettings): Promise<WriteReport> {
  return writeGeneratedFiles(settings.outDir, await generateFromSettings(settings));
}

/** `fmgen generate --check`: generate and compare; an empty list means up to date. */
export async function generateAndCheck(settings: GenerateSettings, cwd = process.cwd()): Promise<FileDrift[]> {
  return checkGeneratedFiles(settings.outDir, await generateFromSettings(settings), { cwd });
}
