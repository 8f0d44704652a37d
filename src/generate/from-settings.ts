import { loadDatabaseDescriptionsBeside, loadLayouts } from "../layout/index.js";
import { loadTables } from "../table/index.js";
import { checkGeneratedFiles, type FileDrift } from "./check.js";
import { generate, type GeneratedFile } from "./generate.js";
import { SCHEMAS_FILE } from "./plan/name-registry.js";
import type { GenerateSettings } from "./settings.js";
import { writeGeneratedFiles, type WriteReport } from "./write.js";

/** Loads every description the settings name (layouts, the databases' beside them, tables) and generates from them; touches no output. */
export async function generateFromSettings(settings: GenerateSettings): Promise<GeneratedFile[]> {
  const validateRecords = settings.config?.options?.validateRecords;
  const importExtension = settings.importExtension ?? settings.config?.options?.importExtension;
  const schemas = schemasWanted(settings);
  const [layouts, databases, tables] = await Promise.all([loadLayouts(settings.layouts), loadDatabaseDescriptionsBeside(settings.layouts), loadTables(settings.tables)]);
  return generate(layouts, { databases, tables, schemas, ...(validateRecords === false ? { validateRecords } : {}), ...(importExtension !== undefined ? { importExtension } : {}) });
}

/** Whether this run writes schemas.ts: `--schemas` / `--no-schemas`, else the config's `options.schemas`, else no. */
export function schemasWanted(settings: GenerateSettings): boolean {
  return settings.schemas ?? settings.config?.options?.schemas ?? false;
}

/**
 * What a report adds when the run deletes (or `--check` would delete) a schemas.ts an earlier run wrote because the
 * option is off: why it goes, and how to keep it. Undefined otherwise.
 */
export function schemasFileNote(settings: GenerateSettings, removed: readonly string[]): string | undefined {
  if (schemasWanted(settings) || !removed.includes(SCHEMAS_FILE)) return undefined;
  return `${SCHEMAS_FILE} is written only with "schemas": true in the config's options, or --schemas`;
}

/** `fmgen generate`: generate and write. */
export async function generateAndWrite(settings: GenerateSettings): Promise<WriteReport> {
  return writeGeneratedFiles(settings.outDir, await generateFromSettings(settings));
}

/** `fmgen generate --check`: generate and compare; an empty list means up to date. */
export async function generateAndCheck(settings: GenerateSettings, cwd = process.cwd()): Promise<FileDrift[]> {
  return checkGeneratedFiles(settings.outDir, await generateFromSettings(settings), { cwd });
}
