import type { FailedCall } from "./protocol-errors.js";

/**
 * An error answer of the server, whichever API gave it: FileMaker's code, the HTTP status, the call and the server's
 * message. The Data API's FileMakerError and OData's ODataError extend it, each with its own subclasses (of the same
 * names where they mean the same), so that `instanceof` still tells the two APIs' errors apart.
 */
export class ServerError extends Error {
  // Declared, not defined: each is assigned once below (a defined field would be set twice, and cost bytes twice).
  /** FileMaker's error code, as a string. */
  declare readonly code: string;
  /** The HTTP status of the answer; 0 for an answer of the Web Viewer's FileMaker script (no HTTP exchange). */
  declare readonly httpStatus: number;
  /** The call that failed: its method and path, never credentials. */
  declare readonly call: FailedCall;
  /** The server's own message text. */
  declare readonly serverMessage: string;

  constructor(api: string, code: string, serverMessage: string, httpStatus: number, call: FailedCall) {
    super(`${call.method} ${call.path}: ${api} error ${code}: ${serverMessage}${httpStatus ? ` (HTTP ${httpStatus})` : ""}`);
    this.code = code;
    this.httpStatus = httpStatus;
    this.call = call;
    this.serverMessage = serverMessage;
  }
}
