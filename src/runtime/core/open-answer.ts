// A carrier's `open`: a request whose answer's body the caller reads as a stream (container downloads), loaded on first
// use by both carriers (through fetch: on Node, with undici's dispatcher).
import { connectionError, stoppedError, type Scrub } from "./call-bounds.js";
import { ResponseTooLargeError, type FailedCall } from "./protocol-errors.js";
import { headerRecord, type CarrierBounds, type Exchange, type OpenAnswer } from "./carrier.js";
import { start } from "./fetch-start.js";

/**
 * The answer's head, and its body as a stream the caller reads: the time limit and the caller's signal hold until the
 * body's last byte (or its cancel), and the body errors past `maxResponseBytes`.
 */
export async function openAnswer(bounds: CarrierBounds, fetchFunction: typeof fetch, exchange: Exchange, call: FailedCall, scrub: Scrub, init: Record<string, unknown>): Promise<OpenAnswer> {
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
  const headers = headerRecord(response.headers);
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
