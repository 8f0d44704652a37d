import { NetworkError, ProtocolError, ResponseTooLargeError } from "@fmgen/runtime";
import { odataMetadata, type ODataMetadataAnswer } from "@fmgen/runtime/metadata";
import { createODataClient } from "@fmgen/runtime/odata";
import { serverBaseUrl } from "../../project/index.js";
import { PullError, unreachable } from "../errors.js";
import { CsdlError, tablesFromCsdl, type LiveTable } from "./csdl.js";
import { MAX_METADATA_BYTES } from "./xml.js";

/**
 * `GET {server}/fmi/odata/v4/{database}/$metadata` through the runtime's OData client (its carrier, bounds, Basic
 * credentials, redirects never followed, secrets scrubbed), then the tables the CSDL XML describes. What is pull's own
 * is here: the URL from the config, and every failure as a `PullError` naming the URL (which never holds credentials:
 * settings refuse a server URL with any), what is wrong, and where the credentials came from.
 */

export interface MetadataRequest {
  server: string;
  database: string;
  credentials: { username: string; password: string };
  /** Names of the variables the credentials came from, for the message of a refused sign-in. */
  usernameEnv: string;
  passwordEnv: string;
  timeoutMs?: number;
  maxBytes?: number;
}

export const METADATA_TIMEOUT_MS = 60_000;

/** The server as the config holds it, without the Data API's path (`/fmi/data/vLatest`) or OData's (`/fmi/odata/v4`). */
function serverRoot(server: string): string {
  return serverBaseUrl(server).server.replace(/\/fmi\/odata(?:\/v4)?\/*$/i, "").replace(/\/+$/, "");
}

/** The server as the config holds it, with or without the Data API's path (`/fmi/data/vLatest`) or OData's (`/fmi/odata/v4`). */
export function metadataUrl(server: string, database: string): string {
  return `${serverRoot(server)}/fmi/odata/v4/${encodeURIComponent(database)}/$metadata`;
}

export async function readMetadata(request: MetadataRequest): Promise<LiveTable[]> {
  const url = metadataUrl(request.server, request.database);
  const timeoutMs = request.timeoutMs ?? METADATA_TIMEOUT_MS;
  const maxBytes = request.maxBytes ?? MAX_METADATA_BYTES;
  const od = createODataClient({
    server: serverRoot(request.server),
    database: request.database,
    auth: request.credentials,
    timeoutMs,
    maxResponseBytes: maxBytes,
    // One read of a document that may take long to come: a timeout sent again would wait as long again, unasked.
    retry: { retries: 0 },
  });
  let answer: ODataMetadataAnswer;
  try {
    answer = await odataMetadata(od);
  } catch (error) {
    if (error instanceof ResponseTooLargeError) throw new PullError(`${url} answers more than ${maxBytes} bytes; fmgen pull --odata refuses a $metadata that large`, { cause: error });
    if (error instanceof ProtocolError) throw new PullError(`${url} answers bytes that are not UTF-8 text`, { cause: error });
    // The layout pull's words for the same faults (errors.ts).
    if (error instanceof NetworkError) throw unreachable(url, error);
    throw error;
  } finally {
    await od.close().catch(() => undefined);
  }
  return tablesOf(answer, url, request);
}

/** The tables of a 200 answer of CSDL XML; any other answer a PullError saying what the server said instead. */
function tablesOf({ status, headers, text }: ODataMetadataAnswer, url: string, request: MetadataRequest): LiveTable[] {
  const type = (headers["content-type"] ?? "").toLowerCase();
  if (status === 401) {
    throw new PullError(
      `${url} refuses the account (HTTP 401): a wrong account name or password, or a privilege set without the fmodata extended privilege; the credentials come from ${request.usernameEnv} and ${request.passwordEnv}`,
    );
  }
  if (status >= 300 && status < 400) {
    // The client never follows it: the request carries the account (Basic auth), which goes to no other address than the one given.
    const location = headers.location;
    throw new PullError(`${url} answers HTTP ${status}, a redirect${location ? ` to ${location.slice(0, 200)}` : ""}; fmgen pull --odata does not follow it with the account's credentials: give --server (or "server" in the config) the address it redirects to`);
  }
  if (status !== 200) {
    const hint = status === 404 ? `: no database "${request.database}" is served over OData there (check --database, and that the server's OData API is on)` : "";
    throw new PullError(`${url} answers HTTP ${status}${serverMessage(text, type)}${hint}`);
  }
  const start = text.trimStart().slice(0, 200).toLowerCase();
  if (type.includes("html") || start.startsWith("<!doctype html") || start.startsWith("<html")) {
    throw new PullError(`${url} answers an HTML page, not $metadata's CSDL XML: is the server URL right (a proxy's or a sign-in page)?`);
  }
  if (type.includes("json") || start.startsWith("{") || start.startsWith("[")) {
    throw new PullError(`${url} answers JSON (${type || "no Content-Type"}), not $metadata's CSDL XML: fmgen pull --odata reads the XML form`);
  }
  try {
    return tablesFromCsdl(text);
  } catch (error) {
    if (error instanceof CsdlError) throw new PullError(`${url}: the answer cannot be read as $metadata: ${error.message}`);
    throw error;
  }
}

/** `: "message"` from an OData error body (`{"error":{"code","message"}}`), or a short start of any other body. */
function serverMessage(text: string, type: string): string {
  if (type.includes("json")) {
    try {
      const error = (JSON.parse(text) as { error?: { code?: unknown; message?: unknown } }).error;
      if (error && typeof error.message === "string") return `: ${typeof error.code === "string" ? `code ${error.code}, ` : ""}${JSON.stringify(error.message.slice(0, 200))}`;
    } catch {
      // Not JSON after all: shown as text below.
    }
  }
  const start = text.trim().slice(0, 120);
  return start === "" || /<html/i.test(start) ? "" : `: ${JSON.stringify(start)}`;
}
