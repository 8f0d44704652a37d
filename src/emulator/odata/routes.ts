// What a route of the OData API is (route-table.ts lists them): a method and a path kind (url-path.ts), and the
// handler answering the call, once the request is signed in, its target parsed, Accept read and its file resolved.

import type { HostedServer } from "../hosted-file/hosted-server.js";
import type { HostedDatabase } from "../hosted-file/store.js";
import type { ReadContext } from "./entity-read.js";
import type { Accepted, PlainHeaders } from "./negotiation.js";
import { ODataError } from "./odata-error.js";
import { parsePrefer } from "./query-options-prefer.js";
import type { QueryOptions } from "./query-options.js";
import type { Reply } from "./reply.js";
import type { ODataPath } from "./url-path.js";
import type { WebhookRegistry } from "./webhook-registry.js";

/** What the OData API serves: the hosted server both APIs share, and the file's webhooks (section 7). */
export interface ODataHost {
  readonly server: HostedServer;
  readonly webhooks: WebhookRegistry;
}

/**
 * One request as the dispatch answers it: a top-level HTTP request, or one part of a `$batch` (batch-serve.ts).
 * `target` is the path and query as sent, from `/fmi/odata/v4` on; signing in is checked before (once per batch).
 */
export interface ODataRequest {
  readonly method: string;
  readonly target: string;
  readonly headers: PlainHeaders;
  readonly body: Buffer | undefined;
  /** A part of a `$batch`: `return=representation` is ignored (section 4's choice: a POST answers 204 + Location). */
  readonly inBatch?: boolean;
}

type Kind = ODataPath["kind"];
/** The parsed target of a path kind. */
export type PathOf<K extends Kind> = Extract<ODataPath, { kind: K }>;

/** A call as a route's handler gets it: the request, its parsed target, what Accept allows, the hosted file it names. */
export interface ODataCall<P extends ODataPath = ODataPath> {
  readonly host: ODataHost;
  readonly request: ODataRequest;
  readonly path: P;
  readonly query: QueryOptions;
  readonly accept: Accepted;
  /** The service root URL answers link to (`http://host:port/fmi/odata/v4`). */
  readonly root: string;
  readonly db: HostedDatabase;
  /** The hosted file's own name (the URL may name it with `.fmp12`, or in another case). */
  readonly hostedName: string;
  /**
   * The database segment as the request's URL wrote it (`Contacts.fmp12`, `contacts`): every URL of the answer names
   * the database so (`@context`, `@id`, `@editLink`, `Location`, nextLinks), as real servers echo it (1.1, 2.3).
   */
  readonly urlDb: string;
}

export type Handler<K extends Kind = Kind> = (call: ODataCall<PathOf<K>>) => Reply | Promise<Reply>;

export interface ODataRoute {
  /** The method, or `*` for a path kind whose handler answers every method itself (and refuses those it has not). */
  readonly method: string;
  readonly kind: Kind;
  readonly handle: Handler;
}

export function route<K extends Kind>(method: string, kind: K, handle: Handler<K>): ODataRoute {
  // The table finds a row by its kind, so its handler only ever gets a path of that kind.
  return { method, kind, handle: handle as unknown as Handler };
}

/** The route answering `method` on a path of `kind`; none is 405, naming what the path is. */
export function matchRoute(routes: readonly ODataRoute[], method: string, kind: Kind): Handler {
  const found = routes.find((r) => r.kind === kind && (r.method === method || r.method === "*"));
  if (found) return found.handle;
  const what = kind === "collection" ? "a collection" : kind === "entity" ? "an entity" : `a ${kind} resource`;
  return () => {
    throw new ODataError(405, "-1002", `Error: ${method} is not supported on ${what} by the emulator's OData API`);
  };
}

/** How records read for this call (entity-read.ts), with the query options given (a write's: only the ignored ones). */
export function readContext(call: ODataCall, query: QueryOptions = call.query): ReadContext {
  const { server } = call.host;
  return { db: call.db, urlDb: call.urlDb, containers: server.containers, root: call.root, annotations: call.accept.annotations, prefer: parsePrefer(call.request.headers.prefer), query, now: server.clock.now(), written: 0 };
}
