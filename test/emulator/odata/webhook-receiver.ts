import type { IncomingHttpHeaders } from "node:http";
import { listenLoopback, type LoopbackServer } from "../../support/loopback-server.js";

/** One POST a receiver got. */
export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
  /** The body as it came, byte for byte (JSON.parse rounds a long number token). */
  text: string;
}

/**
 * A webhook endpoint on 127.0.0.1 for the tests: records every request and answers each with the next status of
 * `statuses` (the last one repeats; default 200). close() stops it, connections included.
 */
export class Receiver {
  readonly got: Received[] = [];
  statuses: number[];
  private server!: LoopbackServer;
  url = "";

  private constructor(statuses: number[]) {
    this.statuses = statuses;
  }

  static async start(statuses: number[] = [200]): Promise<Receiver> {
    const r = new Receiver(statuses);
    r.server = await listenLoopback((req, res) => {
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
        r.got.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body, text });
        const status = r.statuses.length > 1 ? r.statuses.shift()! : (r.statuses[0] ?? 200);
        res.writeHead(status, { "Content-Type": "text/plain" });
        res.end(String(status));
      });
    });
    r.url = r.server.url;
    return r;
  }

  /** Waits (at most `ms`) until `n` requests have come; returns them. */
  async wait(n: number, ms = 5_000): Promise<Received[]> {
    await until(() => this.got.length >= n, ms, () => `${n} deliveries, got ${this.got.length}`);
    return this.got.slice(0, n);
  }

  close(): Promise<void> {
    return this.server.close();
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
