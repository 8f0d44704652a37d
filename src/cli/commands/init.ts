import { join, relative, resolve } from "node:path";
import type { CommandModule } from "yargs";
import {
  CONFIG_FILE_NAME,
  credentialsInUrl,
  DEFAULT_PASSWORD_ENV,
  DEFAULT_USERNAME_ENV,
  formatJson,
  parseConfig,
  pathExists,
  readIfExists,
  schemaReference,
  serverBaseUrl,
  writeFilesAtomically,
  type FmgenConfigInput,
} from "../../project/index.js";
import type { CliIo } from "../io.js";

interface InitArgs {
  server?: string;
  database?: string;
  usernameEnv?: string;
  passwordEnv?: string;
  layouts?: string[];
  tables?: string[];
  out?: string;
  dir?: string;
  force: boolean;
}

export interface InitValues {
  server?: string | undefined;
  database?: string | undefined;
  usernameEnv: string;
  passwordEnv: string;
  /** Layout descriptions (the Data API's); empty: none (a project of tables only). */
  layouts: string[];
  /** Table descriptions (OData's); absent or empty: none. */
  tables?: string[] | undefined;
  outDir: string;
}

const DEFAULT_LAYOUTS = "layouts";
/** The answer that asks for no layouts folder (a project of tables only). */
const NONE = "-";
const DEFAULT_OUT = "generated";

/**
 * `fmgen init`: writes `fmgen.config.json` and `.env.example`, and adds `.env` to `.gitignore` (creating it) unless a line ignores it. Every value has a flag; on a terminal it asks
 * for the ones not given, otherwise it takes the defaults (and leaves out server and database when not given).
 * It never overwrites either file without `--force`.
 */
export function initCommand(io: CliIo, setExitCode: (code: number) => void, usageError: (message: string) => Error): CommandModule<object, InitArgs> {
  return {
    command: "init",
    describe: "Write fmgen.config.json and .env.example",
    builder: (y) =>
      y
        .option("server", { type: "string", describe: "FileMaker Server URL, such as https://fms.example.com" })
        .option("database", { type: "string", describe: "Hosted file name, without .fmp12" })
        .option("username-env", { type: "string", describe: `Environment variable holding the account name (default ${DEFAULT_USERNAME_ENV})` })
        .option("password-env", { type: "string", describe: `Environment variable holding the password (default ${DEFAULT_PASSWORD_ENV})` })
        .option("layouts", { type: "string", array: true, describe: `Folders, files or globs of layout descriptions (default ${DEFAULT_LAYOUTS}, or none when --tables is given)` })
        .option("tables", { type: "string", array: true, describe: "Folders, files or globs of table descriptions, for the OData API (fmgen pull --odata; default none)" })
        .option("out", { type: "string", describe: `Folder for the generated modules (default ${DEFAULT_OUT})` })
        .option("dir", { type: "string", describe: "Project folder to write into (default: the working folder)" })
        .option("force", { type: "boolean", default: false, describe: "Overwrite existing files" }) as never,
    handler: async (args) => {
      const dir = resolve(process.cwd(), args.dir ?? ".");
      const configFile = join(dir, CONFIG_FILE_NAME);
      const envExample = join(dir, ".env.example");
      if (!args.force) {
        const present = [];
        for (const file of [configFile, envExample]) if (await pathExists(file)) present.push(file);
        if (present.length) throw new Error(`${present.map((f) => relative(process.cwd(), f) || f).join(" and ")} already exist${present.length === 1 ? "s" : ""}; pass --force to overwrite`);
      }
      const values = await collectValues(args, io);
      if (values.server !== undefined) {
        // Refused before anything shows the URL or writes it to the config.
        const credentials = credentialsInUrl(values.server, values.usernameEnv, values.passwordEnv);
        if (credentials) throw usageError(credentials);
        const { server, removed } = serverBaseUrl(values.server);
        if (removed !== undefined) io.stdout(`fmgen init: server ${server}, without ${removed.replace(/\/+$/, "")}: fmgen pull and createClient add /fmi/data/{version} themselves`);
        values.server = server;
      }
      let files;
      try {
        files = initFiles(values, dir);
      } catch (error) {
        throw usageError((error as Error).message);
      }
      const gitignore = gitignoreWithEnv(await readIfExists(join(dir, ".gitignore")));
      if (gitignore !== undefined) files.push({ path: ".gitignore", contents: gitignore });
      await writeFilesAtomically(files.map((file) => ({ file: join(dir, file.path), contents: file.contents })));
      const show = (name: string) => relative(process.cwd(), join(dir, name)) || name;
      io.stdout(`fmgen init: wrote ${files.map((f) => show(f.path)).join(", ")}`);
      if (values.server === undefined || values.database === undefined) io.stdout(`Set "server" and "database" in ${show(CONFIG_FILE_NAME)} (or pass --server and --database to fmgen pull).`);
      const pulls = [...(values.layouts.length ? ['fmgen pull "<Layout Name>"'] : []), ...(values.tables?.length ? ["fmgen pull --odata"] : [])].join(" and ");
      io.stdout(`Next: copy .env.example to .env and fill in ${values.usernameEnv} and ${values.passwordEnv} (never commit .env), then run ${pulls} and fmgen generate.`);
      io.stdout("An app that keeps tokens with fileTokenStore(path) should list that file in .gitignore too: it holds live session tokens.");
      setExitCode(0);
    },
  };
}

