import { DatabaseMissingError, FileMakerError, InvalidCredentialsError, LayoutMissingError, NetworkError, ProtocolError } from "@fmgen/runtime";
import { EmptyLayoutError } from "./sample.js";
import type { PullSettings } from "./settings.js";

/**
 * What went wrong, said so that the reader knows what to do. Some errors end the whole pull (the login, the
 * database, the network); others end only one layout's (a missing layout, an empty table), and the rest go on.
 */

/** Errors that end the whole pull (the login, the database, the network), with the message to show. */
export class PullError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PullError";
  }
}

/** A server without the layout metadata endpoints answers them as unknown resources. */
export function isMissingEndpoint(error: unknown): boolean {
  if (error instanceof FileMakerError) return error.code === "1630";
  return error instanceof ProtocolError && !isLoginCall(error) && (error.httpStatus === 404 || error.httpStatus === 405);
}

function isLoginCall(error: ProtocolError | FileMakerError): boolean {
  return error.call.method === "POST" && error.call.path.endsWith("/sessions");
}

export function describeAnswer(error: unknown): string {
  if (error instanceof FileMakerError) return `HTTP ${error.httpStatus}, code ${error.code}`;
  if (error instanceof ProtocolError) return `HTTP ${error.httpStatus}`;
  return String(error);
}

export function isFatal(error: unknown): boolean {
  return (
    error instanceof PullError ||
    error instanceof InvalidCredentialsError ||
    error instanceof DatabaseMissingError ||
    error instanceof NetworkError ||
    (error instanceof ProtocolError && isLoginCall(error)) ||
    (error instanceof FileMakerError && error.httpStatus === 401 && error.code !== "952")
  );
}

export function explainLayoutError(error: unknown, layout: string, settings: PullSettings): string {
  if (error instanceof LayoutMissingError) {
    return `no layout named "${layout}" in database "${settings.database}" (FileMaker error 105): check the name; fmgen pull --list shows the server's layouts`;
  }
  if (error instanceof EmptyLayoutError) return error.message;
  if (error instanceof FileMakerError) return `layout "${layout}": FileMaker error ${error.code}: ${error.serverMessage} (${error.call.method} ${error.call.path})`;
  return `layout "${layout}": ${(error as Error).message}`;
}

export function explainFatal(error: unknown, settings: PullSettings): Error {
  const where = `database "${settings.database}" on ${settings.server}`;
  if (error instanceof PullError) return error;
  if (error instanceof InvalidCredentialsError) {
    return new PullError(`cannot log in to ${where}: wrong account name or password (FileMaker error 212); the credentials come from ${settings.usernameEnv} and ${settings.passwordEnv}`, { cause: error });
  }
  if (error instanceof DatabaseMissingError) return new PullError(`no database "${settings.database}" is hosted on ${settings.server} (FileMaker error 100)`, { cause: error });
  if (error instanceof FileMakerError && error.httpStatus === 401 && error.code !== "952") {
    return new PullError(`cannot log in to ${where}: the account's privilege set lacks the fmrest extended privilege (FileMaker error ${error.code})`, { cause: error });
  }
  if (error instanceof NetworkError) return new PullError(`cannot reach ${settings.server}: ${error.message}`, { cause: error });
  if (error instanceof ProtocolError) return new PullError(`${settings.server} does not answer as a FileMaker Data API server (is the URL right?): ${error.message}`, { cause: error });
  return error as Error;
}
