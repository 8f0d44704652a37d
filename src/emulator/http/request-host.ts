import { isIPv6 } from "node:net";
import type { IncomingMessage } from "node:http";

/**
 * The base URL a client used to reach the emulator, from its `Host` header, as real servers build container URLs
 * from the host the client used (data-api-server.md, section 11). Only a syntactically valid `host[:port]` is taken
 * (a DNS name or IPv4 address, or a bracketed IPv6 address, and a port 1-65535); anything else (a path, a user,
 * spaces, several colons, an empty header) falls back to the address the emulator is bound to, so that a forged
 * Host header cannot put anything but a host name into an answer.
 */
export function requestBaseUrl(req: IncomingMessage, bindUrl: string): string {
  const host = validHost(req.headers.host);
  return host === undefined ? bindUrl : `http://${host}`;
}

const LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
const HOST_NAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);
const MAX_HOST_CHARS = 255;

/** `host[:port]` when the header is exactly that, else undefined. */
export function validHost(header: string | undefined): string | undefined {
  if (header === undefined || header.length === 0 || header.length > MAX_HOST_CHARS) return undefined;
  let name: string;
  let port: string | undefined;
  if (header.startsWith("[")) {
    const close = header.indexOf("]");
    if (close === -1) return undefined;
    name = header.slice(0, close + 1);
    const rest = header.slice(close + 1);
    if (rest !== "" && !rest.startsWith(":")) return undefined;
    port = rest === "" ? undefined : rest.slice(1);
    if (!isIPv6(name.slice(1, -1))) return undefined;
  } else {
    const colon = header.indexOf(":");
    if (colon !== header.lastIndexOf(":")) return undefined;
    name = colon === -1 ? header : header.slice(0, colon);
    port = colon === -1 ? undefined : header.slice(colon + 1);
    if (!HOST_NAME.test(name)) return undefined;
  }
  if (port !== undefined && !(/^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65_535)) return undefined;
  return header;
}
