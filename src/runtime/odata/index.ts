/**
 * Typed tables over FileMaker Server's OData API: `createODataClient`, `defineTable`, the `f` filter helpers, batches,
 * scripts, schema changes, webhooks, containers and OData's typed errors. This is the Node entry (the "node" export
 * condition): requests go to undici's dispatcher. Every other runtime gets `@fmgen/runtime/odata/fetch`, the same
 * API over global `fetch`. Nothing of the Data API's code is in it.
 *
 * @example
 * <!-- snippet: dir examples/odata -->
 * ```ts
 * import { createODataClient, f } from "@fmgen/runtime/odata";
 * import { Contacts } from "./generated/index.js";
 *
 * const od = createODataClient({ server: "https://fms.example.com", database: "Office", auth: { username: "web", password: process.env.FM_PASSWORD! } });
 * const { value } = await od.table(Contacts).list({ select: ["First Name", "Email"], filter: f.eq("Status", "Active"), top: 10 });
 * ```
 *
 * @module \@fmgen/runtime/odata
 */
import type { Dispatcher } from "undici";
import type { CommonODataClientOptions, ODataClient } from "./api.js";
import { boundsOf } from "./client-caller.js";
import { clientOver } from "./client.js";
import { deferredParts } from "./deferred-calls.js";
import { undiciCarrier } from "../core/undici-carrier.js";

export * from "./public-api.js";

/** What `createODataClient` takes on Node: every common option, and the undici dispatcher requests go through. */
export interface ODataClientOptions<Db extends string = string> extends CommonODataClientOptions<Db> {
  /** undici's dispatcher for every request (a proxy Agent, a MockAgent); default: a keep-alive Agent of the client's own. */
  dispatcher?: Dispatcher;
}

/** The client of one hosted database through its OData API. */
export function createODataClient<const Db extends string>(options: ODataClientOptions<Db>): ODataClient<Db> {
  return clientOver(options, undiciCarrier(boundsOf(options), options.dispatcher), deferredParts);
}
