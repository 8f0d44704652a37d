/**
 * Containers by their own URL (wire contract 3.3): `upload` PATCHes the file's bytes to `T(k)/Field` with its
 * Content-Type and `Content-Disposition: inline; filename=…`; `download` streams `T(k)/Field/$value`, bounded by the
 * client's `maxResponseBytes`, named by the answer's Content-Disposition (a name, never a path). Loaded on the first
 * upload or download.
 */
import type { UploadOptions } from "./api.js";
import type { ODataCaller } from "./caller.js";
import type { TableFieldSpec, TableSpec } from "./definition.js";
import { containerFile, fileNameIn, sizeIn, type ContainerFile } from "../core/container-file.js";
import { getOwn } from "../core/own.js";
import type { CallOptions } from "./shapes.js";
import { rowKey } from "./read-query.js";

/** The media types FileMaker Server takes in a binary upload (3.3: images and PDF), by their first bytes. */
const SIGNATURES: readonly (readonly [type: string, bytes: readonly number[]])[] = [
  ["image/png", [0x89, 0x50, 0x4e, 0x47]],
  ["image/jpeg", [0xff, 0xd8, 0xff]],
  ["image/gif", [0x47, 0x49, 0x46, 0x38]],
  ["image/tiff", [0x49, 0x49, 0x2a, 0x00]],
  ["image/tiff", [0x4d, 0x4d, 0x00, 0x2a]],
  ["application/pdf", [0x25, 0x50, 0x44, 0x46, 0x2d]],
];

function sniff(bytes: Uint8Array): string | undefined {
  return SIGNATURES.find(([, sig]) => sig.every((b, i) => bytes[i] === b))?.[0];
}

/** `T(k)/Field`, the field checked to be one of the table's containers. */
function containerPath(caller: ODataCaller, table: TableSpec, row: unknown, field: unknown, call: string): string {
  const spec = typeof field === "string" ? (getOwn(table.fields, field) as TableFieldSpec | undefined) : undefined;
  if (spec?.type !== "container") throw new TypeError(`${call}: ${JSON.stringify(field)} is not a container field of table "${table.table}"`);
  const ref = caller.refs(table).ref(field as string);
  // The field as a path segment: its FMFID as it is, its name unquoted and percent-encoded. A name with a slash goes by
  // its FMFID: servers decode the path once before splitting it.
  const byName = ref.startsWith('"');
  if (byName && /[/\\]/.test(field as string)) {
    const id = spec.id;
    if (id === undefined) throw new TypeError(`${call}: field ${JSON.stringify(field)} of table "${table.table}" holds a slash: a URL names it only by its FMFID, which its definition lacks`);
    return `${caller.tablePath(table)}${rowKey(table, row, call)}/${id}`;
  }
  const segment = byName ? encodeURIComponent(field as string) : ref;
  return `${caller.tablePath(table)}${rowKey(table, row, call)}/${segment}`;
}

/** A file name for Content-Disposition: the name only (a path is refused), quoted, with `filename*` when not ASCII. */
function disposition(filename: string, call: string): string {
  if (filename === "" || /[/\\\u0000-\u001f\u007f]/.test(filename) || filename === "." || filename === "..") {
    throw new TypeError(`${call}: filename ${JSON.stringify(filename)} must be a file's name (no path, no control characters)`);
  }
  const ascii = /^[\x20-\x7e]*$/.test(filename);
  const fallback = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `inline; filename="${fallback}"` + (ascii && !/["\\]/.test(filename) ? "" : `; filename*=UTF-8''${encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`);
}

export async function uploadContainer(caller: ODataCaller, table: TableSpec, ref: unknown, field: string, data: Blob | Uint8Array | ArrayBuffer, options: UploadOptions = {}): Promise<void> {
  const call = `upload to table "${table.table}"`;
  const path = containerPath(caller, table, ref, field, call);
  const bytes = data instanceof Uint8Array ? data : data instanceof ArrayBuffer ? new Uint8Array(data) : typeof Blob !== "undefined" && data instanceof Blob ? new Uint8Array(await data.arrayBuffer()) : undefined;
  if (bytes === undefined) throw new TypeError(`${call}: the file must be a Blob, a Uint8Array or an ArrayBuffer`);
  if (bytes.byteLength === 0) throw new TypeError(`${call}: the file is empty (FileMaker Server stores no empty file)`);
  const type = options.contentType ?? sniff(bytes) ?? (data instanceof Blob && data.type !== "" ? data.type : undefined);
  if (type === undefined) throw new TypeError(`${call}: the file's type cannot be told from its bytes; pass contentType (FileMaker Server takes images and PDF)`);
  if (/[\r\n]/.test(type)) throw new TypeError(`${call}: contentType must be one line`);
  const headers: Record<string, string> = { "Content-Type": type };
  if (options.filename !== undefined) headers["Content-Disposition"] = disposition(options.filename, call);
  // An upload replaces the file: sent once, never again after a fault.
  await caller.call({ method: "PATCH", path, headers, body: bytes, idempotent: false, signal: options.signal });
}

export async function downloadContainer(caller: ODataCaller, table: TableSpec, ref: unknown, field: string, options: CallOptions = {}): Promise<ContainerFile | null> {
  const path = `${containerPath(caller, table, ref, field, `download from table "${table.table}"`)}/$value`;
  // `Accept: application/octet-stream` would answer the file's name instead of its bytes (3.3's quirk).
  const opened = await caller.open({ method: "GET", path, headers: { Accept: "*/*" }, idempotent: true, signal: options.signal });
  const reader = opened.body.getReader();
  // An empty container answers an empty text body: read the first chunk to tell.
  let first = await reader.read();
  while (!first.done && first.value.byteLength === 0) first = await reader.read();
  const disposition = opened.headers["content-disposition"];
  if (first.done && disposition === undefined) return null;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (first.done) controller.close();
      else controller.enqueue(first.value);
    },
    async pull(controller) {
      if (first.done) return;
      const next = await reader.read();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return containerFile(fileNameIn(disposition) ?? "Untitled", opened.headers["content-type"], sizeIn(opened.headers["content-length"]), body);
}
