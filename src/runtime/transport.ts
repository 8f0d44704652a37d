import type { Readable } from "node:stream";
import { Agent, request, type Dispatcher } from "undici";
import { NetworkError, ProtocolError, type FailedCall } from "./errors.js";

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
  body?: string | Readable;
  signal?: AbortSignal;
}

export interface TransportOptions {
  baseUrl: string;
  dispatcher: Dispatcher;
  timeoutMs: number;
}

/** A keep-alive dispatcher shared by every call of a client unless the caller injects its own. */
export function defaultDispatcher(): Dispatcher {
  return new Agent({ keepAliveTimeout: 10_000, connections: 16 });
}

const MAX_QUOTE = 120;

/** Sends one request and reads its envelope; a body that is not an envelope is a ProtocolError. */
export async function send(options: TransportOptions, req: WireRequest): Promise<Envelope> {
  const call: FailedCall = { method: req.method, path: req.shownPath ?? req.path };
  // One controller and one cleared timer per request: cheaper than AbortSignal.timeout + AbortSignal.any, whose
  // timers outlive the request.
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  const forwardAbort = () => controller.abort();
  if (req.signal?.aborted) controller.abort();
  else req.signal?.addEventListener("abort", forwardAbort, { once: true });
  let status: number;
  let headers: Record<string, string | string[] | undefined>;
  let text: string;
  try {
    const res = await request(options.baseUrl + req.path, {
      method: req.method,
      headers: req.headers ?? {},
      body: req.body ?? null,
      dispatcher: options.dispatcher,
      signal: controller.signal,
    });
    status = res.statusCode;
    headers = res.headers;
    text = await res.body.text();
  } catch (error) {
    if (req.signal?.aborted) throw new NetworkError("aborted by the caller", "aborted", call, { cause: error });
    if (timedOut) throw new NetworkError(`no answer within ${options.timeoutMs} ms`, "timeout", call, { cause: error });
    const e = error as { code?: string; message?: string };
    throw new NetworkError(`network fault${e.code ? ` ${e.code}` : ""}: ${e.message ?? String(error)}`, "connection", call, { cause: error });
  } finally {
    clearTimeout(timer);
    req.signal?.removeEventListener("abort", forwardAbort);
  }
  return parseEnvelope(status, headers, text, call);
}

function parseEnvelope(status: number, headers: Envelope["headers"], text: string, call: FailedCall): Envelope {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ProtocolError(status, text.slice(0, MAX_QUOTE), call);
  }
  const messages = (json as { messages?: unknown })?.messages;
  const first = Array.isArray(messages) ? (messages[0] as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (!first || (typeof first.code !== "string" && typeof first.code !== "number")) {
    throw new ProtocolError(status, text.slice(0, MAX_QUOTE), call);
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
