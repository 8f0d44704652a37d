// Parses a `$batch` request body (docs/emulator.md, "`$batch`") into requests and changesets, and a
// `$batch` response body (what batch-write.ts writes) back into responses. Envelope errors are ODataError:
// -1014 not multipart, -1015 bad body (413 when too large), -1000 a service root other than `/fmi/odata/v4` inside a
// part, -1032 another database inside a part, -1002 a `$<Content-ID>` reference (not supported, CL).

import { withoutExtension } from "../hosted-file/database-name.js";
import { sameName } from "../hosted-file/name-map.js";
import { mediaTypeOf } from "../http/media-type.js";
import { decodeOnce, incorrectServiceRoot, ODataError, syntaxError } from "./odata-error.js";
import {
  badBody,
  badPart,
  headerValue,
  MAX_BATCH_BYTES,
  MAX_BATCH_PARTS,
  multipartBoundary,
  readHeaders,
  splitMultipart,
  type HeaderList,
  type MimePart,
} from "./batch-multipart.js";

export { headerValue, MAX_BATCH_BYTES, MAX_BATCH_PARTS, type HeaderList } from "./batch-multipart.js";

export type BatchMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

export interface BatchRequestPart {
  readonly method: BatchMethod;
  /** The URL as the part wrote it. */
  readonly url: string;
  /** The normalised target after `/fmi/odata/v4`, still percent-encoded: `/DB/contacts?$top=2`. */
  readonly target: string;
  /** The part's HTTP headers, in order, as written. */
  readonly headers: HeaderList;
  readonly body: Uint8Array;
  /** `Content-ID` from the MIME part headers, or else from the HTTP headers. */
  readonly contentId?: string;
}

export type BatchItem =
  | { readonly kind: "request"; readonly request: BatchRequestPart }
  | { readonly kind: "changeset"; readonly requests: readonly BatchRequestPart[] };

export interface BatchParseOptions {
  /** The request's Content-Type header. */
  readonly contentType: string | undefined;
  /** The database as the outer URL names it; `.fmp12` is stripped from it (section 4's choice). */
  readonly db: string;
  readonly maxBytes?: number;
  readonly maxParts?: number;
}

export const SERVICE_ROOT_PATH = "/fmi/odata/v4";
const METHODS: ReadonlySet<string> = new Set(["GET", "POST", "PATCH", "PUT", "DELETE"]);

export function notMultipart(): ODataError {
  return new ODataError(400, "-1014", "Batch operation requires multipart content type");
}

export function databaseMismatch(): ODataError {
  return new ODataError(400, "-1032", "Operation database does not match batch request database");
}


function toText(body: Uint8Array | string): string {
  const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
}

function byteLength(body: Uint8Array | string): number {
  return typeof body === "string" ? Buffer.byteLength(body, "utf8") : body.byteLength;
}

/** Parses a `$batch` request body. Throws only ODataError. */
export function parseBatchRequest(body: Uint8Array | string, options: BatchParseOptions): BatchItem[] {
  const boundary = multipartBoundary(options.contentType);
  if (boundary === undefined) throw notMultipart();
  const maxBytes = options.maxBytes ?? MAX_BATCH_BYTES;
  if (byteLength(body) > maxBytes) throw new ODataError(413, "-1015", `Batch body exceeds ${maxBytes} bytes`);
  const text = toText(body);
  // The batch database name inner URLs must use: the outer name without `.fmp12`.
  const db = withoutExtension(options.db);
  const budget = { left: options.maxParts ?? MAX_BATCH_PARTS };
  const items: BatchItem[] = [];
  for (const part of splitMultipart(text, boundary, 0, text.length, budget.left)) {
    const inner = multipartBoundary(headerValue(part.headers, "Content-Type"));
    if (inner !== undefined) {
      const members = splitMultipart(text, inner, part.offset, part.offset + part.content.length, budget.left);
      const requests = members.map((m) => {
        const r = readRequestPart(text, m, db, budget);
        if (r.method === "GET") throw badPart(text, m.offset, "a GET inside a changeset");
        return r;
      });
      items.push({ kind: "changeset", requests });
    } else {
      items.push({ kind: "request", request: readRequestPart(text, part, db, budget) });
    }
  }
  return items;
}

function checkHttpPart(text: string, part: MimePart): void {
  const type = headerValue(part.headers, "Content-Type");
  if (mediaTypeOf(type) !== "application/http") {
    throw badPart(text, part.headersAt, `Content-Type '${type ?? ""}' is not application/http or multipart/mixed`);
  }
  const cte = headerValue(part.headers, "Content-Transfer-Encoding");
  if (cte !== undefined && cte.toLowerCase() !== "binary") throw badPart(text, part.headersAt, `Content-Transfer-Encoding '${cte}' is not binary`);
}

function readRequestPart(text: string, part: MimePart, db: string, budget: { left: number }): BatchRequestPart {
  if (--budget.left < 0) throw new ODataError(400, "-1015", `Batch request has more than ${MAX_BATCH_PARTS} parts`);
  checkHttpPart(text, part);
  const { first, headers, body } = readHttpMessage(text, part);
  const m = /^([A-Z]+) (\S+) HTTP\/1\.[01]$/.exec(first);
  if (!m) throw badPart(text, part.offset, `not a request line: '${first.slice(0, 40)}'`);
  const method = m[1]!;
  if (!METHODS.has(method)) throw badPart(text, part.offset, `method ${method} is not one of GET POST PATCH PUT DELETE`);
  const url = m[2]!;
  const contentId = headerValue(part.headers, "Content-ID") ?? headerValue(headers, "Content-ID");
  return {
    method: method as BatchMethod,
    url,
    target: normaliseUrl(url, db),
    headers,
    body: Buffer.from(body, "latin1"),
    ...(contentId !== undefined && { contentId }),
  };
}

