// Containers in a JSON write body (docs/emulator.md, "Containers and scripts", "Base64 in JSON"): `"Photo":"<base64>"`,
// with the flat `Photo@com.filemaker.odata.Filename` and `Photo@com.filemaker.odata.ContentType` keys beside it, in
// POST and PATCH. entity-write.ts decodes every other field; it hands containers and their annotations here. The file
// goes into the hosted file's ContainerStore when the body is decoded, before the write: if the write fails, no field
// holds it and the store drops it (store.ts), so a refused write leaves nothing behind.

import type { TableField } from "../hosted-file/model.js";
import type { FieldChange } from "../hosted-file/records/record-writes.js";
import type { ContainerStore } from "../hosted-file/store.js";
import { decodeBase64, sniffMediaType, untitled } from "./container-media.js";
import { ODataError, quoted } from "./odata-error.js";

const FILENAME = "@com.filemaker.odata.Filename";
const CONTENT_TYPE = "@com.filemaker.odata.ContentType";

/** Where a container's file goes: the hosted file's store, under its database. */
export interface ContainerTarget {
  readonly containers: ContainerStore;
  readonly database: string;
}

const bad = (message: string) => new ODataError(400, "-1002", `Error: ${message}`);

/**
 * Checks a `Field@annotation` key of a body: a known container annotation whose field (the key before `@`, as the
 * body spells it) is a container with a value in the same body. Anything else is 400 -1002, not ignored.
 */
export function checkContainerAnnotation(key: string, body: Readonly<Record<string, unknown>>, fieldOf: (name: string) => TableField | undefined): void {
  const at = key.indexOf("@");
  const name = key.slice(0, at);
  const annotation = key.slice(at);
  if (annotation !== FILENAME && annotation !== CONTENT_TYPE) throw bad(`'${quoted(key)}': the only field annotations a body takes are ${FILENAME} and ${CONTENT_TYPE}`);
  const field = fieldOf(name);
  if (field === undefined || field.type !== "container") throw bad(`'${quoted(key)}': '${quoted(name)}' is not a container field`);
  if (!Object.hasOwn(body, name)) throw bad(`'${quoted(key)}' is given without '${quoted(name)}' (the file itself) in the same body`);
  const value = body[key];
  if (typeof value !== "string" || value.trim() === "") throw bad(`'${quoted(key)}' must be a non-empty string`);
  if (annotation === CONTENT_TYPE && !/^[\w.+-]+\/[\w.+-]+(?:\s*;.*)?$/.test(value)) throw bad(`'${quoted(key)}': '${quoted(value)}' is not a media type`);
}

/**
 * One container's value in a body as the hosted file's change: base64 → a stored file, named by its Filename
 * annotation (default `Untitled.<ext>`), typed by its magic bytes (the ContentType annotation only when the bytes are
 * of no known type; then application/octet-stream). `null` or `""` clears it. Only the first repetition can be
 * written (3.2); bad base64 is 400 8309 naming the field.
 */
export function containerChange(field: TableField, key: string, repetition: number | undefined, raw: unknown, body: Readonly<Record<string, unknown>>, target: ContainerTarget): FieldChange {
  if ((repetition !== undefined && repetition > 0) || Array.isArray(raw)) {
    throw bad(`'${quoted(key)}': container repetitions cannot be written (only the first repetition of a container takes a file)`);
  }
  const filename = body[`${key}${FILENAME}`] as string | undefined;
  const declared = body[`${key}${CONTENT_TYPE}`] as string | undefined;
  if (raw === null || raw === "") {
    if (filename !== undefined || declared !== undefined) throw bad(`'${quoted(key)}' is cleared (null), so its annotations name no file`);
    return { field, repetition: 0, value: null };
  }
  if (typeof raw !== "string") throw new ODataError(400, "8309", `incompatible data types: '${quoted(key)}': a container takes its file as base64 text, not ${Array.isArray(raw) ? "an array" : typeof raw}`);
  const bytes = decodeBase64(raw);
  if (bytes === undefined) throw new ODataError(400, "8309", `incompatible data types: '${quoted(key)}': the value is not base64 (RFC 4648, padded, no whitespace)`);
  const contentType = sniffMediaType(bytes) ?? (declared === undefined ? "application/octet-stream" : declared.split(";")[0]!.trim().toLowerCase());
  const ref = target.containers.put(target.database, filename ?? untitled(contentType), contentType, bytes);
  return { field, repetition: 0, value: ref };
}
