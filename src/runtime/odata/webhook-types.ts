/** The types of `od.webhooks` (wire contract section 7). Implemented by webhooks.ts. */
import type { AnyTable, FieldNameOf, FilterOf, TableOfClient } from "./definition.js";
import type { CallOptions } from "./shapes.js";

/** A webhook to add: FileMaker Server POSTs to `url` each change to `table`'s rows. */
export interface NewWebhook<D extends AnyTable, Db extends string = string> {
  /** The URL FileMaker Server POSTs each change to. */
  url: string;
  /** The table whose changes are sent (a generated table definition of the client's database). */
  table: TableOfClient<D, Db>;
  /** Headers sent with each delivery (a receiver's secret, say). */
  headers?: Record<string, string>;
  /** Also POST when the table's schema changes (default false). */
  notifySchemaChanges?: boolean;
  /** Only these fields in each delivery (default all). */
  select?: readonly FieldNameOf<D>[];
  /** Only changes to the rows this filter matches (default all). */
  filter?: FilterOf<D>;
  /** Give up an operation after this many failed deliveries (default 0: retry forever). */
  maxFailedAttempts?: number;
}

/** A change the server has not delivered yet, with how its attempts went. */
export interface PendingOperation {
  /** What happened to the rows. */
  operation: "ADD" | "UPDATE" | "DELETE" | "SCHEMA";
  /** The rows' ROWIDs. */
  rowIds: number[];
  /** The delivery's state, as the server words it. */
  status: string;
  /** The error of the last failed delivery, when one failed. */
  lastErrorCode?: number;
  /** Its message. */
  lastErrorMessage?: string;
  /** Deliveries tried so far. */
  sendAttempts: number;
}

/** A webhook as the server lists it. */
export interface Webhook {
  /** The id `get`, `remove` and `invoke` take. */
  id: number;
  /** The table whose changes are sent. */
  table: string;
  /** Where they are POSTed. */
  url: string;
  /** Headers sent with each delivery. */
  headers: Record<string, string>;
  /** Whether schema changes are POSTed too. */
  notifySchemaChanges: boolean;
  /** The fields each delivery carries, as OData's `$select` text (empty: all). */
  select: string;
  /** The rows whose changes are sent, as OData's `$filter` text (empty: all). */
  filter: string;
  /** Changes not delivered yet. */
  pendingOperations: PendingOperation[];
}

/** `od.webhooks`: the database's webhooks (FileMaker Server 2025 and later). */
export interface WebhookCalls<Db extends string> {
  /** Adds a webhook; resolves to its id. */
  add<D extends AnyTable>(webhook: NewWebhook<D, Db>, options?: CallOptions): Promise<{ id: number }>;
  /** Every webhook of the database. */
  list(options?: CallOptions): Promise<Webhook[]>;
  /** The webhook, or `null` when the server has none of that id. */
  get(id: number, options?: CallOptions): Promise<Webhook | null>;
  /** Removes a webhook. */
  remove(id: number, options?: CallOptions): Promise<void>;
  /**
   * Sends the webhook's payload now, for these rows (ROWIDs) or all; resolves to the payload sent (as JSON reads it; a
   * number too long for a JavaScript number as its text, every digit).
   */
  invoke(id: number, options?: { rowIds?: number[] } & CallOptions): Promise<unknown>;
}
