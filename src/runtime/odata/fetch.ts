/**
 * `@fmgen/runtime/odata` where there is no Node (the "workerd", "deno", "bun", "browser" and "default" export
 * conditions, and the `@fmgen/runtime/odata/fetch` subpath): requests go to global `fetch`, or the `fetch` given in
 * the options. It exports the same API as the Node entry; only {@link ODataClientOptions} differs (`fetch` in place
 * of `dispatcher`). Nothing here imports a `node:` module or undici.
 *
 * @module \@fmgen/runtime/odata/fetch
 */
import type { CommonODataClientOptions, ODataClient } from "./api.js";
import { boundsOf } from "./client-caller.js";
import { clientOver } from "./client.js";
import { deferredParts } from "./deferred-calls.js";
import { fetchCarrier } from "../core/fetch-carrier.js";

export * from "./public-api.js";

/** What `createODataClient` takes where there is no Node: every common option, and the `fetch` requests go through. */
export interface ODataClientOptions<Db extends string = string> extends CommonODataClientOptions<Db> {
  /** The `fetch` every request goes through (default: global `fetch`, looked up per call). */
  fetch?: typeof fetch;
}

/** The client of one hosted database through its OData API. */
export function createODataClient<const Db extends string>(options: ODataClientOptions<Db>): ODataClient<Db> {
  return clientOver(options, fetchCarrier(boundsOf(options), options.fetch), deferredParts);
}
