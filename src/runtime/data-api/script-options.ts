/**
 * Scripts on record calls and how a write is entered (docs/scripts-and-globals.md, "Scripts on calls";
 * docs/reading-and-writing.md, "Writing: create, edit, delete, duplicate"): the options `script`, `prerequest` and
 * `presort` (each `{ name, param? }`), their wire keys (`script`, `script.param`, `script.prerequest`, ...: the query
 * string of a GET or DELETE, the body of a POST or PATCH), the results an answer carries (`scriptResult`,
 * `scriptError`, `scriptResult.prerequest`, ...), and `entryMode` / `prohibitMode` (`options.entrymode` /
 * `options.prohibitmode` of a create or edit body). Nothing here runs for a call that uses none of them but one check
 * of three options.
 */
import { describe } from "./codecs.js";

/** A script to run: its name (one of the database's, when the client has a database definition) and parameter. */
export interface ScriptCall<Name extends string = string> {
  /** The script's name as the file has it. */
  name: Name;
  /** What `Get(ScriptParameter)` returns in the script. */
  param?: string;
}

/** The scripts a call runs, in this order: `prerequest` before its action, `presort` before its sort, `script` last. */
export interface ScriptOptions<Name extends string = string> {
  /** Runs after the action and the sort, on the found set (before offset and limit): `scripts.after`. */
  script?: ScriptCall<Name>;
  /** Runs before the action: `scripts.prerequest`. */
  prerequest?: ScriptCall<Name>;
  /** Runs after the action, before the sort: `scripts.presort`. */
  presort?: ScriptCall<Name>;
}

/** How a script ended: `error` "0" on success, else FileMaker's error code; `result` what it returned, if anything. */
export interface ScriptResult {
  /** What the script passed to Exit Script, if anything. */
  result?: string;
  /** FileMaker's error code the script ended with: "0" on success. */
  error: string;
}

/** The results of the scripts a call ran, by phase. */
export interface ScriptResults {
  /** The `prerequest` script's, which ran before the action. */
  prerequest?: ScriptResult;
  /** The `presort` script's, which ran after the action, before the sort. */
  presort?: ScriptResult;
  /** The `script` option's, which ran last. */
  after?: ScriptResult;
}

/** `{ scripts }` when options `O` name a script; `Else` (nothing added) when they do not. */
export type ScriptsOf<O, Else = unknown> = O extends { script: object } | { prerequest: object } | { presort: object } ? { scripts: ScriptResults } : Else;

/** How a write is entered: "user" (as through a layout: every validation applies) or "script" (as a script step). */
export type EntryMode = "user" | "script";

/** How a create or edit is entered (default "user" for both). */
export interface EntryOptions {
  /** "script": validation that applies only during data entry is skipped. */
  entryMode?: EntryMode;
  /** "script": fields that prohibit modification may be written (else the server answers 201). */
  prohibitMode?: EntryMode;
}

/** [option, wire suffix, result phase], in the order the scripts run. */
const PHASES = [
  ["prerequest", ".prerequest", "prerequest"],
  ["presort", ".presort", "presort"],
  ["script", "", "after"],
] as const;

/** A call's script options as wire keys (`script.prerequest`, `script.prerequest.param`, ...), checked; undefined with none. */
export function scriptKeys(call: string, options: ScriptOptions): Record<string, string> | undefined {
  if (options.script === undefined && options.prerequest === undefined && options.presort === undefined) return;
  const keys: Record<string, string> = {};
  for (const [option, suffix] of PHASES) {
    const script = options[option];
    if (script === undefined) continue;
    const { name, param } = Object(script) as ScriptCall;
    if (typeof name !== "string" || !name) throw new TypeError(`${call}: ${option}.name must be a non-empty string, got ${describe(name)}`);
    keys[`script${suffix}`] = name;
    if (param === undefined) continue;
    if (typeof param !== "string") throw new TypeError(`${call}: ${option}.param must be a string, got ${describe(param)}`);
    keys[`script${suffix}.param`] = param;
  }
  return keys;
}

/**
 * The script results of an answer's `response`. With `asked` (the keys a call sent), each phase asked for must be
 * there (a string `scriptError`, `scriptResult` a string or absent), else `fail` is called with what is wrong; without
 * it (an error's answer), the phases that are there.
 */
export function scriptsIn(response: Record<string, unknown>, asked?: Record<string, string>, fail?: (what: string) => never): ScriptResults {
  const out: ScriptResults = {};
  for (const [, suffix, phase] of PHASES) {
    const error = response[`scriptError${suffix}`];
    const result = response[`scriptResult${suffix}`];
    const ok = typeof error === "string" && (result === undefined || typeof result === "string");
    if (asked ? !Object.hasOwn(asked, `script${suffix}`) : !ok) continue;
    if (!ok) fail!(`response.scriptError${suffix} or scriptResult${suffix} is not a string`);
    out[phase] = result === undefined ? { error: error as string } : { result: result as string, error: error as string };
  }
  return out;
}

/** `{ options: { entrymode?, prohibitmode? } }` of a create or edit body, checked; undefined when the call gives neither. */
export function entryKeys(call: string, options: EntryOptions): { options: object } | undefined {
  if (options.entryMode === undefined && options.prohibitMode === undefined) return;
  const mode = (option: keyof EntryOptions) => {
    const value = options[option];
    if (value !== undefined && value !== "user" && value !== "script") throw new TypeError(`${call}: ${option} must be "user" or "script", got ${describe(value)}`);
    return value;
  };
  // An undefined member is left out of the JSON.
  return { options: { entrymode: mode("entryMode"), prohibitmode: mode("prohibitMode") } };
}

/**
 * Turns a failed script into an exception: throws a ScriptError for the first phase (prerequest, presort, after)
 * whose `error` is not "0"; returns `result` as it is otherwise. Script errors are data until this is called.
 */
export function assertScripts<T extends { readonly scripts?: ScriptResults }>(result: T): T {
  for (const [, , phase] of PHASES) {
    const outcome = result.scripts?.[phase];
    if (outcome && outcome.error !== "0") throw new ScriptError(phase, outcome.error, outcome.result);
  }
  return result;
}

/** A script a call ran ended with an error (`assertScripts`): its phase, FileMaker's error code and its result. */
export class ScriptError extends Error {
  /** Which of the call's scripts failed. */
  declare readonly phase: keyof ScriptResults;
  /** FileMaker's error code it ended with. */
  declare readonly code: string;
  /** What it passed to Exit Script, if anything. */
  declare readonly result?: string | undefined;

  constructor(phase: keyof ScriptResults, code: string, result?: string) {
    super(`${phase} script failed: error ${code}`);
    this.phase = phase;
    this.code = code;
    this.result = result;
    this.name = "ScriptError";
  }
}
