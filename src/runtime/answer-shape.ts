import { ProtocolError, type FailedCall } from "./errors.js";
import type { Envelope } from "./transport.js";

/**
 * What an answer of code 0 must hold for its call to return it. A server or proxy that answers code 0 without
 * it broke the protocol: a ProtocolError naming the call, never `recordId: "undefined"` or a page without counts.
 * Ids must be strings, as FileMaker sends them (data-api.md): a number is refused like any other wrong shape.
 * The errors say what is wrong, never the values (an echoing proxy could have put a secret there).
 */
export function broken(envelope: Envelope, { method, path }: FailedCall, what: string): ProtocolError {
  // Only the method and path: the request this is given carries headers (credentials) and the body.
  return new ProtocolError(envelope.httpStatus, "", { method, path }, `breaks the protocol: ${what}`);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** `response[key]`: a record's id or modification id, a non-empty string. */
export function idIn(envelope: Envelope, call: FailedCall, key: "recordId" | "modId"): string {
  const id = envelope.response[key];
  if (typeof id !== "string" || !id) throw broken(envelope, call, `response.${key} is not a non-empty string`);
  return id;
}

const DATA_INFO = { database: "string", layout: "string", table: "string", totalRecordCount: "number", foundCount: "number", returnedCount: "number" };

/** The response of a page (list, find, get): `data` an array of records, `dataInfo` with its names and counts. */
export function pageIn(envelope: Envelope, call: FailedCall): Record<string, unknown> {
  const { data, dataInfo } = envelope.response;
  if (!Array.isArray(data)) throw broken(envelope, call, "response.data is not an array");
  if (!isObject(dataInfo)) throw broken(envelope, call, "response.dataInfo is not an object");
  for (const [key, type] of Object.entries(DATA_INFO)) {
    if (typeof dataInfo[key] !== type) throw broken(envelope, call, `response.dataInfo.${key} is not a ${type}`);
  }
  data.forEach((record: unknown, i) => {
    if (!isObject(record) || typeof record.recordId !== "string" || typeof record.modId !== "string" || !isObject(record.fieldData) || !(record.portalData === undefined || isObject(record.portalData))) {
      throw broken(envelope, call, `response.data[${i}] is not a record (string recordId and modId, object fieldData and portalData)`);
    }
  });
  return envelope.response;
}
