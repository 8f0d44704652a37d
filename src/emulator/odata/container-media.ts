// What OData's container writes and reads need to know of a file (docs/emulator.md, "Containers and scripts"): its
// media type from its first bytes, its name from a `Content-Disposition` header (RFC 6266, `filename*` per RFC 5987),
// the name a file sent without one gets, and strict base64. Pure: every refusal is an ODataError naming what was wrong.

import { ODataError, quoted } from "./odata-error.js";

/** The media types a binary `PATCH T(k)/Field` takes (3.3: images and PDF). */
export const BINARY_UPLOAD_TYPES: readonly string[] = ["image/gif", "image/png", "image/jpeg", "image/tiff", "application/pdf"];

const ascii = (text: string) => Array.from(text, (c) => c.charCodeAt(0));

interface Signature {
  readonly type: string;
  readonly extension: string;
  readonly at: number;
  readonly bytes: readonly number[];
  /** A second run of bytes that must also match (RIFF's form type, ftyp's brand). */
  readonly and?: { readonly at: number; readonly bytes: readonly number[] };
}

/** Magic bytes, most specific first (3.3: "the media type is inferred from magic bytes"). */
const SIGNATURES: readonly Signature[] = [
  { type: "image/png", extension: "png", at: 0, bytes: [0x89, 0x50, 0x4e, 0x47] },
  { type: "image/jpeg", extension: "jpg", at: 0, bytes: [0xff, 0xd8, 0xff] },
  { type: "image/gif", extension: "gif", at: 0, bytes: ascii("GIF87a") },
  { type: "image/gif", extension: "gif", at: 0, bytes: ascii("GIF89a") },
  { type: "image/tiff", extension: "tif", at: 0, bytes: [0x49, 0x49, 0x2a, 0x00] },
  { type: "image/tiff", extension: "tif", at: 0, bytes: [0x4d, 0x4d, 0x00, 0x2a] },
  { type: "application/pdf", extension: "pdf", at: 0, bytes: ascii("%PDF-") },
  { type: "image/webp", extension: "webp", at: 0, bytes: ascii("RIFF"), and: { at: 8, bytes: ascii("WEBP") } },
  { type: "audio/wav", extension: "wav", at: 0, bytes: ascii("RIFF"), and: { at: 8, bytes: ascii("WAVE") } },
  { type: "image/heic", extension: "heic", at: 4, bytes: ascii("ftypheic") },
  { type: "video/quicktime", extension: "mov", at: 4, bytes: ascii("ftypqt  ") },
  { type: "video/mp4", extension: "mp4", at: 4, bytes: ascii("ftyp") },
  { type: "image/bmp", extension: "bmp", at: 0, bytes: ascii("BM") },
  { type: "audio/mpeg", extension: "mp3", at: 0, bytes: ascii("ID3") },
  { type: "application/zip", extension: "zip", at: 0, bytes: [0x50, 0x4b, 0x03, 0x04] },
  { type: "application/gzip", extension: "gz", at: 0, bytes: [0x1f, 0x8b] },
];

const matches = (bytes: Uint8Array, at: number, want: readonly number[]) => bytes.length >= at + want.length && want.every((b, i) => bytes[at + i] === b);

/** The media type the bytes start with, or undefined when none of {@link SIGNATURES} matches. */
export function sniffMediaType(bytes: Uint8Array): string | undefined {
  return SIGNATURES.find((s) => matches(bytes, s.at, s.bytes) && (s.and === undefined || matches(bytes, s.and.at, s.and.bytes)))?.type;
}

/** The name a file sent without one is stored as (3.3: `Untitled.png`); `Untitled` for a type of no known extension. */
export function untitled(mediaType: string): string {
  const extension = SIGNATURES.find((s) => s.type === mediaType)?.extension;
  return extension === undefined ? "Untitled" : `Untitled.${extension}`;
}

const badDisposition = (why: string, header: string) => new ODataError(400, "-1002", `Error: Content-Disposition '${quoted(header)}': ${why}`);

