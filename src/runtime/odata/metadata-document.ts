import { ProtocolError } from "../core/protocol-errors.js";
import type { ODataClient } from "./api.js";
import { callerOf } from "./client-callers.js";
import { checkCall } from "../core/call-options.js";

/** What a server answered to `GET $metadata`, whatever the status, for a tool that explains each answer itself. */
export interface ODataMetadataAnswer {
  /** The HTTP status: 200 with the document, or what else the server said (401, a redirect, 404), never thrown. */
  status: number;
  /** The answer's headers, names in lower case (`content-type`, `location`). */
  headers: Record<string, string>;
  /** The body as UTF-8 text: the CSDL XML when the status is 200. */
  text: string;
}

/**
 * `GET {server}/fmi/odata/v4/{database}/$metadata` over an OData client's own carrier: the answer, whatever its status.
 *
 * Signed in as the client is (Basic, Claris ID, API key), bounded by its `timeoutMs` and `maxResponseBytes`, retried by
 * its `retry` policy. A redirect is an answer, never followed with the credentials. Throws a NetworkError when no
 * answer came (refused, timed out, aborted: its message scrubbed of the secrets), a ResponseTooLargeError past
 * `maxResponseBytes`, and a ProtocolError when the body is not UTF-8 text. For tools that read a database's schema,
 * such as `fmgen pull --odata`; apps use generated table definitions, and never load this module.
 *
 * @param od - A client made by `createODataClient`.
 */
export async function odataMetadata<Db extends string>(
  od: ODataClient<Db>,
  options: {
    /** Aborts the read. */
    signal?: AbortSignal;
  } = {},
): Promise<ODataMetadataAnswer> {
  const caller = callerOf(od, "odataMetadata: od");
  checkCall("odataMetadata", options, 0);
  const request = { method: "GET", path: "/$metadata", headers: { Accept: "application/xml" }, idempotent: true, signal: options.signal } as const;
  const answer = await caller.send(request);
  try {
    return { status: answer.status, headers: answer.headers, text: new TextDecoder("utf-8", { fatal: true }).decode(answer.bytes) };
  } catch {
    throw new ProtocolError(answer.status, "", { method: request.method, path: request.path }, "is not UTF-8 text");
  }
}
