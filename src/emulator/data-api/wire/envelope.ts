import { standardMessage } from "../../hosted-file/fm-error.js";
import type { AnswerBytes } from "../../http/answer.js";

const HEADERS = { "Content-Type": "application/json; charset=utf-8" };

/** The Data API envelope `{ response, messages: [{ code, message }] }` as an answer's bytes. */
export function envelope(status: number, code: string, response: object = {}, message = standardMessage(code), ownHeaders?: Record<string, string>): AnswerBytes {
  const body = Buffer.from(JSON.stringify({ response, messages: [{ code, message }] }));
  return { status, headers: HEADERS, ownHeaders, body, code };
}
