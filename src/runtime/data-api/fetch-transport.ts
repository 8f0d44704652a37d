import { fetchCarrier } from "../core/fetch-carrier.js";
import { chunksOf, framed, type MultipartBody } from "./multipart.js";
import { callOf, envelopeOf, type Transport, type TransportSettings } from "./transport.js";

/**
 * The transport of runtimes without Node's modules (Cloudflare Workers, Deno, Bun, browsers): the fetch carrier (global
 * `fetch` or the caller's, web streams, AbortController and timers; nothing imported from `node:`), each answer's bytes
 * read as an envelope. It keeps the undici transport's guarantees: one timer bounds the whole answer, the caller's
 * signal aborts, the body is read as a stream and abandoned past `maxResponseBytes`, redirects are answers (never
 * followed with the credentials), and faults become the same errors.
 */
export function fetchTransport(settings: TransportSettings, fetchFunction?: typeof fetch): Transport {
  const carrier = fetchCarrier(settings, fetchFunction);
  return {
    send: (req, scrub) => {
      const call = callOf(req);
      const body = typeof req.body === "object" ? uploadBody(req.body) : req.body;
      const exchange = { url: settings.origin + settings.basePath + req.path, method: req.method, headers: req.headers ?? {}, body, signal: req.signal };
      return carrier.send(exchange, call, scrub ?? ((text) => text)).then((answer) => envelopeOf(answer, call, scrub));
    },
    filePaths: false,
    close: async () => {},
    settings,
    fetch: (url, init) => (fetchFunction ?? globalThis.fetch)(url, init),
  };
}

/**
 * An upload's body: bytes and Blobs as one Blob (its length known, nothing copied), a web stream as a stream
 * read while it is sent. (A file path never comes here: the layout client refuses it where the transport cannot
 * read files.)
 */
function uploadBody(body: MultipartBody): Blob | ReadableStream<Uint8Array> {
  const source = body.source as Exclude<MultipartBody["source"], string>;
  if (source instanceof Blob || source instanceof Uint8Array) return new Blob([body.head, source, body.tail] as ConstructorParameters<typeof Blob>[0]);
  const parts = framed(body, chunksOf(source));
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await parts.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await parts.return(undefined);
    },
  });
}
