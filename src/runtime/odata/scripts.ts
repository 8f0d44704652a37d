/**
 * `od.runScript` (wire contract section 5): `POST /Script.{name}` with `{"scriptParameterValue": …}`, answered
 * `{"scriptResult":{"code":0,"resultParameter":"…"}}`. A script that fails is data (`code` is FileMaker's error), not an
 * exception; a script the file lacks is the ODataError the caller makes of 404 `104`.
 */
import type { ScriptRunResult } from "./api.js";
import { stringifyJson } from "../core/json-numbers.js";
import { ProtocolError } from "../core/protocol-errors.js";
import type { ODataAnswer, ODataCaller } from "./caller.js";
import type { CallOptions } from "./shapes.js";

export type ScriptParam = string | number | object;

/**
 * The path segment of a script, or a TypeError for a name FileMaker Server cannot route: empty, starting with a digit,
 * or holding `@ & /` (section 5), `? # ~ ( )` or a control character (they end or break the URL's path segment).
 */
export function scriptSegment(name: unknown, call = "runScript"): string {
  if (typeof name !== "string" || name === "") throw new TypeError(`${call}: the script name must be a non-empty string, not ${name === "" ? "empty" : typeof name}`);
  const bad = /^\d/.test(name) ? "it starts with a digit" : /[@&/?#~()\\]/.exec(name) ? `it holds "${/[@&/?#~()\\]/.exec(name)![0]}"` : /[\u0000-\u001f\u007f]/.test(name) ? "it holds a control character" : undefined;
  if (bad !== undefined) throw new TypeError(`${call}: FileMaker Server cannot run the script ${JSON.stringify(name)} over OData: ${bad}`);
  return `/Script.${encodeURIComponent(name)}`;
}

/** The request body: empty without a parameter; a string, a finite number or an object (sent as JSON; FileMaker gets its text). */
export function scriptBody(param: unknown, call = "runScript"): string | undefined {
  if (param === undefined) return undefined;
  const ok = typeof param === "string" || (typeof param === "number" && Number.isFinite(param)) || (typeof param === "object" && param !== null && !Array.isArray(param));
  if (!ok) throw new TypeError(`${call}: param must be a string, a finite number or an object, not ${param === null ? "null" : Array.isArray(param) ? "an array" : typeof param === "number" ? String(param) : typeof param}`);
  return JSON.stringify({ scriptParameterValue: param });
}

/** The `{ code, result }` of a script answer; an answer without `scriptResult.code` is a ProtocolError naming the call. */
export function scriptResult(answer: ODataAnswer, path: string): ScriptRunResult {
  const result = (answer.json() as { scriptResult?: unknown } | null)?.scriptResult as { code?: unknown; resultParameter?: unknown } | undefined;
  const code = typeof result?.code === "string" && /^-?\d+$/.test(result.code) ? Number(result.code) : result?.code;
  if (typeof code !== "number" || !Number.isInteger(code)) throw new ProtocolError(answer.status, answer.text().slice(0, 100), { method: "POST", path }, "has no scriptResult.code");
  const value = result!.resultParameter;
  if (value === undefined || value === null) return { code };
  // stringifyJson: a number the script returned keeps every digit (a long token is a NumberToken, json-numbers.ts).
  return { code, result: typeof value === "string" ? value : stringifyJson(value) };
}

export async function runScript(caller: ODataCaller, name: string, options: { param?: ScriptParam } & CallOptions = {}): Promise<ScriptRunResult> {
  const path = scriptSegment(name);
  const body = scriptBody(options.param);
  const answer = await caller.call({
    method: "POST",
    path,
    ...(body !== undefined && { body, headers: { "Content-Type": "application/json" } }),
    // A script may change anything: never sent twice.
    idempotent: false,
    signal: options.signal,
  });
  return scriptResult(answer, path);
}
