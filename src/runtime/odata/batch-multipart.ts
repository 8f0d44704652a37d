/**
 * `$batch`'s multipart/mixed framing (wire contract section 4), as the client needs it: writing one changeset of
 * requests, and reading the server's answer back into its parts. Pure and platform-neutral (no `node:` module, no
 * Buffer): bytes are read as latin1 text, one character per byte, so that each part's `Content-Length` and body are cut
 * at byte offsets and a body is decoded as UTF-8 only once it is cut out.
 */
import { setOwn } from "../own.js";

/** One request of a changeset, as the batch writes it. */
export interface PartRequest {
  method: "POST" | "PATCH" | "PUT" | "DELETE" | "GET";
  /** Absolute path from `/fmi/odata/v4`, every segment encoded: `/fmi/odata/v4/Contacts/Invoices(3)?$filter=…`. */
  url: string;
  /** A JSON body. */
  body?: string;
}

/** One answered request: its status, its headers (names in lower case) and its body's bytes. */
export interface PartAnswer {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
  /** The part's `Content-ID` (from the MIME headers, else the HTTP ones), when the server echoes it. */
  contentId?: string;
}

export type BatchItem = { kind: "response"; answer: PartAnswer } | { kind: "changeset"; answers: PartAnswer[] };

const CRLF = "\r\n";
const encoder = new TextEncoder();

/** A boundary no part holds: a fresh random one, drawn again in the (astronomically unlikely) case that one does. */
function boundaryFor(prefix: string, parts: readonly string[]): string {
  for (;;) {
    // getRandomValues, not randomUUID: browsers give the latter only to secure (https) pages.
    const boundary = `${prefix}_${Array.from(globalThis.crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("")}`;
    if (!parts.some((part) => part.includes(boundary))) return boundary;
  }
}

/**
 * The body and Content-Type of a `$batch` of GET requests outside any changeset (`changeset: false`) or of one
 * changeset holding every request (`changeset: true`, Content-IDs 1..n in order). A body part carries its exact UTF-8
 * `Content-Length` and is followed by the boundary at once, as FileMaker Server needs (section 4's framing).
 */
export function writeBatch(requests: readonly PartRequest[], changeset: boolean): { contentType: string; body: Uint8Array } {
  const parts = requests.map((request, i) => {
    // Every segment and query is percent-encoded by its builder; a space or line break here would end the request line.
    if (!/^\S+$/.test(request.url)) throw new TypeError(`batch: step ${i + 1}'s URL holds white space: ${JSON.stringify(request.url)}`);
    const body = request.body ?? "";
    const head =
      `Content-Type: application/http${CRLF}Content-Transfer-Encoding: binary${CRLF}` +
      (changeset ? `Content-ID: ${i + 1}${CRLF}` : "") +
      `${CRLF}${request.method} ${request.url} HTTP/1.1${CRLF}`;
    return body === "" ? `${head}${CRLF}${CRLF}` : `${head}Content-Type: application/json${CRLF}Content-Length: ${encoder.encode(body).byteLength}${CRLF}${CRLF}${body}`;
  });
  const inner = (boundary: string) => parts.map((part) => `--${boundary}${CRLF}${part}${CRLF}`).join("") + `--${boundary}--`;
  let text: string;
  if (changeset) {
    const set = boundaryFor("changeset", parts);
    const whole = `Content-Type: multipart/mixed; boundary=${set}${CRLF}${CRLF}${inner(set)}`;
    const outer = boundaryFor("batch", [whole]);
    text = `--${outer}${CRLF}${whole}${CRLF}--${outer}--${CRLF}`;
    return { contentType: `multipart/mixed; boundary=${outer}`, body: encoder.encode(text) };
  }
  const outer = boundaryFor("batch", parts);
  text = `${inner(outer)}${CRLF}`;
  return { contentType: `multipart/mixed; boundary=${outer}`, body: encoder.encode(text) };
}

/** The `boundary` of a `multipart/mixed` Content-Type, or undefined when it is not one. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  const [type, ...params] = (contentType ?? "").split(";");
  if (type!.trim().toLowerCase() !== "multipart/mixed") return undefined;
  for (const param of params) {
    const eq = param.indexOf("=");
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== "boundary") continue;
    const value = param.slice(eq + 1).trim().replace(/^"(.*)"$/, "$1");
    return value === "" ? undefined : value;
  }
  return undefined;
}

/** Why an answer cannot be read as a batch answer; the caller turns it into a ProtocolError naming the call. */
export class BatchFramingError extends Error {}

