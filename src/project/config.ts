import { dirname, join, resolve } from "node:path";
import { z } from "zod";
import { pathExists } from "./files.js";
import { describeIssue, JsonFileError, readJsonFile } from "./json-file.js";

/**
 * `fmgen.config.json`: the single source of truth is this zod schema; `schema/config.schema.json` is generated
 * from it (`npm run schema`). Paths in it are relative to the config file's folder.
 */

export const CONFIG_FILE_NAME = "fmgen.config.json";

/** The environment variables holding the account name and password when the config names none. */
export const DEFAULT_USERNAME_ENV = "FM_USERNAME";
export const DEFAULT_PASSWORD_ENV = "FM_PASSWORD";

/** The extension of the relative imports between generated modules: `options.importExtension`, `--import-extension`. */
export const IMPORT_EXTENSIONS = [".js", ".ts"] as const;
export type ImportExtension = (typeof IMPORT_EXTENSIONS)[number];

export const generateOptionsSchema = z
  .object({
    validateRecords: z
      .boolean()
      .default(true)
      .describe(
        "Whether clients check every record of these layouts against the layout's schema before decoding it (default true). " +
          "false emits `validate: false` in each definition, which overrides createClient's `validate`.",
      ),
    importExtension: z
      .enum(IMPORT_EXTENSIONS)
      .default(".js")
      .describe(
        "The extension of the relative imports between generated modules (index.ts re-exporting each module). " +
          '".js" (default) is what TypeScript\'s "module": "nodenext" wants; ".ts" runs on Deno with no flag (and on Bun and ' +
          'bundlers), and tsc then needs "allowImportingTsExtensions" or "rewriteRelativeImportExtensions".',
      ),
    schemas: z
      .boolean()
      .default(false)
      .describe(
        "Whether generate also writes schemas.ts: every layout's <Name>Schema, a zod schema of decoded records (default false). " +
          "It needs zod installed (an optional peer dependency of @fmgen/runtime): without zod, tsc cannot read the runtime's " +
          "schema declarations. Off, a schemas.ts an earlier run wrote is deleted.",
      ),
  })
  .strict()
  .describe("Generator options.");

export const configSchema = z
  .object({
    $schema: z.string().optional(),
    server: z
      .string()
      .regex(/^https?:\/\//, "must be an http:// or https:// URL")
      .refine((server) => !credentialsInUrl(server), credentialsInUrl("@"))
      .optional()
      .describe("FileMaker Server base URL, such as https://fms.example.com (used by fmgen pull)."),
    database: z.string().min(1).optional().describe("Hosted file name without `.fmp12` (used by fmgen pull)."),
    auth: z
      .object({
        usernameEnv: z.string().min(1).describe("Name of the environment variable holding the account name."),
        passwordEnv: z.string().min(1).describe("Name of the environment variable holding the password."),
      })
      .strict()
      .optional()
      .describe("Credentials, by environment variable name: never the secrets themselves."),
    layouts: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe("Layout description files, folders of *.layout.json files, or globs (`*`, `?`, `**`): the Data API's layouts."),
    tables: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe("Table description files, folders of *.table.json files, or globs (`*`, `?`, `**`): the OData API's tables."),
    outDir: z.string().min(1).describe("Folder the generated modules are written to."),
    options: generateOptionsSchema.optional(),
  })
  .strict()
  .refine((config) => config.layouts !== undefined || config.tables !== undefined, {
    message: "needs `layouts`, `tables` or both: what fmgen generates clients for",
    path: ["layouts"],
  });

export type FmgenConfigInput = z.input<typeof configSchema>;
export type FmgenConfig = z.output<typeof configSchema>;

/** A config file that cannot be used; the message names the file and the JSON path of each problem. */
export class ConfigFileError extends JsonFileError {}

export function parseConfig(json: unknown, source = "<config>"): FmgenConfig {
  const result = configSchema.safeParse(json);
  if (!result.success) throw new ConfigFileError(source, result.error.issues.map(describeIssue));
  return result.data;
}

export async function loadConfigFile(file: string): Promise<FmgenConfig> {
  return parseConfig(await readJsonFile(file, ConfigFileError), file);
}

/**
 * Why a server URL that holds credentials is refused, and where they go instead; undefined when it holds none. Any "@"
 * is taken for them (a password may hold a "/" or "#", which would end the URL's credentials early). The message never
 * quotes the URL.
 */
export function credentialsInUrl(server: string, usernameEnv = DEFAULT_USERNAME_ENV, passwordEnv = DEFAULT_PASSWORD_ENV): string | undefined {
  if (!server.includes("@")) return undefined;
  return `the server URL must not hold credentials (user:password@): fmgen pull signs in with the account in the environment variables ${usernameEnv} and ${passwordEnv} (or a .env file), an app with createClient's auth option`;
}

/**
 * A server URL without the Data API's path at its end (`https://fms.example.com/fmi/data/vLatest` ->
 * `https://fms.example.com`): the URL the config holds, to which the client appends `/fmi/data/{version}`.
 * `removed` is what was taken off, if anything.
 */
export function serverBaseUrl(server: string): { server: string; removed?: string } {
  const match = /\/fmi\/data(?:\/(?:v1|v2|vLatest))?\/*$/i.exec(server);
  return match ? { server: server.slice(0, match.index), removed: match[0] } : { server };
}

/** The project a command works in: its config file, if any, and the folder its relative paths start from. */
export interface ProjectConfig {
  /** The config file, absolute; absent when there is none. */
  configFile?: string;
  config?: FmgenConfig;
  /** The config file's folder, or the working folder without one. */
  root: string;
}

/**
 * The config a command uses: the file `--config` names (relative to `cwd`), else `<cwd>/fmgen.config.json` when
 * there is one, else none. A named file that is missing or invalid is a `ConfigFileError`.
 */
export async function findProjectConfig(request: { cwd: string; config?: string | undefined }): Promise<ProjectConfig> {
  let configFile = request.config !== undefined ? resolve(request.cwd, request.config) : undefined;
  if (configFile === undefined) {
    const candidate = join(request.cwd, CONFIG_FILE_NAME);
    if (await pathExists(candidate)) configFile = candidate;
  }
  if (configFile === undefined) return { root: request.cwd };
  return { configFile, config: await loadConfigFile(configFile), root: dirname(configFile) };
}

/** The JSON Schema shipped as `schema/config.schema.json`, for editor completion. */
export function configJsonSchema(): Record<string, unknown> {
  return { ...z.toJSONSchema(configSchema, { target: "draft-2020-12", io: "input" }), title: "fmgen config (fmgen.config.json)" };
}

export function configJsonSchemaText(): string {
  return `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
}
