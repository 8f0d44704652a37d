import type { ServerResponse } from "node:http";
import type { FaultKind } from "./faults.js";

// What injected faults do to an answer on its way, whichever API gave it: lost, replaced by a proxy's HTML page, or
// cut in half. Each API builds its own bytes (its wire) and hands them here.

/** An answer in bytes, as its API would send it. */
export interface AnswerBytes {
  status: number;
  headers: Record<string, string | number>;
  body: Buffer;
}

const PROXY_PAGE = "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr>injected by the fmgen emulator</body></html>";

/** A reverse proxy's HTML error page in place of the API's answer. */
export function sendProxyPage(res: ServerResponse, status: number): void {
  res.writeHead(status, { "Content-Type": "text/html", "Content-Length": Buffer.byteLength(PROXY_PAGE) });
  res.end(PROXY_PAGE);
}

/** Declares the whole answer's length, writes half of it, then cuts the connection. */
export function sendTruncated(res: ServerResponse, answer: AnswerBytes): void {
  res.writeHead(answer.status, { ...answer.headers, "Content-Length": answer.body.byteLength });
  res.write(answer.body.subarray(0, Math.floor(answer.body.byteLength / 2)), () => res.destroy());
}

/** A fault after the request was applied: the answer (built only when it is sent at all) is lost or mangled. */
export function playAfter(res: ServerResponse, kind: FaultKind, answer: () => AnswerBytes): void {
  if (kind === "drop") res.socket?.destroy();
  else if (kind === "html") sendProxyPage(res, 504);
  else sendTruncated(res, answer());
}
