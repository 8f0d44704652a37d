// @fmgen/runtime on Node (the "node" export condition): requests go to undici's dispatcher.
import type { Dispatcher } from "undici";
import type { AnyDatabase } from "./database.js";
import { clientOver, type CommonClientOptions, type FileMakerClient } from "./client.js";
import { undiciTransport } from "./undici-transport.js";

export * from "./public-api.js";

export interface ClientOptions<Db extends AnyDatabase = string> extends CommonClientOptions<Db> {
  /** An undici dispatcher (a Pool, an Agent, a MockAgent); default: a keep-alive Agent of the client's own. */
  dispatcher?: Dispatcher;
}

/** A client of one database of a FileMaker Server's Data API; its layouts share one session. */
export function createClient<Db extends AnyDatabase>(options: ClientOptions<Db>): FileMakerClient<Db> {
  return clientOver(options, (settings) => undiciTransport(settings, options.dispatcher));
}
