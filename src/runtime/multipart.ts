/** What `upload` accepts: a Blob (or File), bytes, a web ReadableStream, or the path of a file to stream (Node only). */
export type UploadSource = Blob | Uint8Array | ReadableStream<Uint8Array> | string;

/**
 * A `multipart/form-data` body with the one part the Data API wants, `upload`: its head, the file's bytes and
 * its tail. Each transport sends the three as it can (a stream, a Blob), never holding a file in memory whole.
 */
export interface MultipartBody {
  contentType: string;
  head: Uint8Array;
  source: UploadSource;
  tail: Uint8Array;
}

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

/** An upload's bytes in order: the multipart head, the file's content, the tail. */
export async function* framed(body: MultipartBody, content: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield body.head;
  yield* content;
  yield body.tail;
}

/** The chunks of a web stream, released when the consumer stops. */
export async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
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
