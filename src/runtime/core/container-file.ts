// A container's file as both APIs' downloads hand it out: its name from Content-Disposition (never a path), its type and
// size from the answer's headers, its body read once. Each API opens and bounds the body its own way.
import { drain } from "./carrier.js";

/**
 * A container's file, its body not yet read: read it once, as `body` (a stream), `bytes()` or `blob()`. Reading stops
 * with a ResponseTooLargeError past the client's `maxResponseBytes`, and with a NetworkError when the call's signal
 * aborts (and, on the OData client, when its `timeoutMs` runs out: there it bounds the call to the body's last byte).
 */
export interface ContainerFile {
  /**
   * The file's name: Content-Disposition's, else the Data API's URL's last segment, OData's `Untitled`; never a path
   * (no "/" or "\\").
   */
  name: string;
  /** Content-Type (default application/octet-stream). */
  type: string;
  /** Content-Length, when the server gives it (`undefined` when it streams without one). */
  size: number | undefined;
  /** The bytes as a stream, for passing on without holding the file in memory. */
  body: ReadableStream<Uint8Array>;
  /** Reads the whole file into memory. */
  bytes(): Promise<Uint8Array>;
  /** Reads the whole file into a `Blob` of its type. */
  blob(): Promise<Blob>;
}

/** The file of an answer: `type` its Content-Type (default application/octet-stream), `body` its bounded body. */
export function containerFile(name: string, type: string | null | undefined, size: number | undefined, body: ReadableStream<Uint8Array>): ContainerFile {
  const mediaType = type || "application/octet-stream";
  const bytes = (): Promise<Uint8Array> => drain(body);
  return { name, type: mediaType, size, body, bytes, blob: async () => new Blob([await bytes()] as ConstructorParameters<typeof Blob>[0], { type: mediaType }) };
}

/** Content-Length as a size: undefined when absent or not a whole number. */
export function sizeIn(contentLength: string | null | undefined): number | undefined {
  const length = Number(contentLength ?? NaN);
  return Number.isSafeInteger(length) ? length : undefined;
}

/**
 * The name a Content-Disposition gives (`filename*`, RFC 5987, before `filename`), else `segment` (a URL's last path
 * segment, percent-encoded); only its last path part, control characters dropped: never a path, "." or "..".
 * Undefined when neither gives one.
 */
export function fileNameIn(disposition: string | null | undefined, segment?: string): string | undefined {
  const extended = /filename\*\s*=\s*[^']*'[^']*'([^;]+)/i.exec(disposition ?? "")?.[1];
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/i.exec(disposition ?? "");
  const name = extended ? decoded(extended.trim()) : plain ? (plain[1]?.replace(/\\(.)/g, "$1") ?? plain[2]!.trim()) : segment && decoded(segment);
  const last = name?.split(/[/\\]/).pop()!.replace(/[\u0000-\u001f\u007f]/g, "");
  return last === undefined || /^\.{0,2}$/.test(last) ? undefined : last;
}

/** Percent-decoded text; the text as it is when it is not percent-encoding after all. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
