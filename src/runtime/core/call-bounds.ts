// How a call is bounded and how its faults become errors, whatever API it belongs to: the Data API's transports and
// the OData client's carriers share these (a time limit and the caller's signal over the whole answer, connection
// faults named by their code, path segments that cannot step through the URL). Nothing here knows either API's bodies.
import { NetworkError, type FailedCall } from "./protocol-errors.js";

/** Takes secrets out of a text (a body's start, a fault's message) before an error quotes it. */
export type Scrub = (text: string) => string;

/** A call ended before its answer: the time limit passed, or the caller's signal aborted it. */
export function stoppedError(reason: "timeout" | "aborted", call: FailedCall, timeoutMs: number, signal: AbortSignal | undefined): NetworkError {
  const message = reason === "timeout" ? `no answer within ${timeoutMs} ms` : "aborted by the caller";
  return new NetworkError(message, reason, call, { cause: reason === "aborted" ? signal?.reason : new Error(message) });
}

/** Ends a call with its first outcome: an answer, or a thrown error. Later outcomes are ignored. */
export type Settle<T> = (outcome: () => T) => void;

/**
 * One call of a transport, bounded: one timer for the whole answer (`timeoutMs`) and the caller's signal. `run` starts
 * the exchange (not at all when the signal has already aborted) and settles it; a stop settles first, then calls the
 * abort function `run` returned, which stops the exchange however the transport can.
 */
export function bounded<T>(settings: { timeoutMs: number }, call: FailedCall, signal: AbortSignal | undefined, run: (settle: Settle<T>) => (error: Error) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let abort: ((error: Error) => void) | undefined;
    const settle: Settle<T> = (outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      try {
        resolve(outcome());
      } catch (error) {
        reject(error);
      }
    };
    const stop = (reason: "timeout" | "aborted") => {
      const error = stoppedError(reason, call, settings.timeoutMs, signal);
      // Settled first: aborting may report the abort as a fault of its own at once.
      settle(() => {
        throw error;
      });
      abort?.(error);
    };
    const onAbort = () => stop("aborted");
    const timer = setTimeout(stop, settings.timeoutMs, "timeout");
    // Already aborted: nothing is sent.
    if (signal?.aborted) return stop("aborted");
    signal?.addEventListener("abort", onAbort, { once: true });
    abort = run(settle);
  });
}

/** A fault of the connection (refused, reset, DNS, TLS), named by its code when it has one; its message scrubbed. */
export function connectionError(error: unknown, call: FailedCall, scrub: Scrub = (text) => text): NetworkError {
  const fault = faultOf(error);
  return new NetworkError(`network fault${fault.code ? ` ${fault.code}` : ""}: ${scrub(fault.message ?? String(error))}`, "connection", call, { cause: error });
}

/**
 * The error that says what went wrong: `fetch` wraps the connection's own error (with its code) in a TypeError
 * "fetch failed", so the first error of the cause chain that has a code, or the error itself.
 */
function faultOf(error: unknown): { code?: string; message?: string | undefined } {
  for (let e = error as { code?: unknown; message?: string; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    // The error itself: its code and message are what the caller reads.
    if (typeof e.code === "string") return e as { code: string; message?: string };
  }
  const message = (error as { message?: unknown })?.message;
  return typeof message === "string" ? { message } : {};
}

/** Whether a failed request certainly never reached the server, so even a write may be sent again. */
export function neverReachedServer(error: unknown): boolean {
  const code = faultOf((error as { cause?: unknown })?.cause).code;
  return code === "ECONNREFUSED" || code === "UND_ERR_CONNECT_TIMEOUT" || code === "ENOTFOUND" || code === "EAI_AGAIN";
}

/**
 * `value`, refused when it is "." or ".." (encoded or not): URL parsers (fetch's, a proxy's, the server's) read those
 * as steps through the path, so the request would go to another endpoint. `what` names the call and the value.
 */
export function pathStep(value: string, what: string): string {
  if (/^(\.|%2e){1,2}$/i.test(value)) throw new TypeError(`${what} "${value}" cannot be a URL path segment`);
  return value;
}

/** Percent-encodes one path segment (database, layout, script, field name); with `what`, checked by {@link pathStep}. */
export function segment(value: string, what?: string): string {
  return encodeURIComponent(what ? pathStep(value, what) : value);
}
