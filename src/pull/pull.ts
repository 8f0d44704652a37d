import { dirname, join } from "node:path";
import { createClient, type FileMakerClient, type LayoutEntry } from "@fmgen/runtime";
import { layoutMetadata, wireRecords } from "@fmgen/runtime/metadata";
import { boundName, defaultTypeName, layoutDescriptionFiles, layoutDescriptionSchema, LayoutFileError, TYPESCRIPT_IDENTIFIER, type LayoutDescriptionInput } from "../layout/index.js";
import { findByName } from "../layout/filemaker-names.js";
import { LAYOUT_FILE_SUFFIX, posixRelative, schemaReference } from "../project/index.js";
import { databaseFileName, diffDatabase, mergeDatabase, readExistingDatabase, readScripts, scriptListRefusal, type DatabaseExisting, type LiveScript, type ScriptChange } from "./database-file.js";
import { descriptionOutcome, readDescriptionFile, type DescriptionStatus, type ExistingDescription } from "./description-file.js";
import type { Change } from "./change.js";
import { diffDescriptions } from "./diff.js";
import { describeAnswer, explainFatal, isFatal, isMissingEndpoint, layoutFailure, PullError } from "./errors.js";
import { finishPull, pullHead, type PullHead, type PullTotals } from "./finish.js";
import { liveFromMetadata } from "./from-metadata.js";
import type { LiveLayout, LiveSource } from "./live.js";
import { mergeLayout, type MergeResult, type UncertainField } from "./merge.js";
import { sampleLayout } from "./sample.js";
import { PullSettingsError, readCredentials, resolvePullSettings, type PullSettings, type SettingsRequest } from "./settings.js";
import { DEFAULT_SAMPLE } from "./sample-count.js";
import { PullState } from "./state.js";

/**
 * `fmgen pull`: read each layout from the live server (its metadata endpoint, or sampled records when it has
 * none), merge it into the description file on disk, report what changed, and write (or, for `--check`, only
 * compare). Every call goes through the runtime's client: one session, re-login on 952, typed errors, and a
 * logout at the end.
 */

export type SourceChoice = "auto" | "metadata" | "sample";

export interface PullOptions extends SettingsRequest {
  /** Layout names to pull; default: the layouts of the description files the config's `layouts` entries hold. */
  layouts?: readonly string[] | undefined;
  /**
   * `--name`: the TypeScript name of the one layout named (`"name"` in its description, and the stem of a new
   * description's file); default: the file's own, or the PascalCase of the layout name.
   */
  name?: string | undefined;
  /** `auto` (default): metadata when the server has the endpoint, else sampling. */
  source?: SourceChoice | undefined;
  /** Records sampled per layout without metadata (default 100). */
  sample?: number | undefined;
  /** Write nothing; report drift. */
  check?: boolean | undefined;
  /** Where the credentials' variables are read (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  onProgress?: ((event: { layout: string; index: number; total: number }) => void) | undefined;
}

export type LayoutStatus = DescriptionStatus | "failed";

export interface LayoutPullResult {
  /** The layout, as the server spells it (its layout list, or the list call's `dataInfo.layout`), which the description names. */
  layout: string;
  /** The name as asked, when it differs from the server's spelling only by case (the server matched it so). */
  askedAs?: string;
  /** The description file, absolute. */
  file: string;
  status: LayoutStatus;
  source?: LiveSource;
  /** Records read, when sampled. */
  sampled?: number;
  changes: Change[];
  notes: string[];
  uncertain: UncertainField[];
  /** Fields and portals of a new file. */
  fields?: number;
  portals?: number;
  error?: string;
  /** The server has no layout of this name (FileMaker error 105): the names it has, closest first (none when unlisted). */
  missing?: { closest: string[] };
}

/**
 * The database description (`<Database>.database.json`): its scripts, from the server's script list. `unread`: the
 * server refused the list (or has none); the file is left as it is, and that is neither a failure nor drift. `none`:
 * the server lists no script and there is no file; none is needed (the database's module needs no description).
 */
export interface DatabasePullResult {
  database: string;
  /** The database description file, absolute. */
  file: string;
  status: DescriptionStatus | "unread" | "none";
  /** Scripts the server lists. */
  scripts?: number;
  changes: ScriptChange[];
  /** Why the script list could not be read (status `unread`). */
  error?: string;
}

export interface PullResult extends PullHead, PullTotals {
  layouts: LayoutPullResult[];
  /** The database description of `database`. */
  databaseFile: DatabasePullResult;
  /** Descriptions that name another database and were left alone. */
  skipped: string[];
}

