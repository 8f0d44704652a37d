/**
 * A {@link TokenStore} over a Redis client the app made and connected (node-redis v4 and later, or ioredis), for
 * processes on several machines. It imports neither client (the app's is used through its get, set and del) and no
 * `node:` module, so it loads on every entry, fetch-only runtimes included.
 *
 * @module \@fmgen/runtime/redis-token-store
 */
import type { TokenStore } from "./data-api/token-store.js";

export type { TokenStore } from "./data-api/token-store.js";

/**
 * What the store calls: the `get`, `set` and `del` that node-redis and ioredis clients (and their cluster clients)
 * have, and their `on("error")` when there is one.
 */
export interface RedisClientLike {
  /** Reads a key: the token, or null. */
  get(key: string): Promise<unknown>;
  /** Stores a token under a key, with the store's expiry when it has `ttlMs`. */
  set(key: string, value: string, ...expiry: never[]): Promise<unknown>;
  /** Deletes a key (a logout). */
  del(key: string): Promise<unknown>;
}

/** What went wrong with Redis: a command that failed or outlasted `timeoutMs`, or the client's `error` event. */
export interface RedisTokenStoreFailure {
  /** The store's operation that failed, or `client` for the client's own `error` event. */
  op: "get" | "set" | "delete" | "client";
  /** A command that failed, or one that outlasted `timeoutMs`. */
  kind: "error" | "timeout";
}

/** What `redisTokenStore` takes: key prefix, token lifetime, command time limit and the failure callback. */
export interface RedisTokenStoreOptions {
  /** What every key starts with (default `"fmgen:"`): the store's keys apart from the app's own. */
  prefix?: string;
  /**
   * How long Redis keeps a token (ms, from the `set` that stored it; default: until deleted). A token outlived by its
   * session costs one 952 answer and one login; one dropped while its session lives costs a login of the next
   * process to start. node-redis and ioredis take it differently (`{ PX }` against `"PX", ms`): the client is told
   * apart by its `isOpen` (node-redis) or `status` (ioredis).
   */
  ttlMs?: number;
  /**
   * How long one command may take before the store gives up on it (ms, default 1,000): a client whose Redis is gone
   * queues commands until it comes back (node-redis, forever), and a call must not wait for that. A command given up
   * on may still reach Redis later: at worst it stores a token that has died since, which costs one 952 and one login.
   */
  timeoutMs?: number;
  /**
   * Told of each failure (the error never holds a token or a key). The store goes on without Redis, as without a
   * store: a get finds nothing (the client logs in), a set or delete is skipped. Default: one `console.warn` per
   * failure kind (op and kind) for the store's life.
   */
  onError?: (error: Error, failure: RedisTokenStoreFailure) => void;
}

/**
 * A token store in Redis, shared by every process given a client of the same Redis: `<prefix><key>` holds the token.
 * Unlike a store that fails the call, Redis failing never fails one: a get that fails or outlasts `timeoutMs` finds
 * nothing, so the client logs in; a set or delete that does is skipped; each is reported to `onError`. So a Redis
 * gone away degrades to one login per process, never to a failed call or an unhandled error. The store listens to the
 * client's `error` events (reported as op `client`): node-redis ends the process on one nobody listens to. Each store
 * adds one listener: make one store per client and keep it, not one per request.
 *
 * @example
 * ```ts
 * import { createClient as createRedisClient } from "redis";
 * import { redisTokenStore } from "@fmgen/runtime/redis-token-store";
 *
 * const redis = createRedisClient({ url: process.env.REDIS_URL! });
 * const tokenStore = redisTokenStore(redis, { ttlMs: 24 * 60 * 60_000 }); // listens to `error` before connecting
 * await redis.connect();
 * const fm = createClient({ server, database: Contacts, auth, tokenStore });
 * ```
 */