/** The start line, headers and body of the HTTP message inside an application/http part. */
function readHttpMessage(text: string, part: MimePart): { first: string; headers: [string, string][]; body: string } {
  const start = part.offset;
  const end = start + part.content.length;
  let nl = text.indexOf("\n", start);
  if (nl < 0 || nl >= end) nl = end;
  const first = text.slice(start, nl > start && text[nl - 1] === "\r" ? nl - 1 : nl);
  // "Request line, blank, blank" (section 4) leaves the second blank as the part's closing line break; a request
  // line alone, without its blank line, is accepted too.
  if (nl >= end || nl + 1 >= end) return { first, headers: [], body: "" };
  const { headers, bodyStart } = readHeaders(text, nl + 1, end);
  let body = text.slice(bodyStart, end);
  const lengthText = headerValue(headers, "Content-Length");
  if (lengthText !== undefined) {
    if (!/^\d{1,10}$/.test(lengthText)) throw badPart(text, start, `Content-Length '${lengthText}' is not a number`);
    const length = Number(lengthText);
    // The boundary follows the body (section 4); extra line breaks before it are tolerated, other extra bytes not.
    if (body.length < length || !/^[\r\n]*$/.test(body.slice(length))) {
      throw badPart(text, start, `Content-Length ${length} does not match the ${body.length} bytes before the boundary`);
    }
    body = body.slice(0, length);
  }
  return { first, headers, body };
}

/**
 * An inner URL: absolute (`https://host/fmi/odata/v4/DB/T`), an absolute path, or relative to the batch database
 * (section 4's choice). Returns the target after `/fmi/odata/v4`.
 */
export function normaliseUrl(url: string, db: string): string {
  // `$1`: Content-ID references are not supported (CL); the choice is -1002.
  const ref = /^\$\d+/.exec(url);
  if (ref) throw syntaxError(ref[0]);
  let path: string;
  const abs = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/.exec(url);
  if (abs) path = url.slice(abs[0].length) || "/";
  else if (url.startsWith("/")) path = url;
  else path = `${SERVICE_ROOT_PATH}/${encodeURIComponent(db)}/${url}`;
  if (!path.startsWith(`${SERVICE_ROOT_PATH}/`)) throw incorrectServiceRoot(400);
  const target = path.slice(SERVICE_ROOT_PATH.length);
  const dbEnd = target.slice(1).search(/[/?]/);
  const rawDb = dbEnd < 0 ? target.slice(1) : target.slice(1, dbEnd + 1);
  let inner: string;
  try {
    inner = decodeOnce(rawDb);
  } catch {
    throw databaseMismatch();
  }
  // Case aside, as FileMaker matches names (docs/emulator.md, "Names"); an inner `.fmp12` still differs.
  if (!sameName(inner, db)) throw databaseMismatch();
  return target;
}

/** One part of a `$batch` response, as parseBatchResponse reads it. */
export interface BatchResponsePart {
  readonly status: number;
  readonly reason: string;
  readonly headers: HeaderList;
  readonly body: Uint8Array;
  readonly contentId?: string;
}

export type BatchResponseItem =
  | { readonly kind: "response"; readonly response: BatchResponsePart }
  | { readonly kind: "changeset"; readonly responses: readonly BatchResponsePart[] };

/** Parses a `$batch` response body (the writer's output, or a server's). Throws only ODataError. */
export function parseBatchResponse(body: Uint8Array | string, contentType: string | undefined): BatchResponseItem[] {
  const boundary = multipartBoundary(contentType);
  if (boundary === undefined) throw notMultipart();
  if (byteLength(body) > MAX_BATCH_BYTES) throw new ODataError(413, "-1015", `Batch body exceeds ${MAX_BATCH_BYTES} bytes`);
  const text = toText(body);
  const items: BatchResponseItem[] = [];
  for (const part of splitMultipart(text, boundary, 0, text.length, MAX_BATCH_PARTS)) {
    const inner = multipartBoundary(headerValue(part.headers, "Content-Type"));
    if (inner !== undefined) {
      const members = splitMultipart(text, inner, part.offset, part.offset + part.content.length, MAX_BATCH_PARTS);
      items.push({ kind: "changeset", responses: members.map((m) => readResponsePart(text, m)) });
    } else {
      items.push({ kind: "response", response: readResponsePart(text, part) });
    }
  }
  return items;
}

function readResponsePart(text: string, part: MimePart): BatchResponsePart {
  checkHttpPart(text, part);
  const { first, headers, body } = readHttpMessage(text, part);
  const m = /^HTTP\/1\.[01] (\d{3})(?: (.*))?$/.exec(first);
  if (!m) throw badPart(text, part.offset, `not a status line: '${first.slice(0, 40)}'`);
  const contentId = headerValue(part.headers, "Content-ID") ?? headerValue(headers, "Content-ID");
  return {
    status: Number(m[1]),
    reason: m[2] ?? "",
    headers,
    body: Buffer.from(body, "latin1"),
    ...(contentId !== undefined && { contentId }),
  };
}
