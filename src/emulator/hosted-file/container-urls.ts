import { createHmac, timingSafeEqual } from "node:crypto";
import type { DateFormat } from "./date-format.js";
import type { HostedServer } from "./hosted-server.js";
import type { ViewContext } from "./layout-view/record-view-types.js";
import type { HostedDatabase } from "./store.js";
import type { ContainerRef } from "./stored-value.js";

// The URL a container field's value reads as, in real servers' shape (docs/emulator.md, "11. Container URLs"):
// `{base}/Streaming/MainDB/<name>.<ext>?RCType=EmbeddedRCFileProcessor`, served by the Data API; and the view records
// are read with, whichever API or script reads them.
//
// `MainDB` is a fixed segment, not the database's name, so the name binds the database: it is the container id (32
// hex digits, new for every upload, so a replaced file's URL names a file that is gone) followed by 32 hex digits of
// an HMAC-SHA256 of the database and that id under the emulator's random key. Nothing else finds the file: the name
// cannot be guessed, cannot be moved to another database's file, and dies with the emulator (the key is drawn at
// each start), as a real server's URLs do.

/** The path a container URL has up to its file name. */
export const STREAMING_PATH = "/Streaming/MainDB/";

/** The query string every container URL ends with, as real servers write it. */
export const RC_TYPE = "EmbeddedRCFileProcessor";

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
    containerUrl: (ref: ContainerRef) => `${baseUrl}${STREAMING_PATH}${containerUrlName(server.urlKey, db.model.name, ref)}?RCType=${RC_TYPE}`,
  };
}

/** A container URL's file name: the id, its signature for `database`, and the file name's extension when it has one. */
export function containerUrlName(key: Buffer, database: string, ref: ContainerRef): string {
  const extension = extensionOf(ref.filename);
  return `${ref.id}${signature(key, database, ref.id)}${extension === undefined ? "" : `.${extension}`}`;
}

/** What a container URL's file name says, once its signature has been checked against the hosted databases. */
export interface SignedName {
  database: string;
  id: string;
  /** The extension the URL carries (undefined: none). */
  extension: string | undefined;
}

const NAME = /^([0-9A-F]{32})([0-9A-F]{32})(?:\.([A-Za-z0-9]{1,16}))?$/;

/**
 * The database and container id a URL's file name is signed for, among `databases` (every one is compared, in
 * constant time); undefined for a name of another shape or a signature none of them gives. The file itself is not
 * looked up here, so a forged name and a real one take the same path.
 */
export function signedName(key: Buffer, databases: Iterable<string>, name: string): SignedName | undefined {
  const m = NAME.exec(name);
  if (!m) return undefined;
  const [, id, given, extension] = m as unknown as [string, string, string, string | undefined];
  const givenBytes = Buffer.from(given);
  let found: string | undefined;
  for (const database of databases) {
    if (timingSafeEqual(givenBytes, Buffer.from(signature(key, database, id)))) found ??= database;
  }
  return found === undefined ? undefined : { database: found, id, extension };
}

/**
 * A file name's extension as a URL carries it: the letters and digits after its last dot (1 to 16 of them, case
 * kept); none when the name has no dot, ends in one, starts with its only one (`.profile`), or has anything else after it.
 */
export function extensionOf(filename: string): string | undefined {
  const dot = filename.lastIndexOf(".");
  if (dot <= 0) return undefined;
  const extension = filename.slice(dot + 1);
  return /^[A-Za-z0-9]{1,16}$/.test(extension) ? extension : undefined;
}

/** 32 hex digits (128 bits) of an HMAC-SHA256 of the database and the container id under the emulator's random key. */
function signature(key: Buffer, database: string, id: string): string {
  return createHmac("sha256", key).update(`${database}\u0000${id}`).digest("hex").slice(0, 32).toUpperCase();
}
