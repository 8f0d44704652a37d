import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { WireRecord } from "../layout-view/record-view-types.js";
import { checkCalculations, type Calculations } from "../calculations.js";

/**
 * The scripts interface (docs/emulator.md, "Scripts: handlers"; public contract): FileMaker scripts are JavaScript
 * handlers the user supplies, `fmgen serve --scripts scripts.mjs` or `startEmulator({ scripts })`. The module's
 * default export maps script names to handlers.
 */

/** A found set as a handler sees it (presort and after scripts): records as the Data API answers them. */
export interface ScriptFoundSet {
  /** Records the call's find matched (every record of the table, for a list). */
  foundCount: number;
  /** Records in the layout's table. */
  totalRecordCount: number;
  /** Every record of the found set (not only the page the call answers), through the call's layout. */
  readonly records: readonly ScriptRecord[];
}

/**
 * A record as the Data API answers it (`data[i]` of a list or find), but a number a double does not hold (more than
 * 15 to 17 significant digits: a 58-digit key) is its decimal text, a string, so that no digit is lost; every other
 * number is a JavaScript number (docs/emulator.md, "Numbers").
 */
export type ScriptRecord = WireRecord<string | number>;

/** What a handler gets. */
export interface ScriptContext {
  /** `script.param` (or the phase's `.param`); "" when the call sent none, as Get(ScriptParameter) is. */
  param: string;
  /** The hosted database (file) name. */
  database: string;
  /** The layout of the call; for OData's `Script.X`, "" (a scoped `T/Script.X`: the first layout on T). */
  layout: string;
  /** The call's found set, for presort and after scripts (and OData's scoped `T/Script.X`); undefined for prerequest and standalone scripts. */
  foundSet?: ScriptFoundSet;
  /** Finds, reads and writes through a layout, as script steps do (globals.ts: writes to globals stay in the session). */
  records: ScriptRecords;
  /**
   * The session's global field values, `"TO::field"` (repetitions `"TO::field(n)"`) to wire values: a snapshot. A
   * number a double does not hold is its decimal text, as in a {@link ScriptRecord}.
   */
  globals: Readonly<Record<string, string | number>>;
}

/**
 * `records`, what a script handler changes data with (docs/emulator.md, "Scripts: handlers"): find, read, create, edit
 * and delete through a layout of the call's database, as FileMaker script steps do, with the Data API's wire
 * values (dates `MM/DD/YYYY`; a number a double does not hold, such as a 58-digit key, read as its decimal text, a
 * string, and every other number as a number: docs/emulator.md, "Numbers"), the same type checks and modId
 * increments as the Data API calls, in the calling session (a global field written here is the session's, as
 * `PATCH .../globals` sets it). A script's write is not
 * data entry: `required` and `unique` are checked only for fields whose description says `"validate": "always"`.
 * A numeric string written into a number field is stored exactly (up to 400 significant digits), so a long number
 * read and written back, or used in a find criterion, keeps every digit.
 *
 * Each method is synchronous and one atomic step: the record is read, checked and written with no await in
 * between, so no concurrent request can interleave with it. A handler as a whole is not a transaction (as a
 * FileMaker script is not): what it changed stays changed when a later step fails.
 *
 * A step that fails throws a ScriptStepError (handler-api.ts) with the FileMaker code (101 no such record, 105 no such
 * layout, 306 modId mismatch, 5xx validation, ...). A handler may catch it; if it does not, the script
 * ends with that code as its `scriptError`, as a script that stops on an error reports `Get(LastError)`.
 */
