import { resolve } from "node:path";
import { CONFIG_FILE_NAME, findProjectConfig, type FmgenConfig, type ImportExtension } from "../project/index.js";

/** Where a run reads and writes: the config file merged with the command line. */
export interface GenerateSettings {
  /** Layout entries (files, folders, globs), absolute; empty when only tables are generated. */
  layouts: readonly string[];
  /** Table description entries (files, folders of `*.table.json`, globs), absolute; empty when there are none. */
  tables: readonly string[];
  /** Output folder, absolute. */
  outDir: string;
  /** The config file used, if any. */
  configFile?: string;
  config?: FmgenConfig;
  /** `--import-extension`: replaces the config's `options.importExtension`; absent without the flag. */
  importExtension?: ImportExtension;
  /** `--schemas` / `--no-schemas`: replaces the config's `options.schemas`; absent without the flag. */
  schemas?: boolean;
}

export interface SettingsRequest {
  /** `--config`: a config file; without it, `<cwd>/fmgen.config.json` when there is one. */
  config?: string | undefined;
  /** `--layouts`: replaces the config's `layouts`; relative to `cwd`. */
  layouts?: readonly string[] | undefined;
  /** `--tables`: replaces the config's `tables`; relative to `cwd`. */
  tables?: readonly string[] | undefined;
  /** `--out`: replaces the config's `outDir`; relative to `cwd`. */
  out?: string | undefined;
  /** `--import-extension`: replaces the config's `options.importExtension`. */
  importExtension?: ImportExtension | undefined;
  /** `--schemas` / `--no-schemas`: replaces the config's `options.schemas`. */
  schemas?: boolean | undefined;
  cwd: string;
}

/** Settings that are missing: the command line names neither a config nor --out with --layouts or --tables. */
export class SettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SettingsError";
  }
}

/** Flags win over the config; the config's paths are relative to its own folder. */
export async function resolveGenerateSettings(request: SettingsRequest): Promise<GenerateSettings> {
  const { cwd } = request;
  const { configFile, config, root } = await findProjectConfig(request);
  // Each flag replaces its own key of the config: `--tables` alone keeps the config's layouts.
  const entries = (flag: readonly string[] | undefined, configured: readonly string[] | undefined) =>
    flag?.length ? flag.map((l) => resolve(cwd, l)) : config ? (configured ?? []).map((l) => resolve(root, l)) : undefined;
  const layouts = entries(request.layouts, config?.layouts);
  const tables = entries(request.tables, config?.tables);
  const outDir = request.out !== undefined ? resolve(cwd, request.out) : config ? resolve(root, config.outDir) : undefined;
  if ((!layouts && !tables) || outDir === undefined) {
    throw new SettingsError(`fmgen generate needs --out and --layouts, --tables or both, or a config file (${CONFIG_FILE_NAME} here, or --config <file>)`);
  }
  return {
    layouts: layouts ?? [],
    tables: tables ?? [],
    outDir,
    ...(configFile !== undefined ? { configFile } : {}),
    ...(config ? { config } : {}),
    ...(request.importExtension !== undefined ? { importExtension: request.importExtension } : {}),
    ...(request.schemas !== undefined ? { schemas: request.schemas } : {}),
  };
}