export { DEFAULT_SAMPLE } from "./sample-count.js";

type Existing = ExistingDescription<LayoutDescriptionInput>;

export async function pull(options: PullOptions): Promise<PullResult> {
  const settings = await resolvePullSettings(options);
  const sampleCount = options.sample ?? DEFAULT_SAMPLE;
  if (!Number.isInteger(sampleCount) || sampleCount < 1) throw new PullSettingsError(`--sample must be a whole number >= 1, got ${sampleCount}`);
  const existing = await readExisting(settings);
  const skipped = existing.filter((e) => e.description.database !== settings.database).map((e) => e.file);
  const ours = existing.filter((e) => e.description.database === settings.database);
  const names = options.layouts?.length ? [...new Set(options.layouts)] : [...new Set(ours.map((e) => e.description.layout))];
  if (names.length === 0) throw new PullSettingsError(nothingToPull(settings, existing));
  if (options.name !== undefined) {
    if (names.length !== 1 || !options.layouts?.length) throw new PullSettingsError(`--name names one layout: pull it alone (fmgen pull "Layout Name" --name ${options.name})`);
    if (!TYPESCRIPT_IDENTIFIER.test(options.name)) throw new PullSettingsError(`--name must be a TypeScript identifier (letters, digits, _ and $, not starting with a digit), got "${options.name}"`);
  }
  const existingDatabase = await readExistingDatabase(settings.layoutEntries, settings.database);
  const state = await PullState.read(settings.stateFile);
  const credentials = await readCredentials(settings, options.env ?? process.env);
  const planner = filePlanner(ours, settings, options.name);

  const fm = createClient({ server: settings.server, database: settings.database, auth: credentials });
  const results: LayoutPullResult[] = [];
  const pending: { file: string; contents: string }[] = [];
  let scripts: LiveScript[] | string;
  try {
    const catalog = options.source === "sample" ? undefined : await readCatalog(fm, settings, options.source === "metadata");
    const asked = askedLayouts(names, catalog, ours);
    const pulled = new Set<string>();
    for (const [index, target] of asked.entries()) {
      options.onProgress?.({ layout: target.layout, index, total: asked.length });
      const outcome = await pullLayout(fm, settings, target, planner, catalog, state, options, pulled);
      if (!outcome) continue;
      results.push(outcome.result);
      if (outcome.write) pending.push(outcome.write);
    }
    // When every layout failed (a wrong database or wrong names, most likely), nothing is written, this file neither.
    scripts = results.every((r) => r.status === "failed")
      ? "every layout failed"
      : await readScripts(fm).catch((error: unknown) => scriptListRefusal(error) ?? Promise.reject(error));
  } catch (error) {
    throw explainFatal(error, settings);
  } finally {
    await fm.close().catch(() => undefined);
  }

  const databaseFile = pullDatabase(settings, existingDatabase, scripts);
  if (databaseFile.write) pending.push(databaseFile.write);
  const check = options.check ?? false;
  const totals = await finishPull(settings, state, { check, read: results.some((r) => r.source !== undefined) }, pending, [...results, databaseFile.result]);
  return { ...pullHead(settings, check), layouts: results, databaseFile: databaseFile.result, ...totals, skipped };
}

/** A layout to pull: its name as best known before it is read (the server's, from its layout list), and as asked. */
interface Asked {
  layout: string;
  askedAs?: string;
}

type Target = ReturnType<ReturnType<typeof filePlanner>["plan"]>;

/** The database description: the server's scripts merged into its file (`<dir>/<Database>.database.json` when new). */
function pullDatabase(
  settings: PullSettings,
  existing: DatabaseExisting | undefined,
  scripts: LiveScript[] | string,
): { result: DatabasePullResult; write?: { file: string; contents: string } } {
  const file = existing?.file ?? join(settings.dir, databaseFileName(settings.database));
  if (typeof scripts === "string") return { result: { database: settings.database, file, status: "unread", changes: [], error: scripts } };
  if (!existing && scripts.length === 0) return { result: { database: settings.database, file, status: "none", scripts: 0, changes: [] } };
  const schemaRef = schemaReference("database.schema.json", dirname(file), settings.root);
  const merged = mergeDatabase(settings.database, scripts, existing?.description, schemaRef);
  const { status, changes, write } = descriptionOutcome(file, existing, merged, diffDatabase);
  const result: DatabasePullResult = { database: settings.database, file, status, scripts: scripts.length, changes };
  return write ? { result, write } : { result };
}

