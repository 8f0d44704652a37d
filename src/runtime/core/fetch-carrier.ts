/**
 * The carrier of runtimes without Node's modules (Workers, Deno, Bun, browsers): global `fetch` (or the caller's),
 * web streams, AbortController; nothing imported from `node:` or undici. Redirects are answers, never followed with
 * the credentials. On Node, `open` (container downloads) goes through here too, with undici's dispatcher.
 */
import { bounded, connectionError, type Scrub } from "./call-bounds.js";
import { ResponseTooLargeError, type FailedCall } from "./protocol-errors.js";
import { headerRecord, joined, type Carrier, type CarrierBounds, type Exchange, type RawAnswer } from "./carrier.js";
import { start } from "./fetch-start.js";

export function fetchCarrier(bounds: CarrierBounds, fetchFunction?: typeof fetch, init: Record<string, unknown> = {}): Carrier {
  // Looked up per call (a mock installed later is used) and called unbound (a browser's fetch needs that).
  const fetchNow = () => fetchFunction ?? globalThis.fetch;
  return {
    send: (exchange, call, scrub) =>
      bounded<RawAnswer>(bounds, call, exchange.signal, (settle) => {
        const controller = new AbortController();
        gather(bounds, fetchNow(), exchange, call, controller.signal, scrub, init).then(
          (answer) => settle(() => answer),
          (error: Error) => {
            settle(() => {
              throw error;
            });
            controller.abort(error);
          },
        );
        return (error) => controller.abort(error);
      }),
    // Loaded on first use: only container downloads read a body as a stream.
    open: async (exchange, call, scrub) => (await import("./open-answer.js")).openAnswer(bounds, fetchNow(), exchange, call, scrub, init),
    close: async () => {},
  };
}

async function gather(bounds: CarrierBounds, fetchFunction: typeof fetch, exchange: Exchange, call: FailedCall, signal: AbortSignal, scrub: Scrub, init: Record<string, unknown>): Promise<RawAnswer> {
  const response = await start(fetchFunction, exchange, call, signal, scrub, init);
  const headers = headerRecord(response.headers);
  const tooLarge = () => new ResponseTooLargeError(response.status, call, bounds.maxResponseBytes);
  if (Number(response.headers.get("content-length")) > bounds.maxResponseBytes) {
    response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let received = 0;
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        throw connectionError(error, call, scrub);
      }
      if (chunk.done) break;
      received += chunk.value.byteLength;
      if (received > bounds.maxResponseBytes) {
        reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      chunks.push(chunk.value);
    }
  }
  return { status: response.status, headers, bytes: joined(chunks, received) };
}
