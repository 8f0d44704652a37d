import { ProtocolError, type FailedCall } from "../core/protocol-errors.js";
import type { Scrub } from "../core/call-bounds.js";
import type { MultipartBody } from "./multipart.js";
import type { RawAnswer } from "../core/carrier.js";
import { parseJson } from "../core/json-numbers.js";

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

// Moved to call-bounds.ts (shared with the OData client); re-exported so that every Data API import keeps working.
export { bounded, connectionError, neverReachedServer, pathStep, segment, stoppedError, type Scrub } from "../core/call-bounds.js";

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
    // Number tokens a double cannot hold stay their text (NumberToken): an exact field reads every digit of them.
    json = parseJson(text);
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

/**
 * The envelope of a carrier's answer: its bytes as UTF-8, as they were sent (a byte order mark kept, as JSON.parse then
 * refuses it on every runtime).
 */
export function envelopeOf(answer: RawAnswer, call: FailedCall, scrub?: Scrub): Envelope {
  return parseEnvelope(answer.status, answer.headers, utf8.decode(answer.bytes), call, scrub);
}
// Pure: an entry that only encodes path segments (the metadata entry) leaves it out.
const utf8 = /* @__PURE__ */ new TextDecoder("utf-8", { ignoreBOM: true });

/** The call an error names: method and path (the shown path when the real one holds a secret). */
export function callOf(req: WireRequest): FailedCall {
  return { method: req.method, path: req.shownPath ?? req.path };
}

