import type { IncomingMessage } from "node:http";
import type { AnswerBytes } from "../../http/answer.js";
import { EmulatorError } from "../../hosted-file/fm-error.js";
import { mediaTypeOf } from "../../http/media-type.js";
import { readBody } from "../wire/body.js";
import { recordIdParam } from "../../hosted-file/input/params.js";
import type { Answer, RequestContext } from "../routes.js";
import { currentRecord, writeContainer } from "../../hosted-file/records/record-transaction.js";
import type { DataApiState } from "../state.js";
import { extensionOf, signedName } from "../../hosted-file/container-urls.js";
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
 * GET /Streaming/MainDB/{name}[?RCType=EmbeddedRCFileProcessor]: the bytes a container field's URL points to
 * (container-urls.ts builds it). The name's signature is checked first, against every hosted database: a name of
 * another shape, or one no database signs, is 401 / 952 whether or not a file has that id, so ids cannot be probed.
 * A signed name whose file a field no longer holds (replaced, its record deleted), or whose extension is not the
 * file's, is 404 / 1630.
 *
 * As on real servers (docs/emulator.md, "11. Container URLs"), the URL answers its first GET with 302 back to itself
 * and `Set-Cookie: X-FMS-Session-Key=...`; the GET that brings the cookie gets the file (streaming-sessions.ts). A GET
 * that carries the Bearer token of a live session of the file's database (or a prefix-less API key) is served at
 * once: the emulator's own way in, not a real server's.
 */
export function serveContainer(state: DataApiState, segments: readonly string[], bearer: string | undefined, req: IncomingMessage): AnswerBytes | undefined {
  if (segments.length !== 3 || segments[1] !== "MainDB") return undefined;
  const signed = signedName(state.urlKey, state.databases.keys(), segments[2]!);
  if (!signed) throw new EmulatorError(401, "952", "no container URL the emulator gave out: its name is not signed for a hosted database");
  const { database, id } = signed;
  // Only a file of the URL's database that a field still holds: a replaced or deleted file is 404.
  const file = state.containers.get(database, id);
  if (!file || extensionOf(file.filename) !== signed.extension) return undefined;
  const bySession = bearer !== undefined && (state.sessions.isValid(bearer, database) || state.apiKeys.accepts(req, bearer));
  if (!bySession && !state.streaming.accepts(req, database)) {
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
