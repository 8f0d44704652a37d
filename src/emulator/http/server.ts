import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { endSocket, sendAnswer, type AnswerBytes, type ShellAnswer } from "./answer.js";
import { playAfter, playBefore, type FaultHooks } from "./fault-player.js";
import type { FaultPlan } from "./faults.js";
import type { ServedHosts } from "./request-host.js";
import { foreignOrigin } from "./request-origin.js";
import { discardUnread } from "./request-body.js";
import type { LogEntry, RequestLog } from "./request-log.js";

/**
 * The HTTP shell: what every request meets, whichever API answers it: the request count, the Host check
 * (request-host.ts), the Origin check of writes (request-origin.ts), injected faults and latency (fault-player.ts),
 * the unread rest of a body (request-body.ts), and requests Node's parser refuses. It knows no API's wire: the API
 * a request is for words the shell's answers (ShellAnswer) and gives its own as bytes, which the shell writes. Each
 * request to an API with a log name opens an entry of the request log (request-log.ts), closed once it is answered.
 */

const ALLOWED_HOSTS_HINT = "it serves localhost, 127.0.0.1, [::1], the address it is bound to and the names given as allowedHosts / fmgen serve --allowed-host";

/** What the shell reads of a running emulator on each request. */
export interface HttpShell {
  counters: { requests: number };
  /** The host names requests may name in `Host`; any other is refused. */
  hosts: ServedHosts;
  /** Injected faults, when started with `faults`. */
  faults?: FaultPlan | undefined;
  /** What a server restart forgets (the `restart` fault). */
  restart(): void;
  /** The request log the inspector reads, when kept. */
  requestLog?: RequestLog | undefined;
  /** With a data directory: resolves once what the request wrote is on disk, before its answer is written. */
  durable?: () => Promise<void>;
}

/** An API the shell carries. */
export interface HttpApi {
  /** Whether injected faults play on a request for this target. */
  takesFaults(target: string): boolean;
  /** The answer to a request, every failure in the API's wire; it throws only when the connection is lost. */
  serve(req: IncomingMessage): Promise<AnswerBytes>;
  /** The shell's own answers (a refusal, an injected error, a request Node cannot parse) in the API's wire. */
  shellAnswer(answer: ShellAnswer): AnswerBytes;
  /** The `revoke` fault: forgets the credential the request carries, if the API keeps any. */
  revoke(req: IncomingMessage): void;
  /**
   * Whether a write from a page of another origin may reach this API (the Web Viewer shim's calls from a loopback
   * page); without it, every such write is refused. The API still answers for the origins it lets through.
   */
  allowsOrigin?(origin: string): boolean;
  /** The API's name in the request log ("Data API", "OData"); an API without one (the inspector) is not logged. */
  logName?: string;
  /**
   * The account a logged request signed in as, for the log, asked once the API has served it when its answer names
   * none (AnswerBytes.account): never the credential itself. Only a logged request is asked, never one the shell
   * refused or dropped before serving.
   */
  logAccount?(req: IncomingMessage, answer: AnswerBytes): string | undefined;
}

/** The API a request target is for (router.ts). */
export type PickApi = (target: string) => HttpApi;

/** An HTTP server carrying the APIs `pick` chooses from, listening on host:port once this resolves. */
export async function listenHttp(shell: HttpShell, pick: PickApi, host: string, port: number): Promise<Server> {
  const server = createServer({ keepAliveTimeout: 5_000 }, (req, res) => void handleRequest(shell, pick, req, res));
  server.on("clientError", (error: Error & { code?: string }, socket: Duplex) => answerMalformed(pick, error, socket));
  await listen(server, host, port);
  return server;
}

/** Answers one HTTP request through the API it is for; never throws. */
export async function handleRequest(shell: HttpShell, pick: PickApi, req: IncomingMessage, res: ServerResponse): Promise<void> {
  shell.counters.requests++;
  const target = req.url ?? "";
  const api = pick(target);
  const log = api.logName === undefined ? undefined : shell.requestLog;
  const entry = log?.open(req, api.logName!);
  let answer: AnswerBytes | undefined;
  try {
    answer = await answerRequest(shell, api, target, req, res, entry);
  } finally {
    if (entry !== undefined) log!.close(entry, answer, res.headersSent ? res.statusCode : 0);
  }
}

