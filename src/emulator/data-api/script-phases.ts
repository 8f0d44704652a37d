/**
 * Scripts on a Data API call (docs/emulator.md, "2. Scripts"): `script`, `script.prerequest`, `script.presort`
 * and their `.param`s, run in FileMaker's order around the call's action, with their answer keys.
 *
 * FOR HANDLERS OF CALLS THAT TAKE SCRIPT KEYS (list, get, find, create, edit, delete, duplicate): wrap the work in
 * {@link withScripts}. The call's own parameters are read and checked first; then
 *
 *   return withScripts(ctx, body, {                     // body: the JSON body; ctx.query for GET (DELETE: deleteScriptKeys)
 *     act: () => [writeDuplicate(ctx.db, ...)],         // the action, synchronous; its found set: records of ctx.layout's table
 *     sort: (found) => sortRecords(table, found, keys), // optional: list and find sort here, between presort and script
 *     answer: ([now = copy]) => ({ response: { recordId: String(now.recordId), modId: String(now.modId) } }),
 *   });
 *
 * `answer` gets the found set as the scripts left it: each record re-read (a script's edits show, with their
 * modIds), records a script deleted left out, sorted when `sort` is given; it applies offset/limit itself. The
 * route lists {@link SCRIPT_KEYS} among what it accepts (query for GET and DELETE, body for POST and PATCH).
 *
 * What withScripts does: checks the keys (each a string, at most once: 1708; a `.param` without its script: 1708)
 * and that every named script exists (104) before anything runs, so nothing of the call is kept; without script
 * keys it runs act, sort and answer at once (no await, no cost). With them: prerequest; act; presort (sees the
 * unsorted found set); sort; script (sees the sorted found set); answer, with the answer keys of the phases asked
 * for added to `response`. An error of the action or the answer (401 no records, 101, 509...) after a script ran
 * carries those scripts' answer keys in its `response`; scripts after the failure do not run.
 */
import { EmulatorError } from "../hosted-file/fm-error.js";
import { isJsonMediaType } from "../http/media-type.js";
import { discardBody } from "./wire/body.js";
import { readRequestBody } from "./wire/known-params.js";
import type { Answer, RequestContext } from "./routes.js";
import { viewContext } from "../hosted-file/container-urls.js";
import { tableOf, type StoredRecord, type TableData } from "../hosted-file/store.js";
import type { ScriptFoundSet, ScriptHandler } from "../hosted-file/scripts/script-module.js";
import { runScriptHandler, scriptFoundSet, type ScriptOutcome } from "../hosted-file/scripts/script-run.js";

export type { ScriptOutcome } from "../hosted-file/scripts/script-run.js";

/** The script keys a call may carry, on the query string (GET, DELETE) or in the JSON body (POST, PATCH). */
export const SCRIPT_KEYS = ["script", "script.param", "script.prerequest", "script.prerequest.param", "script.presort", "script.presort.param"] as const;

export type ScriptPhase = "prerequest" | "presort" | "after" | "standalone";

interface PhaseKeys {
  phase: Exclude<ScriptPhase, "standalone">;
  name: (typeof SCRIPT_KEYS)[number];
  param: (typeof SCRIPT_KEYS)[number];
  result: string;
  error: string;
}

/** In the order they run; answer keys come in this order too. */
const PHASES: readonly PhaseKeys[] = [
  { phase: "prerequest", name: "script.prerequest", param: "script.prerequest.param", result: "scriptResult.prerequest", error: "scriptError.prerequest" },
  { phase: "presort", name: "script.presort", param: "script.presort.param", result: "scriptResult.presort", error: "scriptError.presort" },
  { phase: "after", name: "script", param: "script.param", result: "scriptResult", error: "scriptError" },
];

/** One script a call asked for, found. */
export interface RequestedScript {
  phase: ScriptPhase;
  name: string;
  param: string;
  handler: ScriptHandler;
}

export type ScriptKeySource = URLSearchParams | Readonly<Record<string, unknown>>;

export interface ScriptedCall {
  /** The call's action, synchronous (one atomic step); returns its found set, unsorted. */
  act(): StoredRecord[];
  /** Orders the found set (after presort, before the script). */
  sort?(found: StoredRecord[]): StoredRecord[];
  /** The answer from the found set as the scripts left it (offset/limit applied here). */
  answer(found: StoredRecord[]): Answer;
}

/** Runs a call with the scripts its keys ask for, in FileMaker's order; see the top of this file. */
export function withScripts(ctx: RequestContext, source: ScriptKeySource, call: ScriptedCall): Answer | Promise<Answer> {
  const scripts = requestedScripts(ctx, source);
  if (scripts.length === 0) {
    const found = call.act();
    return call.answer(call.sort ? call.sort(found) : found);
  }
  return runPhases(ctx, scripts, call);
}

