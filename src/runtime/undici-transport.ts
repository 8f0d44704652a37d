import { openAsBlob } from "node:fs";
import type { Agent, Dispatcher } from "undici";
import { ResponseTooLargeError } from "./protocol-errors.js";
import { chunksOf, framed, type MultipartBody } from "./multipart.js";
import { bounded, callOf, connectionError, parseEnvelope, type Envelope, type Scrub, type Transport, type TransportSettings, type WireRequest } from "./transport.js";

/**
 * undici, loaded at the first request that needs an Agent of the runtime's own rather than at import: its whole
 * module (fetch, WebSocket, caches, mocks) costs a Node start more than the rest of the runtime together, which
 * an app that imports the runtime at start and calls it later, or brings its own dispatcher, need not pay.
 */
let undici: Promise<typeof import("undici")> | undefined;

/**
 * The Node transport: requests go to an undici dispatcher directly, with a handler that gathers the body: no
 * stream, no AbortController, one timer per request (a third of the client's own time per call went to those).
 * Without a dispatcher of the caller's, a keep-alive Agent of its own (made at the first request), closed by `close()`.
 */
export function undiciTransport(settings: TransportSettings, dispatcher?: Dispatcher): Transport {
  let own: Promise<Agent> | undefined;
  // The agent once made: requests after the first dispatch to it directly, not through the promise (a microtask each).
  let agent: Agent | undefined;
  const target = (): Dispatcher | Promise<Dispatcher> =>
    dispatcher ?? agent ?? (own ??= (undici ??= import("undici")).then(({ Agent }) => (agent = new Agent({ keepAliveTimeout: 10_000, connections: 16 }))));
  return {
    send: (req, scrub) => send(settings, target(), req, scrub),
    filePaths: true,
    close: async () => {
      await (await own)?.close();
    },
    settings,
    // Node's own fetch (undici inside), through the caller's dispatcher when there is one.
    fetch: (url, init) => fetch(url, dispatcher ? ({ ...init, dispatcher } as unknown as RequestInit) : init),
  };
}

function send(options: TransportSettings, dispatcherOrLoading: Dispatcher | Promise<Dispatcher>, req: WireRequest, scrub: Scrub | undefined): Promise<Envelope> {
  const call = callOf(req);
  return bounded(options, call, req.signal, (settle) => {
    let controller: Dispatcher.DispatchController | undefined;
    // A stop before the request reached a connection: nothing is sent, or the request is aborted when it does.
    let stopped: Error | undefined;
    let status = 0;
    let headers: Envelope["headers"] = {};
    const chunks: Buffer[] = [];
    let received = 0;
    // Past the bound: fail now and stop the download, never gathering the rest.
    const tooLarge = (c: Dispatcher.DispatchController) => {
      const error = new ResponseTooLargeError(status, call, options.maxResponseBytes);
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
        headers = responseHeaders;
        // A declared length over the bound fails at once.
        if (Number(responseHeaders["content-length"]) > options.maxResponseBytes) tooLarge(c);
      },
      onResponseData(c, chunk) {
        received += chunk.byteLength;
        if (received > options.maxResponseBytes) tooLarge(c);
        else chunks.push(chunk);
      },
      onResponseEnd() {
        settle(() => parseEnvelope(status, headers, Buffer.concat(chunks).toString("utf8"), call, scrub));
      },
      onResponseError(_, error) {
        settle(() => {
          throw connectionError(error, call, scrub);
        });
      },
    };
    const dispatch = (dispatcher: Dispatcher) => {
      // Stopped while undici was loading: nothing is sent.
      if (stopped) return;
      try {
        // undici's documentation lists AsyncIterable bodies for dispatch; its type declarations do not (yet).
        const body = (typeof req.body === "object" ? multipartChunks(req.body) : (req.body ?? null)) as NonNullable<Dispatcher.DispatchOptions["body"]> | null;
        dispatcher.dispatch({ origin: options.origin, path: options.basePath + req.path, method: req.method, headers: req.headers ?? {}, body }, handler);
      } catch (error) {
        // An injected dispatcher may throw rather than report through the handler.
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

/** An upload's bytes as they are sent: a file path is read from disk as it goes. */
async function* multipartChunks(body: MultipartBody): AsyncGenerator<Uint8Array> {
  const source = body.source;
  yield* framed(body, source instanceof Uint8Array ? [source] : chunksOf(typeof source === "string" ? (await openAsBlob(source)).stream() : source instanceof Blob ? source.stream() : source));
}
