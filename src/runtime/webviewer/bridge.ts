import { NetworkError, type FailedCall } from "../core/protocol-errors.js";
import { stringifyJson } from "../core/json-numbers.js";

/**
 * The page's side of the Web Viewer bridge: a call goes to FileMaker as `window.FileMaker.PerformScriptWithOption(
 * script, parameter, option)` (or `PerformScript(script, parameter)` where FileMaker has no WithOption), the
 * parameter being JSON text `{"v":1,"id","callback","webViewer", ...the call}`; the FileMaker script answers with
 * `Perform JavaScript in Web Viewer`, calling `window[callback](id, resultText)`. Calls go one at a time, in the
 * order they were made (FileMaker runs scripts one after the other: a second call sent while the first runs would
 * wait in FileMaker's queue, or, with some options, cut it short), each bounded by the call's time limit from the
 * moment it is made, so that a script that never answers fails the call rather than hanging it. Nothing here knows
 * the Data API: what a call carries is the caller's.
 */

/** How a bridge is made. */
export interface BridgeOptions {
  /** The FileMaker script that runs the calls (it runs `Execute FileMaker Data API` and answers the page). */
  script: string;
  /** The Web Viewer's object name, which the script answers through (`Perform JavaScript in Web Viewer`); omitted when not given. */
  webViewer?: string | undefined;
  /** Time limit of each call in ms, from the moment it is made (queued) to its answer. */
  timeoutMs: number;
  /** `PerformScriptWithOption`'s option, "0" to "5" (default "0": FileMaker's own default, the script is queued). */
  option?: string | undefined;
}

/** What a call is, for its errors: the call an error names, and the action a timeout names. */
export interface BridgeCallInfo {
  call: FailedCall;
  action: string;
  signal?: AbortSignal | undefined;
}

/** The bridge of one client: `call` sends one call (its members joined to the parameter) and resolves to the answer's text. */
export interface Bridge {
  call(payload: object, info: BridgeCallInfo): Promise<string>;
  /** The name of the page's global function the script calls back. */
  readonly callback: string;
  /** Removes the global callback; calls still waiting fail. */
  close(): void;
}

/** FileMaker's object in a Web Viewer, as far as the bridge uses it. */
interface FileMakerObject {
  PerformScriptWithOption?: (script: string, parameter: string, option: string) => unknown;
  PerformScript?: (script: string, parameter: string) => unknown;
}

/** The page's window (globalThis in a browser, or a `window` object a test sets on globalThis). */
const pageWindow = (): Record<string, unknown> => ((globalThis as { window?: Record<string, unknown> }).window ?? globalThis) as Record<string, unknown>;

/**
 * How long a call waits for `window.FileMaker` to appear before failing: FileMaker adds it to the page after the page
 * has loaded, so a call made while the page loads would otherwise find nothing.
 */
const FILEMAKER_GRACE_MS = 500;
const POLL_MS = 25;

interface Pending {
  id: string;
  payload: object;
  info: BridgeCallInfo;
  resolve: (text: string) => void;
  reject: (error: unknown) => void;
  settled: boolean;
  timer: ReturnType<typeof setTimeout>;
  onAbort?: () => void;
}

