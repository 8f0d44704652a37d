/**
 * The carrier of runtimes without Node's modules (Workers, Deno, Bun, browsers): global `fetch` (or the caller's),
 * web streams, AbortController; nothing imported from `node:` or undici. Redirects are answers, never followed with
 * the credentials. On Node, `open` (container downloads) goes through here too, with undici's dispatcher.
 */
import { bounded, connectionError, stoppedError, type Scrub } from "../call-bounds.js";
import { ResponseTooLargeError, type FailedCall } from "../protocol-errors.js";
import { joined, type Carrier, type CarrierBounds, type Exchange, type OpenAnswer, type RawAnswer } from "./carrier.js";

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
    open: (exchange, call, scrub) => open(bounds, fetchNow(), exchange, call, scrub, init),
    close: async () => {},
  };
}

async function start(fetchFunction: typeof fetch, exchange: Exchange, call: FailedCall, signal: AbortSignal, scrub: Scrub, init: Record<string, unknown>): Promise<Response> {
  try {
    return await fetchFunction(exchange.url, {
      ...init,
      method: exchange.method,
      headers: exchange.headers,
      ...(exchange.body === undefined ? {} : { body: exchange.body }),
      signal,
      redirect: "manual",
    } as RequestInit);
  } catch (error) {
    throw connectionError(error, call, scrub);
  }
}

async function gather(bounds: CarrierBounds, fetchFunction: typeof fetch, exchange: Exchange, call: FailedCall, signal: AbortSignal, scrub: Scrub, init: Record<string, unknown>): Promise<RawAnswer> {
  const response = await start(fetchFunction, exchange, call, signal, scrub, init);
  const headers: Record<string, string> = Object.fromEntries(response.headers);
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

/**
 * The answer's head, and its body as a stream the caller reads: the time limit and the caller's signal hold until the
 * body's last byte (or its cancel), and the body errors past `maxResponseBytes`.
 */
async function open(bounds: CarrierBounds, fetchFunction: typeof fetch, exchange: Exchange, call: FailedCall, scrub: Scrub, init: Record<string, unknown>): Promise<OpenAnswer> {
  const controller = new AbortController();
  let stopped: Error | undefined;
  const stop = (reason: "timeout" | "aborted") => {
    stopped = stoppedError(reason, call, bounds.timeoutMs, exchange.signal);
    controller.abort(stopped);
  };
  const onAbort = () => stop("aborted");
  const timer = setTimeout(stop, bounds.timeoutMs, "timeout");
  const done = () => {
    clearTimeout(timer);
    exchange.signal?.removeEventListener("abort", onAbort);
  };
  if (exchange.signal?.aborted) {
    done();
    throw stoppedError("aborted", call, bounds.timeoutMs, exchange.signal);
  }
  exchange.signal?.addEventListener("abort", onAbort, { once: true });
  let response: Response;
  try {
    response = await start(fetchFunction, exchange, call, controller.signal, scrub, init);
  } catch (error) {
    done();
    throw stopped ?? error;
  }
  const headers: Record<string, string> = Object.fromEntries(response.headers);
  const tooLarge = () => new ResponseTooLargeError(response.status, call, bounds.maxResponseBytes);
  if (Number(response.headers.get("content-length")) > bounds.maxResponseBytes) {
    done();
    response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  const reader = response.body?.getReader();
  let received = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(out) {
      let chunk: Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>["read"]>> | undefined;
      try {
        chunk = await reader?.read();
      } catch (error) {
        done();
        out.error(stopped ?? connectionError(error, call, scrub));
        return;
      }
      if (!chunk || chunk.done) {
        done();
        out.close();
        return;
      }
      received += chunk.value.byteLength;
      if (received > bounds.maxResponseBytes) {
        done();
        reader?.cancel().catch(() => undefined);
        out.error(tooLarge());
        return;
      }
      out.enqueue(chunk.value);
    },
    async cancel(reason) {
      done();
      await reader?.cancel(reason).catch(() => undefined);
    },
  });
  return { status: response.status, headers, body };
}
