/**
 * The Node carrier: requests go to an undici dispatcher directly (no stream, no AbortController, one timer each), as
 * the Data API's undici transport sends them. Without a dispatcher of the caller's, a keep-alive Agent of its own,
 * made (and undici loaded) at the first request, closed by `close()`. `open` (container downloads, read as a stream)
 * goes through Node's own fetch with the same dispatcher.
 */
import type { Agent, Dispatcher } from "undici";
import { bounded, connectionError, type Scrub } from "./call-bounds.js";
import { setOwn } from "./own.js";
import { ResponseTooLargeError, type FailedCall } from "./protocol-errors.js";
import { joined, type Carrier, type CarrierBounds, type Exchange, type RawAnswer } from "./carrier.js";

let undici: Promise<typeof import("undici")> | undefined;

export function undiciCarrier(bounds: CarrierBounds, dispatcher?: Dispatcher): Carrier {
  let own: Promise<Agent> | undefined;
  let agent: Agent | undefined;
  const target = (): Dispatcher | Promise<Dispatcher> =>
    dispatcher ?? agent ?? (own ??= (undici ??= import("undici")).then(({ Agent }) => (agent = new Agent({ keepAliveTimeout: 10_000, connections: 16 }))));
  return {
    send: (exchange, call, scrub) => send(bounds, target(), exchange, call, scrub),
    // Loaded on first use: only container downloads read a body as a stream, and the Data API's never come here.
    open: async (exchange, call, scrub) => (await import("./open-answer.js")).openAnswer(bounds, fetch, exchange, call, scrub, { dispatcher: await target() }),
    close: async () => {
      await (await own)?.close();
    },
  };
}

function send(bounds: CarrierBounds, dispatcherOrLoading: Dispatcher | Promise<Dispatcher>, exchange: Exchange, call: FailedCall, scrub: Scrub): Promise<RawAnswer> {
  const url = new URL(exchange.url);
  return bounded<RawAnswer>(bounds, call, exchange.signal, (settle) => {
    let controller: Dispatcher.DispatchController | undefined;
    let stopped: Error | undefined;
    let status = 0;
    let headers: Record<string, string> = {};
    const chunks: Uint8Array[] = [];
    let received = 0;
    const tooLarge = (c: Dispatcher.DispatchController) => {
      const error = new ResponseTooLargeError(status, call, bounds.maxResponseBytes);
      settle(() => {
        throw error;
      });
      c.abort(error);
    };
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c;
        if (stopped) c.abort(stopped);
      },
      onResponseStart(c, statusCode, responseHeaders) {
        status = statusCode;
        headers = {};
        // Through setOwn: a header named "__proto__" (a server's or a proxy's) stays a header.
        for (const [name, value] of Object.entries(responseHeaders)) if (value !== undefined) setOwn(headers, name.toLowerCase(), Array.isArray(value) ? value.join(", ") : value);
        if (Number(headers["content-length"]) > bounds.maxResponseBytes) tooLarge(c);
      },
      onResponseData(c, chunk) {
        received += chunk.byteLength;
        if (received > bounds.maxResponseBytes) tooLarge(c);
        else chunks.push(chunk);
      },
      onResponseEnd() {
        settle(() => ({ status, headers, bytes: joined(chunks, received) }));
      },
      onResponseError(_, error) {
        settle(() => {
          throw connectionError(error, call, scrub);
        });
      },
    };
    const dispatch = (dispatcher: Dispatcher) => {
      if (stopped) return;
      try {
        const body = exchange.body instanceof Blob ? exchange.body.stream() : (exchange.body ?? null);
        dispatcher.dispatch(
          { origin: url.origin, path: url.pathname + url.search, method: exchange.method as Dispatcher.HttpMethod, headers: exchange.headers, body: body as NonNullable<Dispatcher.DispatchOptions["body"]> | null },
          handler,
        );
      } catch (error) {
        handler.onResponseError!(controller!, error as Error);
      }
    };
    if (!(dispatcherOrLoading instanceof Promise)) dispatch(dispatcherOrLoading);
    // undici not loadable is a broken install, not a network fault: said as it is, never retried.
    else
      dispatcherOrLoading.then(dispatch, (error: unknown) =>
        settle(() => {
          throw error;
        }),
      );
    return (error) => {
      stopped = error;
      controller?.abort(error);
    };
  });
}
