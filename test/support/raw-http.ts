import { connect } from "node:net";

/**
 * One HTTP/1.1 exchange written byte for byte on its own loopback socket (`Connection: close`), for requests that
 * `fetch` cannot send as they are: no body and no Content-Type, an empty chunked body, a given `Host` header.
 */

export interface RawAnswer {
  status: number;
  /** Header names lower-cased; repeated headers joined with ", " except `set-cookie`, kept apart. */
  headers: Record<string, string>;
  setCookies: string[];
  text: string;
  /** `messages[0].code` when the body is an envelope. */
  code: string | undefined;
  body: any;
}

const ANSWER_TIMEOUT_MS = 5_000;

/** Sends `method path` with exactly these header lines (plus `Connection: close`, and `Host` unless given) and body. */
export function rawHttp(baseUrl: string, method: string, path: string, headers: Record<string, string>, body = ""): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  const lines = [`${method} ${path} HTTP/1.1`];
  if (!Object.keys(headers).some((h) => h.toLowerCase() === "host")) lines.push(`Host: ${hostname}:${port}`);
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  lines.push("Connection: close");
  const request = `${lines.join("\r\n")}\r\n\r\n${body}`;
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname.replace(/^\[|\]$/g, ""));
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer to ${method} ${path} within ${ANSWER_TIMEOUT_MS} ms`));
    }, ANSWER_TIMEOUT_MS);
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(parseAnswer(Buffer.concat(chunks).toString("utf8")));
    });
    socket.on("connect", () => socket.write(request));
  });
}

function parseAnswer(received: string): RawAnswer {
  const split = received.indexOf("\r\n\r\n");
  const head = split === -1 ? received : received.slice(0, split);
  const text = split === -1 ? "" : received.slice(split + 4);
  const [statusLine = "", ...headerLines] = head.split("\r\n");
  const headers: Record<string, string> = {};
  const setCookies: string[] = [];
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === "set-cookie") setCookies.push(value);
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  let body: any;
  let code: string | undefined;
  try {
    body = JSON.parse(text);
    code = typeof body?.messages?.[0]?.code === "string" ? body.messages[0].code : undefined;
  } catch {
    body = undefined;
  }
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? 0), headers, setCookies, text, code, body };
}
