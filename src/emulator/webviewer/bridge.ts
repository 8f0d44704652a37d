import { parseJsonExactly } from "../../runtime/core/json-numbers.js";
import { dataApiRequest, errorResult, type DataApiCall } from "./step-request.js";

/**
 * The emulated Web Viewer bridge (docs/emulator.md, "Web Viewer bridge"): what the FileMaker bridge script does with a
 * page's `FileMaker.PerformScriptWithOption(script, parameter, option)`. The parameter is the bridge protocol's JSON
 * text, `{"v":1,"id","callback","webViewer","request"}` for a Data API action or `{..., "script":{"name","parameter"}}`
 * for a named script; the answer is the step's result text, given to the page's global `callback` with the call's id.
 * Calls run one at a time in the order made, as FileMaker runs scripts; the answer always comes in a later turn.
 */

/** A call's parameter, once read: what the bridge script reads of it. */
export interface BridgeCall {
  /** The call's id, given back to the callback. */
  id: string;
  /** The page's global function the answer is given to. */
  callback: string;
  /** The Web Viewer object the answer is performed in, when the parameter names one. */
  webViewer: string | undefined;
  /** The step's request, for a Data API action. */
  request?: Record<string, unknown>;
  /** A named script and its parameter. */
  script?: { name: string; parameter: string };
}

/** What answers a call: the callback to call with the id and the result text, or nothing (the call is never answered). */
export interface BridgeAnswer {
  callback: string;
  id: string;
  result: string;
}

/** A script name the bridge treats as never finishing: a call running it is never answered (timeout tests). */
export const NEVER_ANSWERING_SCRIPT = "fmgen: never answer";

/** What the bridge runs calls with: the Data API in process, the hosted file's name, the layout scripts run on. */
export interface BridgeOptions {
  call: DataApiCall;
  /** The account the bridge script runs with: what the request log names for the shim's calls. */
  account?: string | undefined;
  database: string;
  /** The layout a named script runs on (the Web Viewer's layout). */
  scriptLayout: string;
  /** The Web Viewer object name the page is in; a call naming another is answered in that one, so never here. */
  webViewer?: string | undefined;
  /** Lines for the emulator's log (a parameter the bridge cannot read). */
  log?: ((line: string) => void) | undefined;
}

/** The bridge's work for one page: calls queued in order, each answered (or not) by the hosted file. */
export class WebViewerBridge {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly silent: ((call: BridgeCall) => boolean)[] = [];

  constructor(private readonly options: BridgeOptions) {}

  /** The account the bridge's calls run with, when known. */
  get account(): string | undefined {
    return this.options.account;
  }

  /** From now on, calls matching `predicate` are run by nobody and never answered (a hung script, for timeout tests). */
  neverAnswer(predicate: (call: BridgeCall) => boolean): void {
    this.silent.push(predicate);
  }

  /**
   * Queues one `PerformScript` call; resolves, once it has run after every earlier call, with its answer, or
   * undefined when it is never answered (a parameter without an id and callback, another Web Viewer, a silenced call).
   */
  perform(script: string, parameter: unknown): Promise<BridgeAnswer | undefined> {
    const run = this.queue.then(() => this.answer(script, parameter));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async answer(script: string, parameter: unknown): Promise<BridgeAnswer | undefined> {
    const parsed = readParameter(parameter);
    if ("unreadable" in parsed) {
      this.options.log?.(`web viewer: script "${script}" was given a parameter the bridge cannot answer (${parsed.unreadable}); no callback is called`);
      return undefined;
    }
    const { call } = parsed;
    if (this.options.webViewer !== undefined && call.webViewer !== undefined && call.webViewer !== this.options.webViewer) return undefined;
    if (call.script?.name === NEVER_ANSWERING_SCRIPT || this.silent.some((p) => p(call))) return undefined;
    const result = parsed.error ?? (await this.run(call));
    return { callback: call.callback, id: call.id, result };
  }

  private async run(call: BridgeCall): Promise<string> {
    const { database, scriptLayout } = this.options;
    if (call.script) {
      const param = new URLSearchParams({ "script.param": call.script.parameter }).toString();
      return this.options.call({ method: "GET", path: `databases/${encodeURIComponent(database)}/layouts/${encodeURIComponent(scriptLayout)}/script/${encodeURIComponent(call.script.name)}?${param}` });
    }
    const request = dataApiRequest(database, call.request!);
    return "error" in request ? request.error : this.options.call(request);
  }
}

/**
 * The protocol's parameter: a call the bridge can answer (maybe with an error result), or why it cannot answer at all.
 * Its number tokens a double does not hold stay NumberTokens (parseJsonExactly), which the Data API call carries on whole.
 */
function readParameter(parameter: unknown): { call: BridgeCall; error?: string } | { unreadable: string } {
  let value: unknown;
  try {
    value = parseJsonExactly(String(parameter ?? ""));
  } catch {
    return { unreadable: "not JSON" };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { unreadable: "not a JSON object" };
  const v = value as Record<string, unknown>;
  if (typeof v.id !== "string" || typeof v.callback !== "string" || v.callback === "") return { unreadable: "no id and callback" };
  const call: BridgeCall = { id: v.id, callback: v.callback, webViewer: typeof v.webViewer === "string" ? v.webViewer : undefined };
  const bad = (message: string) => ({ call, error: errorResult("1708", message) });
  if (v.v !== 1) return bad(`the bridge protocol's version must be 1, got ${JSON.stringify(v.v)}`);
  if (v.script !== undefined) {
    const s = v.script as Record<string, unknown> | null;
    if (typeof s !== "object" || s === null || typeof s.name !== "string" || s.name === "") return bad("script must be { name, parameter? }");
    if (s.parameter !== undefined && typeof s.parameter !== "string") return bad("script.parameter must be text");
    call.script = { name: s.name, parameter: s.parameter ?? "" };
    return { call };
  }
  if (typeof v.request !== "object" || v.request === null || Array.isArray(v.request)) return bad("the parameter needs request (the step's JSON object) or script");
  call.request = v.request as Record<string, unknown>;
  return { call };
}
