/**
 * `@fmgen/runtime/webviewer`: the Data API client of a page inside a FileMaker Web Viewer (FileMaker Pro, Go,
 * WebDirect). There is no server URL and no credentials: each call goes to FileMaker through
 * `window.FileMaker.PerformScriptWithOption`, a FileMaker script runs the `Execute FileMaker Data API` step with the
 * user's own account and answers the page with `Perform JavaScript in Web Viewer`. The client is the same
 * `FileMakerClient` as `createClient`'s: `fm.layout(Definition)` gives the same typed layout client, its answers
 * decoded and its errors raised as over HTTP (the same classes and codes). What the step cannot do (container
 * uploads, global fields, the server's product info and hosted files, the list of scripts) fails with a
 * `StepUnsupportedError` saying so. Nothing here, or in anything it imports, imports a `node:` module, undici or the
 * OData client.
 *
 * @module \@fmgen/runtime/webviewer
 */
import type { AnyDatabase } from "./data-api/database.js";
import { clientOver, type FileMakerClient } from "./data-api/client.js";
import { stepTransport } from "./data-api/step-request.js";
import { createBridge } from "./webviewer/bridge.js";
import { checkOptions, textOption } from "./core/options-check.js";

export * from "./public-api.js";
export { StepUnsupportedError } from "./data-api/step-request.js";

/** The web viewer object name calls name when `webViewer` is not given. */
const DEFAULT_WEB_VIEWER = "fmgen";

/** What `createWebViewerClient` takes. */
export interface WebViewerClientOptions<Db extends AnyDatabase = string> {
  /** The file the Web Viewer's FileMaker script runs in: its generated definition (which types script names), or its name. */
  database: Db;
  /** The FileMaker script that runs each call (`Execute FileMaker Data API`, then `Perform JavaScript in Web Viewer`). */
  script: string;
  /**
   * The Web Viewer's object name (the Inspector's Name), sent with each call: the bridge script answers through it, since
   * FileMaker tells a script no web viewer's name (default `"fmgen"`: name the object so, or pass its name).
   */
  webViewer?: string;
  /**
   * Time limit of each call in ms, from the moment it is made to FileMaker's answer (default 30,000): calls wait for
   * the ones before them, as FileMaker runs one script at a time.
   */
  timeoutMs?: number;
  /**
   * `PerformScriptWithOption`'s option: 0 continue (default, FileMaker's: the script waits for a running one), 1 halt,
   * 2 exit, 3 resume, 4 pause, 5 suspend and resume.
   */
  option?: 0 | 1 | 2 | 3 | 4 | 5;
  /** Check every record against the layout's schema before decoding (default true). */
  validate?: boolean;
  /** How dates and timestamps travel: "us" (default, `MM/DD/YYYY`) or "iso" (`dateformats: 2`). */
  dateFormat?: "us" | "iso";
  /** Longest answer the client reads, in bytes (default 256 MiB): container downloads over HTTP. */
  maxResponseBytes?: number;
}

const OPTIONS: Record<string, string> = {
  webViewer: "a string",
  timeoutMs: "a number",
  option: "a number",
  validate: "a boolean",
  dateFormat: "us|iso",
  maxResponseBytes: "a number",
};

/**
 * A client of the file a Web Viewer's page is shown in, whose calls FileMaker runs (`script`); its layouts are the
 * same typed layout clients as `createClient`'s.
 */
export function createWebViewerClient<Db extends AnyDatabase>(options: WebViewerClientOptions<Db>): FileMakerClient<Db> {
  checkOptions("createWebViewerClient", options, OPTIONS);
  if (options.option !== undefined && !(Number.isInteger(options.option) && options.option >= 0 && options.option <= 5)) {
    throw new TypeError(`createWebViewerClient: options.option must be one of 0|1|2|3|4|5, got ${options.option}`);
  }
  const script = textOption("createWebViewerClient: options.script", options.script, "the name of the FileMaker script that runs the calls");
  const timeoutMs = options.timeoutMs ?? 30_000;
  const bridge = createBridge({ script, webViewer: options.webViewer ?? DEFAULT_WEB_VIEWER, timeoutMs, option: options.option === undefined ? undefined : String(options.option) });
  const client = clientOver(
    {
      // The page's origin: the client sends nothing there, only container URLs of that origin may be downloaded.
      server: pageOrigin(),
      database: options.database,
      // No login and no session token: the Web Viewer's calls run in FileMaker's own session. A key keeps the session
      // from signing in; the step transport never sends it anywhere. Random, since errors redact it: no layout name or
      // FileMaker message may hold it.
      auth: { apiKey: `no-key-${Math.random().toString(36).slice(2)}` },
      timeoutMs,
      // A call that timed out may still be running in FileMaker: never sent again.
      retry: { retries: 0 },
      insecure: "allow",
      // What the page's options say of records and answers, as createClient takes them (absent ones left out).
      ...(options.validate !== undefined && { validate: options.validate }),
      ...(options.dateFormat !== undefined && { dateFormat: options.dateFormat }),
      ...(options.maxResponseBytes !== undefined && { maxResponseBytes: options.maxResponseBytes }),
    },
    (settings) => stepTransport(settings, (step, info) => bridge.call(step, info)),
  );
  const close = client.close;
  client.close = async () => {
    try {
      await close();
    } finally {
      bridge.close();
    }
  };
  return client;
}

/** The page's http(s) origin; a page of another scheme (a `data:` or `file:` Web Viewer) gets one no container URL has. */
function pageOrigin(): string {
  const origin = (globalThis as { location?: { origin?: unknown } }).location?.origin;
  return typeof origin === "string" && /^https?:\/\//.test(origin) ? origin : "http://webviewer.invalid";
}
