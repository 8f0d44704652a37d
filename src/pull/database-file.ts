import { FileMakerError, ProtocolError, type FileMakerClient } from "@fmgen/runtime";
import {
  DATABASE_FILE_SUFFIX,
  databaseDescriptionFiles,
  databaseDescriptionSchema,
  DatabaseFileError,
  defaultTypeName,
  MAX_FOLDER_PATH,
  scriptFolderPath,
  type DatabaseDescriptionInput,
  type DatabaseScriptInput,
} from "../layout/index.js";
import { readDescriptionFile, type ExistingDescription } from "./description-file.js";
import { isFatal, isMissingEndpoint } from "./errors.js";

/**
 * The database description (`<Database>.database.json`) in a pull: the file's script list, read from
 * `GET /databases/{database}/scripts` (the runtime's `fm.scripts({ folders: true })`, which checks the answer's
 * shape) and merged into the file beside the layout descriptions.
 *
 * The server owns the list: which scripts there are, their order and their folders. The file keeps its `$schema`
 * (or lack of one), the spelling of a folder that did not change (`"Billing"` or `["Billing"]`), and whatever else
 * an entry of the same name holds beyond `name` and `folder` (the format has nothing else today; an entry that
 * gains more keeps it).
 */

/** A script as the server lists it: its name and the path of folders it is in, outermost first. */
export interface LiveScript {
  name: string;
  folder: string[];
}

export type ScriptChangeKind = "added" | "removed" | "moved" | "reordered";

export interface ScriptChange {
  kind: ScriptChangeKind;
  /** The script; absent for `reordered` (the list's order changed). */
  name?: string;
  /** For `moved`: the folders, as `Billing/Print` ("" at the top). */
  from?: string;
  to?: string;
  /** A script removed: code that names it stops compiling. */
  breaking: boolean;
}

export type DatabaseExisting = ExistingDescription<DatabaseDescriptionInput>;

/** `GET /scripts` through the runtime (`fm.scripts({ folders: true })`): the file's scripts in list order, each with its folder path. */
export async function readScripts(fm: FileMakerClient): Promise<LiveScript[]> {
  return (await fm.scripts({ folders: true })).map(({ name, folder }) => ({ name, folder }));
}

/**
 * Why the script list could not be read, when that should not end the pull (the layouts are still written): the
 * account may not see scripts (FileMaker error 9, insufficient privileges), or the server has no such endpoint.
 * Undefined for an error that ends the whole pull (the login, the network).
 */
export function scriptListRefusal(error: unknown): string | undefined {
  if (error instanceof FileMakerError && error.code === "9") {
    return `the server refuses the script list to this account (FileMaker error 9, insufficient privileges: ${error.serverMessage}); give its privilege set access to the scripts, or keep the file by hand`;
  }
  if (isFatal(error)) return undefined;
  if (isMissingEndpoint(error)) return `the server has no script list endpoint (${error instanceof FileMakerError ? `FileMaker error ${error.code}` : `HTTP ${(error as ProtocolError).httpStatus}`}; FileMaker Server 19 and later have it)`;
  if (error instanceof FileMakerError) return `the script list failed: FileMaker error ${error.code}: ${error.serverMessage} (${error.call.method} ${error.call.path})`;
  if (error instanceof ProtocolError) return `the script list failed: ${error.message}`;
  return undefined;
}

/**
 * The database description files of `database` among the `layouts` entries (see `databaseDescriptionFiles`),
 * validated: a malformed file is an error naming it and the path inside it. Files of other databases are left
 * alone; two of the same database are an error naming both.
 */
export async function readExistingDatabase(entries: readonly string[], database: string): Promise<DatabaseExisting | undefined> {
  let found: DatabaseExisting | undefined;
  for (const file of await databaseDescriptionFiles(entries)) {
    const read = await readDescriptionFile(file, databaseDescriptionSchema, DatabaseFileError);
    if (read.description.database !== database) continue;
    if (found) throw new DatabaseFileError(file, [{ path: "database", message: `database "${database}" is described twice: also in ${found.file}` }]);
    found = read;
  }
  return found;
}

/** The file name of a new database description: `<Database>.database.json`, the PascalCase of its name, bounded. */
export function databaseFileName(database: string): string {
  return `${defaultTypeName(database)}${DATABASE_FILE_SUFFIX}`;
}

const sameFolder = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The description to write: the server's scripts in its order, with what the file adds to each kept. A folder up to
 * MAX_FOLDER_PATH deep is written as its path (as the file spelled it, when that did not change); a deeper one as its
 * index in `folders`, where each folder is written once with the folder it is in, so that the file grows with the
 * number of scripts and folders, not with the square of their depth.
 */
