import { databaseName, type AnyDatabase, type LayoutOfClient } from "./database.js";
import type { AnyDefinition } from "./definition.js";
import { LayoutClient } from "./layout-client.js";
import { registerSession } from "./client-sessions.js";
import type { DatabaseCalls } from "./database-calls.js";
import type { ContainerFile } from "../core/container-file.js";
import type { DownloadOptions } from "./download.js";
import type { LayoutListing } from "./layout-list.js";
import { DEFAULT_RETRY, type RetryPolicy } from "../core/retry.js";
import { checkAuth, Session, type Auth, type ExternalDataSource } from "./session.js";
import type { TokenStore } from "./token-store.js";
import { pathStep, type Transport, type TransportSettings } from "./transport.js";
import { checkTransport } from "../core/transport-security.js";
import { checkOptions, textOption } from "../core/options-check.js";

/** The options of `createClient` on every runtime; each entry adds how its requests travel. */
export interface CommonClientOptions<Db extends AnyDatabase = string> {
  /**
   * `https://fms.example.com`; the client appends `/fmi/data/{version}`. A URL that already ends in the Data API's
   * path (`https://fms.example.com/fmi/data/vLatest`, as the server's admin console shows it) is taken as well: its
   * version is used unless `version` says otherwise, which is an error.
   */
  server: string;
  /**
   * The hosted file: its generated definition (`database: Contacts`, which types script names and globals), or its
   * name (`database: "Contacts"`, untyped).
   */
  database: Db;
  /**
   * How to sign in: `{ username, password }`, `{ token }` (an existing session token: no re-login is possible),
   * `{ oauth: { requestId, identifier } }`, `{ claris: () => Promise<idToken> }` (FileMaker Cloud) or
   * `{ apiKey, pathPrefix? }` (a proxy's static key: no login).
   */
  auth: Auth;
  /**
   * Where the session token is kept, so that clients in other processes (or machines) signing in with the same
   * credential (account and secret: the key carries a PBKDF2 verifier of the secret) reuse it: `memoryTokenStore()`,
   * `fileTokenStore(path)` of `@fmgen/runtime/file-token-store`, `redisTokenStore(client)` of
   * `@fmgen/runtime/redis-token-store` (across machines; Redis failing degrades to logging in), or any `TokenStore`.
   * Default: none (the token is the client's alone). Clients sharing a session share its globals too. With a store
   * given, `close()` leaves a stored session open for the store's other users; `logout()` ends it. `{ token }` and
   * `{ apiKey }` never log in: they neither read nor write a store. A store that fails fails the call
   * (`tokenStore.set failed: <its message>`); a token already obtained is kept: the next calls use it, and `logout()`
   * and `close()` end it.
   */
  tokenStore?: TokenStore;
  /** The Data API version in the URL (default `vLatest`, or the one `server`'s URL names). */
  version?: "v1" | "v2" | "vLatest";
  /** Credentials for external data sources, sent with the login. */
  fmDataSource?: readonly ExternalDataSource[];
  /** Time limit of each request in ms, from sending (or waiting for a connection) to the last byte of the answer (default 30,000). */
  timeoutMs?: number;
  /**
   * Longest answer body the client reads, in bytes (default 256 MiB). An answer that declares or reaches more is
   * abandoned there (the connection is closed, the rest never read or kept) and the call fails with a
   * `ResponseTooLargeError`, which is never retried. Bounds memory against a broken server or proxy; raise it for
   * pages of very large records.
   */
  maxResponseBytes?: number;
  /**
   * How calls are retried after network faults, proxies' 5xx pages and capacity errors (812, 956); writes are retried
   * only when they cannot have been applied.
   */
  retry?: Partial<RetryPolicy>;
  /** Check every record against the layout's schema before decoding (default true). */
  validate?: boolean;
  /**
   * How dates and timestamps travel (the app always reads and writes ISO values): "us" (default, `MM/DD/YYYY`, every
   * server) or "iso" (`dateformats=2` on get, list, find, create and edit: `YYYY-MM-DD`, find criteria too).
   */
  dateFormat?: "us" | "iso";
  /** Log in again once the token has been idle this long (default 14 minutes; servers expire it at 15). */
  idleRefreshMs?: number;
  /** The clock the idle refresh reads (tests). */
  now?: () => number;
  /**
   * What to do when credentials would travel over plain `http://` to a host that is not loopback: "warn"
   * (default: one warning per client, naming the host, never the password or token: `process.emitWarning`
   * where there is a `process`, `console.warn` elsewhere), "refuse"
   * (createClient throws), "allow" (silence).
   */
  insecure?: "warn" | "refuse" | "allow";
}

