import { createHmac } from "node:crypto";
import type { DateFormat } from "./date-format.js";
import type { HostedServer } from "./hosted-server.js";
import type { ViewContext } from "./layout-view/record-view-types.js";
import type { HostedDatabase } from "./store.js";
import type { ContainerRef } from "./stored-value.js";

// The URL a container field's value reads as (`/Streaming/{db}/{id}/{token}/{file}`, served by the Data API), and
// the view records are read with, whichever API or script reads them.

/** What one call changes in how records read: its `dateformats`, and the base URL its container URLs start with. */
export interface CallView {
  dateFormat?: DateFormat | undefined;
  /** `http://host:port` as the client reached the emulator (request-host.ts); default the bind address. */
  baseUrl?: string | undefined;
}

/** How records of `db` read: its tables and globals, the call's date format, container fields as signed URLs. */
export function viewContext(server: Pick<HostedServer, "baseUrl" | "urlKey">, db: HostedDatabase, call: CallView = {}): ViewContext {
  const baseUrl = call.baseUrl ?? server.baseUrl;
  return {
    database: db.model.name,
    tables: db.tables,
    ...(db.globals ? { globals: db.globals } : {}),
    ...(call.dateFormat !== undefined ? { dateFormat: call.dateFormat } : {}),
    containerUrl: (ref: ContainerRef) =>
      `${baseUrl}/Streaming/${encodeURIComponent(db.model.name)}/${ref.id}/${containerUrlToken(server.urlKey, db.model.name, ref.id)}/${fileSegment(ref.filename)}`,
  };
}

/** The per-file URL token: an HMAC of the database and the container id under the emulator's random key. */
export function containerUrlToken(key: Buffer, database: string, id: string): string {
  return createHmac("sha256", key).update(`${database}\u0000${id}`).digest("base64url");
}

/**
 * A container URL's last segment, the file's name (only shown: the URL's token finds the file). "." and ".." (which
 * URL parsers, fetch's among them, read as steps, percent-encoded or not) become "_." and "_..".
 */
function fileSegment(filename: string): string {
  return encodeURIComponent(/^\.\.?$/.test(filename) ? `_${filename}` : filename);
}
