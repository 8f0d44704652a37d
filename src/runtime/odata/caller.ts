/**
 * The seam between the OData client's calls and what carries them: every call (reads and writes in table-client.ts,
 * batches, scripts, schema changes, webhooks, containers) builds an {@link ODataRequest} and hands it to the client's
 * {@link ODataCaller}, which signs it in, bounds it, retries what is safe to retry, and turns an error answer into an
 * ODataError. Internal: not exported by the entries.
 */
import type { RawAnswer } from "../core/carrier.js";
import type { TableSpec } from "./definition.js";
import type { FieldRefs } from "./field-refs.js";
import type { EncodedRow } from "./values.js";

export interface ODataRequest {
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  /** Below `/fmi/odata/v4/{database}`, every segment already encoded: `/Contacts(7)`, `/$batch`, or `` for the database. */
  path: string;
  /** The query, already encoded (see query-text.ts), without its `?`. */
  query?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array | Blob;
  /**
   * The answer holds rows of a table with an exact number field: Accept asks for `IEEE754Compatible=true`, so that
   * Edm.Decimal values come as strings, digit for digit.
   */
  exactAnswer?: boolean;
  /** The (JSON) body holds an exact number field's value as a string: its Content-Type says `IEEE754Compatible=true`. */
  exactBody?: boolean;
  /** Safe to send again after a network fault or a proxy's 5xx page (reads). Writes never are. */
  idempotent: boolean;
  signal?: AbortSignal | undefined;
}

export interface ODataAnswer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The whole body, at most the client's `maxResponseBytes`. */
  bytes: Uint8Array;
  text(): string;
  /** The body as JSON; a body that is not JSON is a ProtocolError naming the call. */
  json(): unknown;
}

export interface ODataCaller {
  /** The hosted file, as the client was made with it. */
  readonly database: string;
  /** Whether tables and fields are addressed by FMTID/FMFID. */
  readonly entityIds: boolean;
  /** Sends one request; a 4xx/5xx answer is thrown as an ODataError (or a subclass), a non-OData body as a ProtocolError. */
  call(request: ODataRequest): Promise<ODataAnswer>;
  /**
   * Sends one request, signed in, bounded and retried as `call` does, and gives its answer whatever its status (a 401, a
   * redirect, an error page): for a tool that explains every answer itself (`$metadata` for fmgen pull).
   */
  send(request: ODataRequest): Promise<RawAnswer>;
  /** Like `call`, but the body is left unread, as a stream (container downloads); still bounded by `maxResponseBytes`. */
  open(request: ODataRequest): Promise<{ status: number; headers: Record<string, string>; body: ReadableStream<Uint8Array> }>;
  /** A table's path segment (`/Contacts` or `/FMTID:1065089`), checked against the client's database. */
  tablePath(table: TableSpec): string;
  /** How this client names the table's fields in queries. */
  refs(table: TableSpec): FieldRefs;
  /**
   * A row's JSON for create and update: TypeScript values to OData's, unknown and read-only fields refused by name;
   * `exact` when it holds an exact number field's value (sent with `exactBody`).
   */
  encodeRow(table: TableSpec, values: object, what: string): EncodedRow;
  /** A row as the app sees it: OData's values to the TypeScript ones (ISO dates, `null` for empty), names mapped back. */
  decodeRow(table: TableSpec, row: unknown, what: string): Record<string, unknown>;
}