/**
 * One layout: read it live, merge it into its file, and say what changed (the file to write, if any). The file is
 * planned by the name the server gives the layout, known once it is read; undefined when a layout asked in another
 * spelling turns out to be one already pulled.
 */
async function pullLayout(
  fm: FileMakerClient,
  settings: PullSettings,
  asked: Asked,
  planner: ReturnType<typeof filePlanner>,
  catalog: LayoutEntry[] | undefined,
  state: PullState,
  options: PullOptions,
  pulled: Set<string>,
): Promise<{ result: LayoutPullResult; write?: { file: string; contents: string } } | undefined> {
  const askedAs = (layout: string) => (asked.askedAs ?? asked.layout) !== layout ? { askedAs: asked.askedAs ?? asked.layout } : {};
  let live: LiveLayout;
  try {
    live = await readLive(fm, settings, asked.layout, catalog, options.sample ?? DEFAULT_SAMPLE, options.source ?? "auto", planner.existing);
  } catch (error) {
    if (isFatal(error)) throw error;
    const target = planner.plan(asked.layout);
    return { result: { layout: target.layout, ...askedAs(target.layout), file: target.file, status: "failed", changes: [], notes: [], uncertain: [], ...layoutFailure(error, asked.askedAs ?? asked.layout, settings, catalog) } };
  }
  if (pulled.has(live.layout)) return undefined;
  pulled.add(live.layout);
  const target = planner.plan(live.layout);
  const base = state.get(settings.database, target.layout);
  const schemaRef = schemaReference("layout.schema.json", dirname(target.file), settings.root);
  let merged: MergeResult;
  try {
    merged = mergeLayout({
      live,
      file: target.existing?.description,
      base,
      schemaRef,
      path: posixRelative(settings.root, target.file) || target.file,
      ...(target.name !== undefined ? { name: target.name } : {}),
    });
  } catch (error) {
    // A layout the server shows but no description can hold (see wire-keys.ts): this layout fails, the rest go on.
    if (!(error instanceof LayoutFileError)) throw error;
    return { result: { layout: target.layout, ...askedAs(target.layout), file: target.file, status: "failed", changes: [], notes: [], uncertain: [], error: error.message } };
  }
  state.set(live);
  const { status, changes, write } = descriptionOutcome(target.file, target.existing, merged.description, diffDescriptions);
  const result: LayoutPullResult = {
    layout: target.layout,
    ...askedAs(target.layout),
    file: target.file,
    status,
    source: live.source,
    ...(live.sampled !== undefined ? { sampled: live.sampled } : {}),
    changes,
    notes: merged.notes,
    uncertain: merged.uncertain,
    ...(status === "created" ? { fields: merged.description.fields.length, portals: merged.description.portals?.length ?? 0 } : {}),
  };
  return write ? { result, write } : { result };
}

/**
 * The layouts asked, each under the name the server gives it where that is known before reading it: the server's
 * layout list (FileMaker matches a layout name without regard to case, so `contacts web` is the layout `Contacts
 * Web`; an exact name first), else an existing description's (a server without the list was pulled before). The
 * same layout asked in two spellings is pulled once.
 */
function askedLayouts(names: readonly string[], catalog: readonly LayoutEntry[] | undefined, existing: readonly Existing[]): Asked[] {
  const out = new Map<string, Asked>();
  for (const name of names) {
    const layout = (catalog ? findByName(catalog, name, (e) => e.name)?.name : undefined) ?? findByName(existing, name, (e) => e.description.layout)?.description.layout ?? name;
    if (!out.has(layout)) out.set(layout, layout === name ? { layout } : { layout, askedAs: name });
  }
  return [...out.values()];
}

/** The server's layouts, from its metadata endpoint; undefined when it has none. */
async function readCatalog(fm: FileMakerClient, settings: PullSettings, required: boolean): Promise<LayoutEntry[] | undefined> {
  try {
    return await fm.layouts();
  } catch (error) {
    if (!isMissingEndpoint(error)) throw error;
    if (required) throw new PullError(`${settings.server} has no layout metadata endpoint (it answers ${describeAnswer(error)}); pull with --source sample (or auto) to sample records instead`);
    return undefined;
  }
}

