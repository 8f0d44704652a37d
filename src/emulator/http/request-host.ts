import { isIPv6 } from "node:net";
import type { IncomingMessage } from "node:http";

/**
 * The base URL a client used to reach the emulator, from its `Host` header, as real servers build container URLs
 * from the host the client used (docs/emulator.md, "11. Container URLs"). Only a syntactically valid `host[:port]` is
 * taken (a DNS name or IPv4 address, or a bracketed IPv6 address, and a port 1-65535); anything else (a path, a user,
 * spaces, several colons, an empty header) falls back to the address the emulator is bound to, so that a forged Host
 * header cannot put anything but a host name into an answer.
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

/**
 * The host names the emulator answers to (DNS rebinding: a page of another origin whose name now points at this
 * machine sends its own name as `Host`, and is refused): the loopback names `localhost`, `127.0.0.1` and `[::1]`,
 * the address it is bound to (unless a wildcard), and the names given as `allowedHosts` / `--allowed-host`. Names
 * only: any port is taken, as a loopback proxy forwards the Host it was reached by, with its own port.
 */
export class ServedHosts {
  private readonly names: Set<string>;

  constructor(bindHost: string, allowed: readonly string[]) {
    this.names = new Set(["localhost", "127.0.0.1", "[::1]"]);
    const bound = hostNameOf(bindHost.includes(":") && !bindHost.startsWith("[") ? `[${bindHost}]` : bindHost);
    if (bound !== undefined && bound !== "0.0.0.0" && bound !== "[::]") this.names.add(bound);
    for (const name of checkAllowedHosts(allowed)) this.names.add(name);
  }

  /** True when the request names no host (an HTTP/1.0 request, an empty Host) or one of the names served. */
  serves(req: IncomingMessage): boolean {
    const header = req.headers.host;
    if (header === undefined || header === "") return true;
    const name = hostNameOf(header);
    return name !== undefined && this.names.has(name);
  }
}

/** Checks `startEmulator({ allowedHosts })` / `--allowed-host`: host names or IP addresses, no port; normalized. */
export function checkAllowedHosts(allowed: readonly string[]): string[] {
  return allowed.map((entry, i) => {
    const text = typeof entry === "string" && isIPv6(entry) ? `[${entry}]` : entry;
    const name = typeof text === "string" && !/:\d*$/.test(text) ? hostNameOf(text) : undefined;
    if (name === undefined) throw new Error(`allowedHosts[${i}] must be a host name or an IP address without a port, got ${JSON.stringify(entry)}`);
    return name;
  });
}

/** The host name of a valid `host[:port]`, normalized as URLs do (lower case, IPv4 and IPv6 in their usual form). */
function hostNameOf(header: string): string | undefined {
  const host = validHost(header);
  if (host === undefined) return undefined;
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return undefined;
  }
}
