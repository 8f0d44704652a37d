import { dirname, join } from "node:path";
import { findByName } from "../../layout/filemaker-names.js";
import { boundName, defaultTypeName, TYPESCRIPT_IDENTIFIER } from "../../layout/index.js";
import { descriptionFiles, LAYOUT_FILE_SUFFIX, posixRelative, schemaReference, TABLE_FILE_SUFFIX, toPosixPath } from "../../project/index.js";
import { idNumber, tableDescriptionSchema, TableFileError, type TableDescriptionInput } from "../../table/index.js";
import { descriptionOutcome, readDescriptionFile, type DescriptionStatus, type ExistingDescription } from "../description-file.js";
import type { Change } from "../change.js";
import { PullError } from "../errors.js";
import { finishPull, pullHead, type PullHead, type PullTotals } from "../finish.js";
import { PullSettingsError, readCredentials, resolvePullSettings, type PullSettings, type SettingsRequest } from "../settings.js";
import { PullState } from "../state.js";
import type { LiveTable } from "./csdl.js";
import { diffTables } from "./diff.js";
import { readMetadata } from "./fetch-metadata.js";
import { mergeTable, tableProblems } from "./merge.js";

/**
 * `fmgen pull --odata [Table...]`: read `$metadata` once, merge each table occurrence into its `<Name>.table.json`
 * (found among the config's `tables` entries by FMTID, else by name; new ones in the tables folder), report what
 * changed, and write (or, for `--check`, only compare). Without names it pulls every table occurrence the server
 * lists, and reports a described table the server no longer has.
 */

export interface TablePullOptions extends SettingsRequest {
  /** Table occurrences to pull; default: every one `$metadata` lists. */
  tables?: readonly string[] | undefined;
  /** `--name`: the TypeScript name of the one table named. */
  name?: string | undefined;
  check?: boolean | undefined;
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Bounds of the `$metadata` request (tests). */
  timeoutMs?: number | undefined;
  maxBytes?: number | undefined;
}

export type TableStatus = DescriptionStatus | "failed";

export interface TablePullResult {
  /** The table occurrence, as `$metadata` spells it, which the description names. */
  table: string;
  /** The name as asked, when `$metadata` spells it otherwise (case aside, FileMaker matched it). */
  askedAs?: string;
  /** The description file, absolute. */
  file: string;
  status: TableStatus;
  changes: Change[];
  notes: string[];
  /** Fields and relations of a new file. */
  fields?: number;
  relations?: number;
  error?: string;
}

export interface TablesPullResult extends PullHead, PullTotals {
  tables: TablePullResult[];
  /** Descriptions that name another database and were left alone. */
  skipped: string[];
}

type Existing = ExistingDescription<TableDescriptionInput>;

