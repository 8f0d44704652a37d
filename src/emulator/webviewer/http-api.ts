import type { IncomingMessage } from "node:http";
import type { AnswerBytes, ShellAnswer } from "../http/answer.js";
import { readBody } from "../http/request-body.js";
import type { HttpApi } from "../http/server.js";
import type { WebViewerBridge } from "./bridge.js";
import { shimScript } from "./shim.js";
import { resultCode } from "./step-request.js";
import { parseJsonExactly, stringifyJson } from "../../runtime/core/json-numbers.js";

/** Where the shim and its calls are served. */
export const WEBVIEWER_PREFIX = "/fmgen";
const SHIM_PATH = `${WEBVIEWER_PREFIX}/webviewer.js`;
const CALL_PATH = `${WEBVIEWER_PREFIX}/webviewer/call`;
/** The API's name in the request log: the shim's calls, and the Data API calls of an in-process `webViewer()`. */
export const WEB_VIEWER_LOG_NAME = "Web Viewer";

/** What the shim's routes need of the emulator: a bridge for an account and Web Viewer name, and the body limit. */
export interface WebViewerHttpOptions {
  /** The bridge of one page's account and Web Viewer (the same one for the same pair); throws for an unknown account. */
  bridgeFor(account: string | undefined, webViewer: string | undefined): WebViewerBridge;
  maxJsonBytes: number;
}

/**
 * `GET /fmgen/webviewer.js?account=<name>&webViewer=<object name>` (the shim a test page loads before its app) and
 * `POST /fmgen/webviewer/call` (one call of the shim's, answered `{"answer":{callback,id,result}}` or `{"answer":null}`
 * for a call never answered). Answered cross-origin for loopback origins only, with CORS headers; a request whose
 * Origin is any other is refused (403) before anything is read or run.
 */
export function webViewerApi(options: WebViewerHttpOptions): HttpApi {
  return {
    logName: WEB_VIEWER_LOG_NAME,
    takesFaults: () => false,
    // The shell's Origin check of writes lets the shim's POSTs (and preflights) from a loopback page through.
    allowsOrigin: isLoopbackOrigin,
    serve: (req) => serve(options, req),
    shellAnswer: (answer: ShellAnswer) => text(answer.status, answer.kind === "refused" ? answer.reason : answer.kind === "malformed" ? "malformed HTTP request" : "injected fault"),
    revoke: () => undefined,
  };
}

/** `http://127.0.0.1:*`, `http://localhost:*` or `http://[::1]:*`: a page on this machine. */
export function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return url.protocol === "http:" && (url.hostname === "127.0.0.1" || url.hostname === "localhost" || url.hostname === "[::1]") && url.origin === origin;
  } catch {
    return false;
  }
}

async function serve(options: WebViewerHttpOptions, req: IncomingMessage): Promise<AnswerBytes> {
  const origin = req.headers.origin;
  if (origin !== undefined && !isLoopbackOrigin(origin)) return text(403, `the Web Viewer shim answers pages of loopback origins only (http://127.0.0.1, http://localhost, http://[::1]), not ${JSON.stringify(origin.slice(0, 200))}`);
  const cors = origin === undefined ? {} : { "Access-Control-Allow-Origin": origin, Vary: "Origin" };
  const url = new URL(req.url ?? "/", "http://emulator.invalid");
  const method = req.method ?? "GET";
  if (method === "OPTIONS" && (url.pathname === CALL_PATH || url.pathname === SHIM_PATH)) {
    return { status: 204, headers: {}, ownHeaders: { ...cors, "Access-Control-Allow-Methods": "GET, POST, OPTIONS", "Access-Control-Allow-Headers": "Content-Type", "Access-Control-Max-Age": "600" }, body: Buffer.alloc(0) };
  }
  try {
    if (url.pathname === SHIM_PATH && (method === "GET" || method === "HEAD")) {
      const account = url.searchParams.get("account") ?? undefined;
      const webViewer = url.searchParams.get("webViewer") ?? undefined;
      options.bridgeFor(account, webViewer);
      const js = shimScript({ endpoint: `http://${req.headers.host ?? ""}${CALL_PATH}`, account, webViewer });
      return { status: 200, headers: { "Content-Type": "text/javascript; charset=utf-8" }, ownHeaders: { ...cors, "Cache-Control": "no-store" }, body: Buffer.from(js) };
    }
    if (url.pathname === CALL_PATH && method === "POST") {
      const raw = await readBody(req, options.maxJsonBytes, () => new BadCall(413, `the call's body is larger than ${options.maxJsonBytes} bytes`));
      const call = parseCall(raw);
      const bridge = options.bridgeFor(call.account, call.webViewer);
      const answer = await bridge.perform(call.script, call.parameter);
      // The request log shows the call as a Data API request: the bridge's account and the result's FileMaker code.
      const code = answer === undefined ? undefined : resultCode(answer.result);
      return { status: 200, headers: { "Content-Type": "application/json; charset=utf-8" }, ownHeaders: { ...cors, "Cache-Control": "no-store" }, body: Buffer.from(stringifyJson({ answer: answer ?? null })), code, account: bridge.account };
    }
  } catch (error) {
    const status = error instanceof BadCall ? error.status : 400;
    return text(status, (error as Error).message, cors);
  }
  return text(404, `no Web Viewer shim route at ${method} ${url.pathname}: GET ${SHIM_PATH}?account=<name> and POST ${CALL_PATH}`, cors);
}

class BadCall extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The shim's call: `{ account?, webViewer?, script, parameter }`. */
function parseCall(raw: Buffer): { account: string | undefined; webViewer: string | undefined; script: string; parameter: string } {
  let value: unknown;
  try {
    value = parseJsonExactly(raw.toString("utf8"));
  } catch {
    throw new BadCall(400, "the call's body is not JSON");
  }
  const v = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  const optionalText = (key: string) => {
    if (v[key] !== undefined && v[key] !== null && typeof v[key] !== "string") throw new BadCall(400, `${key} must be text`);
    return (v[key] as string | null | undefined) ?? undefined;
  };
  if (typeof v.script !== "string") throw new BadCall(400, "the call needs script (the script's name)");
  return { account: optionalText("account"), webViewer: optionalText("webViewer"), script: v.script, parameter: optionalText("parameter") ?? "" };
}

function text(status: number, message: string, headers: Record<string, string> = {}): AnswerBytes {
  return { status, headers: { "Content-Type": "text/plain; charset=utf-8" }, ownHeaders: headers, body: Buffer.from(`${message}\n`) };
}
