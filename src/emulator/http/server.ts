import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { FaultPlan, PlannedFault } from "./faults.js";
import type { ServedHosts } from "./request-host.js";
import { foreignOrigin } from "./request-origin.js";

/**
 * The HTTP shell: what every request meets before an API answers it, whichever API: the request count, the Host
 * check (request-host.ts), the Origin check of writes (request-origin.ts) and injected faults' timing (faults.ts). It knows no API's
 * wire; the API it carries answers the refusals and plays the faults in its own.
 */

const ALLOWED_HOSTS_HINT = "it serves localhost, 127.0.0.1, [::1], the address it is bound to and the names given as allowedHosts / fmgen serve --allowed-host";

/** What the shell reads of a running emulator on each request. */
export interface HttpShell {
  counters: { requests: number };
  /** The host names requests may name in `Host`; any other is refused. */
  hosts: ServedHosts;
  /** Injected faults, when started with `faults`. */
  faults?: FaultPlan | undefined;
}

/** An API the shell carries. */
export interface HttpApi {
  /** Whether injected faults play on a request for this target. */
  takesFaults(target: string): boolean;
  /**
   * Answers a request the shell refuses before the API reads it: 421 for a Host not served, 403 for a write of
   * another origin; `reason` says why, in words.
   */
  refuse(res: ServerResponse, status: 421 | 403, reason: string): void;
  /** Answers the request, playing `fault` when one is due; it throws only when the connection is lost. */
  serve(req: IncomingMessage, res: ServerResponse, fault: PlannedFault | undefined): Promise<void>;
  /** Answers a request Node's HTTP parser refuses (its `clientError`), on the bare socket. */
  answerMalformed(error: Error & { code?: string }, socket: Duplex): void;
}

/** An HTTP server carrying `api`, listening on host:port once this resolves. */
export async function listenHttp(shell: HttpShell, api: HttpApi, host: string, port: number): Promise<Server> {
  const server = createServer({ keepAliveTimeout: 5_000 }, (req, res) => void handleRequest(shell, api, req, res));
  server.on("clientError", (error: Error & { code?: string }, socket: Duplex) => api.answerMalformed(error, socket));
  await listen(server, host, port);
  return server;
}

/** Answers one HTTP request through `api`; never throws. */
export async function handleRequest(shell: HttpShell, api: HttpApi, req: IncomingMessage, res: ServerResponse): Promise<void> {
  shell.counters.requests++;
  if (!shell.hosts.serves(req)) {
    // A Host this emulator does not serve (DNS rebinding): nothing is read or done, and no fault is played.
    // The request's body is left unread; Node discards it.
    api.refuse(res, 421, `the Host header names a host this emulator does not serve (${ALLOWED_HOSTS_HINT})`);
    return;
  }
  const origin = foreignOrigin(req);
  if (origin !== undefined) {
    // A page of another origin (a form, a no-cors fetch) with the browser's stored credentials: nothing is done.
    api.refuse(res, 403, `a ${req.method} from a page of another origin (Origin: ${JSON.stringify(origin.slice(0, 200))}) is not taken: only a page whose Origin is the Host it reached this emulator by, or a client that is not a browser, may write`);
    return;
  }
  const faults = shell.faults && api.takesFaults(req.url ?? "") ? shell.faults : undefined;
  const fault = faults?.next();
  const delay = faults?.nextLatency() ?? 0;
  try {
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    await api.serve(req, res, fault);
  } catch {
    // A socket that went away mid-answer: nothing left to tell anyone.
    res.destroy();
  }
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
