import type { LayoutDescription } from "../../../layout/description.js";
import { descriptionsByDatabase, loadDatabaseDescriptionsBeside, loadDatabaseFile, parseDatabaseDescription } from "../../../layout/database-load.js";
import type { DatabaseDescription, DatabaseDescriptionInput } from "../../../layout/database-schema.js";
import { checkFolderDepth } from "../layout-folders.js";
import { findByName } from "../name-map.js";
import { checkScriptHandlers, loadScriptModule, type ScriptHandler, type ScriptHandlers } from "./script-module.js";

/** An entry of `GET /databases/{database}/scripts` (docs/emulator.md, "2. Scripts"). */
export type ScriptListEntry = { name: string; isFolder: false } | { name: string; isFolder: true; folderScriptNames: ScriptListEntry[] };

/** A script that a database description lists and no handler implements: it runs, does nothing and succeeds. */
const EMPTY_SCRIPT: ScriptHandler = () => undefined;

/**
 * The scripts each hosted database has: every handler of the scripts module (handlers serve every database), and
 * the scripts its database description lists (empty scripts unless a handler has the name).
 */
export class ScriptCatalog {
  constructor(
    private readonly handlers: ScriptHandlers,
    private readonly descriptions: ReadonlyMap<string, DatabaseDescription>,
  ) {}

  /**
   * The script of that name, or undefined: the file has no such script (code 104). Names match as FileMaker matches
   * them, case aside; a script spelled exactly so wins, since a file may hold two scripts whose names differ only by
   * case (docs/emulator.md, "Names").
   */
  find(database: string, name: string): ScriptHandler | undefined {
    if (Object.hasOwn(this.handlers, name)) return this.handlers[name];
    const described = this.descriptions.get(database)?.scripts ?? [];
    if (described.some((s) => s.name === name)) return EMPTY_SCRIPT;
    const handler = findByName(Object.keys(this.handlers), name, (n) => n);
    if (handler !== undefined) return this.handlers[handler];
    return findByName(described, name, (s) => s.name) ? EMPTY_SCRIPT : undefined;
  }

  /**
   * The script list: the description's scripts in its order, each folder where its first script puts it (nested
   * by the folder path), then the handlers the description does not list, at the top, in the module's order.
   */
  list(database: string): ScriptListEntry[] {
    const top: ScriptListEntry[] = [];
    const listed = new Set<string>();
    for (const script of this.descriptions.get(database)?.scripts ?? []) {
      let level = top;
      for (const folder of script.folder) {
        let entry = level.find((e): e is Extract<ScriptListEntry, { isFolder: true }> => e.isFolder && e.name === folder);
        if (!entry) level.push((entry = { name: folder, isFolder: true, folderScriptNames: [] }));
        level = entry.folderScriptNames;
      }
      level.push({ name: script.name, isFolder: false });
      listed.add(script.name);
    }
    for (const name of Object.keys(this.handlers)) if (!listed.has(name)) top.push({ name, isFolder: false });
    return top;
  }
}

export interface ScriptCatalogOptions {
  /** The handlers, or the path of a module whose default export they are (resolved from the current directory). */
  scripts?: string | ScriptHandlers | undefined;
  /** Database descriptions: paths of `<Database>.database.json` files, or the objects. */
  databases?: readonly (string | DatabaseDescriptionInput)[] | undefined;
  /** The `layouts` entries that are paths: every `*.database.json` in those folders is loaded too. */
  layoutPaths: readonly string[];
}

/** Loads the handlers and database descriptions; every problem is thrown, naming its file, before the server starts. */
export async function loadScriptCatalog(options: ScriptCatalogOptions, layouts: readonly LayoutDescription[]): Promise<ScriptCatalog> {
  const handlers =
    options.scripts === undefined ? Object.create(null) : typeof options.scripts === "string" ? (await loadScriptModule(options.scripts)).handlers : checkScriptHandlers(options.scripts, "scripts");
  const descriptions = await loadDatabaseDescriptionsBeside(options.layoutPaths);
  for (const [i, entry] of (options.databases ?? []).entries()) {
    descriptions.push(typeof entry === "string" ? await loadDatabaseFile(entry) : parseDatabaseDescription(entry, `databases[${i}]`));
  }
  const hosted = new Set(layouts.map((l) => l.database));
  const where = (description: DatabaseDescription) => description.source ?? `database "${description.database}"`;
  for (const description of descriptions) {
    for (const script of description.scripts) checkFolderDepth(script.folder, `${where(description)}: script "${script.name}"`);
  }
  for (const description of descriptions) {
    if (!hosted.has(description.database)) {
      throw new Error(`${where(description)}: no layout description is of database "${description.database}", so the emulator does not host it`);
    }
  }
  const { byDatabase, twice } = descriptionsByDatabase(descriptions);
  const [first, again] = twice[0] ?? [];
  if (first && again) throw new Error(`${where(again)}: database "${again.database}" is described twice (also in ${first.source ?? "an object"})`);
  return new ScriptCatalog(handlers, byDatabase);
}
