import type { BridgeCall, WebViewerBridge } from "./bridge.js";

/** `window.FileMaker` as a Web Viewer gives it to its page. */
export interface FileMakerObject {
  /** Runs `script` with `parameter` (the bridge protocol's JSON text); the answer comes through the page's callback. */
  PerformScript(script: string, parameter?: string): void;
  /** As `PerformScript`; `option` (FileMaker's 0 to 5: queue, interrupt, ...) is accepted and ignored: calls always queue. */
  PerformScriptWithOption(script: string, parameter?: string, option?: string | number): void;
}

/**
 * The in-process Web Viewer (`startEmulator().webViewer()`): `FileMaker` for a page without a browser, the page's
 * callback called on the window object it is installed on (else `globalThis.window`, else `globalThis`) in a later
 * turn, as FileMaker's `Perform JavaScript in Web Viewer` does.
 */
export interface EmulatedWebViewer {
  /** What the page calls; `option` (FileMaker's queue/interrupt choices) is accepted and ignored: calls always queue. */
  readonly FileMaker: FileMakerObject;
  /** Sets `target.FileMaker` and calls the page's callbacks on `target` from now on; returns `target`. */
  install<T extends object>(target?: T): T & { FileMaker: FileMakerObject };
  /** Calls matching `predicate` are never answered (a hung bridge script), for timeout tests. */
  neverAnswer(predicate: (call: BridgeCall) => boolean): void;
  /** Resolves once every call made so far has been answered (or dropped) and its callback called. */
  settled(): Promise<void>;
}

export function emulatedWebViewer(bridge: WebViewerBridge, log: (line: string) => void): EmulatedWebViewer {
  let target: object | undefined;
  let last: Promise<unknown> = Promise.resolve();
  const perform = (script: string, parameter?: string) => {
    const answered = bridge.perform(script, parameter).then(
      (answer) =>
        // The callback runs in a turn of its own, never inside the page's call (FileMaker answers asynchronously):
        // setImmediate, not setTimeout, whose 1 ms floor would be most of an in-process call's time.
        new Promise<void>((resolve) =>
          setImmediate(() => {
            try {
              if (answer === undefined) return;
              const window = (target ?? (globalThis as { window?: object }).window ?? globalThis) as Record<string, unknown>;
              const callback = window[answer.callback];
              if (typeof callback !== "function") log(`web viewer: the page has no function "${answer.callback}" to answer call ${answer.id}`);
              else (callback as (id: string, result: string) => void).call(window, answer.id, answer.result);
            } finally {
              resolve();
            }
          }),
        ),
      (error: unknown) => log(`web viewer: a call failed in the emulator (${(error as Error)?.message ?? String(error)})`),
    );
    last = last.then(() => answered);
  };
  const FileMaker: FileMakerObject = {
    PerformScript: (script, parameter) => perform(script, parameter),
    PerformScriptWithOption: (script, parameter) => perform(script, parameter),
  };
  return {
    FileMaker,
    install<T extends object>(given?: T): T & { FileMaker: FileMakerObject } {
      const t = (given ?? (globalThis as { window?: object }).window ?? globalThis) as T & { FileMaker: FileMakerObject };
      (t as Record<string, unknown>).FileMaker = FileMaker;
      target = t;
      return t;
    },
    neverAnswer: (predicate) => bridge.neverAnswer(predicate),
    settled: async () => {
      let seen: Promise<unknown>;
      do {
        seen = last;
        await seen;
      } while (seen !== last);
    },
  };
}
