import type { IncomingMessage, ServerResponse } from "node:http";
import { sendAnswer, type AnswerBytes, type InjectedCode } from "./answer.js";
import type { FaultKind } from "./faults.js";
import { discardUnread } from "./request-body.js";

// Plays a planned fault (faults.ts) on a request, whichever API it is for: lost, replaced by a proxy's HTML page,
// cut in half, or an error code. The API gives only what is its own: its error answers' bytes and what revoking the
// request's credential means.

/** What a fault needs of the API a request is for, and of the emulator. */
export interface FaultHooks {
  /** An error answer in the API's wire, FileMaker's `code` worded as the API words it. */
  injectedAnswer(status: 500 | 503, code: InjectedCode): AnswerBytes;
  /** `revoke`: forgets the credential the request carries (the Data API's token; OData signs in on every request). */
  revoke(req: IncomingMessage): void;
  /** `restart`: what a server restart forgets. */
  restart(): void;
}

const PROXY_PAGE = "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr>injected by the fmgen emulator</body></html>";

/**
 * A fault before the request is handled: nothing is applied. True when the answer is already given (the request's
 * body dropped first, up to a cap, as for every answer the shell writes).
 */
export function playBefore(kind: FaultKind, req: IncomingMessage, res: ServerResponse, hooks: FaultHooks): boolean {
  if (kind === "drop") {
    req.socket.destroy();
    return true;
  }
  if (kind === "revoke" || kind === "restart") {
    // The credential, or every session, is forgotten; the request then meets the ordinary check (the Data API's 952).
    if (kind === "revoke") hooks.revoke(req);
    else hooks.restart();
    return false;
  }
  discardUnread(req);
  switch (kind) {
    case "html":
      sendProxyPage(res, 502);
      break;
    case "truncate":
      sendTruncated(res, hooks.injectedAnswer(500, "-1"));
      break;
    case "capacity812":
      sendAnswer(res, hooks.injectedAnswer(503, "812"));
      break;
    case "capacity956":
      sendAnswer(res, hooks.injectedAnswer(500, "956"));
      break;
  }
  return true;
}

/** A fault after the request was applied: its answer is lost or mangled. */
export function playAfter(res: ServerResponse, kind: FaultKind, answer: AnswerBytes): void {
  if (kind === "drop") res.socket?.destroy();
  else if (kind === "html") sendProxyPage(res, 504);
  else sendTruncated(res, answer);
}

/** A reverse proxy's HTML error page in place of the API's answer. */
function sendProxyPage(res: ServerResponse, status: number): void {
  res.writeHead(status, { "Content-Type": "text/html", "Content-Length": Buffer.byteLength(PROXY_PAGE) });
  res.end(PROXY_PAGE);
}

/** Declares the whole answer's length, writes half of it, then cuts the connection (its own headers are lost). */
function sendTruncated(res: ServerResponse, answer: AnswerBytes): void {
  res.writeHead(answer.status, { ...answer.headers, "Content-Length": answer.body.byteLength });
  res.write(answer.body.subarray(0, Math.floor(answer.body.byteLength / 2)), () => res.destroy());
}
