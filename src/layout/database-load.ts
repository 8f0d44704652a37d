import { describeIssue, descriptionFiles, JsonFileError, readJsonFile } from "../project/index.js";
import { type DatabaseDescription, type DatabaseDescriptionInput, databaseDescriptionSchema, type DatabaseScriptInput } from "./database-schema.js";

/** A database description file that cannot be used; the message names the file and the JSON path of each problem. */
export class DatabaseFileError extends JsonFileError {}

export const DATABASE_FILE_SUFFIX = ".database.json";

/**
 * A script's folder as a path, outermost first: `[]` at the top of the script list, a single name as one folder, an
 * index the path of that entry of `folders` (each names the earlier one it is in: a loop up the chain, never a
 * recursion, and the description's schema has checked the indexes).
 */
export function scriptFolderPath(folder: DatabaseScriptInput["folder"], folders: DatabaseDescriptionInput["folders"] = []): string[] {
  if (typeof folder !== "number") return folder === undefined ? [] : typeof folder === "string" ? [folder] : [...folder];
  const path: string[] = [];
  for (let at: number | undefined = folder; at !== undefined; at = folders[at]!.in) path.push(folders[at]!.name);
  return path.reverse();
}

/** Validates an already-parsed database description; `source` names it in errors. */
export function parseDatabaseDescription(json: unknown, source = "<database>"): DatabaseDescription {
  const result = databaseDescriptionSchema.safeParse(json);
  if (!result.success) {
    throw new DatabaseFileError(source, result.error.issues.map(describeIssue));
  }
  const { database, scripts = [], folders } = result.data;
  return {
    database,
    // Each path made when asked for (the emulator's script list), not for every script at once: generate wants only
    // the names, and paths thousands deep, one per script, would take the square of the file's size.
    scripts: scripts.map(({ name, folder }) => ({
      name,
      get folder() {
        return scriptFolderPath(folder, folders);
      },
    })),
    source,
  };
}

/** Reads and validates one `<Database>.database.json` file. */
export async function loadDatabaseFile(file: string): Promise<DatabaseDescription> {
  return parseDatabaseDescription(await readJsonFile(file, DatabaseFileError), file);
}

/**
 * The database description files that `layouts` entries give (the one rule of generate, pull and the emulator):
 * every `*.database.json` inside the folders among the entries (sorted by name), and every entry or glob match
 * that ends in `.database.json`. Layout description files among the entries are skipped, and so is an entry that
 * does not exist: a database needs no description.
 */
export async function databaseDescriptionFiles(entries: readonly string[]): Promise<string[]> {
  return (await descriptionFiles(entries, { suffix: DATABASE_FILE_SUFFIX, missing: "skip" })).filter((file) => file.endsWith(DATABASE_FILE_SUFFIX));
}

/** Loads the database descriptions `layouts` entries give (see `databaseDescriptionFiles`). */
export async function loadDatabaseDescriptionsBeside(paths: readonly string[]): Promise<DatabaseDescription[]> {
  return Promise.all((await databaseDescriptionFiles(paths)).map(loadDatabaseFile));
}

/**
 * Database descriptions by database name, the first of each kept; `twice` pairs each later description of a database
 * with the first one, for the caller to refuse in its own words (a database is described once).
 */
export function descriptionsByDatabase(descriptions: readonly DatabaseDescription[]): { byDatabase: Map<string, DatabaseDescription>; twice: [first: DatabaseDescription, again: DatabaseDescription][] } {
  const byDatabase = new Map<string, DatabaseDescription>();
  const twice: [DatabaseDescription, DatabaseDescription][] = [];
  for (const description of descriptions) {
    const first = byDatabase.get(description.database);
    if (first) twice.push([first, description]);
    else byDatabase.set(description.database, description);
  }
  return { byDatabase, twice };
}
