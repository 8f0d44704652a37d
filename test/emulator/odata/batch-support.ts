import { expect } from "vitest";
import { headerValue, parseBatchResponse, type BatchResponseItem, type BatchResponsePart } from "../../../src/emulator/odata/batch-parse.js";
import { writeBatchRequest, type BatchRequestEntry } from "../../../src/emulator/odata/batch-write.js";
import { auth, DB, type Answer } from "./serve-support.js";

// What the `$batch` tests share: posting a batch over loopback HTTP and reading its multipart answer.

export const S = `/fmi/odata/v4/${DB}`;

export interface BatchAnswer extends Answer {
  /** The parsed multipart parts (undefined when the answer is not multipart). */
  items: BatchResponseItem[] | undefined;
}

/** POSTs a raw `$batch` body with the given Content-Type (Basic auth unless `headers` overrides it). */
export async function postBatch(url: string, body: string | Uint8Array, contentType: string | undefined, headers: Record<string, string> = {}, path = `${S}/$batch`): Promise<BatchAnswer> {
  const h: Record<string, string> = { Authorization: auth(), "OData-Version": "4.0", ...headers };
  if (contentType !== undefined) h["Content-Type"] = contentType;
  const res = await fetch(`${url}${path}`, { method: "POST", headers: h, body, signal: AbortSignal.timeout(20_000) });
  const buf = Buffer.from(await res.arrayBuffer());
  const text = buf.toString("utf8");
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const type = res.headers.get("content-type") ?? undefined;
  const items = res.status === 200 && type?.startsWith("multipart/mixed") ? parseBatchResponse(buf, type) : undefined;
  return { status: res.status, headers: res.headers, text, body: json, items };
}

/** Writes the entries with batch-write.ts and POSTs them. */
export function batch(url: string, entries: readonly BatchRequestEntry[], headers: Record<string, string> = {}): Promise<BatchAnswer> {
  const written = writeBatchRequest(entries);
  return postBatch(url, written.body, written.contentType, headers);
}

/** A part's body as JSON (undefined when empty). */
export function partJson(part: BatchResponsePart): any {
  const text = Buffer.from(part.body).toString("utf8");
  return text === "" ? undefined : JSON.parse(text);
}

export function single(item: BatchResponseItem | undefined): BatchResponsePart {
  if (item?.kind !== "response") throw new Error(`expected a single response part, got ${JSON.stringify(item?.kind)}`);
  return item.response;
}

export function changeset(item: BatchResponseItem | undefined): readonly BatchResponsePart[] {
  if (item?.kind !== "changeset") throw new Error(`expected a changeset part, got ${JSON.stringify(item?.kind)}`);
  return item.responses;
}

/** A part answering an OData error with this status and code; returns its message. */
export function expectPartError(part: BatchResponsePart, status: number, code: string): string {
  const json = partJson(part);
  expect({ status: part.status, code: json?.error?.code }, Buffer.from(part.body).toString("utf8")).toEqual({ status, code });
  expect(headerValue(part.headers, "Content-Type")).toBe("application/json;charset=utf-8");
  return json.error.message as string;
}

export const json = (value: unknown): { headers: [string, string][]; body: string } => ({ headers: [["Content-Type", "application/json"]], body: JSON.stringify(value) });
