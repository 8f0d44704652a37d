import type { EmulatorClock } from "../hosted-file/clock.js";
import { createHmac } from "node:crypto";
import type { FaultPlan } from "../http/faults.js";
import type { SessionRegistry } from "./sessions.js";
import type { ContainerStore, HostedDatabase } from "../hosted-file/store.js";
import type { ContainerRef } from "../hosted-file/stored-value.js";
import type { ViewContext } from "../hosted-file/layout-view/record-view-types.js";
import type { ApiKeyRing } from "../hosted-file/api-keys.js";
import type { ServedHosts } from "../http/request-host.js";
import type { StreamingSessions } from "./streaming-sessions.js";
import type { DateFormat } from "../hosted-file/date-format.js";
import type { ScriptCatalog } from "../hosted-file/scripts/script-catalog.js";

export interface EmulatorLimits {
  maxJsonBytes: number;
  maxUploadBytes: number;
}

/** Everything a running emulator holds; handlers receive it with each request. */
export interface EmulatorState {
  databases: Map<string, HostedDatabase>;
  sessions: SessionRegistry;
  clock: EmulatorClock;
  containers: ContainerStore;
  limits: EmulatorLimits;
  counters: { requests: number };
  /** `http://host:port`, known once the server listens. */
  baseUrl: string;
  /** FileMaker errors answered with HTTP 500 instead of the contract's 400/404. */
  serverStatuses: boolean;
  /** Whether the layout metadata endpoints exist; without them they answer as unknown resources. */
  metadata: boolean;
  /** Injected faults, when started with `faults`. */
  faults?: FaultPlan | undefined;
  /** The key that signs container URLs (random per run). */
  urlKey: Buffer;
  /** Static API keys served with no login, under their proxy path prefixes (hosted-file/api-keys.ts). */
  apiKeys: ApiKeyRing;
  /** The host names requests may name in `Host` (request-host.ts); any other is answered 421. */
  hosts: ServedHosts;
  /** The X-FMS-Session-Key cookies container downloads need (streaming-sessions.ts). */
  streaming: StreamingSessions;
  /** The scripts each database has: the handlers and the database descriptions' scripts (scripts/). */
  scripts: ScriptCatalog;
  /** The emulator's log (script errors); stderr unless `startEmulator({ log })` says otherwise. */
  log: (line: string) => void;
}

/** What one call changes in how records read: its `dateformats`, and the base URL its container URLs start with. */
export interface CallView {
  dateFormat?: DateFormat | undefined;
  /** `http://host:port` as the client reached the emulator (request-host.ts); default the bind address. */
  baseUrl?: string | undefined;
}

export function viewContext(state: EmulatorState, db: HostedDatabase, call: CallView = {}): ViewContext {
  const baseUrl = call.baseUrl ?? state.baseUrl;
  return {
    database: db.model.name,
    tables: db.tables,
    ...(db.globals ? { globals: db.globals } : {}),
    ...(call.dateFormat !== undefined ? { dateFormat: call.dateFormat } : {}),
    containerUrl: (ref: ContainerRef) =>
      `${baseUrl}/Streaming/${encodeURIComponent(db.model.name)}/${ref.id}/${containerUrlToken(state.urlKey, db.model.name, ref.id)}/${fileSegment(ref.filename)}`,
  };
}

/** What a server restart forgets: every session, and every API key's global values (hosted-file/api-keys.ts). */
export function dropAllSessions(state: EmulatorState): void {
  state.sessions.dropAll();
  state.apiKeys.forgetGlobals();
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
