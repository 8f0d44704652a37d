import { Agent, type Dispatcher } from "undici";
import { NetworkError, ProtocolError, ResponseTooLargeError, type FailedCall } from "./errors.js";

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
  headers?: Record<string, string>;
  /** A JSON text, or the chunks of an upload (streamed as they come). */
  body?: string | AsyncIterable<Uint8Array>;
  signal?: AbortSignal;
}

export interface TransportOptions {
  /** `https://host:port`: which of the dispatcher's connection pools. */
  origin: string;
  /** `/fmi/data/vLatest` (after any path of the server's URL): put before every request's path. */
  basePath: string;
  dispatcher: Dispatcher;
  timeoutMs: number;
  /** Longest answer body read; past it the request is aborted with a ResponseTooLargeError. */
  maxResponseBytes: number;
  /** Takes secrets out of a body before its start is quoted in an error (whole, not cut in half at the quote's end). */
  scrub?: (text: string) => string;
}

/** A keep-alive dispatcher shared by every call of a client unless the caller injects its own. */
export function defaultDispatcher(): Dispatcher {
  return new Agent({ keepAliveTimeout: 10_000, connections: 16 });
}

const MAX_QUOTE = 120;

/**
 * Sends one request and reads its envelope; a body that is not an envelope is a ProtocolError. Dispatches to
 * undici directly with a handler that gathers the body: no stream, no AbortController, one timer per request
 * (a third of the client's own time per call went to those).
 */
export function send(options: TransportOptions, req: WireRequest): Promise<Envelope> {
  const call: FailedCall = { method: req.method, path: req.shownPath ?? req.path };
  const signal = req.signal;
  return new Promise((resolve, reject) => {
    let settled = false;
    let controller: Dispatcher.DispatchController | undefined;
    let stopped: Error | undefined;
    const settle = (outcome: () => Envelope) => {
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
    // A stop before the request reached a connection ends the call at once; the request is aborted when it does.
    const stop = (reason: "timeout" | "aborted") => {
      const message = reason === "timeout" ? `no answer within ${options.timeoutMs} ms` : "aborted by the caller";
      const error = new Error(message);
      stopped = error;
      // Settled first: aborting may report the abort as a connection error at once.
      settle(() => {
        throw new NetworkError(message, reason, call, { cause: reason === "aborted" ? signal?.reason : error });
      });
      controller?.abort(error);
    };
    const onAbort = () => stop("aborted");
    const timer = setTimeout(stop, options.timeoutMs, "timeout");
    // Already aborted: nothing is sent.
    if (signal?.aborted) return stop("aborted");
    signal?.addEventListener("abort", onAbort, { once: true });
    let status = 0;
    let headers: Envelope["headers"] = {};
    const chunks: Buffer[] = [];
    let received = 0;
    // Past the bound: fail now and stop the download, never gathering the rest.
    const tooLarge = (c: Dispatcher.DispatchController) => {
      const error = new ResponseTooLargeError(status, call, options.maxResponseBytes);
      settle(() => {
        throw error;
      });
      c.abort(error);
    };
    // undici's documentation lists AsyncIterable bodies for dispatch; its type declarations do not (yet).
    const body = (req.body ?? null) as NonNullable<Dispatcher.DispatchOptions["body"]> | null;
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c;
        if (stopped) c.abort(stopped);
      },
      onResponseStart(c, statusCode, responseHeaders) {
        status = statusCode;
        headers = responseHeaders;
        // A declared length over the bound fails at once.
        if (Number(responseHeaders["content-length"]) > options.maxResponseBytes) tooLarge(c);
      },
      onResponseData(c, chunk) {
        received += chunk.byteLength;
        if (received > options.maxResponseBytes) tooLarge(c);
        else chunks.push(chunk);
      },
      onResponseEnd() {
        settle(() => parseEnvelope(status, headers, Buffer.concat(chunks).toString("utf8"), call, options.scrub));
      },
      onResponseError(_, error) {
        settle(() => {
          const e = error as { code?: string; message?: string };
          throw new NetworkError(`network fault${e.code ? ` ${e.code}` : ""}: ${e.message ?? String(error)}`, "connection", call, { cause: error });
        });
      },
    };
    try {
      options.dispatcher.dispatch({ origin: options.origin, path: options.basePath + req.path, method: req.method, headers: req.headers ?? {}, body }, handler);
    } catch (error) {
      // An injected dispatcher may throw rather than report through the handler.
      handler.onResponseError!(controller!, error as Error);
    }
  });
}

function parseEnvelope(status: number, headers: Envelope["headers"], text: string, call: FailedCall, scrub = (start: string) => start): Envelope {
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

/** Whether a failed request certainly never reached the server, so even a write may be sent again. */
export function neverReachedServer(error: unknown): boolean {
  const code = (error as { cause?: { code?: string } })?.cause?.code;
  return code === "ECONNREFUSED" || code === "UND_ERR_CONNECT_TIMEOUT" || code === "ENOTFOUND" || code === "EAI_AGAIN";
}

/** Percent-encodes one path segment (database, layout, record id, field name). */
export function segment(value: string): string {
  return encodeURIComponent(value);
}
