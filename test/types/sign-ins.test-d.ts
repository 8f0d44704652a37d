/**
 * Compile-time checks of createClient's `auth` variants and `tokenStore` (docs/sessions.md: sign-ins and sessions
 * beyond one process), checked by `npm run typecheck` (tsconfig.json includes test/): every `@ts-expect-error` below
 * must be an error, everything else must compile. This file is never run.
 */
import { expectTypeOf } from "vitest";
import { createClient, memoryTokenStore, type Auth, type TokenStore } from "@fmgen/runtime";
import { createClient as createFetchClient } from "@fmgen/runtime/fetch";
import { fileTokenStore, type TokenStore as FileEntryTokenStore } from "../../src/runtime/file-token-store.js";

const server = "https://fms.example.com";
const database = "Contacts";

export function variants(): void {
  createClient({ server, database, auth: { username: "web", password: "pw" } });
  createClient({ server, database, auth: { token: "t" } });
  createClient({ server, database, auth: { oauth: { requestId: "r", identifier: "i" } } });
  createClient({ server, database, auth: { claris: async () => "id-token" } });
  createClient({ server, database, auth: { apiKey: "k" } });
  createClient({ server, database, auth: { apiKey: "k", pathPrefix: "/otto" } });
  createFetchClient({ server, database, auth: { claris: () => Promise.resolve("id-token") }, tokenStore: memoryTokenStore() });

  // @ts-expect-error a password needs its username
  createClient({ server, database, auth: { password: "pw" } });
  // @ts-expect-error OAuth needs both the request id and the identifier
  createClient({ server, database, auth: { oauth: { requestId: "r" } } });
  // @ts-expect-error claris is a function giving an id token, not the token itself
  createClient({ server, database, auth: { claris: "id-token" } });
  // @ts-expect-error the id token comes asynchronously
  createClient({ server, database, auth: { claris: () => "id-token" } });
  // @ts-expect-error apiKey is a string
  createClient({ server, database, auth: { apiKey: 42 } });

  expectTypeOf({ apiKey: "k", pathPrefix: "/otto" } as const).toExtend<Auth>();
  expectTypeOf({ claris: async () => "id-token" }).toExtend<Auth>();
}

export function stores(): void {
  expectTypeOf(memoryTokenStore()).toEqualTypeOf<TokenStore>();
  expectTypeOf(fileTokenStore("/tmp/tokens.json")).toEqualTypeOf<TokenStore>();
  expectTypeOf<FileEntryTokenStore>().toEqualTypeOf<TokenStore>();
  createClient({ server, database, auth: { username: "web", password: "pw" }, tokenStore: fileTokenStore("/tmp/tokens.json") });

  // A store of the app's own: three async methods.
  const redisLike: TokenStore = {
    get: async (key) => (key === "k" ? "token" : undefined),
    set: async () => {},
    delete: async () => {},
  };
  createClient({ server, database, auth: { username: "web", password: "pw" }, tokenStore: redisLike });

  // @ts-expect-error get must be asynchronous
  const sync: TokenStore = { get: (key: string) => key, set: async () => {}, delete: async () => {} };
  // @ts-expect-error delete is required
  const partial: TokenStore = { get: async () => undefined, set: async () => {} };
  // @ts-expect-error a store is an object with get, set and delete, not a path
  createClient({ server, database, auth: { username: "web", password: "pw" }, tokenStore: "/tmp/tokens.json" });
  void sync;
  void partial;
}
