import { randomBytes } from "node:crypto";
import { openAsBlob } from "node:fs";
import { basename } from "node:path";

/** What `upload` accepts: a Blob (or File), bytes, a web ReadableStream, or the path of a file to stream. */
export type UploadSource = Blob | Uint8Array | ReadableStream<Uint8Array> | string;

export interface MultipartBody {
  contentType: string;
  chunks: () => AsyncGenerator<Uint8Array>;
}

/**
 * A `multipart/form-data` body with the one part the Data API wants, `upload`, streamed: the file's bytes
 * pass through without being held in memory whole (a path is read from disk as it is sent).
 */
export function multipartBody(source: UploadSource, options: { filename?: string; contentType?: string }): MultipartBody {
  const boundary = `----fmgen${randomBytes(12).toString("hex")}`;
  const filename = options.filename ?? (typeof source === "string" ? basename(source) : source instanceof File ? source.name : "upload.bin");
  const type = options.contentType ?? (source instanceof Blob && source.type ? source.type : "application/octet-stream");
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="upload"; filename="${quote(filename)}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    async *chunks() {
      yield head;
      yield* bytesOf(source);
      yield tail;
    },
  };
}

async function* bytesOf(source: UploadSource): AsyncGenerator<Uint8Array> {
  if (source instanceof Uint8Array) {
    yield source;
    return;
  }
  const blob = typeof source === "string" ? await openAsBlob(source) : source instanceof Blob ? source : undefined;
  const stream = blob ? blob.stream() : (source as ReadableStream<Uint8Array>);
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

/** Quotes and line breaks cannot appear raw inside the header's quoted filename. */
function quote(filename: string): string {
  return filename.replace(/["\r\n\\]/g, (c) => encodeURIComponent(c));
}
