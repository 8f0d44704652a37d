import type { IncomingMessage, ServerResponse } from "node:http";
import type { HttpApi } from "./server.js";

/**
 * Several APIs on one server: a request whose path is `prefix` or starts with `prefix/` (or `prefix?`) goes to that
 * API, any other to `fallback`. The router reads the request target only, never either API's wire. A request Node
 * refuses before it has a path (answerMalformed) is the fallback's to answer.
 */
export function routeByPrefix(routes: readonly { prefix: string; api: HttpApi }[], fallback: HttpApi): HttpApi {
  const pick = (target: string): HttpApi => {
    for (const { prefix, api } of routes) {
      if (target === prefix || target.startsWith(`${prefix}/`) || target.startsWith(`${prefix}?`)) return api;
    }
    return fallback;
  };
  return {
    takesFaults: (target) => pick(target).takesFaults(target),
    // The response knows its request (Node sets res.req), so a refused Host is answered in the wire of its path.
    refuseHost: (res: ServerResponse, hint) => pick(res.req?.url ?? "").refuseHost(res, hint),
    serve: (req: IncomingMessage, res, fault) => pick(req.url ?? "").serve(req, res, fault),
    answerMalformed: (error, socket) => fallback.answerMalformed(error, socket),
  };
}