/**
 * The client of one hosted database's Data API, from `createClient`: `fm.layout(Definition)` gives a layout's typed
 * calls, and every layout shares the client's one session (logins, the re-login after a 952, the token store).
 * Also lists the file's layouts and scripts, runs scripts and sets globals through the same session, and reads the
 * server's product info and hosted files. A layout's metadata and undecoded records, which only tools need, are
 * read by `@fmgen/runtime/metadata`'s `layoutMetadata(fm, layout)` and `wireRecords`.
 */
export interface FileMakerClient<Db extends AnyDatabase = string> extends LayoutListing, DatabaseCalls<Db> {
  /**
   * The typed client of one layout of the client's database; all layouts share this client's session. With a
   * database definition, a layout whose definition names another database fails to compile (`LayoutOfClient`);
   * with a plain name the signature has no such check, so that it costs the compiler nothing per call.
   */
  layout: [Db] extends [string] ? <D extends AnyDefinition>(definition: D) => LayoutClient<D, Db> : <D extends AnyDefinition>(definition: LayoutOfClient<D, Db>) => LayoutClient<D, Db>;
  /**
   * Downloads a container URL of this client's server (a field's value; any other origin is refused): the file's
   * name, type, size and body, which is read once (`body`, `bytes()` or `blob()`) up to `maxResponseBytes`.
   */
  download(url: string, options?: DownloadOptions): Promise<ContainerFile>;
  /** Ends the session (token in the path); the next call logs in again. */
  logout(options?: { signal?: AbortSignal }): Promise<void>;
  /** Logs out and closes the client's own connection pool (on Node). */
  close(): Promise<void>;
}

/** A client whose requests go through the transport `connect` makes; what each entry's `createClient` calls. */
export function clientOver<Db extends AnyDatabase>(options: CommonClientOptions<Db>, connect: (settings: TransportSettings) => Transport): FileMakerClient<Db> {
  // Both entries' options, their transports' too (dispatcher, fetch): named, with what each was given.
  checkOptions("createClient", options, CLIENT_OPTIONS);
  const server = textOption("createClient: options.server", options.server, HTTP_URL);
  const database = databaseOption(options.database);
  const url = URL.canParse(server) ? new URL(server) : undefined;
  // Credentials in the URL would be dropped (requests carry none) and echoed by errors: refused, never shown. Any "@"
  // is taken for them: a password may hold a "/" or "#", which would end the URL's credentials early.
  if (server.includes("@")) throw new TypeError("createClient: server must not hold credentials (user:password@): pass them in auth");
  if (!url || !/^https?:$/.test(url.protocol)) throw new TypeError(`createClient: options.server must be ${HTTP_URL}, got "${server}"`);
  checkTransport(url, options.insecure ?? "warn");
  const basePath = checkAuth(options.auth) + dataApiPath(options.server, withoutTrailingSlashes(url.pathname), options.version);
  // A "." or ".." step (%2e too) in the proxy's prefix or the version would take requests elsewhere (around the
  // proxy): refused, as in every path segment. (The URL's own path comes parsed, its steps taken.)
  for (const step of basePath.split("/")) pathStep(step, "createClient: auth.pathPrefix or version segment");
  const transport = connect({
    origin: url.origin,
    basePath,
    timeoutMs: options.timeoutMs ?? 30_000,
    maxResponseBytes: options.maxResponseBytes ?? 256 * 1024 * 1024,
  });
  const session = new Session({
    transport,
    database,
    auth: options.auth,
    fmDataSource: options.fmDataSource,
    retry: { ...DEFAULT_RETRY, ...options.retry },
    idleRefreshMs: options.idleRefreshMs ?? 14 * 60_000,
    now: options.now ?? Date.now,
    server: url.origin + basePath,
    tokenStore: options.tokenStore,
  });
  const settings = { database, validate: options.validate ?? true, dateformats: options.dateFormat === "iso" ? (2 as const) : undefined };
  const client: FileMakerClient<Db> = {
    ...clientCalls(() =>
      Promise.all([import("./layout-list.js"), import("./database-calls.js")]).then(([listing, calls]) => ({
        ...listing.layoutListing(session, database),
        ...calls.databaseCalls<Db>(session, database, options.auth),
      })),
    ),
    // The parameter's type adds a compile-time check (LayoutOfClient) that nothing here needs.
    layout: ((definition: AnyDefinition) => new LayoutClient(definition, session, settings)) as FileMakerClient<Db>["layout"],
    download: async (url, opts) => (await import("./download.js")).downloadUrl(session, url, opts),
    logout: (opts) => session.logout(opts?.signal),
    close: async () => {
      try {
        // A session in a store the app gave stays open for the store's other users; one the store never took is ended.
        await session.logout(undefined, true);
      } finally {
        await transport.close();
      }
    },
  };
  registerSession(client, session, database);
  return client;
}

