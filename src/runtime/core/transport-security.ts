// Whether credentials would cross the network in clear: shared by the Data API client and the OData client.

/** Whether a URL's host is this machine: localhost, 127.0.0.0/8 or ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || /^127(\.\d{1,3}){3}$/.test(host) || host === "::1" || host === "::ffff:127.0.0.1";
}

export const INSECURE_TRANSPORT_WARNING = "FMGEN_INSECURE_TRANSPORT";

/** Warns about (or refuses, or allows) credentials sent over plain http:// to a host that is not this machine. */
export function checkTransport(url: URL, policy: "warn" | "refuse" | "allow", secrets = "credentials and session tokens"): void {
  if (policy === "allow" || url.protocol !== "http:" || isLoopbackHost(url.hostname)) return;
  const text = `${secrets} would travel unencrypted over http:// to ${url.host}; use https://, or pass insecure: "allow" to accept this`;
  if (policy === "refuse") throw new TypeError(`refusing to connect: ${text}`);
  const node = (globalThis as { process?: { emitWarning?: (text: string, options: { code: string }) => void } }).process;
  if (typeof node?.emitWarning === "function") node.emitWarning(text, { code: INSECURE_TRANSPORT_WARNING });
  else console.warn(`${INSECURE_TRANSPORT_WARNING}: ${text}`);
}
