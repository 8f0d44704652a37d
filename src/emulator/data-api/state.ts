import type { HostedServer } from "../hosted-file/hosted-server.js";
import type { SessionRegistry } from "./sessions.js";
import type { StreamingSessions } from "./streaming-sessions.js";

/** What the Data API holds beside the hosted server: its sessions, its cookies, its options; handlers receive it. */
export interface DataApiState extends HostedServer {
  /** Session tokens over the hosted server's accounts (sessions.ts). */
  readonly sessions: SessionRegistry;
  /** The X-FMS-Session-Key cookies container downloads need (streaming-sessions.ts). */
  readonly streaming: StreamingSessions;
  /** Largest JSON body (`maxJsonBytes`). */
  readonly maxJsonBytes: number;
  /** FileMaker errors answered with HTTP 500 instead of the contract's 400/404. */
  readonly serverStatuses: boolean;
  /** Whether the layout metadata endpoints exist; without them they answer as unknown resources. */
  readonly metadata: boolean;
}

/** What a server restart forgets: every session, and every API key's global values (hosted-file/api-keys.ts). */
export function dropAllSessions(state: DataApiState): void {
  state.sessions.dropAll();
  state.apiKeys.forgetGlobals();
}
