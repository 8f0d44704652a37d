import type { ServerResponse } from "node:http";
import { standardMessage } from "../../hosted-file/fm-error.js";

/** Writes the Data API envelope `{ response, messages: [{ code, message }] }`. */
export function sendEnvelope(
  res: ServerResponse,
  status: number,
  code: string,
  response: object = {},
  message = standardMessage(code),
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify({ response, messages: [{ code, message }] });
  res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    ...headers,
  });
  res.end(body);
}
