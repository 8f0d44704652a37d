import { connect, type Socket } from "node:net";

/**
 * One HTTP/1.1 request on its own loopback socket, written in pieces the test controls: the headers and
 * part of the body now, the rest later. Lets a test hold a request's body "in flight" while other requests
 * complete, as a slow client or a large upload does. Every wait is bounded.
 */

export interface SplitAnswer {
  status: number;
  /** The parsed JSON body (undefined when it is not JSON). */
  body: any;
  text: string;
  code: string | undefined;
}

const ANSWER_TIMEOUT_MS = 5_000;

export class SplitRequest {
  private constructor(
    private readonly socket: Socket,
    private readonly answer: Promise<SplitAnswer>,
  ) {}

  /** Connects and writes the request line and headers (with `Content-Length` and `Connection: close`). */
  static async open(baseUrl: string, method: string, path: string, headers: Record<string, string>, contentLength: number): Promise<SplitRequest> {
    const { hostname, port } = new URL(baseUrl);
    const socket = connect(Number(port), hostname);
    socket.setNoDelay(true);
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("error", reject);
    });
    const answer = readAnswer(socket);
    const lines = [`${method} ${path} HTTP/1.1`, `Host: ${hostname}:${port}`, `Content-Length: ${contentLength}`, "Connection: close"];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    const request = new SplitRequest(socket, answer);
    await request.write(`${lines.join("\r\n")}\r\n\r\n`);
    return request;
  }

  /** Writes more of the body; resolves once the bytes are handed to the kernel. */
  write(bytes: string | Uint8Array): Promise<void> {
    return new Promise((resolve, reject) => this.socket.write(bytes, (error) => (error ? reject(error) : resolve())));
  }

  /** Writes the rest of the body and reads the whole answer. */
  async finish(rest: string | Uint8Array): Promise<SplitAnswer> {
    await this.write(rest);
    return this.answer;
  }
}

function readAnswer(socket: Socket): Promise<SplitAnswer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${ANSWER_TIMEOUT_MS} ms`));
    }, ANSWER_TIMEOUT_MS);
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(timer);
      const raw = Buffer.concat(chunks).toString("utf8");
      const split = raw.indexOf("\r\n\r\n");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0);
      const text = split === -1 ? "" : raw.slice(split + 4);
      let body: any;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      resolve({ status, body, text, code: body?.messages?.[0]?.code });
    });
  });
}

/**
 * Waits until the emulator has counted `count` requests. The count rises when a request's headers reach
 * the handler, and the handler runs up to its first wait for the body in that same turn of the event loop,
 * so once this resolves the request is parked on its body.
 */
export async function untilRequestsSeen(stats: () => { requests: number }, count: number): Promise<void> {
  const deadline = Date.now() + ANSWER_TIMEOUT_MS;
  while (stats().requests < count) {
    if (Date.now() > deadline) throw new Error(`the emulator saw ${stats().requests} requests, not ${count}, within ${ANSWER_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** A multipart/form-data body with one file part named `upload`. */
export function uploadBody(bytes: Uint8Array, filename: string, type: string): { body: Buffer; contentType: string } {
  const boundary = "----fmgen-split-boundary-7f3a";
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="upload"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`;
  const body = Buffer.concat([Buffer.from(head), Buffer.from(bytes), Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}