/** The flags, then answers on a terminal, then defaults. */
async function collectValues(args: InitArgs, io: CliIo): Promise<InitValues> {
  const ask = async (question: string, given: string | undefined, fallback?: string): Promise<string | undefined> => {
    if (given !== undefined) return given;
    if (!io.ask) return fallback;
    const answer = (await io.ask(`${question}${fallback !== undefined ? ` (${fallback})` : ""}: `)).trim();
    return answer === "" ? fallback : answer;
  };
  let server = await ask("FileMaker Server URL, such as https://fms.example.com", args.server);
  while (io.ask && args.server === undefined && server !== undefined && !/^https?:\/\//.test(server)) {
    server = await ask("The URL must start with http:// or https://; FileMaker Server URL", undefined);
  }
  const database = await ask("Database (hosted file name, without .fmp12)", args.database);
  const usernameEnv = (await ask("Environment variable for the account name", args.usernameEnv, DEFAULT_USERNAME_ENV))!;
  const passwordEnv = (await ask("Environment variable for the password", args.passwordEnv, DEFAULT_PASSWORD_ENV))!;
  // Without a terminal: the default layouts folder, unless --tables makes a project of tables only.
  const layoutsAnswer = args.layouts?.length ? undefined : await ask(`Folder for layout descriptions (Data API), "${NONE}" for none`, undefined, args.tables?.length ? NONE : DEFAULT_LAYOUTS);
  const layouts = args.layouts?.length ? args.layouts : layoutsAnswer === NONE ? [] : [layoutsAnswer!];
  const tablesAnswer = args.tables?.length || !io.ask ? undefined : await ask("Folder for table descriptions (OData), empty for none", undefined);
  const tables = args.tables?.length ? args.tables : tablesAnswer !== undefined ? [tablesAnswer] : undefined;
  const outDir = (await ask("Folder for generated modules", args.out, DEFAULT_OUT))!;
  return { server, database, usernameEnv, passwordEnv, layouts, tables, outDir };
}

/** The variables the getting-started guide's app (docs/getting-started.md) reads its server and database from; `.env.example` holds them with init's values. */
const APP_SERVER_ENV = "FM_SERVER";
const APP_DATABASE_ENV = "FM_DATABASE";

/** A value as a `.env` line holds it: bare when plain, else quoted so that `#`, spaces and quotes survive. */
function envValue(value: string): string {
  if (/^[\w.:/@%+-]*$/.test(value)) return value;
  return value.includes("'") ? JSON.stringify(value) : `'${value}'`;
}

/**
 * `.gitignore` with `.env` in it: `existing` with a `.env` line appended, or undefined when a line already ignores it
 * (`.env`, `/.env`, `.env*`). A folder without one gets a new file.
 */
function gitignoreWithEnv(existing: string | undefined): string | undefined {
  const lines = (existing ?? "").split(/\r?\n/).map((line) => line.trim());
  if (lines.some((line) => line === ".env" || line === "/.env" || line === ".env*" || line === "/.env*")) return undefined;
  const base = existing === undefined || existing === "" ? "" : existing.endsWith("\n") ? existing : `${existing}\n`;
  return `${base}# Credentials (fmgen init): never commit them.\n.env\n`;
}

/** The files init writes, validated against the config schema (pure: no disk access). */
export function initFiles(values: InitValues, dir: string): { path: string; contents: string }[] {
  const $schema = schemaReference("config.schema.json", dir, dir);
  const config: FmgenConfigInput = {
    ...($schema !== undefined ? { $schema } : {}),
    ...(values.server !== undefined ? { server: values.server } : {}),
    ...(values.database !== undefined ? { database: values.database } : {}),
    auth: { usernameEnv: values.usernameEnv, passwordEnv: values.passwordEnv },
    ...(values.layouts.length ? { layouts: values.layouts } : {}),
    ...(values.tables?.length ? { tables: values.tables } : {}),
    outDir: values.outDir,
  };
  if (!config.layouts && !config.tables) throw new Error("a project needs layout descriptions, table descriptions or both: give --layouts or --tables (or answer one folder)");
  parseConfig(config, CONFIG_FILE_NAME);
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(values.usernameEnv) || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(values.passwordEnv)) {
    throw new Error(`environment variable names must be letters, digits and _, got "${values.usernameEnv}" and "${values.passwordEnv}"`);
  }
  // The server and database the getting-started app passes to createClient (fmgen pull reads them from the config).
  const appLines = [
    [APP_SERVER_ENV, values.server ?? ""],
    [APP_DATABASE_ENV, values.database ?? ""],
  ].filter(([name]) => name !== values.usernameEnv && name !== values.passwordEnv);
  const envExample = [
    `# The FileMaker account fmgen pull logs in with. Copy this file to .env (beside ${CONFIG_FILE_NAME}) and fill it in;`,
    "# never commit .env (fmgen init lists it in .gitignore). Variables already set in the environment win over the file.",
    `${values.usernameEnv}=`,
    `${values.passwordEnv}=`,
    `# Where your app connects: createClient({ server: process.env.${APP_SERVER_ENV}, database: process.env.${APP_DATABASE_ENV}, ... }).`,
    ...appLines.map(([name, value]) => `${name}=${envValue(value!)}`),
    "",
  ].join("\n");
  return [
    { path: CONFIG_FILE_NAME, contents: formatJson(config) },
    { path: ".env.example", contents: envExample },
  ];
}
