import { standardMessage } from "../../hosted-file/fm-error.js";
import type { AnswerBytes } from "../../http/answer.js";
import { stringifyJson } from "../../../runtime/core/json-numbers.js";

const HEADERS = { "Content-Type": "application/json; charset=utf-8" };

/**
 * The Data API envelope `{ response, messages: [{ code, message }] }` as an answer's bytes, written by stringifyJson:
 * a NumberToken (a number a double does not hold: stored-value.ts's encodeWireValue) is its bare token, every digit.
 */
export function envelope(status: number, code: string, response: object = {}, message = standardMessage(code), ownHeaders?: Record<string, string>): AnswerBytes {
  const body = Buffer.from(stringifyJson({ response, messages: [{ code, message }] }));
  return { status, headers: HEADERS, ownHeaders, body };
}
