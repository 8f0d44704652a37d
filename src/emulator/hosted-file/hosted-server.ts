import type { ApiKeyRing } from "./api-keys.js";
import type { EmulatorClock } from "./clock.js";
import type { ScriptCatalog } from "./scripts/script-catalog.js";
import type { NameMap } from "./name-map.js";
import type { AccountBook } from "./sign-ins.js";
import type { ContainerStore, HostedDatabase } from "./store.js";

/**
 * What a running emulator hosts, whichever API a request is for: the hosted files and what runs them (the clock,
 * accounts, API keys, scripts, the log), and what both APIs answer alike (the bound URL, the container URLs' key,
 * the largest upload). Each API keeps its own beside it: the Data API its sessions (data-api/state.ts), OData its
 * webhooks.
 */
export interface HostedServer {
  /** By file name, matched as FileMaker matches names (name-map.ts); a URL's name resolves through database-name.ts. */
  readonly databases: NameMap<HostedDatabase>;
  readonly containers: ContainerStore;
  readonly clock: EmulatorClock;
  /** The accounts both APIs sign in (sign-ins.ts). */
  readonly accounts: AccountBook;
  /** Static API keys served with no login, under their proxy path prefixes (api-keys.ts). */
  readonly apiKeys: ApiKeyRing;
  /** The scripts each database has: the handlers and the database descriptions' scripts (scripts/). */
  readonly scripts: ScriptCatalog;
  /** The emulator's log (script errors); stderr unless `startEmulator({ log })` says otherwise. */
  readonly log: (line: string) => void;
  /** Largest container upload, through either API (`maxUploadBytes`). */
  readonly maxUploadBytes: number;
  /** `http://host:port` the emulator is bound to, known once it listens. */
  baseUrl: string;
  /** The key that signs container URLs (random per run; container-urls.ts). */
  readonly urlKey: Buffer;
}
