import { resolve } from "node:path";
import { CONFIG_FILE_NAME, findProjectConfig, type FmgenConfig, type ImportExtension } from "../project/index.js";

/** Where a run reads and writes: the config file merged with the command line. */
export interface GenerateSettings {
  /** Layout entries (files, folders, globs), absolute. */
  layouts: readonly string[];
  /** Output folder, absolute. */
  outDir: string;
  /** The config file used, if any. */
  configFile?: string;
  config?: FmgenConfig;
  /** `--import-extension`: replaces the config's `options.importExtension`; absent without the flag. */
  importExtension?: ImportExtension;
}

export interface SettingsRequest {
  /** `--config`: a config file; without it, `<cwd>/fmgen.config.json` when there is one. */
  config?: string | undefined;
  /** `--layouts`: replaces the config's `layouts`; relative to `cwd`. */
  layouts?: readonly string[] | undefined;
  /** `--out`: replaces the config's `outDir`; relative to `cwd`. */
  out?: string | undefined;
  /** `--import-extension`: replaces the config's `options.importExtension`. */
  importExtension?: ImportExtension | undefined;
  cwd: string;
}

/** Settings that are missing: the command line names neither a config nor both --layouts and --out. */
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
  const layouts = request.layouts?.length ? request.layouts.map((l) => resolve(cwd, l)) : config ? (config.layouts ?? []).map((l) => resolve(root, l)) : undefined;
  const outDir = request.out !== undefined ? resolve(cwd, request.out) : config ? resolve(root, config.outDir) : undefined;
  if (!layouts || outDir === undefined) {
    throw new SettingsError(`fmgen generate needs --layouts and --out, or a config file (${CONFIG_FILE_NAME} here, or --config <file>)`);
  }
  return {
    layouts,
    outDir,
    ...(configFile !== undefined ? { configFile } : {}),
    ...(config ? { config } : {}),
    ...(request.importExtension !== undefined ? { importExtension: request.importExtension } : {}),
  };
}