async function runPhases(ctx: RequestContext, scripts: readonly RequestedScript[], call: ScriptedCall): Promise<Answer> {
  const table = tableOf(ctx.db, ctx.layout);
  const keys: Record<string, string> = {};
  const phase = (name: ScriptPhase) => scripts.find((s) => s.phase === name);
  const run = async (script: RequestedScript | undefined, found?: StoredRecord[]) => {
    if (!script) return;
    const outcome = await runScript(ctx, script, found && foundSetOf(ctx, table, found));
    Object.assign(keys, answerKeys(PHASES.find((p) => p.phase === script.phase)!, outcome));
  };
  try {
    await run(phase("prerequest"));
    let found = call.act();
    const presort = phase("presort");
    if (presort) {
      await run(presort, found);
      found = asStoredNow(table, found);
    }
    if (call.sort) found = call.sort(found);
    const after = phase("after");
    if (after) {
      await run(after, found);
      found = asStoredNow(table, found);
    }
    const answer = call.answer(found);
    return { ...answer, response: { ...answer.response, ...keys } };
  } catch (error) {
    if (error instanceof EmulatorError && Object.keys(keys).length > 0) error.response = { ...error.response, ...keys };
    throw error;
  }
}

/** The found set as stored now: each record's current version, those deleted meanwhile left out, order kept. */
function asStoredNow(table: TableData, found: readonly StoredRecord[]): StoredRecord[] {
  const now: StoredRecord[] = [];
  for (const record of found) {
    const current = table.records.get(record.recordId);
    if (current) now.push(current);
  }
  return now;
}

/** The found set a presort or after script sees (through the call's layout). */
function foundSetOf(ctx: RequestContext, table: TableData, found: readonly StoredRecord[]): ScriptFoundSet {
  return scriptFoundSet(ctx.layout, table, found, () => viewContext(ctx.state, ctx.db));
}

function answerKeys(keys: { result: string; error: string }, outcome: ScriptOutcome): Record<string, string> {
  return outcome.result === undefined ? { [keys.error]: outcome.error } : { [keys.result]: outcome.result, [keys.error]: outcome.error };
}

/** The standalone endpoint's answer: `{ scriptResult?, scriptError }`. */
export function standaloneAnswer(outcome: ScriptOutcome): Record<string, string> {
  return answerKeys({ result: "scriptResult", error: "scriptError" }, outcome);
}

/** The script keys of a call, checked: strings, each once, a `.param` only with its script, every script found (else 104). */
export function requestedScripts(ctx: RequestContext, source: ScriptKeySource): RequestedScript[] {
  const scripts: RequestedScript[] = [];
  for (const keys of PHASES) {
    const name = scriptKeyValue(source, keys.name);
    const param = scriptKeyValue(source, keys.param);
    if (name === undefined) {
      if (param !== undefined) throw new EmulatorError(400, "1708", `${keys.param} was given without ${keys.name}`);
      continue;
    }
    scripts.push({ phase: keys.phase, name, param: param ?? "", handler: findScript(ctx, name) });
  }
  return scripts;
}

/** A script of the call's database, or 104 (HTTP 400 with the contract's statuses, 500 with real servers'). */
export function findScript(ctx: RequestContext, name: string): ScriptHandler {
  const handler = ctx.state.scripts.find(ctx.db.model.name, name);
  if (!handler) throw new EmulatorError(400, "104", `no script named ${JSON.stringify(name)} in "${ctx.db.model.name}"`);
  return handler;
}

/**
 * One script key's value: a string (1708 otherwise), or undefined when absent. A query string's keys come once
 * (checkQueryNames answers 1708 for a name given twice, before any handler runs).
 */
export function scriptKeyValue(source: ScriptKeySource, key: string): string | undefined {
  if (source instanceof URLSearchParams) return source.get(key) ?? undefined;
  if (!Object.hasOwn(source, key)) return undefined;
  const value = source[key];
  if (typeof value !== "string") throw new EmulatorError(400, "1708", `${key} must be a string, got ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}`);
  return value;
}

/**
 * A record delete's script keys: the query string's (as servers take them), or a JSON body's (as fms-api-client
 * sends them: a choice, since a body read and ignored would break rule one). A body is optional; a non-empty one
 * with `Content-Type: application/json` is a JSON object of script keys (any other key is 960); a key in both
 * places is 1708. A body of any other type (FMDataAPI sends a form-urlencoded one) is not refused for its type, as
 * servers do not refuse it: it is read to its end (413 past maxJsonBytes) and not interpreted.
 */
export async function deleteScriptKeys(ctx: RequestContext): Promise<ScriptKeySource> {
  let body: Record<string, unknown> = {};
  if (isJsonMediaType(ctx.req.headers["content-type"])) body = await readRequestBody(ctx, { emptyIsObject: true });
  else await discardBody(ctx.req, ctx.state.maxJsonBytes);
  const keys: Record<string, unknown> = Object.create(null);
  for (const key of SCRIPT_KEYS) {
    const inQuery = scriptKeyValue(ctx.query, key);
    if (inQuery !== undefined && Object.hasOwn(body, key)) throw new EmulatorError(400, "1708", `${key} was given both on the query string and in the body`);
    if (inQuery !== undefined) keys[key] = inQuery;
    else if (Object.hasOwn(body, key)) keys[key] = body[key];
  }
  return keys;
}

/** Runs one script of a Data API call (hosted-file/scripts/script-run.ts, shared with OData). */
export function runScript(ctx: RequestContext, script: RequestedScript, foundSet?: ScriptFoundSet): Promise<ScriptOutcome> {
  const layout = ctx.layout.description.layout;
  return runScriptHandler({
    handler: script.handler,
    name: script.name,
    where: `${script.phase}, database "${ctx.db.model.name}", layout "${layout}"`,
    param: script.param,
    db: ctx.db,
    clock: ctx.state.clock,
    layout,
    view: () => viewContext(ctx.state, ctx.db),
    foundSet,
    log: ctx.state.log,
  });
}