export async function pullTables(options: TablePullOptions): Promise<TablesPullResult> {
  const settings = await resolvePullSettings(options);
  if (options.name !== undefined) {
    if (options.tables?.length !== 1) throw new PullSettingsError(`--name names one table: pull it alone (fmgen pull --odata "Table" --name ${options.name})`);
    if (!TYPESCRIPT_IDENTIFIER.test(options.name)) throw new PullSettingsError(`--name must be a TypeScript identifier (letters, digits, _ and $, not starting with a digit), got "${options.name}"`);
  }
  const existing = await readExistingTables(settings.tableEntries);
  const skipped = existing.filter((e) => e.description.database !== settings.database).map((e) => e.file);
  const ours = existing.filter((e) => e.description.database === settings.database);
  describedOnce(ours);
  const state = await PullState.read(settings.stateFile);
  const credentials = await readCredentials(settings, options.env ?? process.env);
  const live = await readMetadata({
    server: settings.server,
    database: settings.database,
    credentials,
    usernameEnv: settings.usernameEnv,
    passwordEnv: settings.passwordEnv,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
  });

  // A table asked in another case is the table $metadata spells so (FileMaker matches names without regard to case,
  // an exact name first): described, filed and reported under $metadata's name, the name first asked shown beside it.
  const wanted = options.tables?.length ? [...new Set(options.tables)] : undefined;
  const askedAs = new Map<LiveTable, string>();
  if (wanted) {
    const unknown = wanted.filter((name) => !findByName(live, name, (t) => t.table));
    if (unknown.length > 0) {
      const listed = live.map((t) => JSON.stringify(t.table)).join(", ") || "none";
      throw new PullError(`no table occurrence ${unknown.map((n) => JSON.stringify(n)).join(", ")} in database "${settings.database}" on ${settings.server}; its $metadata lists: ${listed}`);
    }
    for (const name of wanted) {
      const table = findByName(live, name, (t) => t.table)!;
      if (!askedAs.has(table)) askedAs.set(table, name);
    }
  }
  const chosen = wanted ? live.filter((t) => wanted.some((name) => findByName(live, name, (u) => u.table) === t)) : live;
  const results: TablePullResult[] = [];
  const pending: { file: string; contents: string }[] = [];
  const taken = new Set(existing.map((e) => e.file));
  const claimed = new Set<Existing>();
  const pulled: Described[] = [];
  for (const table of chosen) {
    const found = findExisting(table, ours, claimed);
    if (found) claimed.add(found);
    const file = found?.file ?? newFile(settings.tableDir, options.name ?? defaultTypeName(table.table), options.name !== undefined, taken);
    const { result, write, merged } = pullTable(table, file, found, settings, state, options.name);
    const asked = askedAs.get(table);
    const { table: name, ...rest } = result;
    results.push(asked !== undefined && asked !== name ? { table: name, askedAs: asked, ...rest } : result);
    if (write) pending.push(write);
    if (merged) pulled.push({ file, description: merged, ...(result.status === "created" || result.status === "updated" ? { notes: result.notes } : {}) });
  }
  noteUnjoinedRelations(pulled, ours.filter((e) => !claimed.has(e)).map((e) => ({ file: e.file, description: e.description })), settings.root);
  // A described table the server no longer lists (by id or name): reported, its file left for a person to delete.
  if (!wanted) {
    for (const gone of ours.filter((e) => !claimed.has(e))) {
      results.push({
        table: gone.description.table,
        file: gone.file,
        status: "failed",
        changes: [],
        notes: [],
        error: `the server lists no table occurrence "${gone.description.table}"${gone.description.id !== undefined ? ` (or ${gone.description.id})` : ""}: delete the file if the table is gone, or fix its "table"`,
      });
    }
  }
  const check = options.check ?? false;
  const totals = await finishPull(settings, state, { check, read: results.some((r) => r.status !== "failed") }, pending, results);
  return { ...pullHead(settings, check), tables: results, ...totals, skipped };
}

/** One table: merged into its file three ways (the base from `state`, which then keeps what the server says now). */
function pullTable(
  live: LiveTable,
  file: string,
  existing: Existing | undefined,
  settings: PullSettings,
  state: PullState,
  name: string | undefined,
): { result: TablePullResult; write?: { file: string; contents: string }; merged?: TableDescriptionInput } {
  const schemaRef = schemaReference("table.schema.json", dirname(file), settings.root);
  const base = state.table(settings.database, live);
  const shownAs = posixRelative(settings.root, file) || toPosixPath(file);
  const { description: merged, notes, advice } = mergeTable({ live, database: settings.database, file: existing?.description, base, schemaRef, name, shownAs });
  const problems = tableProblems(merged);
  if (problems !== undefined) {
    return { result: { table: live.table, file, status: "failed", changes: [], notes, error: `the server's table cannot be described: ${problems}` } };
  }
  state.setTable(settings.database, live);
  const { status, changes, write } = descriptionOutcome(file, existing, merged, diffTables);
  if (status === "created" || status === "updated") notes.push(...advice);
  const result: TablePullResult = {
    table: live.table,
    file,
    status,
    changes,
    notes,
    ...(status === "created" ? { fields: merged.fields.length, relations: merged.relations?.length ?? 0 } : {}),
  };
  return write ? { result, write, merged } : { result, merged };
}

interface Described {
  file: string;
  description: TableDescriptionInput;
  /** The pull's notes of the table, for a table pulled now whose file is new or changed (the advice goes there). */
  notes?: string[];
}

/**
 * `$metadata` never states a relation's match fields, and the emulator joins a described relation only by them (its
 * `match`, or its reverse's in the other table's file, or a layout's portal relation): a relationship neither side
 * of which has `match` gets one note, on the first of its tables pulled whose file is new or changed, naming the
 * line to add and where (the emulator logs the same at every start).
 */