/**
 * The file name a `Content-Disposition` header gives (`inline; filename=x.png`, `filename="a b.png"`,
 * `filename*=UTF-8''%E2%82%AC.png`; `filename*` wins when both are given), or undefined when it gives none. Only
 * the last path segment is kept (a name, not a path). A malformed header is 400 -1002.
 */
export function dispositionFilename(header: string | undefined): string | undefined {
  if (header === undefined || header.trim() === "") return undefined;
  const params = splitParams(header, header);
  let plain: string | undefined;
  let extended: string | undefined;
  for (const p of params.slice(1)) {
    const eq = p.indexOf("=");
    if (eq < 0) throw badDisposition(`'${quoted(p)}' is not name=value`, header);
    const name = p.slice(0, eq).trim().toLowerCase();
    const value = p.slice(eq + 1).trim();
    if (name === "filename") plain = unquote(value, header);
    else if (name === "filename*") extended = decodeExtended(value, header);
  }
  const name = extended ?? plain;
  if (name === undefined) return undefined;
  const base = name.split(/[/\\]/).pop()!;
  if (base === "" || base === "." || base === "..") throw badDisposition("the file name is empty", header);
  return base;
}

/** Splits at `;` outside double quotes. */
function splitParams(text: string, header: string): string[] {
  const out: string[] = [];
  let quotedRun = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quotedRun && c === "\\") i++;
    else if (c === '"') quotedRun = !quotedRun;
    else if (c === ";" && !quotedRun) {
      out.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  if (quotedRun) throw badDisposition("a quoted string is not closed", header);
  out.push(text.slice(start).trim());
  return out.filter((p, i) => i === 0 || p !== "");
}

function unquote(value: string, header: string): string {
  if (!value.startsWith('"')) return value;
  if (value.length < 2 || !value.endsWith('"')) throw badDisposition("a quoted string is not closed", header);
  return value.slice(1, -1).replace(/\\(.)/g, "$1");
}

/** RFC 5987: `charset'language'percent-encoded`, charset UTF-8 or ISO-8859-1. */
function decodeExtended(value: string, header: string): string {
  const m = /^([A-Za-z0-9!#$%&+^_`{}~-]+)'([A-Za-z0-9-]*)'(.*)$/.exec(value);
  if (!m) throw badDisposition("filename* is not charset'language'value (RFC 5987)", header);
  const charset = m[1]!.toLowerCase();
  const encoded = m[3]!;
  if (!/^(?:[A-Za-z0-9!#$&+.^_`|~-]|%[0-9A-Fa-f]{2})*$/.test(encoded)) throw badDisposition("filename* holds a character that must be percent-encoded", header);
  const bytes = Buffer.from(encoded.replace(/%([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))), "latin1");
  if (charset === "iso-8859-1") return bytes.toString("latin1");
  if (charset !== "utf-8") throw badDisposition(`filename* charset '${quoted(m[1]!)}' is not UTF-8 or ISO-8859-1`, header);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw badDisposition("filename* is not UTF-8", header);
  }
}

/**
 * `attachment; filename="a.png"` (3.3, CNT), with `filename*=UTF-8''…` beside it when the name is not plain ASCII
 * (the quoted form then carries `_` for each other character, so the header stays ASCII).
 */
export function attachmentDisposition(filename: string): string {
  const plain = filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "\\$&");
  const simple = /^[\x20-\x7e]*$/.test(filename);
  return simple ? `attachment; filename="${plain}"` : `attachment; filename="${plain}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** Strict base64 (RFC 4648 section 4, padded; whitespace not allowed), or undefined when the text is not that. */
export function decodeBase64(text: string): Uint8Array | undefined {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined;
  const bytes = Buffer.from(text, "base64");
  // Non-zero padding bits (`QR==` for `QQ==`) decode, but are not canonical: the text was not made from bytes.
  // A copy, not a view: a small Buffer is a slice of Node's shared pool, which a stored file must not pin.
  return bytes.toString("base64") === text ? new Uint8Array(bytes) : undefined;
}
