import type { HttpApi, PickApi } from "./server.js";

/**
 * Several APIs on one server: a request whose path is `prefix` or starts with `prefix/` (or `prefix?`) goes to that
 * API, any other to `fallback`. The router reads the request target only, never either API's wire.
 */
export function routeByPrefix(routes: readonly { prefix: string; api: HttpApi }[], fallback: HttpApi): PickApi {
  // The two ways a path goes on past its prefix, spelled once (not a new string per route per request).
  const table = routes.map(({ prefix, api }) => ({ prefix, folder: `${prefix}/`, query: `${prefix}?`, api }));
  return (target) => {
    for (const { prefix, folder, query, api } of table) {
      if (target === prefix || target.startsWith(folder) || target.startsWith(query)) return api;
    }
    return fallback;
  };
}