async function readLive(
  fm: FileMakerClient,
  settings: PullSettings,
  layout: string,
  catalog: LayoutEntry[] | undefined,
  sampleCount: number,
  source: SourceChoice,
  existingOf: (layout: string) => Existing | undefined,
): Promise<LiveLayout> {
  if (catalog) {
    try {
      const metadata = await layoutMetadata(fm, layout);
      let table = catalog.find((entry) => entry.name === layout)?.table ?? metadata.table;
      // Without a table from the server or the file, one record's dataInfo names it.
      if (table === undefined && !existingOf(layout)) table = (await wireRecords(fm, layout, { limit: 1 })).dataInfo?.table || undefined;
      return liveFromMetadata(settings.database, layout, metadata, table);
    } catch (error) {
      if (!isMissingEndpoint(error) || source === "metadata") throw error;
    }
  }
  return sampleLayout(fm, settings.database, layout, sampleCount);
}

/**
 * The file each layout goes to, planned one layout at a time by the name the server gives it: its existing
 * description (the one naming it exactly, else the one naming it case aside, as the server matches names), or
 * `<dir>/<Name>.layout.json` (numbered when taken), `<Name>` being `--name` or the PascalCase of the layout name.
 */
function filePlanner(existing: readonly Existing[], settings: PullSettings, name: string | undefined) {
  const taken = new Set(existing.map((e) => e.file));
  const planned = new Map<string, { layout: string; file: string; existing?: Existing; name?: string }>();
  const named = name !== undefined ? { name } : {};
  const existingOf = (layout: string) => findByName(existing, layout, (e) => e.description.layout);
  const plan = (layout: string): { layout: string; file: string; existing?: Existing; name?: string } => {
    const known = planned.get(layout);
    if (known) return known;
    const found = existingOf(layout);
    let target: { layout: string; file: string; existing?: Existing; name?: string };
    if (found) target = { layout, file: found.file, existing: found, ...named };
    else {
      const stem = name !== undefined ? boundName(name, name, "-") : defaultTypeName(layout);
      let file = join(settings.dir, `${stem}${LAYOUT_FILE_SUFFIX}`);
      for (let n = 2; taken.has(file); n++) file = join(settings.dir, `${stem}-${n}${LAYOUT_FILE_SUFFIX}`);
      taken.add(file);
      target = { layout, file, ...named };
    }
    planned.set(layout, target);
    return target;
  };
  return { plan, existing: existingOf };
}

/** Why no layout is to be pulled, and what to do: name layouts, or (a mistyped --database?) use those found. */
function nothingToPull(settings: PullSettings, existing: readonly Existing[]): string {
  const where = settings.layoutEntries.map((entry) => posixRelative(settings.root, entry) || ".").join(", ");
  if (existing.length === 0 && settings.tablesOnly) return `no layouts to pull: the config names tables and no layouts; pull the tables with fmgen pull --odata (or name layouts: fmgen pull "Layout Name" ...)`;
  if (existing.length === 0) return `no layouts to pull: name them (fmgen pull "Layout Name" ...), or keep their description files in ${where}`;
  const databases = [...new Set(existing.map((e) => e.description.database))];
  const found = existing.map((e) => `${posixRelative(settings.root, e.file)} (database "${e.description.database}")`).join(", ");
  return (
    `no description file is of database "${settings.database}", so there is no layout to pull: found ${found}. ` +
    `Check --database (or "database" in the config)${databases.length === 1 ? `: did you mean "${databases[0]}"?` : ","} or name the layouts to pull (fmgen pull "Layout Name" ...)`
  );
}

async function readExisting(settings: PullSettings): Promise<Existing[]> {
  const out: Existing[] = [];
  for (const file of await layoutDescriptionFiles(settings.layoutEntries, { missing: "skip" })) {
    out.push(await readDescriptionFile(file, layoutDescriptionSchema, LayoutFileError));
  }
  return out;
}

/** `fmgen pull --list`: the server's layouts. */
export async function listServerLayouts(options: Omit<PullOptions, "layouts" | "check" | "source" | "sample">): Promise<{ server: string; database: string; layouts: LayoutEntry[] }> {
  const settings = await resolvePullSettings(options);
  const credentials = await readCredentials(settings, options.env ?? process.env);
  const fm = createClient({ server: settings.server, database: settings.database, auth: credentials });
  try {
    const layouts = await readCatalog(fm, settings, true);
    return { server: settings.server, database: settings.database, layouts: layouts ?? [] };
  } catch (error) {
    throw explainFatal(error, settings);
  } finally {
    await fm.close().catch(() => undefined);
  }
}
