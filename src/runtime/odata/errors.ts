/**
 * The errors of `@fmgen/runtime/odata`. An OData error answer is `{"error":{"code":"<string>","message":…}}` (wire
 * contract, section 9); it becomes an {@link ODataError}, or the subclass its code or status names. The classes that
 * mean what the Data API's mean carry the same names (RecordMissingError, ValidationError, ...), so that code that
 * handles both reads the same. A body that is not OData JSON (a proxy's HTML page) is a ProtocolError
 * (../core/protocol-errors.ts, shared with the Data API), and a request that did not complete a NetworkError.
 */
import { NumberToken, stringifyJson } from "../core/json-numbers.js";
import { getOwn } from "../core/own.js";
import type { FailedCall } from "../core/protocol-errors.js";
import { ServerError } from "../core/server-error.js";

export { NetworkError, ProtocolError, ResponseTooLargeError, type FailedCall } from "../core/protocol-errors.js";

/** An OData error answer. `code` is FileMaker's code as the answer gives it, a string: "101", "8309", "-1023", "212". */
export class ODataError extends ServerError {
  // Declared again for their documentation; ServerError (core/, shared with the Data API's FileMakerError) assigns them.
  /** FileMaker's error code of the answer (`error.code`), as a string. */
  declare readonly code: string;
  /** The HTTP status of the answer. */
  declare readonly httpStatus: number;
  /** The method and the path below the database: never credentials, tokens or the server's address. */
  declare readonly call: FailedCall;
  /** The server's own message text. */
  declare readonly serverMessage: string;

  constructor(code: string, serverMessage: string, httpStatus: number, call: FailedCall) {
    super("OData", code, serverMessage, httpStatus, call);
  }
}

/** No row with that key or ROWID: -1023 (what FileMaker Server answers), 101, or a 404 on one row. */
export class RecordMissingError extends ODataError {}
/** A field the request names does not exist: 8309 (also for a literal of the wrong type) or 102. */
export class FieldMissingError extends ODataError {}
/** The table (occurrence) is not in the database: -1020. */
export class TableMissingError extends ODataError {}
/** The database is not hosted, or the URL's service root is wrong: -1000. */
export class DatabaseMissingError extends ODataError {}
/** 401 / 212: wrong account or password, an expired Claris ID token, an API key refused, no `fmodata` privilege. */
export class InvalidCredentialsError extends ODataError {}
/** 500-511: the row failed field validation (504 unique, 509 required, ...). */
export class ValidationError extends ODataError {}
/** 201: a field that cannot be modified (calculation, summary, global, ROWID). */
export class FieldReadOnlyError extends ODataError {}
/** 104: no script of that name. */
export class ScriptMissingError extends ODataError {}
/** 303: the schema is locked by another user. */
export class SchemaLockedError extends ODataError {}
/** -1002: the server could not parse the request's URL or body. */
export class RequestSyntaxError extends ODataError {}
/** 812 or 956: the server refused the call before doing anything, too busy. Retried by the client; this means it gave up. */
export class CapacityError extends ODataError {}

// Each class's name as a string, on its prototype: an app's bundler renames classes.
for (const [name, ErrorClass] of Object.entries({
  ODataError,
  RecordMissingError,
  FieldMissingError,
  TableMissingError,
  DatabaseMissingError,
  InvalidCredentialsError,
  ValidationError,
  FieldReadOnlyError,
  ScriptMissingError,
  SchemaLockedError,
  RequestSyntaxError,
  CapacityError,
})) {
  ErrorClass.prototype.name = name;
}

const BY_CODE: Record<string, typeof ODataError> = {
  "-1023": RecordMissingError,
  "101": RecordMissingError,
  "8309": FieldMissingError,
  "102": FieldMissingError,
  "-1020": TableMissingError,
  "-1000": DatabaseMissingError,
  "212": InvalidCredentialsError,
  "201": FieldReadOnlyError,
  "104": ScriptMissingError,
  "303": SchemaLockedError,
  "-1002": RequestSyntaxError,
  "812": CapacityError,
  "956": CapacityError,
};

/** The typed error for an answer: by FileMaker's code, else by the status (401: credentials; 404 on one row: missing). */
export function odataError(code: string, message: string, httpStatus: number, call: FailedCall, oneRow: boolean): ODataError {
  const n = Number(code);
  const ErrorClass =
    (getOwn(BY_CODE, code) as typeof ODataError | undefined) ??
    (n >= 500 && n <= 511 ? ValidationError : httpStatus === 401 ? InvalidCredentialsError : httpStatus === 404 && oneRow ? RecordMissingError : ODataError);
  return new ErrorClass(code, message, httpStatus, call);
}

/**
 * A value the server sent that is not what the table's definition says (text in a number field, a date that is not
 * one): names the table, the field and the raw value, so that a definition out of step with the file is found.
 */
export class ODataDecodeError extends Error {
  /** The table the row was read from. */
  declare readonly table: string;
  /** The field whose value did not decode. */
  declare readonly field: string;
  /** The value as it travelled (a number token too long for a JavaScript number: its text, digit for digit). */
  declare readonly value: unknown;

  constructor(table: string, field: string, value: unknown, expected: string) {
    // A long number token (json-numbers.ts) is shown bare and kept as its text; tokens inside a row, bare too.
    super(`table "${table}", field "${field}": the server sent ${value instanceof NumberToken ? value.text.slice(0, 120) : stringifyJson(value)?.slice(0, 120)}, which is not ${expected}`);
    this.table = table;
    this.field = field;
    this.value = value instanceof NumberToken ? value.text : value;
  }
}
ODataDecodeError.prototype.name = "ODataDecodeError";