/** The account the request log shows for a request its API served: its answer's, else the one its API names. */
export function loggedAccount(api: HttpApi, req: IncomingMessage, answer: AnswerBytes): string | undefined {
  return answer.account ?? api.logAccount?.(req, answer);
}

/**
 * The request's answer, written (or mangled by a fault); the answer as its API gave it, undefined when none was.
 * A logged request (`entry`) is given its account once its API has served it: one the shell refuses, or drops
 * before serving, signed in as no one.
 */
async function answerRequest(shell: HttpShell, api: HttpApi, target: string, req: IncomingMessage, res: ServerResponse, entry: LogEntry | undefined): Promise<AnswerBytes | undefined> {
  if (!shell.hosts.serves(req)) {
    // A Host this emulator does not serve (DNS rebinding): nothing is read or done, and no fault is played.
    return send(req, res, api.shellAnswer({ kind: "refused", status: 421, reason: `the Host header names a host this emulator does not serve (${ALLOWED_HOSTS_HINT})` }));
  }
  const origin = foreignOrigin(req);
  if (origin !== undefined && !api.allowsOrigin?.(origin)) {
    // A page of another origin (a form, a no-cors fetch) with the browser's stored credentials: nothing is done.
    const reason = `a ${req.method} from a page of another origin (Origin: ${JSON.stringify(origin.slice(0, 200))}) is not taken: only a page whose Origin is the Host it reached this emulator by, or a client that is not a browser, may write`;
    return send(req, res, api.shellAnswer({ kind: "refused", status: 403, reason }));
  }
  const faults = shell.faults && api.takesFaults(target) ? shell.faults : undefined;
  const fault = faults?.next();
  const delay = faults?.nextLatency() ?? 0;
  try {
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    if (fault?.phase === "before" && playBefore(fault.kind, req, res, faultHooks(shell, api))) return undefined;
    let answer = await api.serve(req);
    if (entry !== undefined) shell.requestLog!.noteAccount(entry, loggedAccount(api, req, answer));
    if (shell.durable) {
      try {
        await shell.durable();
      } catch (error) {
        // In memory but not on disk: the client is told, as a server whose disk failed would answer.
        answer = api.shellAnswer({ kind: "refused", status: 503, reason: `the emulator cannot write its data directory: ${(error as Error).message}` });
      }
    }
    if (fault?.phase === "after") {
      discardUnread(req);
      playAfter(res, fault.kind, answer);
      return answer;
    }
    return send(req, res, answer);
  } catch {
    // A socket that went away mid-answer: nothing left to tell anyone.
    res.destroy();
    return undefined;
  }
}

/** What a fault played on a request for `api` does in its wire and to the emulator. */
function faultHooks(shell: HttpShell, api: HttpApi): FaultHooks {
  return {
    injectedAnswer: (status, code) => api.shellAnswer({ kind: "injected", status, code }),
    revoke: (req) => api.revoke(req),
    restart: () => shell.restart(),
  };
}

/** Writes an answer, the request's unread body dropped (up to a cap) first; returns it. */
function send(req: IncomingMessage, res: ServerResponse, answer: AnswerBytes): AnswerBytes {
  discardUnread(req);
  sendAnswer(res, answer);
  return answer;
}

/**
 * A request Node's HTTP parser refuses (a request line or headers too long, bad syntax) still gets an answer in the
 * wire of the API its target names, when its raw bytes start with a request line (else the fallback's), then the
 * connection closes.
 */
function answerMalformed(pick: PickApi, error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable || error.code === "ECONNRESET") {
    socket.destroy();
    return;
  }
  const raw = (error as Error & { rawPacket?: unknown }).rawPacket;
  const bytes = Buffer.isBuffer(raw) ? raw : undefined;
  const target = bytes === undefined ? undefined : /^[A-Z]+ (\/[^\s]*)/.exec(bytes.subarray(0, 2048).toString("latin1"))?.[1];
  const lineEnd = bytes?.indexOf("\r\n") ?? -1;
  const requestLineLength = bytes === undefined ? undefined : lineEnd < 0 ? bytes.byteLength : lineEnd;
  const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
  endSocket(socket, pick(target ?? "").shellAnswer({ kind: "malformed", status, parserCode: error.code, requestLineLength }));
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}