/** Made once per client: its own global callback (`__fmgen_wv_<random>`), call ids, queue and timers. */
export function createBridge(options: BridgeOptions): Bridge {
  const callback = `__fmgen_wv_${randomPart()}`;
  const queue: Pending[] = [];
  let current: Pending | undefined;
  let seq = 0;
  let installed = false;

  const settle = (pending: Pending, outcome: { text: string } | { error: unknown }) => {
    if (pending.settled) return;
    pending.settled = true;
    clearTimeout(pending.timer);
    if (pending.onAbort) pending.info.signal?.removeEventListener("abort", pending.onAbort);
    const at = queue.indexOf(pending);
    if (at >= 0) queue.splice(at, 1);
    if ("text" in outcome) pending.resolve(outcome.text);
    else pending.reject(outcome.error);
    if (current === pending) {
      current = undefined;
      next();
    }
  };

  /** The global function FileMaker's script calls; an id that is not the call in flight's (a late answer, a stranger's) is ignored. */
  const answer = (id: unknown, result: unknown) => {
    if (!current || String(id) !== current.id) return;
    settle(current, { text: typeof result === "string" ? result : JSON.stringify(result) });
  };

  const install = () => {
    if (installed) return;
    Object.defineProperty(pageWindow(), callback, { value: answer, configurable: true, writable: true });
    installed = true;
  };

  const next = () => {
    if (current || !queue.length) return;
    current = queue.shift()!;
    void send(current);
  };

  const send = async (pending: Pending) => {
    let fileMaker = findFileMaker();
    for (let waited = 0; !fileMaker && waited < FILEMAKER_GRACE_MS && !pending.settled; waited += POLL_MS) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      fileMaker = findFileMaker();
    }
    if (pending.settled) return;
    if (!fileMaker) return settle(pending, { error: missingFileMaker(pending.info) });
    // stringifyJson: a number token of the call (an exact field's value) is written bare, digit for digit.
    const parameter = stringifyJson({ v: 1, id: pending.id, callback, webViewer: options.webViewer, ...pending.payload });
    try {
      if (typeof fileMaker.PerformScriptWithOption === "function") fileMaker.PerformScriptWithOption(options.script, parameter, options.option ?? "0");
      else fileMaker.PerformScript!(options.script, parameter);
    } catch (cause) {
      settle(pending, { error: new NetworkError(`window.FileMaker refused to perform script "${options.script}" for ${pending.info.action}: ${(cause as Error)?.message ?? cause}`, "connection", pending.info.call, { cause }) });
    }
  };

  return {
    callback,
    call(payload, info) {
      return new Promise<string>((resolve, reject) => {
        if (info.signal?.aborted) return reject(aborted(info));
        install();
        const pending: Pending = { id: `${++seq}-${randomPart()}`, payload, info, resolve, reject, settled: false, timer: undefined as never };
        pending.timer = setTimeout(() => {
          const waiting = current !== pending;
          settle(pending, {
            error: new NetworkError(
              `FileMaker script "${options.script}" did not answer ${info.action} within ${options.timeoutMs} ms${waiting ? " (the call was still waiting for the calls before it)" : ""}: is the script there, and does it end with Perform JavaScript in Web Viewer calling ${callback}${options.webViewer === undefined ? "" : ` in the Web Viewer "${options.webViewer}"`}?`,
              "timeout",
              info.call,
            ),
          });
        }, options.timeoutMs);
        if (info.signal) {
          pending.onAbort = () => settle(pending, { error: aborted(info) });
          info.signal.addEventListener("abort", pending.onAbort, { once: true });
        }
        queue.push(pending);
        next();
      });
    },
    close() {
      for (const pending of [...(current ? [current] : []), ...queue]) settle(pending, { error: new NetworkError("the Web Viewer client was closed", "aborted", pending.info.call) });
      if (installed) delete pageWindow()[callback];
      installed = false;
    },
  };
}

/** `window.FileMaker` when it has a way to perform a script. */
function findFileMaker(): FileMakerObject | undefined {
  const fileMaker = pageWindow().FileMaker as FileMakerObject | undefined;
  return fileMaker && (typeof fileMaker.PerformScriptWithOption === "function" || typeof fileMaker.PerformScript === "function") ? fileMaker : undefined;
}

function missingFileMaker(info: BridgeCallInfo): NetworkError {
  const found = pageWindow().FileMaker;
  const what = found === undefined ? "window.FileMaker is missing" : "window.FileMaker has neither PerformScriptWithOption nor PerformScript";
  return new NetworkError(
    `${what}, so ${info.action} cannot be sent: the page must run inside a FileMaker Web Viewer (FileMaker Pro, Go or WebDirect 19 or later, which add window.FileMaker once the page has loaded), or load a stand-in such as the emulator's webviewer.js before the app`,
    "connection",
    info.call,
  );
}

const aborted = (info: BridgeCallInfo) => new NetworkError("aborted by the caller", "aborted", info.call, { cause: info.signal?.reason });

/** 8 random base-36 characters (crypto where the page has it). */
function randomPart(): string {
  const bytes = new Uint8Array(6);
  if (globalThis.crypto?.getRandomValues) globalThis.crypto.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return Array.from(bytes, (b) => b.toString(36).padStart(2, "0")).join("");
}
