import type { IncomingMessage } from "node:http";
import { parseJsonExactly } from "../../../runtime/core/json-numbers.js";
import { EmulatorError } from "../../hosted-file/fm-error.js";
import { isJsonMediaType } from "../../http/media-type.js";
import { readBody as readBoundedBody } from "../../http/request-body.js";
import { assertJsonDepth, assertNoDuplicateKeys } from "./json-depth.js";

/** Reads a whole request body, answering 413 (code 1708) past `limit` bytes (the shell drops the rest). */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return readBoundedBody(req, limit, () => new EmulatorError(413, "1708", `request body exceeds the emulator's limit of ${limit} bytes`));
}

/**
 * Reads a body the call does not interpret (a record delete's body of another type than JSON) to its end and drops
 * it, still answering 413 past `limit`.
 */
export async function discardBody(req: IncomingMessage, limit: number): Promise<void> {
  await readBody(req, limit);
}

/**
 * A JSON object body; 415 without `application/json`, 400 when it is not a JSON object. A number token a double does
 * not hold is a NumberToken of its text (parseJson; docs/emulator.md, "Numbers"), so a 58-digit key arrives whole. With `emptyIsObject`
 * (the login: docs/emulator.md, "1. Requests every client sends") a body of no bytes at all means `{}`, whatever its
 * Content-Type.
 */
export async function readJsonObject(req: IncomingMessage, limit: number, options: { emptyIsObject?: boolean } = {}): Promise<Record<string, unknown>> {
  let raw: Buffer | undefined;
  if (options.emptyIsObject) {
    // Read first: only the body's length says whether it is empty (chunked bodies declare none).
    raw = await readBody(req, limit);
    if (raw.byteLength === 0) return {};
  }
  if (!isJsonMediaType(req.headers["content-type"])) {
    // The body is left unread: the shell drops it when it answers.
    throw new EmulatorError(415, "1708", `Content-Type must be application/json, got "${req.headers["content-type"] ?? ""}"`);
  }
  raw ??= await readBody(req, limit);
  const text = raw.toString("utf8");
  let parsed: unknown;
  try {
    parsed = parseJsonExactly(text);
  } catch (error) {
    throw new EmulatorError(400, "1708", `body is not valid JSON (${(error as Error).message})`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new EmulatorError(400, "1708", "body must be a JSON object");
  }
  // Refused here, once for every JSON endpoint, before anything walks the body.
  assertJsonDepth(parsed, "the body");
  assertNoDuplicateKeys(text, "the body");
  return parsed as Record<string, unknown>;
}
