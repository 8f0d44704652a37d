import type { IncomingMessage } from "node:http";
import { validHost } from "./request-host.js";

/**
 * Writes from a page of another origin. A browser sends `Origin` with every request that is not a GET or HEAD, and
 * attaches the Basic credentials it was given for this server (OData's 401 asks for them) even to a page's request
 * of another origin, which needs no preflight when it has no body and no Content-Type of its own (`fetch(url, {
 * method: "POST", mode: "no-cors", credentials: "include" })` runs an OData script). Such a request is refused: an
 * `Origin` that is not the origin of the request's own `Host` (`"null"` included). Clients that are not browsers
 * (Node, Deno, Bun, workerd, curl) send no `Origin`, and a page served by the emulator's own origin names it.
 * GET and HEAD are left alone: they change nothing, and a page of another origin cannot read their answers.
 */
export function foreignOrigin(req: IncomingMessage): string | undefined {
  const origin = req.headers.origin;
  if (origin === undefined || req.method === "GET" || req.method === "HEAD") return undefined;
  const host = validHost(req.headers.host);
  return host !== undefined && sameOrigin(origin, `http://${host}`) ? undefined : origin;
}

function sameOrigin(origin: string, own: string): boolean {
  try {
    return new URL(origin).origin === new URL(own).origin;
  } catch {
    return false;
  }
}