export function redisTokenStore(client: RedisClientLike, options: RedisTokenStoreOptions = {}): TokenStore {
  const named = (what: string) => new TypeError(`redisTokenStore: ${what}`);
  const any = client as unknown as Record<string, unknown>;
  if (!client || !["get", "set", "del"].every((m) => typeof any[m] == "function")) throw named("client must have get, set and del methods (a node-redis or ioredis client)");
  if (typeof options != "object" || !options) throw named("options must be an object");
  const { prefix = "fmgen:", ttlMs, timeoutMs = 1_000, onError } = options;
  if (typeof prefix != "string") throw named("options.prefix must be a string");
  if (typeof timeoutMs != "number" || !(timeoutMs > 0 && timeoutMs < 2 ** 31)) throw named("options.timeoutMs must be a number of milliseconds above 0");
  if (onError !== undefined && typeof onError != "function") throw named("options.onError must be a function");
  // The arguments after key and value that make SET expire the key, in the client's own shape.
  let expiry: unknown[] = [];
  if (ttlMs !== undefined) {
    if (!(Number.isSafeInteger(ttlMs) && ttlMs > 0)) throw named("options.ttlMs must be a whole number of milliseconds above 0");
    if (typeof any.isOpen == "boolean") expiry = [{ PX: ttlMs }];
    else if (typeof any.status == "string") expiry = ["PX", ttlMs];
    else throw named("options.ttlMs needs a node-redis client (isOpen) or an ioredis client (status): they take SET's PX differently");
  }
  const warned = new Set<string>();
  const report = (failure: RedisTokenStoreFailure, message: string) => {
    const error = new Error(`redisTokenStore: ${failure.op} ${message}`);
    try {
      if (onError) onError(error, failure);
      else if (!warned.has(failure.op + failure.kind)) {
        warned.add(failure.op + failure.kind);
        console.warn(`${error.message}; signing in without the store (warned once per kind of failure)`);
      }
    } catch {
      // An onError that throws must not turn a degraded store into a failed call.
    }
  };
  if (typeof any.on == "function") {
    (any.on as (event: string, listener: (error: unknown) => void) => void).call(client, "error", (error) => report({ op: "client", kind: "error" }, `error: ${(error as Error)?.message ?? error}`));
  }
  /** What `command` resolves to within timeoutMs; undefined (reported) when it fails or takes longer. */
  const bounded = (op: "get" | "set" | "delete", secrets: string[], command: () => Promise<unknown>) =>
    new Promise<unknown>((resolve) => {
      let settled = false;
      const fail = (kind: RedisTokenStoreFailure["kind"], message: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        // Neither the token nor the key (its verifier) in what is reported: a Redis error may quote a command.
        for (const secret of secrets) if (secret) message = message.split(secret).join("[redacted]");
        report({ op, kind }, message);
        resolve(undefined);
      };
      const timer = setTimeout(() => fail("timeout", `timed out after ${timeoutMs} ms`), timeoutMs);
      // A command given up on settles later into nothing: its rejection is handled here, never unhandled.
      new Promise<unknown>((run) => run(command())).then(
        (value) => {
          if (!settled) (settled = true), clearTimeout(timer), resolve(value);
        },
        (error: unknown) => fail("error", `failed: ${(error as Error)?.message ?? error}`),
      );
    });
  return {
    get: async (key) => {
      const token = await bounded("get", [prefix + key], () => client.get(prefix + key));
      // A client made to answer buffers (or anything but text) shares nothing: said, not silently ignored.
      if (token != null && typeof token != "string") report({ op: "get", kind: "error" }, `answered ${typeof token}, not a string: give the store a client that answers strings`);
      return typeof token == "string" ? token : undefined;
    },
    set: async (key, token) => void (await bounded("set", [token, prefix + key], () => client.set(prefix + key, token, ...(expiry as never[])))),
    delete: async (key) => void (await bounded("delete", [prefix + key], () => client.del(prefix + key))),
  };
}