export function mergeDatabase(database: string, live: readonly LiveScript[], file: DatabaseDescriptionInput | undefined, schemaRef: string | undefined): DatabaseDescriptionInput {
  const entries = new Map<string, DatabaseScriptInput>();
  for (const entry of file?.scripts ?? []) if (!entries.has(entry.name)) entries.set(entry.name, entry);
  const folders: { name: string; in?: number }[] = [];
  // The path of the last folder written to `folders`, and the index of each of its folders there.
  let open: readonly string[] = [];
  const index: number[] = [];
  const deep = (folder: readonly string[]): number => {
    let same = 0;
    while (same < folder.length && same < open.length && folder[same] === open[same]) same++;
    for (let depth = same; depth < folder.length; depth++) {
      index[depth] = folders.push({ name: folder[depth]!, ...(depth ? { in: index[depth - 1]! } : {}) }) - 1;
    }
    open = folder;
    return index[folder.length - 1]!;
  };
  const scripts = live.map(({ name, folder }): DatabaseScriptInput => {
    const { name: _name, folder: fileFolder, ...extra } = entries.get(name) ?? { name };
    const kept =
      fileFolder !== undefined && typeof fileFolder !== "number" && sameFolder(scriptFolderPath(fileFolder), folder)
        ? fileFolder
        : folder.length > MAX_FOLDER_PATH
          ? deep(folder)
          : folder.length === 1
            ? folder[0]!
            : folder;
    return { name, ...(folder.length ? { folder: kept } : {}), ...extra };
  });
  const $schema = file ? file.$schema : schemaRef;
  return { ...($schema !== undefined ? { $schema } : {}), database, scripts, ...(folders.length ? { folders } : {}) };
}

/**
 * Each script's folder, by name, as a number that is the same for the same path in `before` and `after` (a folder
 * is its parent's number and its name): paths compared without being made, each folder of `folders` numbered once.
 */
class FolderNumbers {
  readonly #numbers = new Map<string, number>();
  readonly #folders: [parent: number, name: string][] = [];

  of(parent: number, name: string): number {
    const key = `${parent}/${name}`;
    let n = this.#numbers.get(key);
    if (n === undefined) this.#numbers.set(key, (n = this.#folders.push([parent, name])));
    return n;
  }

  /** Each script's folder number by its name (0: at the top), the last of a name kept (as a Map of the list keeps it). */
  scripts(description: DatabaseDescriptionInput): Map<string, number> {
    const table: number[] = [];
    for (const folder of description.folders ?? []) table.push(this.of(folder.in === undefined ? 0 : table[folder.in]!, folder.name));
    const out = new Map<string, number>();
    for (const { name, folder } of description.scripts ?? []) {
      out.set(name, typeof folder === "number" ? table[folder]! : scriptFolderPath(folder).reduce((parent, at) => this.of(parent, at), 0));
    }
    return out;
  }

  /** `Billing/Print` ("" at the top); past 8 folders, the first and last 3 with the depth between. */
  show(n: number): string {
    const path: string[] = [];
    for (let at = n; at; at = this.#folders[at - 1]![0]) path.push(this.#folders[at - 1]![1]);
    path.reverse();
    return path.length > MAX_FOLDER_PATH ? `${path.slice(0, 3).join("/")}/.../${path.slice(-3).join("/")} (${path.length} folders deep)` : path.join("/");
  }
}

/** What the merge changed, for the report and `--check`: scripts added, removed, moved between folders, or the order. */
export function diffDatabase(before: DatabaseDescriptionInput, after: DatabaseDescriptionInput): ScriptChange[] {
  const changes: ScriptChange[] = [];
  const numbers = new FolderNumbers();
  const old = numbers.scripts(before);
  const now = numbers.scripts(after);
  for (const [name, folder] of now) {
    const was = old.get(name);
    if (was === undefined) changes.push({ kind: "added", name, to: numbers.show(folder), breaking: false });
    else if (was !== folder) changes.push({ kind: "moved", name, from: numbers.show(was), to: numbers.show(folder), breaking: false });
  }
  for (const [name, folder] of old) if (!now.has(name)) changes.push({ kind: "removed", name, from: numbers.show(folder), breaking: true });
  const order = (d: DatabaseDescriptionInput, keep: Map<string, unknown>) => (d.scripts ?? []).map((s) => s.name).filter((n) => keep.has(n));
  if (order(before, now).join("\u0000") !== order(after, old).join("\u0000")) changes.push({ kind: "reordered", breaking: false });
  return changes;
}

/** `+ script "Send Invoice" (in Billing)`, `- script "Old"  [breaking]`, `~ script "X": moved Billing -> Billing/Print`, `~ script order`. */
export function scriptChangeLine(change: ScriptChange): string {
  const where = (folder: string | undefined) => (folder ? `in ${folder}` : "at the top");
  const mark = change.breaking ? "  [breaking]" : "";
  switch (change.kind) {
    case "added":
      return `+ script ${JSON.stringify(change.name)} (${where(change.to)})${mark}`;
    case "removed":
      return `- script ${JSON.stringify(change.name)} (${where(change.from)})${mark}`;
    case "moved":
      return `~ script ${JSON.stringify(change.name)}: moved from ${change.from || "the top"} to ${change.to || "the top"}${mark}`;
    case "reordered":
      return `~ the order of the scripts${mark}`;
  }
}
