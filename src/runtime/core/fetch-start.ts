// How both of the fetch carrier's calls start a request: redirects are answers (never followed with the credentials),
// and a fault before the answer is a NetworkError, its message scrubbed.
import { connectionError, type Scrub } from "./call-bounds.js";
import type { FailedCall } from "./protocol-errors.js";
import type { Exchange } from "./carrier.js";

export async function start(fetchFunction: typeof fetch, exchange: Exchange, call: FailedCall, signal: AbortSignal, scrub: Scrub, init: Record<string, unknown>): Promise<Response> {
  try {
    return await fetchFunction(exchange.url, {
      ...init,
      method: exchange.method,
      headers: exchange.headers,
      ...(exchange.body === undefined ? {} : { body: exchange.body }),
      // A stream is sent as it is read: fetch wants that said.
      ...(exchange.body instanceof ReadableStream ? { duplex: "half" } : {}),
      signal,
      redirect: "manual",
    } as RequestInit);
  } catch (error) {
    throw connectionError(error, call, scrub);
  }
}
