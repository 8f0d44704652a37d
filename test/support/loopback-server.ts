import { createServer, type RequestListener, type Server, type ServerOptions } from "node:http";
import type { AddressInfo } from "node:net";

// The tests' throwaway HTTP servers: fakes and proxies that answer as no FileMaker Server would (on purpose:
// malformed envelopes, endless bodies, silence, redirects, echoed secrets), or record what a client sent. Each is
// bound to 127.0.0.1 only, on a port the system picks, and close() stops it with its connections (kept-alive,
// hanging or mid-body), so a misbehaving answer can never hold a test file open.

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  port: number;
  /** The node:http server itself, for what a test counts or listens to (connections, upgrades). */
  server: Server;
  /** Stops listening and cuts every connection; resolves once the server has closed. Calling it again is harmless. */
  close(): Promise<void>;
}

/**
 * Starts an HTTP server on 127.0.0.1 (a free port) answering with `handler`; `options` go to createServer, as they
 * would to node:http's (maxHeaderSize, ...). Resolves once it listens.
 */
export async function listenLoopback(handler?: RequestListener): Promise<LoopbackServer>;
export async function listenLoopback(options: ServerOptions, handler?: RequestListener): Promise<LoopbackServer>;
export async function listenLoopback(first?: ServerOptions | RequestListener, second?: RequestListener): Promise<LoopbackServer> {
  const options = typeof first === "function" ? {} : (first ?? {});
  const handler = typeof first === "function" ? first : second;
  const server = handler ? createServer(options, handler) : createServer(options);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    server,
    close: () =>
      (closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      })),
  };
}
