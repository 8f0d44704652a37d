// An OData answer before it becomes bytes (odata-api.ts), as every route, a `$batch` part included, gives it, and
// the shapes they share: JSON, no content, an error.

import { stringifyJson } from "../../runtime/core/json-numbers.js";
import { ODataError } from "./odata-error.js";

/** One answer: a status, its body's type and bytes, and its own headers (Location, `fmodata.affected_rows`). */
export interface Reply {
  status: number;
  contentType: string;
  body: Buffer;
  headers?: Record<string, string>;
  /** An error's OData code, which the request log shows. */
  code?: string;
}

export const JSON_TYPE = "application/json;charset=utf-8";
export const INTERNAL = "Unexpected internal OData Provider error";

/** A JSON body, 200. */
export function json(body: unknown): Reply {
  return { status: 200, contentType: JSON_TYPE, body: Buffer.from(stringifyJson(body)) };
}

/** A 204 with no body (OData still names JSON as its type), and the headers given. */
export function noContent(headers?: Record<string, string>): Reply {
  return { status: 204, contentType: JSON_TYPE, body: Buffer.alloc(0), ...(headers && { headers }) };
}

/** An OData error's answer; a 401 asks for Basic credentials. */
export function errorReply(error: ODataError): Reply {
  const headers: Record<string, string> = error.status === 401 ? { "WWW-Authenticate": 'Basic realm="FileMaker"' } : {};
  return { status: error.status, contentType: JSON_TYPE, body: Buffer.from(JSON.stringify(error.toJSON())), headers, code: error.code };
}

/** Any failure as an answer: an OData error as it is, anything else the provider's internal error (500 -1). */
export function failureReply(error: unknown): Reply {
  return errorReply(error instanceof ODataError ? error : new ODataError(500, "-1", `${INTERNAL}: emulator fault (${(error as Error)?.message ?? String(error)})`));
}

/** Accept (or `$format`) allows no form this resource has: 406. */
export const notAcceptable = (): ODataError => new ODataError(406, "-1", INTERNAL);
