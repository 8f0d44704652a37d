// `POST /db/Script.X` (docs/emulator.md, "Containers and scripts"): runs one script, the same JavaScript handler the
// Data API runs (hosted-file/scripts: the catalog finds it, script-run.ts runs it), and answers
// `{"scriptResult":{"code":0,"resultParameter":"…"}}`. The scoped forms `/db/T/Script.X` and `/db/T(k)/Script.X`
// (FSP/06 only, UNCONFIRMED) run it with the table's records, or the one record, as its found set. Takes plain values
// (no IncomingMessage), so a `$batch` part can be answered by it too.

import { NumberToken, parseJsonExactly, stringifyJson } from "../../runtime/core/json-numbers.js";
import { viewContext } from "../hosted-file/container-urls.js";
import type { HostedServer } from "../hosted-file/hosted-server.js";
import type { LayoutModel } from "../hosted-file/model.js";
import type { ScriptFoundSet } from "../hosted-file/scripts/script-module.js";
import { runScriptHandler, scriptFoundSet } from "../hosted-file/scripts/script-run.js";
import type { HostedDatabase, StoredRecord, TableData } from "../hosted-file/store.js";
import { findRecord, findSet } from "./entity-sets.js";
import { ODataError, quoted } from "./odata-error.js";
import type { QueryOptions } from "./query-options.js";
import type { EntityKey, ScriptRef, SetRef } from "./url-path.js";

/** What running a script reads of the hosted server. */
export type ScriptHost = Pick<HostedServer, "scripts" | "clock" | "log" | "baseUrl" | "urlKey">;

/** The request, as plain values. */
export interface ScriptCall {
  readonly method: string;
  readonly script: ScriptRef;
  readonly set?: SetRef | undefined;
  readonly key?: EntityKey | undefined;
  readonly query: QueryOptions;
  readonly body: Buffer | undefined;
}

export interface ScriptReply {
  status: number;
  contentType: string;
  body: Buffer;
}

const PARAMETER = "scriptParameterValue";

/** Runs the script a `Script.X` path names; see the top of this file. */
export async function callScript(db: HostedDatabase, call: ScriptCall, host: ScriptHost): Promise<ScriptReply> {
  if (call.method !== "POST") throw new ODataError(405, "-1002", `Error: ${call.method} is not supported on a script; run it with POST`);
  const given = Object.entries(call.query).filter(([k, v]) => k !== "ignored" && v !== undefined);
  if (given.length > 0) throw new ODataError(400, "-1002", `Error: $${given[0]![0]} does not apply to a script`);
  if (call.script.by === "id") {
    throw new ODataError(501, "-1", `Error: Script.FMSID:${call.script.id} is not served: the emulator's scripts have no ids (scripts are named by their handlers and database descriptions); call Script.<name>`);
  }
  const name = call.script.name;
  const param = scriptParameter(call.body);
  // The scope's set and record are checked first (404 -1020, -1023), then the script (404 104).
  const scope = call.set === undefined ? undefined : scopeOf(db, call.set, call.key);
  const handler = host.scripts.find(db.model.name, name);
  if (handler === undefined) throw new ODataError(404, "104", "(104): Script is missing");
  // Records read for a handler as the Data API shows them (container URLs, the file's globals).
  const view = () => viewContext(host, db);
  const foundSet: ScriptFoundSet | undefined = scope?.layout === undefined ? undefined : scriptFoundSet(scope.layout, scope.table, scope.records, view);
  const outcome = await runScriptHandler({
    handler,
    name,
    where: `OData${scope ? ` on ${scope.describe}` : ""}, database "${db.model.name}"`,
    param,
    db,
    clock: host.clock,
    layout: scope?.layout?.description.layout ?? "",
    view,
    foundSet,
    log: (line) => host.log(line),
  });
  const code = /^-?\d+$/.test(outcome.error) ? Number(outcome.error) : -1;
  const scriptResult = outcome.result === undefined ? { code } : { code, resultParameter: outcome.result };
  return { status: 200, contentType: "application/json;charset=utf-8", body: Buffer.from(JSON.stringify({ scriptResult })) };
}

/**
 * The body: empty (no bytes, or only whitespace), or `{"scriptParameterValue": string | number | object}`; an object
 * is passed as its JSON text, a number as its text. Anything else is 400 -1002, naming what was wrong.
 */
function scriptParameter(body: Buffer | undefined): string {
  const text = body === undefined ? "" : body.toString("utf8").trim();
  if (text === "") return "";
  let parsed: unknown;
  try {
    parsed = parseJsonExactly(text);
  } catch (error) {
    throw new ODataError(400, "-1002", `Error: malformed JSON in the script request body (${quoted((error as Error).message)})`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new ODataError(400, "-1002", `Error: a script request body is empty or one JSON object {"${PARAMETER}": …}`);
  }
  const keys = Object.keys(parsed);
  const other = keys.find((k) => k !== PARAMETER);
  if (other !== undefined) throw new ODataError(400, "-1002", `Error: '${quoted(other)}' is not a script request key (the only one is ${PARAMETER})`);
  if (keys.length === 0) return "";
  const value = (parsed as Record<string, unknown>)[PARAMETER];
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  // A number a double does not hold is passed as its token, every digit (parseJsonExactly keeps it).
  if (value instanceof NumberToken) return value.text;
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    try {
      return stringifyJson(value);
    } catch {
      // Only nesting deep enough to exhaust the stack makes a parsed value unprintable.
      throw new ODataError(400, "-1002", `Error: ${PARAMETER} nests too deeply to be passed as text`);
    }
  }
  throw new ODataError(400, "-1002", `Error: ${PARAMETER} must be a string, a number or an object, not ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}`);
}

/** A scoped call's table, its found set (every record, or the one the key names), and the layout it is read through. */
function scopeOf(db: HostedDatabase, ref: SetRef, key: EntityKey | undefined): { table: TableData; records: StoredRecord[]; layout: LayoutModel | undefined; describe: string } {
  const set = findSet(db, ref);
  const records = key === undefined ? [...set.data.records.values()] : [findRecord(set, key)];
  // The first layout (in description order) of the table: the handler's `layout`, and what its found set reads through.
  const layout = [...db.model.layouts.values()].find((l) => l.table.name === set.name);
  return { table: set.data, records, layout, describe: key === undefined ? `table "${set.name}"` : `a record of "${set.name}"` };
}
