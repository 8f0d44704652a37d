/**
 * Compile-time checks of `redisTokenStore` (@fmgen/runtime/redis-token-store), checked by `npm run typecheck`
 * (tsconfig.json includes test/): the real node-redis and ioredis clients are accepted as they are, anything without
 * get, set and del is not, and what it makes is a TokenStore for createClient. This file is never run.
 */
import { expectTypeOf } from "vitest";
import { Cluster, Redis } from "ioredis";
import { createClient as createRedisClient, createCluster } from "redis";
import { createClient, type TokenStore } from "@fmgen/runtime";
import { redisTokenStore, type RedisTokenStoreFailure } from "../../src/runtime/redis-token-store.js";

export function clients(): void {
  const nodeRedis = createRedisClient({ url: "redis://127.0.0.1:6379" });
  expectTypeOf(redisTokenStore(nodeRedis)).toEqualTypeOf<TokenStore>();
  redisTokenStore(createCluster({ rootNodes: [{ url: "redis://127.0.0.1:7000" }] }));
  redisTokenStore(new Redis(), { prefix: "app:", ttlMs: 60_000, timeoutMs: 500 });
  redisTokenStore(new Cluster([{ host: "127.0.0.1", port: 7000 }]));
  createClient({ server: "https://fms.example.com", database: "Contacts", auth: { username: "web", password: "pw" }, tokenStore: redisTokenStore(nodeRedis) });
  redisTokenStore(nodeRedis, {
    onError: (error, failure) => {
      expectTypeOf(error).toEqualTypeOf<Error>();
      expectTypeOf(failure).toEqualTypeOf<RedisTokenStoreFailure>();
      expectTypeOf(failure.op).toEqualTypeOf<"get" | "set" | "delete" | "client">();
    },
  });

  // @ts-expect-error a client without del is not a Redis client
  redisTokenStore({ get: async () => null, set: async () => "OK" });
  // @ts-expect-error the options are an object of known names
  redisTokenStore(nodeRedis, { ttl: 1000 });
  // @ts-expect-error a token store is not a Redis client
  redisTokenStore({ get: async () => undefined, set: async () => undefined, delete: async () => undefined });
}
