import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { AnswerBytes } from "../../http/answer.js";
import { EmulatorError } from "../../hosted-file/fm-error.js";
import { mediaTypeOf } from "../../http/media-type.js";
import { readBody } from "../wire/body.js";
import { recordIdParam } from "../../hosted-file/input/params.js";
import type { Answer, RequestContext } from "../routes.js";
import { currentRecord, writeContainer } from "../../hosted-file/records/record-transaction.js";
import type { DataApiState } from "../state.js";
import { containerUrlToken } from "../../hosted-file/container-urls.js";
import { tableOf } from "../../hosted-file/store.js";
import { requestBaseUrl } from "../../http/request-host.js";
import { STREAMING_COOKIE } from "../streaming-sessions.js";

/**
 * POST .../records/{recordId}/containers/{fieldName}[/{fieldRepetition}]: multipart part `upload`. Without the
 * repetition segment the file goes into repetition 1 (docs/emulator.md, "7. Duplicate, delete related rows, edit portal
 * rows, options, upload modId").
 */
export async function uploadContainer(ctx: RequestContext): Promise<Answer> {
  // Fails fast for a missing record; writeContainer looks the record up again once the file is in.
  const recordId = currentRecord(tableOf(ctx.db, ctx.layout), recordIdParam(ctx.params.recordId)).recordId;
  // `?modId=`: checked like an edit's modId when the record is written (docs/emulator.md, "7. Duplicate, delete related
  // rows, edit portal rows, options, upload modId"); given twice, it was refused with every other repeated parameter
  // (checkQueryNames).
  const modId = ctx.query.get("modId") ?? undefined;
  const fieldName = ctx.params.fieldName!;
  const layoutField = ctx.layout.fields.get(fieldName);
  if (!layoutField) throw new EmulatorError(404, "102", `field "${fieldName}" is not on layout "${ctx.layout.description.layout}"`);
  if (layoutField.field.type !== "container") throw new EmulatorError(404, "102", `field "${fieldName}" is not a container field`);
  const repetitionText = ctx.params.fieldRepetition ?? "1";
  if (!/^\d+$/.test(repetitionText) || Number(repetitionText) < 1) {
    throw new EmulatorError(400, "1708", `fieldRepetition must be a whole number >= 1, got "${repetitionText}"`);
  }
  const repetition = Number(repetitionText);
  if (repetition > layoutField.field.repetitions) {
    throw new EmulatorError(404, "102", `"${fieldName}" has ${layoutField.field.repetitions} repetition(s), not ${repetition}`);
  }
  const contentType = ctx.req.headers["content-type"] ?? "";
  if (mediaTypeOf(ctx.req.headers["content-type"]) !== "multipart/form-data") {
    throw new EmulatorError(415, "1708", `Content-Type must be multipart/form-data, got "${contentType}"`);
  }
  const body = await readBody(ctx.req, ctx.state.maxUploadBytes);
  const file = await uploadPart(contentType, body);
  const bytes = new Uint8Array(await file.arrayBuffer());

  // Everything the request carries is in: from here on, one synchronous write.
  const storeFile = () => ctx.state.containers.put(ctx.db.model.name, file.name || "upload.bin", file.type || "application/octet-stream", bytes);
  const record = writeContainer(ctx.db, ctx.layout, recordId, layoutField.field, repetition - 1, storeFile, ctx.state.clock, modId);
  return { response: { modId: String(record.modId) } };
}

async function uploadPart(contentType: string, body: Buffer): Promise<File> {
  let form: FormData;
  try {
    // Node's own multipart parser (the fetch Response) rather than a hand-written one.
    form = await new Response(body, { headers: { "content-type": contentType } }).formData();
  } catch {
    throw new EmulatorError(400, "1708", "body is not valid multipart/form-data");
  }
  const parts = form.getAll("upload");
  if (parts.length > 1) throw new EmulatorError(400, "1708", `upload is given ${parts.length} times; give it once`);
  const part = parts[0];
  if (part === undefined) throw new EmulatorError(400, "1708", 'multipart body has no part named "upload"');
  if (typeof part === "string") return new File([part], "upload.txt", { type: "text/plain" });
  return part;
}

/**
 * GET /Streaming/{database}/{containerId}/{urlToken}/{filename}: the bytes a container field's URL points to,
 * only to a request that carries either the URL's own signed token (as the record's field value gives it, so the URL
 * works from a browser, as FileMaker Server's container URLs do) or the Bearer token of a live session (or a
 * prefix-less API key) of that database. Anything else gets 401 / 952, whether or not the file exists.
 *
 * As on real servers (docs/emulator.md, "11. Container URLs"), the field's URL answers its first GET with 302 back to
 * itself and `Set-Cookie: X-FMS-Session-Key=...`; the GET that brings the cookie gets the file (streaming-sessions.ts).
 * A Bearer token's GET of the bare URL is served at once.
 */
export function serveContainer(state: DataApiState, segments: readonly string[], bearer: string | undefined, req: IncomingMessage): AnswerBytes | undefined {
  const [, database, id] = segments;
  if (segments.length < 4 || segments.length > 5 || !database || !id) return undefined;
  const signed = segments.length === 5 ? segments[3]! : undefined;
  const bySignature = signed !== undefined && sameText(signed, containerUrlToken(state.urlKey, database, id));
  const bySession = bearer !== undefined && (state.sessions.isValid(bearer, database) || state.apiKeys.accepts(req, bearer));
  if (!bySignature && !bySession) throw new EmulatorError(401, "952", "container data needs the URL's token or a session's Bearer token");
  // Only a file of the URL's database that a field still holds: a replaced or deleted file, or another database's, is 404.
  const file = state.containers.get(database, id);
  if (!file) return undefined;
  if (bySignature && !state.streaming.accepts(req, database)) {
    const key = state.streaming.issue(database);
    const headers = { Location: `${requestBaseUrl(req, state.baseUrl)}${samePath(req)}`, "Set-Cookie": `${STREAMING_COOKIE}=${key}; Path=/; HttpOnly` };
    return { status: 302, headers, body: Buffer.alloc(0) };
  }
  return {
    status: 200,
    headers: { "Content-Type": file.contentType },
    ownHeaders: { "Content-Disposition": `inline; filename*=UTF-8''${encodeURIComponent(file.filename)}` },
    body: Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength),
  };
}

/** The request target's path and query, as sent (server.ts has already parsed it once, so it parses). */
function samePath(req: IncomingMessage): string {
  const url = new URL(req.url ?? "/", "http://emulator.invalid");
  return `${url.pathname}${url.search}`;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.byteLength === y.byteLength && timingSafeEqual(x, y);
}
