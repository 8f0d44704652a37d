import { openAsBlob } from "node:fs";
import type { Dispatcher } from "undici";
import { undiciCarrier } from "../core/undici-carrier.js";
import { chunksOf, framed, type MultipartBody } from "./multipart.js";
import { callOf, envelopeOf, type Transport, type TransportSettings } from "./transport.js";

/**
 * The Node transport: requests go to an undici dispatcher directly (the carrier: no stream, no AbortController, one
 * timer per request), and each answer's bytes are read as an envelope. Without a dispatcher of the caller's, a
 * keep-alive Agent of its own (made, and undici loaded, at the first request), closed by `close()`.
 */
export function undiciTransport(settings: TransportSettings, dispatcher?: Dispatcher): Transport {
  const carrier = undiciCarrier(settings, dispatcher);
  return {
    send: (req, scrub) => {
      const call = callOf(req);
      const body = typeof req.body === "object" ? multipartChunks(req.body) : req.body;
      const exchange = { url: settings.origin + settings.basePath + req.path, method: req.method, headers: req.headers ?? {}, body, signal: req.signal };
      return carrier.send(exchange, call, scrub ?? ((text) => text)).then((answer) => envelopeOf(answer, call, scrub));
    },
    filePaths: true,
    close: () => carrier.close(),
    settings,
    // Node's own fetch (undici inside), through the caller's dispatcher when there is one.
    fetch: (url, init) => fetch(url, dispatcher ? ({ ...init, dispatcher } as unknown as RequestInit) : init),
  };
}

/** An upload's bytes as they are sent: a file path is read from disk as it goes. */
async function* multipartChunks(body: MultipartBody): AsyncGenerator<Uint8Array> {
  const source = body.source;
  yield* framed(body, source instanceof Uint8Array ? [source] : chunksOf(typeof source === "string" ? (await openAsBlob(source)).stream() : source instanceof Blob ? source.stream() : source));
}