function noteUnjoinedRelations(pulled: readonly Described[], others: readonly Described[], root: string): void {
  const all = [...pulled, ...others];
  const show = (file: string) => posixRelative(root, file) || toPosixPath(file);
  const noted = new Set<string>();
  for (const { file, description, notes } of pulled) {
    description.relations?.forEach((relation, i) => {
      if (notes === undefined) return;
      if (relation.match !== undefined) return;
      const other = all.find((d) => d.description.table === relation.table);
      const back = other?.description.relations?.findIndex((r) => r.table === description.table) ?? -1;
      if (back >= 0 && other!.description.relations![back]!.match !== undefined) return;
      const pair = JSON.stringify([description.table, relation.table].sort());
      if (noted.has(pair)) return;
      noted.add(pair);
      const reverse = back >= 0 && other!.file !== file ? ` (or its reverse to relations[${back}] in ${show(other!.file)})` : "";
      notes!.push(
        `relation "${relation.name}": $metadata does not state its match fields, which the emulator joins by (fmgen serve --tables serves it with no related rows): ` +
          `add "match": { "field": "<a field of ${description.table}>", "relatedField": "<the field of ${relation.table} it equals>" } to relations[${i}] in ${show(file)}${reverse}`,
      );
    });
  }
}

/** The description of `live`: the one of its FMTID, else (neither telling ids) the one of its name. */
function findExisting(live: LiveTable, ours: readonly Existing[], claimed: ReadonlySet<Existing>): Existing | undefined {
  const free = ours.filter((e) => !claimed.has(e));
  if (live.id !== undefined) {
    const same = free.find((e) => e.description.id !== undefined && idNumber(e.description.id) === idNumber(live.id!));
    if (same) return same;
  }
  // By name, as FileMaker matches it: the exact name first, else the one that differs only by case.
  return findByName(
    free.filter((e) => e.description.id === undefined || live.id === undefined),
    live.table,
    (e) => e.description.table,
  );
}

/** Two files of one table (by name or by FMTID) would each claim the server's: an error naming both, before any request. */
function describedOnce(ours: readonly Existing[]): void {
  const seen = new Map<string, Existing>();
  for (const e of ours) {
    const keys = [`table ${JSON.stringify(e.description.table)}`, ...(e.description.id !== undefined ? [`id ${idNumber(e.description.id)}`] : [])];
    for (const key of keys) {
      const first = seen.get(key);
      if (first) {
        const path = key.startsWith("id") ? "id" : "table";
        throw new TableFileError(e.file, [{ path, message: `${path === "id" ? `table id "${e.description.id}"` : `table "${e.description.table}"`} of database "${e.description.database}" is also described by ${first.file}` }]);
      }
      seen.set(key, e);
    }
  }
}

/** `<dir>/<Stem>.table.json`, numbered when taken. */
function newFile(dir: string, stem: string, given: boolean, taken: Set<string>): string {
  const base = given ? boundName(stem, stem, "-") : stem;
  let file = join(dir, `${base}${TABLE_FILE_SUFFIX}`);
  for (let n = 2; taken.has(file); n++) file = join(dir, `${base}-${n}${TABLE_FILE_SUFFIX}`);
  taken.add(file);
  return file;
}

async function readExistingTables(entries: readonly string[]): Promise<Existing[]> {
  const files = (await descriptionFiles(entries, { suffix: TABLE_FILE_SUFFIX, missing: "skip" })).filter((file) => !file.endsWith(LAYOUT_FILE_SUFFIX) && !file.endsWith(".database.json"));
  const out: Existing[] = [];
  for (const file of files) out.push(await readDescriptionFile(file, tableDescriptionSchema, TableFileError));
  return out;
}

/** `fmgen pull --odata --list`: the table occurrences `$metadata` lists. */
export async function listServerTables(options: SettingsRequest & { env?: Readonly<Record<string, string | undefined>> | undefined }): Promise<{ server: string; database: string; tables: { name: string; id?: string }[] }> {
  const settings = await resolvePullSettings(options);
  const credentials = await readCredentials(settings, options.env ?? process.env);
  const live = await readMetadata({ server: settings.server, database: settings.database, credentials, usernameEnv: settings.usernameEnv, passwordEnv: settings.passwordEnv });
  return { server: settings.server, database: settings.database, tables: live.map((t) => ({ name: t.table, ...(t.id !== undefined ? { id: t.id } : {}) })) };
}
