import { ResponseTooLargeError, type FailedCall } from "./protocol-errors.js";
import { chunksOf, framed, type MultipartBody } from "./multipart.js";
import { bounded, callOf, connectionError, parseEnvelope, type Envelope, type Scrub, type Transport, type TransportSettings, type WireRequest } from "./transport.js";

/**
 * The transport of runtimes without Node's modules (Cloudflare Workers, Deno, Bun, browsers): global `fetch`
 * (or the caller's), web streams, AbortController and timers; nothing imported from `node:`. It keeps the
 * undici transport's guarantees: one timer bounds the whole answer, the caller's signal aborts, the body is read
 * as a stream and abandoned past `maxResponseBytes`, redirects are answers (never followed with the credentials),
 * and faults become the same errors.
 */
export function fetchTransport(settings: TransportSettings, fetchFunction?: typeof fetch): Transport {
  return {
    // Looked up per call (a mock installed later is used) and called unbound (a browser's fetch needs that).
    send: (req, scrub) => send(settings, fetchFunction ?? globalThis.fetch, req, scrub),
    filePaths: false,
    close: async () => {},
    settings,
    fetch: (url, init) => (fetchFunction ?? globalThis.fetch)(url, init),
  };
}

function send(options: TransportSettings, fetchFunction: typeof fetch, req: WireRequest, scrub: Scrub | undefined): Promise<Envelope> {
  const call = callOf(req);
  return bounded(options, call, req.signal, (settle) => {
    const controller = new AbortController();
    exchange(options, fetchFunction, req, call, controller.signal, scrub).then(
      (envelope) => settle(() => envelope),
      (error: Error) => {
        // Settled at once, whether or not the fetch in use honours its signal; the abort then stops the exchange.
        settle(() => {
          throw error;
        });
        controller.abort(error);
      },
    );
    return (error) => controller.abort(error);
  });
}

async function exchange(options: TransportSettings, fetchFunction: typeof fetch, req: WireRequest, call: FailedCall, signal: AbortSignal, scrub: Scrub | undefined): Promise<Envelope> {
  const body = typeof req.body === "object" ? uploadBody(req.body) : req.body;
  let response: Response;
  try {
    response = await fetchFunction(options.origin + options.basePath + req.path, {
      method: req.method,
      headers: req.headers ?? {},
      ...(body === undefined ? {} : { body }),
      // A stream is sent as it is read: fetch wants that said.
      ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
      signal,
      redirect: "manual",
    } as RequestInit);
  } catch (error) {
    throw connectionError(error, call, scrub);
  }
  // Names lower-cased, as the Headers object keeps them.
  const headers: Envelope["headers"] = Object.fromEntries(response.headers);
  const tooLarge = () => new ResponseTooLargeError(response.status, call, options.maxResponseBytes);
  // A declared length over the bound fails at once.
  if (Number(response.headers.get("content-length")) > options.maxResponseBytes) {
    response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  // The bytes as they were sent (a byte order mark kept, as JSON.parse then refuses it on every transport).
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  let text = "";
  if (response.body) {
    const reader = response.body.getReader();
    let received = 0;
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        throw connectionError(error, call, scrub);
      }
      if (chunk.done) break;
      received += chunk.value.byteLength;
      // Past the bound: stop the download, never gathering the rest.
      if (received > options.maxResponseBytes) {
        reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      text += decoder.decode(chunk.value, { stream: true });
    }
  }
  return parseEnvelope(response.status, headers, text + decoder.decode(), call, scrub);
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
