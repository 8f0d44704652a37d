// Containers by their own URL (docs/emulator.md, "Containers and scripts"): the binary upload `PATCH T(k)/Field` (or
// `T(k)/Field/$value`), whose body is the file's bytes, and the download `GET T(k)/Field/$value`. Both go through the
// hosted file: the upload through writeTableContainer, the write the Data API's upload makes (one modId bump, the
// ContainerStore both APIs read), so the Data API's container URL serves the file at once, and the other way round.
// Takes plain values (no IncomingMessage), so a `$batch` part can be answered by it too.

import type { EmulatorClock } from "../hosted-file/clock.js";
import type { TableField } from "../hosted-file/model.js";
import { writeTableContainer } from "../hosted-file/records/record-transaction.js";
import type { ContainerStore, HostedDatabase } from "../hosted-file/store.js";
import { isContainerRef } from "../hosted-file/stored-value.js";
import { mediaTypeOf } from "../http/media-type.js";
import { attachmentDisposition, BINARY_UPLOAD_TYPES, dispositionFilename, sniffMediaType, untitled } from "./container-media.js";
import { stringifyJson } from "../../runtime/core/json-numbers.js";
import { findField, findRecord, isSpecialColumn, navigations, recordKey, type EntitySet } from "./entity-sets.js";
import { readEntity, type ReadContext } from "./entity-read.js";
import { hostedWrite, MAX_WRITE_BODY } from "./entity-write.js";
import { ODataError, quoted } from "./odata-error.js";
import type { QueryOptions } from "./query-options.js";
import type { Reply } from "./reply.js";
import { parseODataRequestTarget } from "./url-request.js";
import type { EntityKey } from "./url-path.js";

/** A request's headers as a plain record (lower-case names), the way the container calls read them. */
export type PlainHeaders = Readonly<Record<string, string | string[] | undefined>>;

const header = (headers: PlainHeaders, name: string): string | undefined => {
  const v = headers[name];
  return Array.isArray(v) ? v.join(", ") : v;
};

/**
 * The largest body a request may send: a binary container upload (`PATCH`/`PUT` on `T(k)/F` or `T(k)/F/$value`)
 * takes what the Data API's upload takes (`maxUploadBytes`, 100 MiB by default); every other write MAX_WRITE_BODY.
 * A target that does not parse gets MAX_WRITE_BODY (the request fails on its path later).
 */
export function writeBodyLimit(method: string, target: string, maxUploadBytes: number): number {
  if (method !== "PATCH" && method !== "PUT") return MAX_WRITE_BODY;
  try {
    const { path } = parseODataRequestTarget(target);
    return path.kind === "member" || path.kind === "value" ? maxUploadBytes : MAX_WRITE_BODY;
  } catch {
    return MAX_WRITE_BODY;
  }
}

/** What a binary upload reads of the emulator. */
export interface UploadHost {
  readonly db: HostedDatabase;
  readonly containers: ContainerStore;
  readonly clock: EmulatorClock;
}

const unsupported = () => new ODataError(415, "-1", "Unsupported media type");

/** The container field `T(k)/F` names for a write; anything else is refused, naming it. */
function containerField(set: EntitySet, member: string, db: HostedDatabase): TableField {
  const field = findField(set, member);
  if (field === undefined) {
    if (isSpecialColumn(set, member) || navigations(db, set).has(member)) {
      throw new ODataError(405, "-1002", `Error: PATCH is not supported on '${quoted(member)}': a binary upload writes a container field`);
    }
    throw new ODataError(400, "8309", `The field named '${quoted(member)}' does not exist in a specified table (9)`);
  }
  if (field.type !== "container") throw new ODataError(400, "-1002", `Error: '${quoted(member)}' is a ${field.type} field; a binary PATCH writes container fields only (send JSON to T(k) for others)`);
  if (field.global) throw new ODataError(400, "201", `(201): Field cannot be modified: '${quoted(member)}' is a global field (3.1)`);
  return field;
}

/**
 * `PATCH T(k)/F` or `T(k)/F/$value` with the file's bytes (3.3): Content-Type one of {@link BINARY_UPLOAD_TYPES}
 * (else 415 -1 "Unsupported media type"), the name from `Content-Disposition` (`filename` or `filename*`; default
 * `Untitled.<ext>`), into the field's first repetition. Answers 200 with the record as `GET T(k)` answers it.
 * `ctx` is the read context the answer is written with (its query holds only the request's ignored options).
 */
export function uploadBinary(set: EntitySet, key: EntityKey, member: string, query: QueryOptions, headers: PlainHeaders, body: Buffer, host: UploadHost, ctx: ReadContext): Reply {
  const given = Object.entries(query).filter(([k, v]) => k !== "ignored" && v !== undefined);
  if (given.length > 0) throw new ODataError(400, "-1002", `Error: $${given[0]![0]} does not apply to a PATCH request`);
  const field = containerField(set, member, host.db);
  const declared = mediaTypeOf(header(headers, "content-type"));
  if (!BINARY_UPLOAD_TYPES.includes(declared)) throw unsupported();
  if (body.byteLength === 0) throw new ODataError(400, "-1002", "Error: the request body is empty: a binary upload sends the file's bytes");
  const filename = dispositionFilename(header(headers, "content-disposition")) ?? untitled(declared);
  // A copy: a small request body may be a slice of Node's shared buffer pool, which the store must not pin.
  const bytes = new Uint8Array(body);
  const contentType = sniffMediaType(bytes) ?? declared;
  const record = findRecord(set, key);
  const stored = hostedWrite(() =>
    writeTableContainer(host.db, set.data, record.recordId, field, 0, () => host.containers.put(host.db.model.name, filename, contentType, bytes), host.clock),
  );
  return { status: 200, contentType: "application/json;charset=utf-8", body: Buffer.from(stringifyJson(readEntity(set, recordKey(set, stored), ctx))) };
}

/**
 * `GET T(k)/F/$value` of a container holding a file (3.3): its bytes, the type its bytes show (else the stored one),
 * `Content-Disposition: attachment; filename="…"`. `Accept: application/octet-stream` answers the file's name as
 * `text/plain` (CNT's quirk). Undefined when `F` is no container or holds no file: the caller answers as for text.
 */
export function downloadContainer(set: EntitySet, key: EntityKey, member: string, accept: string | undefined, ctx: ReadContext): Reply | undefined {
  const field = findField(set, member);
  if (field === undefined || field.type !== "container") return undefined;
  const record = findRecord(set, key);
  // A repeating container gives its first repetition (2.3).
  const value = set.data.valuesOf(record, field)[0];
  if (!isContainerRef(value)) return undefined;
  const file = ctx.containers.get(ctx.db.model.name, value.id);
  if (file === undefined) return undefined;
  const asksName = (accept ?? "").split(",").some((range) => mediaTypeOf(range) === "application/octet-stream");
  if (asksName) return { status: 200, contentType: "text/plain;charset=utf-8", body: Buffer.from(file.filename, "utf8") };
  return {
    status: 200,
    contentType: sniffMediaType(file.bytes) ?? file.contentType,
    body: Buffer.from(file.bytes),
    headers: { "Content-Disposition": attachmentDisposition(file.filename) },
  };
}
