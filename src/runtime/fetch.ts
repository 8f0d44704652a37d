/**
 * `@fmgen/runtime` where there is no Node: Cloudflare Workers, Deno, Bun, browsers (the "workerd", "deno", "bun",
 * "browser" and "default" export conditions resolve `@fmgen/runtime` here), and the `@fmgen/runtime/fetch` subpath.
 * Requests go to global `fetch` (or the `fetch` given in the options). It exports the same API as the Node entry;
 * only {@link ClientOptions} differs (`fetch` in place of `dispatcher`). Nothing here, or in anything it imports,
 * imports a `node:` module or undici (test/runtime/fetch-entry.test.ts bundles it to check).
 *
 * @module \@fmgen/runtime/fetch
 */
import type { AnyDatabase } from "./data-api/database.js";
import { clientOver, type CommonClientOptions, type FileMakerClient } from "./data-api/client.js";
import { fetchTransport } from "./data-api/fetch-transport.js";

export * from "./public-api.js";

/** What `createClient` takes where there is no Node: every common option, and the `fetch` requests go through. */
export interface ClientOptions<Db extends AnyDatabase = string> extends CommonClientOptions<Db> {
  /** The `fetch` to send requests with (default: the global `fetch`, looked up at each request). */
  fetch?: typeof fetch;
}

/** A client of one database of a FileMaker Server's Data API; its layouts share one session. */
export function createClient<Db extends AnyDatabase>(options: ClientOptions<Db>): FileMakerClient<Db> {
  return clientOver(options, (settings) => fetchTransport(settings, options.fetch));
}
