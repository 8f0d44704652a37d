import { getOwn } from "../core/own.js";
import type { FailedCall } from "../core/protocol-errors.js";
import { ServerError } from "../core/server-error.js";
import { scriptsIn, type ScriptResults } from "./script-options.js";

/** A FileMaker error answer: `messages[0].code` other than "0". Decided on the code, never the HTTP status. */
export class FileMakerError extends ServerError {
  // Declared again for their documentation; ServerError (core/, shared with OData's ODataError) assigns them.
  /**
   * FileMaker's error code (`messages[0].code`), as the string the Data API sends: each typed subclass names one or a
   * range.
   */
  declare readonly code: string;
  /** The HTTP status of the answer (servers differ: never decide on it); 0 through the Web Viewer (no HTTP exchange). */
  declare readonly httpStatus: number;
  /** The call that failed: its method and path, never credentials. */
  declare readonly call: FailedCall;
  /** The server's own message text. */
  declare readonly serverMessage: string;
  /** The results of the scripts that ran before the call failed, when its answer has them. */
  declare scripts?: ScriptResults;

  constructor(code: string, serverMessage: string, httpStatus: number, call: FailedCall) {
    super("FileMaker", code, serverMessage, httpStatus, call);
  }
}

/** 100: the database is not hosted. */
export class DatabaseMissingError extends FileMakerError {}
/** 101: no record with that id. */
export class RecordMissingError extends FileMakerError {}
/** 102: a field is not on the layout. */
export class FieldMissingError extends FileMakerError {}
/** 104: the file has no script of that name (nothing of the call was done). */
export class ScriptMissingError extends FileMakerError {}
/** 105: no layout with that name. */
export class LayoutMissingError extends FileMakerError {}
/** 212: wrong account name or password. */
export class InvalidCredentialsError extends FileMakerError {}
/** 306: the record changed since the modId the edit carried. */
export class ModIdMismatchError extends FileMakerError {}
/** 401: a find matched nothing (find itself turns this into an empty result). */
export class NoRecordsMatchError extends FileMakerError {}
/** 500-511: the record failed field validation (504 unique, 509 required, ...). */
export class ValidationError extends FileMakerError {}
/** 952: the token is missing, expired or invalid (the session logs in again once by itself). */
export class InvalidTokenError extends FileMakerError {}

/**
 * 812 (exceeds host's capacity) or 956 (maximum number of sessions exceeded): the server refused the call
 * before doing anything. The session backs off and retries these by itself; this error means it gave up.
 */
export class CapacityError extends FileMakerError {}

// Each class's name as a string, on its prototype: an app's bundler renames classes, so `new.target.name` would make
// an InvalidTokenError say "D" in a minified bundle.
for (const [name, ErrorClass] of Object.entries({
  FileMakerError,
  DatabaseMissingError,
  RecordMissingError,
  FieldMissingError,
  ScriptMissingError,
  LayoutMissingError,
  InvalidCredentialsError,
  ModIdMismatchError,
  NoRecordsMatchError,
  ValidationError,
  InvalidTokenError,
  CapacityError,
})) {
  ErrorClass.prototype.name = name;
}

const BY_CODE: Record<string, typeof FileMakerError> = {
  "100": DatabaseMissingError,
  "101": RecordMissingError,
  "102": FieldMissingError,
  "104": ScriptMissingError,
  "105": LayoutMissingError,
  "212": InvalidCredentialsError,
  "306": ModIdMismatchError,
  "401": NoRecordsMatchError,
  "952": InvalidTokenError,
  "812": CapacityError,
  "956": CapacityError,
};

/**
 * The typed error for a code: a subclass for each well-known code, FileMakerError otherwise; with the results of
 * the scripts that ran, when the answer's `response` has them.
 */
export function fileMakerError(code: string, message: string, httpStatus: number, call: FailedCall, response: Record<string, unknown> = {}): FileMakerError {
  const n = Number(code);
  const ErrorClass = (getOwn(BY_CODE, code) as typeof FileMakerError | undefined) ?? (n >= 500 && n <= 511 ? ValidationError : FileMakerError);
  const error = new ErrorClass(code, message, httpStatus, call);
  const scripts = scriptsIn(response);
  if (Object.keys(scripts).length) error.scripts = scripts;
  return error;
}
