import { ProtocolError, type FailedCall } from "../core/protocol-errors.js";
import type { Envelope } from "./transport.js";

/**
 * What an answer of code 0 must hold for its call to return it. A server or proxy that answers code 0 without
 * it broke the protocol: a ProtocolError naming the call, never `recordId: "undefined"` or a page without counts.
 * Ids must be strings, as FileMaker sends them: a number is refused like any other wrong shape.
 * The errors say what is wrong, never the values (an echoing proxy could have put a secret there).
 */
export function broken(envelope: Envelope, { method, path }: FailedCall, what: string): ProtocolError {
  // Only the method and path: the request this is given carries headers (credentials) and the body.
  return new ProtocolError(envelope.httpStatus, "", { method, path }, `breaks the protocol: ${what}`);
}

/** An object that is not an array (nor null). */
export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** `response[key]`: a record's id or modification id, a non-empty string. */
export function idIn(envelope: Envelope, call: FailedCall, key: "recordId" | "modId"): string {
  const id = envelope.response[key];
  if (!id || typeof id !== "string") throw broken(envelope, call, `response.${key} is not a non-empty string`);
  return id;
}

const DATA_INFO = { database: "string", layout: "string", table: "string", totalRecordCount: "number", foundCount: "number", returnedCount: "number" };

const PORTAL_INFO = { database: "string", table: "string", foundCount: "number", returnedCount: "number" };

/** `item` an object with `shape`'s members of their types, else a ProtocolError naming `at.member`. */
function shaped(envelope: Envelope, call: FailedCall, item: unknown, at: string, shape: Record<string, string>): void {
  for (const [key, type] of Object.entries(shape)) {
    if (!isObject(item) || typeof item[key] !== type) throw broken(envelope, call, `${at}.${key} is not a ${type}`);
  }
}

/** Each of `items` shaped (above), else a ProtocolError naming `at[i].member`. */
function each(envelope: Envelope, call: FailedCall, items: unknown, at: string, shape: Record<string, string>): void {
  if (!Array.isArray(items)) throw broken(envelope, call, `${at} is not an array`);
  items.forEach((item: unknown, i) => shaped(envelope, call, item, `${at}[${i}]`, shape));
}

/** An edit's `newPortalRecordInfo` (the portal rows it created), when the answer has it. */
export function newRowsIn<Row>(envelope: Envelope, call: FailedCall): Row[] | undefined {
  const rows = envelope.response.newPortalRecordInfo;
  if (rows !== undefined) each(envelope, call, rows, "response.newPortalRecordInfo", { tableName: "string", recordId: "string", modId: "string" });
  return rows as Row[] | undefined;
}

/**
 * The response of a page (list, find, get): `data` an array of records, `dataInfo` with its names and counts; with
 * `portals` (a read that chose portals), each record's `portalDataInfo` too, when it has one.
 */
export function pageIn(envelope: Envelope, call: FailedCall, portals?: boolean): Record<string, unknown> {
  const { data, dataInfo } = envelope.response;
  if (!Array.isArray(data)) throw broken(envelope, call, "response.data is not an array");
  if (!isObject(dataInfo)) throw broken(envelope, call, "response.dataInfo is not an object");
  shaped(envelope, call, dataInfo, "response.dataInfo", DATA_INFO);
  data.forEach((record: unknown, i) => {
    if (!isObject(record) || typeof record.recordId !== "string" || typeof record.modId !== "string" || !isObject(record.fieldData) || !(record.portalData === undefined || isObject(record.portalData))) {
      throw broken(envelope, call, `response.data[${i}] is not a record (string recordId and modId, object fieldData and portalData)`);
    }
    if (portals && record.portalDataInfo !== undefined) each(envelope, call, record.portalDataInfo, `response.data[${i}].portalDataInfo`, PORTAL_INFO);
  });
  return envelope.response;
}
