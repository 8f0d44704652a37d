/**
 * `$batch`'s multipart/mixed framing (wire contract section 4), as the client needs it: writing one changeset of
 * requests, and reading the server's answer back into its parts. Pure and platform-neutral (no `node:` module, no
 * Buffer): bytes are read as latin1 text, one character per byte, so that each part's `Content-Length` and body are cut
 * at byte offsets and a body is decoded as UTF-8 only once it is cut out.
 */

/** One request of a changeset, as the batch writes it. */
export interface PartRequest {
  method: "POST" | "PATCH" | "PUT" | "DELETE" | "GET";
  /** Absolute path from `/fmi/odata/v4`, every segment encoded: `/fmi/odata/v4/Contacts/Invoices(3)?$filter=…`. */
  url: string;
  /** A JSON body (none when undefined). */
  body?: string | undefined;
  /** The body holds an exact number field's value as a string: its Content-Type says `IEEE754Compatible=true`. */
  exact?: boolean | undefined;
}

/** One answered request: its status, its headers (names in lower case) and its body's bytes. */
export interface PartAnswer {
  readonly status: number;
  /** A Map, not an object: a header may be named `__proto__`, and a Map takes any name as it is. */
  readonly headers: ReadonlyMap<string, string>;
  readonly body: Uint8Array;
  /** The part's `Content-ID` (from the MIME headers, else the HTTP ones), when the server echoes it. */
  readonly contentId: string | undefined;
}

export type BatchItem = { kind: "response"; answer: PartAnswer } | { kind: "changeset"; answers: PartAnswer[] };

/**
 * A fresh random token that no request's URL or body holds (drawn again in the astronomically unlikely case that one
 * does; the rest of a part is fixed text with no run of 32 hex digits): the boundaries are `batch_<token>` and
 * `changeset_<token>`, so neither can appear in a part, nor one in the other. Each batch takes the next 128 random
 * bits of a pool that one getRandomValues call fills for 64 batches (the token is on the wire, never a secret, and
 * one call per batch cost more than the rest of drawing it).
 */
function freshToken(requests: readonly PartRequest[]): string {
  for (;;) {
    // getRandomValues, not randomUUID: browsers give the latter only to secure (https) pages.
    if ((poolAt %= pool.length) === 0) globalThis.crypto.getRandomValues(pool);
    let token = "";
    for (let k = 0; k < 4; k++) token += pool[poolAt++]!.toString(16).padStart(8, "0");
    if (!requests.some((request) => request.url.includes(token) || (request.body ?? "").includes(token))) return token;
  }
}
const pool = new Uint32Array(4 * 64);
let poolAt = 0;

/**
 * A string's UTF-8 length, counted without encoding it (a batch sends one Content-Length per part; encoding each body
 * only to measure it made a throwaway copy of every body). A lone surrogate counts 3 bytes: TextEncoder writes it as
 * U+FFFD, which the body's own encoding later does too.
 */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) bytes += 1;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // a surrogate pair: 2 units, 4 bytes
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/**
 * The body and Content-Type of a `$batch` of GET requests outside any changeset (`changeset: false`) or of one
 * changeset holding every request (`changeset: true`, Content-IDs 1..n in order). A body part carries its exact UTF-8
 * `Content-Length` and is followed by the boundary at once, as FileMaker Server needs (section 4's framing).
 */
