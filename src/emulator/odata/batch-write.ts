// Writes `$batch` bodies (docs/emulator.md, "`$batch`"): the response the emulator answers (200,
// `multipart/mixed; boundary=…`; each part `Content-Type: application/http`, blank, `HTTP/1.1 <status> <reason>`,
// headers, blank, body; a changeset as a nested multipart with its own boundary), and, for tests and clients, a
// request. CRLF line endings; `Content-Length` is added to every part with a body that lacks one.

import { randomUUID } from "node:crypto";
import type { BatchMethod, HeaderList } from "./batch-parse.js";

/** Reason phrases; 200 is "Ok" as proofkit's mocks of FMS spell it (section 4). */
const REASONS: Readonly<Record<number, string>> = {
  200: "Ok",
  201: "Created",
  204: "No Content",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  409: "Conflict",
  412: "Precondition Failed",
  413: "Payload Too Large",
  414: "URI Too Long",
  415: "Unsupported Media Type",
  500: "Internal Server Error",
  501: "Not Implemented",
  503: "Service Unavailable",
};

export function reasonPhrase(status: number): string {
  return REASONS[status] ?? "Unknown";
}

export interface BatchResponseInput {
  readonly status: number;
  /** Default: reasonPhrase(status). */
  readonly reason?: string;
  readonly headers?: HeaderList;
  readonly body?: Uint8Array | string;
  readonly contentId?: string;
}

export type BatchResponseEntry =
  | ({ readonly kind: "response" } & BatchResponseInput)
  | { readonly kind: "changeset"; readonly responses: readonly BatchResponseInput[]; readonly boundary?: string };

export interface BatchRequestInput {
  readonly method: BatchMethod;
  readonly url: string;
  readonly headers?: HeaderList;
  readonly body?: Uint8Array | string;
  readonly contentId?: string;
}

export type BatchRequestEntry =
  | ({ readonly kind: "request" } & BatchRequestInput)
  | { readonly kind: "changeset"; readonly requests: readonly BatchRequestInput[]; readonly boundary?: string };

export interface WrittenBatch {
  /** `multipart/mixed; boundary=…`, for the Content-Type header. */
  readonly contentType: string;
  readonly body: Uint8Array;
}

const CRLF = "\r\n";

function bytes(body: Uint8Array | string | undefined): Buffer {
  if (body === undefined) return Buffer.alloc(0);
  return typeof body === "string" ? Buffer.from(body, "utf8") : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

function headerLines(headers: HeaderList | undefined, body: Buffer): string {
  let out = "";
  let hasLength = false;
  for (const [name, value] of headers ?? []) {
    if (/[\r\n:]/.test(name) || /[\r\n]/.test(value)) throw new Error(`batch writer: header ${JSON.stringify(name)} has a line break or colon in its name or value`);
    if (name.toLowerCase() === "content-length") hasLength = true;
    out += `${name}: ${value}${CRLF}`;
  }
  if (!hasLength && body.length > 0) out += `Content-Length: ${body.length}${CRLF}`;
  return out;
}

/** One application/http part: MIME headers, blank, the start line, headers, blank, body. */
function httpPart(startLine: string, input: { headers?: HeaderList; body?: Uint8Array | string; contentId?: string }): Buffer[] {
  const body = bytes(input.body);
  if (input.contentId !== undefined && /[\r\n]/.test(input.contentId)) throw new Error("batch writer: contentId has a line break");
  const mime = `Content-Type: application/http${CRLF}Content-Transfer-Encoding: binary${CRLF}` + (input.contentId !== undefined ? `Content-ID: ${input.contentId}${CRLF}` : "") + CRLF;
  return [Buffer.from(mime + startLine + CRLF + headerLines(input.headers, body) + CRLF, "utf8"), body];
}

function multipart(boundary: string, parts: Buffer[][]): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) chunks.push(Buffer.from(`--${boundary}${CRLF}`, "latin1"), ...p, Buffer.from(CRLF, "latin1"));
  chunks.push(Buffer.from(`--${boundary}--`, "latin1"));
  const out = Buffer.concat(chunks);
  return out;
}

/** A boundary: the caller's (checked not to occur in the content), or a fresh random one that does not. */
function pickBoundary(prefix: string, given: string | undefined, content: Buffer): string {
  if (given !== undefined) {
    if (!/^[0-9A-Za-z'()+_,\-./:=?]{1,70}$/.test(given)) throw new Error(`batch writer: boundary ${JSON.stringify(given)} is not a valid multipart boundary`);
    if (content.includes(`--${given}`)) throw new Error(`batch writer: boundary ${JSON.stringify(given)} occurs in a part`);
    return given;
  }
  for (;;) {
    const b = `${prefix}_${randomUUID()}`;
    if (!content.includes(`--${b}`)) return b;
  }
}

function write<E, I>(
  entries: readonly E[],
  split: (e: E) => { single: I } | { members: readonly I[]; boundary: string | undefined },
  startLine: (i: I) => string,
  prefixes: { outer: string; changeset: string },
  boundary: string | undefined,
): WrittenBatch {
  const parts = entries.map((e) => {
    const s = split(e);
    if ("single" in s) return httpPart(startLine(s.single), s.single as never);
    const members = s.members.map((m) => httpPart(startLine(m), m as never));
    const csBoundary = pickBoundary(prefixes.changeset, s.boundary, Buffer.concat(members.flat()));
    return [Buffer.from(`Content-Type: multipart/mixed; boundary=${csBoundary}${CRLF}${CRLF}`, "latin1"), multipart(csBoundary, members)];
  });
  const outer = pickBoundary(prefixes.outer, boundary, Buffer.concat(parts.flat()));
  return { contentType: `multipart/mixed; boundary=${outer}`, body: multipart(outer, parts) };
}

/** The `$batch` response body and its Content-Type. */
export function writeBatchResponse(entries: readonly BatchResponseEntry[], boundary?: string): WrittenBatch {
  return write<BatchResponseEntry, BatchResponseInput>(
    entries,
    (e) => (e.kind === "response" ? { single: e } : { members: e.responses, boundary: e.boundary }),
    (r) => {
      if (!Number.isInteger(r.status) || r.status < 100 || r.status > 999) throw new Error(`batch writer: status ${r.status} is not a 3-digit HTTP status`);
      const reason = r.reason ?? reasonPhrase(r.status);
      if (/[\r\n]/.test(reason)) throw new Error("batch writer: reason has a line break");
      return `HTTP/1.1 ${r.status} ${reason}`;
    },
    { outer: "batchresponse", changeset: "changesetresponse" },
    boundary,
  );
}

/** A `$batch` request body and its Content-Type (for tests and clients of the emulator). */
export function writeBatchRequest(entries: readonly BatchRequestEntry[], boundary?: string): WrittenBatch {
  return write<BatchRequestEntry, BatchRequestInput>(
    entries,
    (e) => (e.kind === "request" ? { single: e } : { members: e.requests, boundary: e.boundary }),
    (r) => {
      if (!/^\S+$/.test(r.url)) throw new Error(`batch writer: url ${JSON.stringify(r.url)} is empty or has white space`);
      return `${r.method} ${r.url} HTTP/1.1`;
    },
    { outer: "batch", changeset: "changeset" },
    boundary,
  );
}
