import { serverBaseUrl } from "../../project/index.js";
import { PullError } from "../errors.js";
import { CsdlError, tablesFromCsdl, type LiveTable } from "./csdl.js";
import { MAX_METADATA_BYTES } from "./xml.js";

/**
 * `GET {server}/fmi/odata/v4/{database}/$metadata` with Basic auth (OData has no sessions): the CSDL XML, read up to
 * MAX_METADATA_BYTES, and the tables it describes. Every failure is a `PullError` naming the URL (which never holds
 * credentials: settings refuse a server URL with any) and what is wrong.
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

/** The server as the config holds it, with or without the Data API's path (`/fmi/data/vLatest`) or OData's (`/fmi/odata/v4`). */
export function metadataUrl(server: string, database: string): string {
  const base = serverBaseUrl(server).server.replace(/\/fmi\/odata(?:\/v4)?\/*$/i, "").replace(/\/+$/, "");
  return `${base}/fmi/odata/v4/${encodeURIComponent(database)}/$metadata`;
}

export async function readMetadata(request: MetadataRequest): Promise<LiveTable[]> {
  const url = metadataUrl(request.server, request.database);
  const maxBytes = request.maxBytes ?? MAX_METADATA_BYTES;
  const authorization = `Basic ${Buffer.from(`${request.credentials.username}:${request.credentials.password}`, "utf8").toString("base64")}`;
  let response: Response;
  try {
    response = await fetch(url, { headers: { Accept: "application/xml", Authorization: authorization }, redirect: "manual", signal: AbortSignal.timeout(request.timeoutMs ?? METADATA_TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = (error as Error).name === "TimeoutError" ? `no answer within ${(request.timeoutMs ?? METADATA_TIMEOUT_MS) / 1000} s` : (cause?.code ?? cause?.message ?? (error as Error).message);
    throw new PullError(`cannot reach ${url}: ${why}`, { cause: error });
  }
  const type = (response.headers.get("content-type") ?? "").toLowerCase();
  const text = await readBounded(response, url, maxBytes);
  if (response.status === 401) {
    throw new PullError(
      `${url} refuses the account (HTTP 401): a wrong account name or password, or a privilege set without the fmodata extended privilege; the credentials come from ${request.usernameEnv} and ${request.passwordEnv}`,
    );
  }
  if (response.status >= 300 && response.status < 400) {
    // Not followed: the request carries the account (Basic auth), which goes to no other address than the one given.
    const location = response.headers.get("location");
    throw new PullError(`${url} answers HTTP ${response.status}, a redirect${location ? ` to ${location.slice(0, 200)}` : ""}; fmgen pull --odata does not follow it with the account's credentials: give --server (or "server" in the config) the address it redirects to`);
  }
  if (response.status !== 200) {
    const hint = response.status === 404 ? `: no database "${request.database}" is served over OData there (check --database, and that the server's OData API is on)` : "";
    throw new PullError(`${url} answers HTTP ${response.status}${serverMessage(text, type)}${hint}`);
  }
  const start = text.replace(/^\ufeff/, "").trimStart().slice(0, 200).toLowerCase();
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

/** The body as text, refused past `maxBytes` (by its Content-Length before reading, or once that much has come). */
async function readBounded(response: Response, url: string, maxBytes: number): Promise<string> {
  const tooLarge = () => new PullError(`${url} answers more than ${maxBytes} bytes; fmgen pull --odata refuses a $metadata that large`);
  const length = Number(response.headers.get("content-length") ?? "0");
  if (length > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return "";
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = Buffer.concat(chunks);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new PullError(`${url} answers bytes that are not UTF-8 text`);
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