const HTTP_URL = "an http:// or https:// URL";

/** The optional options of both entries, and what each must be when given. */
const CLIENT_OPTIONS: Record<string, string> = {
  tokenStore: "an object",
  version: "v1|v2|vLatest",
  fmDataSource: "an object",
  timeoutMs: "a number",
  maxResponseBytes: "a number",
  retry: "an object",
  validate: "a boolean",
  dateFormat: "us|iso",
  idleRefreshMs: "a number",
  now: "a function",
  insecure: "warn|refuse|allow",
  dispatcher: "an object",
  fetch: "a function",
};

/** The client's calls that belong to no layout's records; most apps never make them. */
const CLIENT_CALLS = ["runScript", "setGlobals", "productInfo", "databases", "layouts", "scripts"] as const;

/**
 * The client's own calls, each loading their code on its first use: an app that never makes them never loads it (on
 * Node, and from bundlers that split at dynamic imports). A failed load is tried again on the next call.
 */
function clientCalls<Calls extends Pick<FileMakerClient<AnyDatabase>, (typeof CLIENT_CALLS)[number]>>(load: () => Promise<Calls>): Calls {
  let loading: ReturnType<typeof load> | undefined;
  const calls: Record<string, unknown> = {};
  for (const name of CLIENT_CALLS) {
    calls[name] = async (...args: unknown[]) => {
      loading ??= load().catch((error: unknown) => {
        loading = undefined;
        throw error;
      });
      return ((await loading)[name] as (...args: unknown[]) => unknown)(...args);
    };
  }
  return calls as Calls;
}

/** The file name `database` gives, checked: a name, or a definition with one. */
function databaseOption(database: unknown): string {
  const name = typeof database === "object" && database !== null ? databaseName(database as AnyDatabase) : database;
  // Blank is empty: a name of spaces is no file's.
  return pathStep(textOption("createClient: options.database", typeof name == "string" ? name.trim() && name : name, "a database name or a generated database definition"), "createClient: database");
}

/**
 * The path of the Data API under the server's URL path: `<path>/fmi/data/<version>`. A path that already ends in
 * `/fmi/data` or `/fmi/data/<version>` is not given the suffix twice; a path with the Data API's path inside it (a
 * URL of one endpoint, pasted whole) is refused, saying what to pass instead.
 */
function dataApiPath(server: string, path: string, version: CommonClientOptions["version"]): string {
  const dataApi = /\/fmi\/data(?:\/(v1|v2|vLatest))?$/i.exec(path);
  if (!dataApi && /\/fmi\/data(?:\/|$)/i.test(path)) {
    throw new TypeError(`server must be the server's URL (such as https://fms.example.com), not the URL of a Data API call: got "${server}"`);
  }
  // The version as the option spells it: v1, v2 or vLatest, however the URL writes it.
  const inUrl = dataApi?.[1]?.toLowerCase().replace("l", "L") as CommonClientOptions["version"];
  if (inUrl !== undefined && version !== undefined && inUrl !== version) {
    throw new TypeError(`server "${server}" names Data API version ${inUrl}, but version is "${version}": pass the server without /fmi/data/${inUrl}, or the same version`);
  }
  return `${dataApi ? path.slice(0, dataApi.index) : path}/fmi/data/${version ?? inUrl ?? "vLatest"}`;
}

/** A path without its trailing slashes; a loop, since /\/+$/ is quadratic on a long run of inner slashes. */
function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (path.charCodeAt(end - 1) === 47) end--;
  return path.slice(0, end);
}

// Moved to transport-security.ts (shared with the OData client); re-exported where apps and tests import them.
export { INSECURE_TRANSPORT_WARNING, isLoopbackHost } from "../core/transport-security.js";
