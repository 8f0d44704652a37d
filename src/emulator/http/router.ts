import type { HttpApi, PickApi } from "./server.js";

/**
 * Several APIs on one server: a request whose path is `prefix` or starts with `prefix/` (or `prefix?`) goes to that
 * API, any other to `fallback`. The router reads the request target only, never either API's wire.
 */
export function routeByPrefix(routes: readonly { prefix: string; api: HttpApi }[], fallback: HttpApi): PickApi {
  return (target) => {
    for (const { prefix, api } of routes) {
      if (target === prefix || target.startsWith(`${prefix}/`) || target.startsWith(`${prefix}?`)) return api;
    }
    return fallback;
  };
}
