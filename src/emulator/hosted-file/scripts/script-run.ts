import type { EmulatorClock } from "../clock.js";
import { globalsSnapshot } from "../globals.js";
import { recordToWire, scriptRecordOf } from "../layout-view/record-view.js";
import type { ViewContext } from "../layout-view/record-view-types.js";
import type { LayoutModel } from "../model.js";
import type { HostedDatabase, StoredRecord, TableData } from "../store.js";
import { scriptRecords, ScriptStepError } from "./handler-api.js";
import type { ScriptContext, ScriptFoundSet, ScriptHandler, ScriptRecord } from "./script-module.js";

/**
 * Running one script handler, the part both APIs share (the Data API's script keys and standalone call,
 * data-api/script-phases.ts; OData's `Script.X`, odata/script-call.ts): the handler's context, the call, and how it
 * ended. Each API finds the handler (ScriptCatalog), says what the script sees, and answers in its own wire.
 */

/** How a script ended: `error` "0" on success; `result` absent when the handler returned nothing. */
export interface ScriptOutcome {
  result?: string;
  error: string;
}

/** One script to run: its handler and what it sees. */
export interface ScriptRun {
  handler: ScriptHandler;
  /** For the log: `script "X" (<where>) threw …`. */
  name: string;
  /** For the log, what called it: `after, database "D", layout "L"`. */
  where: string;
  param: string;
  db: HostedDatabase;
  clock: EmulatorClock;
  /** The layout name the handler is told (`context.layout`). */
  layout: string;
  /** How records read for the handler (container URLs, the session's globals); made when a step reads records. */
  view: () => ViewContext;
  foundSet?: ScriptFoundSet | undefined;
  log: (line: string) => void;
}

/**
 * Runs one script's handler with its context. A handler may be async: it is awaited, and other requests run
 * meanwhile (each `records` step is atomic on its own). It returns a string or number (the result), nothing, or
 * `{ result?, error? }`; a {@link ScriptStepError} it does not catch ends it with that code; any other exception, or
 * a return of another shape, ends it with error "-1", and the log says why.
 */
export async function runScriptHandler(run: ScriptRun): Promise<ScriptOutcome> {
  const context: ScriptContext = {
    param: run.param,
    database: run.db.model.name,
    layout: run.layout,
    records: scriptRecords({ db: run.db, clock: run.clock, view: run.view }),
    globals: globalsSnapshot(run.db, run.view().containerUrl),
    ...(run.foundSet ? { foundSet: run.foundSet } : {}),
  };
  const where = `script ${JSON.stringify(run.name)} (${run.where})`;
  let returned: unknown;
  try {
    returned = await run.handler(context);
  } catch (error) {
    if (error instanceof ScriptStepError) {
      run.log(`${where} stopped with error ${error.code}: ${error.message}`);
      return { error: error.code };
    }
    run.log(`${where} threw, scriptError -1: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return { error: "-1" };
  }
  const outcome = outcomeOf(returned);
  if (!outcome) {
    run.log(`${where} returned ${describeReturn(returned)}, scriptError -1: a handler returns a string, a number, nothing, or { result?, error? }`);
    return { error: "-1" };
  }
  return outcome;
}

/** The found set a script sees; its records are made (through `layout`) when first read. */
export function scriptFoundSet(layout: LayoutModel, table: TableData, found: readonly StoredRecord[], view: () => ViewContext): ScriptFoundSet {
  const snapshot = [...found];
  let records: ScriptRecord[] | undefined;
  return {
    foundCount: snapshot.length,
    totalRecordCount: table.records.size,
    get records() {
      if (!records) {
        const v = view();
        records = snapshot.map((record) => scriptRecordOf(recordToWire(layout, record, v)));
      }
      return records;
    },
  };
}

function outcomeOf(returned: unknown): ScriptOutcome | undefined {
  if (returned === undefined || returned === null) return { error: "0" };
  if (typeof returned === "string" || typeof returned === "number") return { result: String(returned), error: "0" };
  if (typeof returned !== "object" || Array.isArray(returned)) return undefined;
  const { result, error, ...rest } = returned as { result?: unknown; error?: unknown };
  if (Object.keys(rest).length > 0) return undefined;
  const scalar = (v: unknown) => v === undefined || typeof v === "string" || typeof v === "number";
  if (!scalar(result) || !scalar(error)) return undefined;
  return { ...(result === undefined ? {} : { result: String(result) }), error: error === undefined ? "0" : String(error) };
}

function describeReturn(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") {
    try {
      return JSON.stringify(value).slice(0, 80);
    } catch {
      return "an object";
    }
  }
  return `a ${typeof value}`;
}
