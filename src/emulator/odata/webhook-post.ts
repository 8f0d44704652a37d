// One webhook delivery over HTTP: a POST of the payload's JSON with `Content-Type: application/json` and the
// webhook's endpoint headers. No connection is kept (agent: false), no redirect is followed (a 3xx is not a 2xx),
// and the attempt ends by its timeout or by cancel(), so a closed emulator leaves no socket or timer behind.

import { request as httpRequest, STATUS_CODES } from "node:http";
import { request as httpsRequest } from "node:https";

/** How one attempt ended: any 2xx is delivered (section 7's choice); `code` the HTTP status or -1 when none came. */
export interface PostOutcome {
  readonly delivered: boolean;
  readonly code: number;
  readonly message: string;
}

export interface PostAttempt {
  readonly done: Promise<PostOutcome>;
  /** Ends the attempt now (the emulator closes, the webhook is deleted); `done` then never settles. */
  cancel(): void;
}

export function postJson(url: URL, headers: Readonly<Record<string, string>>, json: string, timeoutMs: number): PostAttempt {
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  const body = Buffer.from(json, "utf8");
  const req = send(url, { method: "POST", agent: false, headers: { ...headers, "Content-Type": "application/json", "Content-Length": body.byteLength } });
  let settle: ((outcome: PostOutcome) => void) | undefined;
  const done = new Promise<PostOutcome>((resolve) => {
    settle = resolve;
  });
  const finish = (outcome: PostOutcome): void => {
    clearTimeout(timer);
    const s = settle;
    settle = undefined;
    s?.(outcome);
  };
  const timer = setTimeout(() => {
    finish({ delivered: false, code: -1, message: `Error: no answer within ${timeoutMs} ms` });
    req.destroy();
  }, timeoutMs);
  req.on("response", (res) => {
    const status = res.statusCode ?? 0;
    const outcome: PostOutcome =
      status >= 200 && status < 300 ? { delivered: true, code: status, message: "" } : { delivered: false, code: status, message: `HTTP ${status} ${res.statusMessage || STATUS_CODES[status] || ""}`.trim() };
    // The answer's body is not read: drained and dropped.
    res.resume();
    res.on("end", () => finish(outcome));
    res.on("close", () => finish(outcome));
    res.on("error", () => finish(outcome));
  });
  req.on("error", (error) => finish({ delivered: false, code: -1, message: `Error: ${error.message}` }));
  req.end(body);
  return {
    done,
    cancel: () => {
      clearTimeout(timer);
      settle = undefined;
      req.destroy();
    },
  };
}
