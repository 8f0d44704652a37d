/**
 * What moves a request's bytes, for both APIs' clients: undici's dispatcher on Node (undici-carrier.ts), global `fetch`
 * elsewhere (fetch-carrier.ts). A carrier only sends and reads, bounded: one timer over the whole answer, the caller's signal,
 * `maxResponseBytes` (the request aborted at the bound, ResponseTooLargeError), faults as NetworkErrors. Signing in,
 * retries and error answers are the client's (the Data API's transports read envelopes from the bytes; OData's
 * client-caller.ts its own answers).
 */
import type { Scrub } from "./call-bounds.js";
import { setOwn } from "./own.js";
import type { FailedCall } from "./protocol-errors.js";

export interface CarrierBounds {
  timeoutMs: number;
  maxResponseBytes: number;
}

export interface Exchange {
  /** The whole URL: origin, path and query. */
  url: string;
  method: string;
  headers: Record<string, string>;
  /** A stream is sent as it is read (an upload of the Data API: its file read from disk as it goes, on Node). */
  body?: string | Uint8Array | Blob | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | undefined;
  signal?: AbortSignal | undefined;
}

export interface RawAnswer {
  status: number;
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>;
  bytes: Uint8Array;
}

export interface OpenAnswer {
  status: number;
  headers: Record<string, string>;
  /** The body as it arrives: errors with ResponseTooLargeError past the bound, and with a NetworkError at the time limit. */
  body: ReadableStream<Uint8Array>;
}

export interface Carrier {
  send(exchange: Exchange, call: FailedCall, scrub: Scrub): Promise<RawAnswer>;
  open(exchange: Exchange, call: FailedCall, scrub: Scrub): Promise<OpenAnswer>;
  close(): Promise<void>;
}

/** Bytes gathered into one array. */
export function joined(chunks: readonly Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/** Every byte of `body`, in one array; its error (a ResponseTooLargeError, an abort) as the rejection. */
export async function drain(body: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (const reader = body.getReader(); ; ) {
    const { done, value } = await reader.read();
    if (done) return joined(chunks, length);
    chunks.push(value);
    length += value.byteLength;
  }
}

/** A fetch answer's headers as a record (names lower-cased, as Headers keeps them); by forEach, which every lib types. */
export function headerRecord(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  // Through setOwn: a header named "__proto__" stays a header.
  headers.forEach((value, name) => setOwn(out, name, value));
  return out;
}
