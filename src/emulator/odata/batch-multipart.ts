// multipart/mixed framing for `$batch` (docs/emulator.md, "`$batch`"; RFC 2046 5.1), shared by the request
// parser, the response parser and the writers. The text is the body decoded as latin1, so one character is one byte
// and Content-Length counts characters. CRLF is the contract's line ending; a bare LF is accepted too (choice: clients
// assembled by hand send LF), also mixed.

import { ODataError } from "./odata-error.js";

/** Largest `$batch` body read (choice): larger → 413 -1015. */
export const MAX_BATCH_BYTES = 16 * 1024 * 1024;
/** Most requests in one `$batch`, changeset members included (choice): more → 400 -1015. */
export const MAX_BATCH_PARTS = 1000;

export type HeaderList = readonly (readonly [name: string, value: string])[];

export interface MimePart {
  readonly headers: HeaderList;
  /** What follows the blank line after the part headers, up to (not including) the line break before the boundary. */
  readonly content: string;
  /** Where `content` starts in the whole body, for line numbers in errors. */
  readonly offset: number;
  /** Where the part's headers start, likewise. */
  readonly headersAt: number;
}

/** -1015, the section 4 message: "Expected batch boundary at '{}...' batch body near line:1". */
export function badBody(text: string, at: number, status = 400): ODataError {
  const line = text.slice(at).split(/\r?\n/, 1)[0]!.slice(0, 20);
  return new ODataError(status, "-1015", `Expected batch boundary at '${line}...' batch body near line:${lineOf(text, at)}`);
}

/** -1015 with what is wrong, for a part whose framing was found but whose content is not a request. */
export function badPart(text: string, at: number, what: string): ODataError {
  return new ODataError(400, "-1015", `Malformed batch part near line:${lineOf(text, at)}: ${what}`);
}

export function lineOf(text: string, at: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < at; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/**
 * The `boundary` parameter of a `multipart/mixed` Content-Type, or undefined when the type is not multipart/mixed or
 * has no usable boundary (RFC 2046: 1–70 characters).
 */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  const [type, ...params] = contentType.split(";");
  if (type!.trim().toLowerCase() !== "multipart/mixed") return undefined;
  for (const p of params) {
    const eq = p.indexOf("=");
    if (eq < 0 || p.slice(0, eq).trim().toLowerCase() !== "boundary") continue;
    let value = p.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (/^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/.test(value)) return value;
    return undefined;
  }
  return undefined;
}

/** Is `text[at…]` the rest of a delimiter line: optional `--`, spaces or tabs, then a line end or the end? */
function delimiterEnd(text: string, at: number): { end: number; close: boolean } | undefined {
  let i = at;
  const close = text.startsWith("--", i);
  if (close) i += 2;
  while (text[i] === " " || text[i] === "\t") i++;
  if (i === text.length) return { end: i, close };
  if (text[i] === "\n") return { end: i + 1, close };
  if (text[i] === "\r" && text[i + 1] === "\n") return { end: i + 2, close };
  return undefined;
}

/**
 * Splits `text.slice(start, stop)` into parts at `--boundary` lines. Leading blank lines are skipped; anything else
 * before the first boundary, a missing close delimiter, or a part without its blank line → -1015.
 */
export function splitMultipart(text: string, boundary: string, start: number, stop: number, maxParts: number): MimePart[] {
  const dash = `--${boundary}`;
  let i = start;
  while (i < stop && (text[i] === "\n" || (text[i] === "\r" && text[i + 1] === "\n"))) i += text[i] === "\n" ? 1 : 2;
  if (!text.startsWith(dash, i) || i + dash.length > stop) throw badBody(text, i);
  let d = delimiterEnd(text, i + dash.length);
  if (d === undefined) throw badBody(text, i);
  // A batch of no parts: the close delimiter alone (choice; RFC 2046 wants one part, the writer writes this).
  if (d.close) return [];
  const parts: MimePart[] = [];
  let pos = d.end;
  for (;;) {
    // The next delimiter: a line break, then `--boundary`, then the rest of a delimiter line.
    let search = pos;
    let found = -1;
    let lineBreak = -1;
    while (search <= stop) {
      const at = text.indexOf(dash, search);
      if (at < 0 || at + dash.length > stop) break;
      const before = at === pos ? pos : text[at - 1] === "\n" ? at - 1 : -1;
      if (before >= 0) {
        const end = delimiterEnd(text, at + dash.length);
        if (end !== undefined && end.end <= stop + 2) {
          found = at;
          lineBreak = at === pos ? pos : text[before - 1] === "\r" ? before - 1 : before;
          d = end;
          break;
        }
      }
      search = at + 1;
    }
    if (found < 0) throw badBody(text, Math.min(stop, text.length));
    if (parts.length >= maxParts) throw new ODataError(400, "-1015", `Batch request has more than ${maxParts} parts`);
    parts.push(readPart(text, pos, lineBreak));
    pos = d!.end;
    if (d!.close) return parts;
  }
}

function readPart(text: string, start: number, end: number): MimePart {
  const { headers, bodyStart } = readHeaders(text, start, end);
  return { headers, content: text.slice(bodyStart, end), offset: bodyStart, headersAt: start };
}

/** Header lines from `start` to the first blank line; -1015 when there is none or a line is not `Name: value`. */
export function readHeaders(text: string, start: number, end: number): { headers: [string, string][]; bodyStart: number } {
  const headers: [string, string][] = [];
  let i = start;
  for (;;) {
    if (i >= end) throw badPart(text, i, "no blank line after the headers");
    let nl = text.indexOf("\n", i);
    if (nl < 0 || nl >= end) nl = end;
    const line = text.slice(i, nl > i && text[nl - 1] === "\r" ? nl - 1 : nl);
    const next = Math.min(nl + 1, end);
    if (line === "") {
      // A blank last line with no line break ends the headers too (a body-less part written as "…\r\n\r\n").
      return { headers, bodyStart: nl >= end ? end : next };
    }
    const colon = line.indexOf(":");
    if (colon <= 0 || !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(line.slice(0, colon))) throw badPart(text, i, `not a header line: '${line.slice(0, 40)}'`);
    if (headers.length >= 100) throw badPart(text, i, "more than 100 headers");
    headers.push([line.slice(0, colon), line.slice(colon + 1).trim()]);
    if (nl >= end) throw badPart(text, i, "no blank line after the headers");
    i = next;
  }
}

export function headerValue(headers: HeaderList, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [n, v] of headers) if (n.toLowerCase() === lower) return v;
  return undefined;
}
