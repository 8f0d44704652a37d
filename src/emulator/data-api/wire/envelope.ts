import { standardMessage } from "../../hosted-file/fm-error.js";
import type { AnswerBytes } from "../../http/answer.js";
import { stringifyJson } from "../../../runtime/core/json-numbers.js";

const HEADERS = { "Content-Type": "application/json; charset=utf-8" };

/**
 * The Data API envelope `{ response, messages: [{ code, message }] }` as an answer's bytes, written by stringifyJson:
 * a NumberToken (a number a double does not hold: stored-value.ts's encodeWireValue) is its bare token, every digit.
 * `account` is for the request log (AnswerBytes.account). Every envelope has the same fields, `account` too when it
 * is undefined: a second shape of answer (one made by copying an envelope's fields) measured a few per cent slower
 * for every request, with or without the log.
 */
export function envelope(status: number, code: string, response: object = {}, message = standardMessage(code), ownHeaders?: Record<string, string>, account?: string): AnswerBytes {
  const body = Buffer.from(stringifyJson({ response, messages: [{ code, message }] }));
  return { status, headers: HEADERS, ownHeaders, body, code, account };
}
