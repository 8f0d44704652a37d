import { readFile, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { parseEnv } from "node:util";
import { CONFIG_FILE_NAME, credentialsInUrl, DEFAULT_PASSWORD_ENV, DEFAULT_USERNAME_ENV, findProjectConfig, globBase, isGlob, pathExists } from "../project/index.js";
import { PULL_STATE_FILE_NAME } from "./state.js";

/** Where a pull reads and writes, and whom it logs in as: fmgen.config.json merged with the command line. */
export interface PullSettings {
  server: string;
  database: string;
  /** Names of the environment variables that hold the credentials. */
  usernameEnv: string;
  passwordEnv: string;
  /** The config's `layouts` entries (files, folders, globs), absolute: where existing descriptions are found. */
  layoutEntries: string[];
  /** Where descriptions of layouts that have no file yet are written. */
  dir: string;
  /** The config's `tables` entries, absolute (default `tables` beside the config): where table descriptions are found. */
  tableEntries: string[];
  /** Where descriptions of tables that have no file yet are written (`fmgen pull --odata`): `--dir`, else the first folder of `tableEntries`. */
  tableDir: string;
  /** Whether the config names `tables` and no `layouts` (a project of OData tables only). */
  tablesOnly: boolean;
  /** `fmgen.pulled.json`, beside the config (or in the working folder without one). */
  stateFile: string;
  /** The project's root: the config's folder, or the working folder. */
  root: string;
  configFile?: string;
  /** The `.env` file read, if any. */
  envFile?: string;
}

export interface SettingsRequest {
  cwd: string;
  /** `--config`; default `<cwd>/fmgen.config.json` when there is one. */
  config?: string | undefined;
  /** `--server`: replaces the config's server (the examples' emulator runs on a free port). */
  server?: string | undefined;
  /** `--database`: replaces the config's database. */
  database?: string | undefined;
  /** `--dir`: folder for new description files, relative to `cwd`. */
  dir?: string | undefined;
  /** `--env` (or `--env-file`): relative to `cwd`; default `.env` in the project's root when there is one. */
  envFile?: string | undefined;
}

/** A setting that is missing or wrong: the message says what to pass or configure. */
export class PullSettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PullSettingsError";
  }
}

export async function resolvePullSettings(request: SettingsRequest): Promise<PullSettings> {
  const { cwd } = request;
  const { configFile, config, root } = await findProjectConfig(request);

  const server = request.server ?? config?.server;
  if (!server) throw new PullSettingsError(`fmgen pull needs a server: pass --server <url>, or set "server" in ${CONFIG_FILE_NAME} (fmgen init writes one)`);
  const credentials = credentialsInUrl(server, config?.auth?.usernameEnv, config?.auth?.passwordEnv);
  if (credentials) throw new PullSettingsError(credentials);
  if (!/^https?:\/\//.test(server)) throw new PullSettingsError(`--server must be an http:// or https:// URL, got "${server}"`);
  const database = request.database ?? config?.database;
  if (!database) throw new PullSettingsError(`fmgen pull needs a database: pass --database <name>, or set "database" in ${CONFIG_FILE_NAME}`);

  const layoutEntries = (config?.layouts ?? ["layouts"]).map((entry) => resolve(root, entry));
  const dir = request.dir !== undefined ? resolve(cwd, request.dir) : await defaultDir(layoutEntries, root);
  const tableEntries = (config?.tables ?? ["tables"]).map((entry) => resolve(root, entry));
  const tableDir = request.dir !== undefined ? resolve(cwd, request.dir) : await defaultDir(tableEntries, root, "tables");
  let envFile = request.envFile !== undefined ? resolve(cwd, request.envFile) : undefined;
  if (envFile !== undefined && !(await pathExists(envFile))) {
    throw new PullSettingsError(`the env file ${request.envFile} does not exist${envFile !== request.envFile ? ` (${envFile})` : ""}: pass --env with a file of NAME=value lines, or leave it out to read .env beside the config`);
  }
  if (envFile === undefined && (await pathExists(join(root, ".env")))) envFile = join(root, ".env");
  return {
    server,
    database,
    usernameEnv: config?.auth?.usernameEnv ?? DEFAULT_USERNAME_ENV,
    passwordEnv: config?.auth?.passwordEnv ?? DEFAULT_PASSWORD_ENV,
    layoutEntries,
    dir,
    tableEntries,
    tableDir,
    tablesOnly: config?.tables !== undefined && config.layouts === undefined,
    stateFile: join(root, PULL_STATE_FILE_NAME),
    root,
    ...(configFile !== undefined ? { configFile } : {}),
    ...(envFile !== undefined ? { envFile } : {}),
  };
}

/** The first entry's folder (a folder, a glob's fixed part, a file's folder). */
async function defaultDir(entries: readonly string[], root: string, fallback = "layouts"): Promise<string> {
  const first = entries[0];
  if (first === undefined) return join(root, fallback);
  if (isGlob(first)) return globBase(first);
  if (first.endsWith(".json") && !(await stat(first).then((s) => s.isDirectory(), () => false))) return dirname(first);
  return first;
}

/**
 * The credentials, from the environment: the variables the config names, read from the process environment or
 * else from the `.env` file (parsed with Node's own parser; the process environment wins, as with `node
 * --env-file`). They are only ever held in memory.
 */
export async function readCredentials(settings: PullSettings, env: Readonly<Record<string, string | undefined>>): Promise<{ username: string; password: string }> {
  let fromFile: Record<string, string | undefined> = {};
  if (settings.envFile !== undefined) {
    let text: string;
    try {
      text = await readFile(settings.envFile, "utf8");
    } catch (error) {
      throw new PullSettingsError(`cannot read the env file ${settings.envFile}: ${(error as Error).message}`);
    }
    fromFile = parseEnv(text);
  }
  // Own properties only: a variable named "constructor" that is not set is missing, not Object.
  const own = (source: Readonly<Record<string, string | undefined>>, name: string) => (Object.hasOwn(source, name) ? source[name] : undefined);
  const value = (name: string) => own(env, name) ?? own(fromFile, name);
  const username = value(settings.usernameEnv);
  const password = value(settings.passwordEnv);
  // Every variable to set, named at once: the account when unset or empty, and the password when unset, or empty
  // beside a missing account (a .env copied from .env.example and never filled in; an account may have no password,
  // but an empty password without an account is one more line left blank).
  const accountMissing = username === undefined || username === "";
  const missing = [accountMissing ? settings.usernameEnv : undefined, password === undefined || (accountMissing && password === "") ? settings.passwordEnv : undefined].filter(
    (name): name is string => name !== undefined,
  );
  if (missing.length > 0) {
    const empty = missing.filter((name) => value(name) === "");
    const notes = [settings.envFile ? `read: ${settings.envFile}` : "", empty.length ? `${empty.join(" and ")} ${empty.length > 1 ? "are" : "is"} empty` : ""].filter(Boolean);
    throw new PullSettingsError(
      `fmgen pull logs in with the account in ${settings.usernameEnv} and ${settings.passwordEnv}; set ${missing.join(" and ")} in the environment or in a .env file${notes.length ? ` (${notes.join("; ")})` : ""}`,
    );
  }
  return { username: username!, password: password! };
}
