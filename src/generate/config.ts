import { z } from "zod";
import { formatJsonPath, JsonFileError, readJsonFile } from "../layout/index.js";

/**
 * `fmgen.config.json`: the single source of truth is this zod schema; `schema/config.schema.json` is generated
 * from it (`npm run schema`). Paths in it are relative to the config file's folder.
 */

export const CONFIG_FILE_NAME = "fmgen.config.json";

export const generateOptionsSchema = z
  .object({
    validateRecords: z
      .boolean()
      .default(true)
      .describe(
        "Whether clients check every record of these layouts against the layout's schema before decoding it (default true). " +
          "false emits `validate: false` in each definition, which overrides createClient's `validate`.",
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
      .describe("Layout description files, folders of *.layout.json files, or globs (`*`, `?`, `**`)."),
    outDir: z.string().min(1).describe("Folder the generated modules are written to."),
    options: generateOptionsSchema.optional(),
  })
  .strict();

export type FmgenConfigInput = z.input<typeof configSchema>;
export type FmgenConfig = z.output<typeof configSchema>;

/** A config file that cannot be used; the message names the file and the JSON path of each problem. */
export class ConfigFileError extends JsonFileError {}

export function parseConfig(json: unknown, source = "<config>"): FmgenConfig {
  const result = configSchema.safeParse(json);
  if (!result.success) throw new ConfigFileError(source, result.error.issues.map((i) => ({ path: formatJsonPath(i.path), message: i.message })));
  return result.data;
}

export async function loadConfigFile(file: string): Promise<FmgenConfig> {
  return parseConfig(await readJsonFile(file, ConfigFileError), file);
}

/** The JSON Schema shipped as `schema/config.schema.json`, for editor completion. */
export function configJsonSchema(): Record<string, unknown> {
  return { ...z.toJSONSchema(configSchema, { target: "draft-2020-12", io: "input" }), title: "fmgen config (fmgen.config.json)" };
}

export function configJsonSchemaText(): string {
  return `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
}