export interface ScriptRecords {
  /** `_find`'s requests (ORed, `omit`, FileMaker criteria) and optional sort; [] when no record matches. */
  find(layout: string, query: readonly Readonly<Record<string, string | number | boolean>>[], options?: { sort?: readonly ScriptSort[] }): ScriptRecord[];
  /** Every record of the layout's table (Show All Records), optionally sorted. */
  list(layout: string, options?: { sort?: readonly ScriptSort[] }): ScriptRecord[];
  /** One record by its record id. */
  get(layout: string, recordId: string | number): ScriptRecord;
  /** A new record; `portalData` rows are created through the portals' relations, as in a create call. */
  create(layout: string, fieldData: Readonly<Record<string, string | number>>, options?: { portalData?: ScriptPortalData }): { recordId: string; modId: string };
  /** Changes a record; `modId` (optional) is checked as an edit call checks it; `portalData` edits or adds rows. */
  edit(layout: string, recordId: string | number, fieldData: Readonly<Record<string, string | number>>, options?: { modId?: string; portalData?: ScriptPortalData }): { modId: string };
  /** Deletes a record (and its related rows where a relation says cascadeDelete). */
  delete(layout: string, recordId: string | number): void;
}

/** One sort key of `records.find`, as the Data API's `sort` has it. */
export interface ScriptSort {
  /** A field of the layout. */
  fieldName: string;
  /** `"ascend"` (default) or `"descend"`. */
  sortOrder?: string;
}

/** Portal rows a handler writes with a record: portal name -> rows, each field name -> wire value. */
export type ScriptPortalData = Readonly<Record<string, readonly Readonly<Record<string, string | number>>[]>>;

/** What a handler returns: a result, nothing, or a result and an error (`error` 0 or absent: success). */
export type ScriptReturn = string | number | undefined | void | { result?: string | number; error?: string | number };

/**
 * A script of the emulated file: gets the call's context, may read and change records, and returns the script's
 * result (and error code).
 *
 * @example
 * ```ts
 * import type { ScriptHandlers } from "fmgen/emulator";
 *
 * const handlers: ScriptHandlers = {
 *   "Count Invoices": ({ param, records }) => String(records.find("Invoices", [{ ContactID: param }]).length),
 * };
 * ```
 */
export type ScriptHandler = (context: ScriptContext) => ScriptReturn | Promise<ScriptReturn>;

/** The default export of a scripts module: script names to handlers. */
export type ScriptHandlers = Readonly<Record<string, ScriptHandler>>;

/** Checks that `value` is an object of functions (a scripts module's default export); `source` names it in errors. */
export function checkScriptHandlers(value: unknown, source: string): ScriptHandlers {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(`${source}: the scripts must be an object mapping script names to handler functions, got ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}`);
  }
  // Own keys only, into a null-prototype object: a script named "constructor" or "__proto__" is a name like any other.
  const handlers: Record<string, ScriptHandler> = Object.create(null);
  for (const [name, handler] of Object.entries(value)) {
    if (typeof handler !== "function") {
      throw new Error(`${source}: script "${name}" must be a handler function, got ${handler === null ? "null" : typeof handler}`);
    }
    handlers[name] = handler as ScriptHandler;
  }
  return handlers;
}

/** What a scripts module gives: its handlers (the default export) and its calculations (the `calculations` export). */
export interface ScriptModule {
  handlers: ScriptHandlers;
  calculations?: Calculations;
}

/**
 * Imports a scripts module (a path resolved from the current directory) and checks its default export (the script
 * handlers) and its `calculations` export (calculations.ts); a module may have either or both. Every failure names
 * the file: one that does not load, has neither export, or exports something else.
 */
export async function loadScriptModule(path: string): Promise<ScriptModule> {
  const file = resolve(path);
  let module: { default?: unknown; calculations?: unknown };
  try {
    module = (await import(pathToFileURL(file).href)) as { default?: unknown; calculations?: unknown };
  } catch (error) {
    throw new Error(`${path}: cannot load the scripts module: ${(error as Error)?.message ?? String(error)}`);
  }
  if (module.default === undefined && module.calculations === undefined) {
    throw new Error(
      `${path}: the scripts module has no default export; export default an object mapping script names to handler functions ` +
        "(or export calculations, an object of tables to fields to functions)",
    );
  }
  const handlers = module.default === undefined ? Object.create(null) : checkScriptHandlers(module.default, `${path}: default export`);
  return module.calculations === undefined ? { handlers } : { handlers, calculations: checkCalculations(module.calculations, `${path}: export calculations`) };
}
