import type { IncomingMessage, ServerResponse } from "node:http";
import type { HttpApi } from "./server.js";

/**
 * Several APIs on one server: a request whose path is `prefix` or starts with `prefix/` (or `prefix?`) goes to that
 * API, any other to `fallback`. The router reads the request target only, never either API's wire. A request Node
 * refuses (answerMalformed: a request line or headers too long, bad syntax) goes by the target its raw bytes start
 * with, when they start with a request line; else it is the fallback's to answer.
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
    // The response knows its request (Node sets res.req), so a refusal is answered in the wire of its path.
    refuse: (res: ServerResponse, status, reason) => pick(res.req?.url ?? "").refuse(res, status, reason),
    serve: (req: IncomingMessage, res, fault) => pick(req.url ?? "").serve(req, res, fault),
    answerMalformed: (error, socket) => pick(refusedTarget(error) ?? "").answerMalformed(error, socket),
  };
}

/** The start of the request target of a request Node refused (its `rawPacket`: the bytes read of that request). */
function refusedTarget(error: Error): string | undefined {
  const raw = (error as Error & { rawPacket?: unknown }).rawPacket;
  if (!Buffer.isBuffer(raw)) return undefined;
  return /^[A-Z]+ (\/[^\s]*)/.exec(raw.subarray(0, 2048).toString("latin1"))?.[1];
}

/** How long the request line of a refused request is: the bytes before its first line end (all of them when none). */
export function refusedRequestLineLength(error: Error): number | undefined {
  const raw = (error as Error & { rawPacket?: unknown }).rawPacket;
  if (!Buffer.isBuffer(raw)) return undefined;
  const end = raw.indexOf("\r\n");
  return end < 0 ? raw.byteLength : end;
}
