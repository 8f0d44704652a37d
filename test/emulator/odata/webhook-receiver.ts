import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One POST a receiver got. */
export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

/**
 * A webhook endpoint on 127.0.0.1 for the tests: records every request and answers each with the next status of
 * `statuses` (the last one repeats; default 200). close() stops it, connections included.
 */
export class Receiver {
  readonly got: Received[] = [];
  statuses: number[];
  private server!: Server;
  url = "";

  private constructor(statuses: number[]) {
    this.statuses = statuses;
  }

  static async start(statuses: number[] = [200]): Promise<Receiver> {
    const r = new Receiver(statuses);
    r.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
        r.got.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
        const status = r.statuses.length > 1 ? r.statuses.shift()! : (r.statuses[0] ?? 200);
        res.writeHead(status, { "Content-Type": "text/plain" });
        res.end(String(status));
      });
    });
    await new Promise<void>((resolve) => r.server.listen(0, "127.0.0.1", resolve));
    r.url = `http://127.0.0.1:${(r.server.address() as AddressInfo).port}`;
    return r;
  }

  /** Waits (at most `ms`) until `n` requests have come; returns them. */
  async wait(n: number, ms = 5_000): Promise<Received[]> {
    await until(() => this.got.length >= n, ms, () => `${n} deliveries, got ${this.got.length}`);
    return this.got.slice(0, n);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

/** Polls `test` every 10 ms until it holds, failing after `ms`. */
export async function until(test: () => boolean, ms = 5_000, what: () => string = () => "the condition"): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
