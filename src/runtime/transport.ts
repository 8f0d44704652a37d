import { NetworkError, ProtocolError, type FailedCall } from "./protocol-errors.js";
import type { MultipartBody } from "./multipart.js";

/**
 * What every transport shares: the request and answer shapes, the envelope parser, and how a stop or a fault
 * becomes an error. A transport (undici's dispatcher on Node, global `fetch` elsewhere) only moves the bytes.
 */

/** What every Data API answer is: `{ response, messages: [{ code, message }] }`. */
export interface Envelope {
  response: Record<string, unknown>;
  code: string;
  message: string;
  httpStatus: number;
  headers: Record<string, string | string[] | undefined>;
}

export interface WireRequest {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** Path below `/fmi/data/{version}`, every segment already percent-encoded. */
  path: string;
  /** What errors show instead of `path` when the path holds a secret (the logout token). */
  shownPath?: string;
  headers?: Record<string, string> | undefined;
  /** A JSON text, or an upload (its bytes streamed as they come). */
  body?: string | MultipartBody;
  signal?: AbortSignal | undefined;
}

export interface TransportSettings {
  /** `https://host:port`. */
  origin: string;
  /** `/fmi/data/vLatest` (after any path of the server's URL): put before every request's path. */
  basePath: string;
  /** Bound on the whole call: from sending (or waiting for a connection) to the answer's last byte. */
  timeoutMs: number;
  /** Longest answer body read; past it the request is aborted with a ResponseTooLargeError. */
  maxResponseBytes: number;
}

/** Takes secrets out of a body before its start is quoted in an error. */
export type Scrub = (text: string) => string;

export interface Transport {
  /** Sends one request and reads its envelope; a body that is not an envelope is a ProtocolError. */
  send(req: WireRequest, scrub?: Scrub): Promise<Envelope>;
  /** Whether `upload` may be given a file path (read from disk: Node only). */
  readonly filePaths: boolean;
  /** Releases what the transport owns (its connection pool). */
  close(): Promise<void>;
  /** What the transport was made with: a download checks its URL against `origin` and reads up to `maxResponseBytes`. */
  readonly settings: TransportSettings;
  /** A plain `fetch` of the transport's (container downloads, which answer bytes rather than envelopes). */
  fetch(url: string, init: RequestInit): Promise<Response>;
}

const MAX_QUOTE = 120;

/** The envelope of an answer's text, or a ProtocolError quoting the (scrubbed) start of a body that is not one. */
export function parseEnvelope(status: number, headers: Envelope["headers"], text: string, call: FailedCall, scrub: Scrub = (start) => start): Envelope {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // Not JSON (an HTML error page, a cut body): no messages, so a ProtocolError below.
  }
  const messages = (json as { messages?: unknown })?.messages;
  const first = Array.isArray(messages) ? (messages[0] as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (!first || (typeof first.code !== "string" && typeof first.code !== "number")) {
    // Scrubbed past the quote's end, so that a secret the quote would cut is still found whole.
    throw new ProtocolError(status, scrub(text.slice(0, 4 * 1024)).slice(0, MAX_QUOTE), call);
  }
  const response = (json as { response?: unknown }).response;
  return {
    response: typeof response === "object" && response !== null ? (response as Record<string, unknown>) : {},
    code: String(first.code),
    message: typeof first.message === "string" ? first.message : "",
    httpStatus: status,
    headers,
  };
}

/** The call an error names: method and path (the shown path when the real one holds a secret). */
export function callOf(req: WireRequest): FailedCall {
  return { method: req.method, path: req.shownPath ?? req.path };
}

/** A call ended before its answer: the time limit passed, or the caller's signal aborted it. */
export function stoppedError(reason: "timeout" | "aborted", call: FailedCall, timeoutMs: number, signal: AbortSignal | undefined): NetworkError {
  const message = reason === "timeout" ? `no answer within ${timeoutMs} ms` : "aborted by the caller";
  return new NetworkError(message, reason, call, { cause: reason === "aborted" ? signal?.reason : new Error(message) });
}

/** Ends a call with its first outcome: an envelope, or a thrown error. Later outcomes are ignored. */
export type Settle = (outcome: () => Envelope) => void;

/**
 * One call of a transport, bounded: one timer for the whole answer (`timeoutMs`) and the caller's signal. `run` starts
 * the exchange (not at all when the signal has already aborted) and settles it; a stop settles first, then calls the
 * abort function `run` returned, which stops the exchange however the transport can.
 */
export function bounded(settings: TransportSettings, call: FailedCall, signal: AbortSignal | undefined, run: (settle: Settle) => (error: Error) => void): Promise<Envelope> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let abort: ((error: Error) => void) | undefined;
    const settle: Settle = (outcome) => {
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