export function writeBatch(requests: readonly PartRequest[], changeset: boolean): { contentType: string; body: string } {
  const token = freshToken(requests);
  const outer = `batch_${token}`;
  const boundary = changeset ? `changeset_${token}` : outer;
  // One pass, straight into the text, the fixed lines written once: a changeset holds up to 1,000 parts, and each piece
  // added to the text is one more string to make (so line breaks are literal text, not a constant's substitution).
  const head = `--${boundary}\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n`;
  let text = changeset ? `--${outer}\r\nContent-Type: multipart/mixed; boundary=${boundary}\r\n\r\n` : "";
  for (let i = 0; i < requests.length; i++) {
    const request = requests[i]!;
    // Every segment and query is percent-encoded by its builder; a space or line break here would end the request line.
    if (!/^\S+$/.test(request.url)) throw new TypeError(`batch: step ${i + 1}'s URL holds white space: ${JSON.stringify(request.url)}`);
    const body = request.body ?? "";
    text += changeset ? `${head}Content-ID: ${i + 1}\r\n\r\n${request.method} ${request.url} HTTP/1.1\r\n` : `${head}\r\n${request.method} ${request.url} HTTP/1.1\r\n`;
    text += body === "" ? "\r\n\r\n\r\n" : `Content-Type: application/json${request.exact ? ";IEEE754Compatible=true" : ""}\r\nContent-Length: ${utf8Length(body)}\r\n\r\n${body}\r\n`;
  }
  text += changeset ? `--${boundary}--\r\n--${outer}--\r\n` : `--${boundary}--\r\n`;
  // Text, which the carrier encodes as it sends (natively: TextEncoder on the whole text cost more than its framing).
  return { contentType: `multipart/mixed; boundary=${outer}`, body: text };
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

const utf8 = new TextDecoder();

/**
 * Bytes as text, one character per byte (code point = byte, 0x00-0xFF), so that text offsets are byte offsets.
 * Mostly a batch answer is ASCII, and then UTF-8 decoding (native, one call) gives that text: a decoded text as long
 * as the bytes maps each byte to one character, since no byte sequence decodes to more characters than it has bytes.
 * Otherwise `String.fromCharCode.apply` on bounded slices: a spread (`...bytes`) walks the array's iterator and took
 * ~2,500 us for a 16 KB answer, this ~50 us. Not `TextDecoder("latin1")`: the WHATWG label means windows-1252, which
 * maps bytes 0x80-0x9F to other characters in browsers (Node happens to map them one to one).
 */
function latin1(bytes: Uint8Array): string {
  const decoded = utf8.decode(bytes);
  // Equal lengths: every byte was one character; below 0x80 each is the byte itself, and a byte of 0x80 or more
  // would have decoded to U+FFFD alone, which the check below finds.
  if (decoded.length === bytes.length && !decoded.includes("\ufffd")) return decoded;
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
  const outer = split(text, boundary, 0, text.length);
  const items: BatchItem[] = [];
  for (let k = 0; k < outer.length; k += 2) {
    const start = outer[k]!;
    const end = outer[k + 1]!;
    const bodyAt = headerBlock(text, start, end);
    const inner = multipartBoundary(readHeaders(text, start, bodyAt).get("content-type"));
    if (inner === undefined) {
      items.push({ kind: "response", answer: readHttp(text, bytes, start, end) });
      continue;
    }
    const ranges = split(text, inner, bodyAt, end);
    const answers: PartAnswer[] = [];
    for (let n = 0; n < ranges.length; n += 2) answers.push(readHttp(text, bytes, ranges[n]!, ranges[n + 1]!));
    items.push({ kind: "changeset", answers });
  }
  return items;
}

/**
 * The parts between `--boundary` lines in text[from, to): their ranges flat, `[start0, end0, start1, end1, ...]` (one
 * list, not a pair per part of a changeset of hundreds). The whole framing is checked before any part is read.
 */
function split(text: string, boundary: string, from: number, to: number): number[] {
  const dash = `--${boundary}`;
  const next = `\n${dash}`;
  let at = text.indexOf(dash, from);
  if (at < 0 || at >= to) throw new BatchFramingError(`it has no "${dash}" line`);
  const ranges: number[] = [];
  for (;;) {
    const lineEnd = text.indexOf("\n", at);
    if (text.startsWith("--", at + dash.length)) return ranges;
    if (lineEnd < 0 || lineEnd >= to) throw new BatchFramingError(`it ends before the closing "${dash}--" line`);
    const start = lineEnd + 1;
    const found = text.indexOf(next, start - 1);
    if (found < 0 || found >= to) throw new BatchFramingError(`it ends before the closing "${dash}--" line`);
    const end = found > 0 && text.charCodeAt(found - 1) === 13 /* \r */ ? found - 1 : found;
    ranges.push(start, Math.max(start, end));
    at = found + 1;
  }
}

/**
 * Where the header lines from `start` end: just past the first blank line (or `end`). Each line is checked to be a
 * header (`name: value`) here, so a broken part fails as the answer is read; the headers themselves are read into a
 * Map only when asked for (most parts of a changeset are a bare `204`, and reading every part's headers was most of
 * the time of reading an answer).
 */
function headerBlock(text: string, start: number, end: number): number {
  let i = start;
  while (i < end) {
    let nl = text.indexOf("\n", i);
    if (nl < 0 || nl > end) nl = end;
    const lineEnd = text.charCodeAt(nl - 1) === 13 /* \r */ ? nl - 1 : nl;
    const at = i;
    i = Math.min(nl + 1, end);
    if (lineEnd <= at) return i;
    const colon = text.indexOf(":", at);
    if (colon <= at || colon >= lineEnd) throw new BatchFramingError(`a part has the line ${JSON.stringify(text.slice(at, Math.min(lineEnd, at + 60)))} where a header belongs`);
  }
  return end;
}

/** The header lines of text[start, bodyAt) (checked by headerBlock), names in lower case. */
function readHeaders(text: string, start: number, bodyAt: number): Map<string, string> {
  const headers = new Map<string, string>();
  for (let i = start; i < bodyAt; ) {
    let nl = text.indexOf("\n", i);
    if (nl < 0 || nl > bodyAt) nl = bodyAt;
    const lineEnd = text.charCodeAt(nl - 1) === 13 /* \r */ ? nl - 1 : nl;
    const colon = text.indexOf(":", i);
    if (lineEnd > i && colon > i && colon < lineEnd) headers.set(text.slice(i, colon).trim().toLowerCase(), text.slice(colon + 1, lineEnd).trim());
    i = nl + 1;
  }
  return headers;
}

/** One application/http part, its headers read on first use (or given, when its body's length needed them). */
class Part implements PartAnswer {
  #headers: Map<string, string> | undefined;
  constructor(
    readonly status: number,
    private readonly bytes: Uint8Array,
    /** bytes[bodyAt, bodyEnd): the body, cut out when asked for (a changeset's bare 204s never are). */
    private readonly bodyEnd: number,
    private readonly text: string,
    /** text[mimeAt, httpAt): the MIME headers and the status line; text[httpAt, bodyAt): the HTTP headers. */
    private readonly mimeAt: number,
    private readonly mimeEnd: number,
    private readonly httpAt: number,
    private readonly bodyAt: number,
    headers?: Map<string, string>,
  ) {
    this.#headers = headers;
  }
  get body(): Uint8Array {
    return this.bytes.subarray(this.bodyAt, this.bodyEnd);
  }
  get headers(): ReadonlyMap<string, string> {
    return (this.#headers ??= readHeaders(this.text, this.httpAt, this.bodyAt));
  }
  get contentId(): string | undefined {
    return readHeaders(this.text, this.mimeAt, this.mimeEnd).get("content-id") ?? this.headers.get("content-id");
  }
}

/** One application/http part: MIME headers, blank, `HTTP/1.1 <status> <reason>`, headers, blank, body. */
function readHttp(text: string, bytes: Uint8Array, start: number, end: number): PartAnswer {
  const mimeEnd = headerBlock(text, start, end);
  let lineEnd = text.indexOf("\n", mimeEnd);
  if (lineEnd < 0 || lineEnd > end) lineEnd = end;
  const statusLine = text.slice(mimeEnd, lineEnd).trim();
  const status = /^HTTP\/\d(?:\.\d)?\s+(\d{3})(?:\s|$)/.exec(statusLine);
  if (status === null) throw new BatchFramingError(`a part starts ${JSON.stringify(statusLine.slice(0, 60))}, not an HTTP status line`);
  const httpAt = Math.min(lineEnd + 1, end);
  const bodyAt = headerBlock(text, httpAt, end);
  // A body is cut at the Content-Length the part states, when it fits; a bare part's headers wait until asked for.
  const headers = bodyAt === end ? undefined : readHeaders(text, httpAt, bodyAt);
  const length = Number(headers?.get("content-length") ?? NaN);
  const bodyEnd = Number.isSafeInteger(length) && length >= 0 && bodyAt + length <= end ? bodyAt + length : end;
  return new Part(Number(status[1]), bytes, bodyEnd, text, start, mimeEnd, httpAt, bodyAt, headers);
}
