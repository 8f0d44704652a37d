/**
 * The runtime that apps and fmgen's generated modules import: `createClient`, layouts' typed calls, finds and the `q`
 * helpers, scripts, globals, uploads and downloads, token stores, typed errors. This is the Node entry (the "node"
 * export condition): requests go to undici's dispatcher. Every other runtime (the "workerd", "deno", "bun", "browser"
 * and "default" conditions) gets `@fmgen/runtime/fetch`, which exports the same API over global `fetch`.
 *
 * @example
 * ```ts
 * import { createClient, q } from "@fmgen/runtime";
 * import { Contact, Contacts } from "./generated/index.js";
 *
 * const fm = createClient({ server: "https://fms.example.com", database: Contacts, auth: { username: "web", password: process.env.FM_PASSWORD! } });
 * const contacts = fm.layout(Contact);
 * const { data } = await contacts.find({ query: [{ "Last Name": q.beginsWith("Love") }], limit: 10 });
 * ```
 *
 * @module \@fmgen/runtime
 */
import type { Dispatcher } from "undici";
import type { AnyDatabase } from "./data-api/database.js";
import { clientOver, type CommonClientOptions, type FileMakerClient } from "./data-api/client.js";
import { undiciTransport } from "./data-api/undici-transport.js";

export * from "./public-api.js";

/** What `createClient` takes on Node: every common option, and the undici dispatcher requests go through. */
export interface ClientOptions<Db extends AnyDatabase = string> extends CommonClientOptions<Db> {
  /** An undici dispatcher (a Pool, an Agent, a MockAgent); default: a keep-alive Agent of the client's own. */
  dispatcher?: Dispatcher;
}

/** A client of one database of a FileMaker Server's Data API; its layouts share one session. */
export function createClient<Db extends AnyDatabase>(options: ClientOptions<Db>): FileMakerClient<Db> {
  return clientOver(options, (settings) => undiciTransport(settings, options.dispatcher));
}
