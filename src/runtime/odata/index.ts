// @fmgen/runtime/odata on Node (the "node" export condition): requests go to undici's dispatcher.
import type { Dispatcher } from "undici";
import type { CommonODataClientOptions, ODataClient } from "./api.js";
import { boundsOf } from "./client-caller.js";
import { clientOver } from "./client.js";
import { deferredParts } from "./deferred-calls.js";
import { undiciCarrier } from "../undici-carrier.js";

export * from "./public-api.js";

export interface ODataClientOptions<Db extends string = string> extends CommonODataClientOptions<Db> {
  /** undici's dispatcher for every request (a proxy Agent, a MockAgent); default: a keep-alive Agent of the client's own. */
  dispatcher?: Dispatcher;
}

/** The client of one hosted database through its OData API. */
export function createODataClient<const Db extends string>(options: ODataClientOptions<Db>): ODataClient<Db> {
  return clientOver(options, undiciCarrier(boundsOf(options), options.dispatcher), deferredParts);
}
