// Errors of the exchange itself, before any FileMaker error code: an answer that is not the protocol's, one too large,
// a request that did not complete. Apart from errors.ts (FileMaker's error codes) so that an entry that needs only
// these (@fmgen/runtime/metadata) does not carry every FileMaker error class.

/** The call that failed: method and path only, never credentials or tokens. */
export interface FailedCall {
  /** The HTTP method. */
  method: string;
  /** The path under the Data API's root (`/databases/Contacts/layouts/Contacts/records`). */
  path: string;
}

/** The server answered something that is not a Data API envelope (an HTML page from a proxy, say). */
export class ProtocolError extends Error {
  /** The HTTP status of the answer; 0 for an answer of the Web Viewer's FileMaker script (no HTTP exchange). */
  declare readonly httpStatus: number;
  /** The answer's first characters (a proxy's HTML page, say), for the log. */
  declare readonly bodyStart: string;
  /** The call that got the answer. */
  declare readonly call: FailedCall;

  constructor(
    httpStatus: number,
    bodyStart: string,
    call: FailedCall,
    /** What is wrong with an answer that is an envelope but breaks the protocol (a get without one record). */
    detail?: string,
  ) {
    super(`${call.method} ${call.path}: ${httpStatus ? `HTTP ${httpStatus} answer` : "answer"} ${detail ?? `is not a Data API envelope; it begins ${JSON.stringify(bodyStart)}`}`);
    this.httpStatus = httpStatus;
    this.bodyStart = bodyStart;
    this.call = call;
    this.name = "ProtocolError";
  }
}

/**
 * The answer is longer than the client's `maxResponseBytes`: the request was aborted at the bound, without reading
 * (or keeping) the rest. Never retried: the same call would get the same answer.
 */
export class ResponseTooLargeError extends ProtocolError {
  /** The bound the answer passed: the client's `maxResponseBytes`. */
  declare readonly maxResponseBytes: number;

  constructor(httpStatus: number, call: FailedCall, maxResponseBytes: number) {
    super(httpStatus, "", call, `is larger than maxResponseBytes (${maxResponseBytes} bytes); the rest was not read`);
    this.maxResponseBytes = maxResponseBytes;
    this.name = "ResponseTooLargeError";
  }
}

/** The request did not complete: the caller aborted it, it timed out, or the connection failed. */
export class NetworkError extends Error {
  /** Why: the caller's signal aborted it, `timeoutMs` passed, or the connection failed (refused, reset, DNS). */
  declare readonly reason: "aborted" | "timeout" | "connection";
  /** The call that did not complete. */
  declare readonly call: FailedCall;

  constructor(message: string, reason: "aborted" | "timeout" | "connection", call: FailedCall, options?: { cause?: unknown }) {
    super(`${call.method} ${call.path}: ${message}`, options);
    this.reason = reason;
    this.call = call;
    this.name = "NetworkError";
  }
}