/**
 * Bytes as text, one character per byte (code point = byte, 0x00-0xFF), so that text offsets are byte offsets.
 * `String.fromCharCode.apply` on bounded slices: a spread (`...bytes`) walks the array's iterator and took ~2,500 us
 * for a 16 KB answer, this ~50 us. Not `TextDecoder("latin1")`: the WHATWG label means windows-1252, which maps bytes
 * 0x80-0x9F to other characters in browsers (Node happens to map them one to one).
 */
function latin1(bytes: Uint8Array): string {
  let text = "";
  // 8,192 arguments per call: far below every engine's limit on an apply's arguments.
  for (let i = 0; i < bytes.length; i += 0x2000) text += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x2000) as unknown as number[]);
  return text;
}

/** Reads a `$batch` answer body into its items, in order: single responses and changesets (each a nested multipart). */
export function readBatch(bytes: Uint8Array, contentType: string | undefined): BatchItem[] {
  const boundary = multipartBoundary(contentType);
  if (boundary === undefined) throw new BatchFramingError(`its Content-Type is ${JSON.stringify(contentType ?? "")}, not multipart/mixed with a boundary`);
  const text = latin1(bytes);
  return split(text, boundary, 0, text.length).map(([start, end]) => {
    const { headers, bodyAt } = readHeaders(text, start, end);
    const type = headers["content-type"];
    const inner = multipartBoundary(type);
    if (inner !== undefined) return { kind: "changeset", answers: split(text, inner, bodyAt, end).map(([s, e]) => readHttp(text, bytes, s, e)) };
    return { kind: "response", answer: readHttp(text, bytes, start, end) };
  });
}

/** The [start, end) ranges of the parts between `--boundary` lines in text[from, to). */
function split(text: string, boundary: string, from: number, to: number): [number, number][] {
  const dash = `--${boundary}`;
  let at = text.indexOf(dash, from);
  if (at < 0 || at >= to) throw new BatchFramingError(`it has no "${dash}" line`);
  const ranges: [number, number][] = [];
  for (;;) {
    const lineEnd = text.indexOf("\n", at);
    if (text.startsWith("--", at + dash.length)) return ranges;
    if (lineEnd < 0 || lineEnd >= to) throw new BatchFramingError(`it ends before the closing "${dash}--" line`);
    const start = lineEnd + 1;
    let next = text.indexOf(`\n${dash}`, start - 1);
    if (next < 0 || next >= to) throw new BatchFramingError(`it ends before the closing "${dash}--" line`);
    const end = next > 0 && text[next - 1] === "\r" ? next - 1 : next;
    ranges.push([start, Math.max(start, end)]);
    at = next + 1;
  }
}

/** Header lines from `start` to the first blank line; names in lower case. */
function readHeaders(text: string, start: number, end: number): { headers: Record<string, string>; bodyAt: number } {
  const headers: Record<string, string> = {};
  let i = start;
  while (i < end) {
    let nl = text.indexOf("\n", i);
    if (nl < 0 || nl > end) nl = end;
    const line = text.slice(i, text[nl - 1] === "\r" ? nl - 1 : nl);
    i = Math.min(nl + 1, end);
    if (line === "") return { headers, bodyAt: i };
    const colon = line.indexOf(":");
    if (colon <= 0) throw new BatchFramingError(`a part has the line ${JSON.stringify(line.slice(0, 60))} where a header belongs`);
    // Through setOwn: a part's header named "__proto__" stays a header.
    setOwn(headers, line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, bodyAt: end };
}

/** One application/http part: MIME headers, blank, `HTTP/1.1 <status> <reason>`, headers, blank, body. */
function readHttp(text: string, bytes: Uint8Array, start: number, end: number): PartAnswer {
  const mime = readHeaders(text, start, end);
  let lineEnd = text.indexOf("\n", mime.bodyAt);
  if (lineEnd < 0 || lineEnd > end) lineEnd = end;
  const statusLine = text.slice(mime.bodyAt, lineEnd).trim();
  const status = /^HTTP\/\d(?:\.\d)?\s+(\d{3})(?:\s|$)/.exec(statusLine);
  if (status === null) throw new BatchFramingError(`a part starts ${JSON.stringify(statusLine.slice(0, 60))}, not an HTTP status line`);
  const http = readHeaders(text, Math.min(lineEnd + 1, end), end);
  const headers = http.headers;
  const length = Number(headers["content-length"] ?? NaN);
  const bodyEnd = Number.isSafeInteger(length) && length >= 0 && http.bodyAt + length <= end ? http.bodyAt + length : end;
  const contentId = mime.headers["content-id"] ?? headers["content-id"];
  return { status: Number(status[1]), headers, body: bytes.subarray(http.bodyAt, bodyEnd), ...(contentId !== undefined && { contentId }) };
}
