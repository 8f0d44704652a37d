import { idIn } from "./answer-shape.js";
import { containerRepetition } from "./container-field.js";
import type { LayoutSpec } from "./definition.js";
import type { MultipartBody, UploadSource } from "./multipart.js";
import type { CallOptions } from "./paging.js";
import type { Session } from "./session.js";
import { segment, type WireRequest } from "./transport.js";

/** What a layout client's `upload` takes: the repetition, and the file's name and type. */
export interface UploadOptions extends CallOptions {
  /** One-based repetition (default 1). */
  repetition?: number;
  /** The file's name as FileMaker keeps it (default: a path's base name, a `File`'s name, else `upload.bin`). */
  filename?: string;
  /** The file's MIME type (default: a `Blob`'s type, else `application/octet-stream`). */
  contentType?: string;
}

/**
 * A layout client's `upload`, loaded on its first use (most apps never upload): checks the field and repetition, then
 * sends the file as `multipart/form-data` into `<recordPath>/containers/<field>/<repetition>`.
 */
export async function uploadInto(session: Session, definition: LayoutSpec, recordPath: string, field: string, data: UploadSource, options: UploadOptions): Promise<{ modId: string }> {
  const repetition = containerRepetition("", definition, field, options.repetition);
  if (typeof data === "string" && !session.filePaths) {
    throw new TypeError(`layout "${definition.layout}", field "${field}": upload from a file path needs Node; here pass a Blob, a Uint8Array or a ReadableStream`);
  }
  const path = `${recordPath}/containers/${segment(field, "upload: field")}/${repetition}`;
  // The body is built per attempt: a stream can be read once, and an upload is re-sent only after a 952.
  let used = false;
  const envelope = await session.call(() => {
    if (used) throw new Error(`POST ${path}: the upload stream was already sent and cannot be sent again`);
    const body = multipartBody(data, options);
    if (typeof data !== "string" && !(data instanceof Blob) && !(data instanceof Uint8Array)) used = true;
    return { method: "POST", path, headers: { "content-type": body.contentType }, body } satisfies WireRequest;
  }, { idempotent: false, signal: options.signal });
  return { modId: idIn(envelope, { method: "POST", path }, "modId") };
}

/** The body of one upload: a random boundary, the part's head (its file name and content type) and its tail. */
export function multipartBody(source: UploadSource, options: { filename?: string; contentType?: string }): MultipartBody {
  const boundary = `----fmgen${[...crypto.getRandomValues(new Uint8Array(12))].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
  const filename = options.filename ?? (typeof source === "string" ? baseName(source) : source instanceof File ? source.name : "upload.bin");
  const type = options.contentType ?? (source instanceof Blob && source.type ? source.type : "application/octet-stream");
  const utf8 = new TextEncoder();
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    head: utf8.encode(`--${boundary}\r\nContent-Disposition: form-data; name="upload"; filename="${quote(filename)}"\r\nContent-Type: ${type}\r\n\r\n`),
    source,
    tail: utf8.encode(`\r\n--${boundary}--\r\n`),
  };
}

/** The last segment of a file path, as `path.basename` gives it (`\\` separates too on Windows). */
function baseName(path: string): string {
  const separators = (globalThis as { process?: { platform?: string } }).process?.platform === "win32" ? /[\\/]/ : /\//;
  return path.split(separators).filter(Boolean).at(-1) ?? path;
}

/** Quotes and line breaks cannot appear raw inside the header's quoted filename. */
function quote(filename: string): string {
  return filename.replace(/["\r\n\\]/g, (c) => encodeURIComponent(c));
}
