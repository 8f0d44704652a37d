/** What `upload` accepts: a Blob (or File), bytes, a web ReadableStream, or the path of a file to stream (Node only). */
export type UploadSource = Blob | Uint8Array | ReadableStream<Uint8Array> | string;

/**
 * A `multipart/form-data` body with the one part the Data API wants, `upload`: its head, the file's bytes and
 * its tail (built by upload.ts). Each transport sends the three as it can (a stream, a Blob), never holding a file in
 * memory whole.
 */
export interface MultipartBody {
  contentType: string;
  head: Uint8Array;
  source: UploadSource;
  tail: Uint8Array;
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
