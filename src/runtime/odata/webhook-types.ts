/** The types of `od.webhooks` (wire contract section 7). Implemented by webhooks.ts. */
import type { FieldNameOf, TableOfDatabase } from "./definition.js";
import type { FilterOf } from "./filter.js";
import type { CallOptions } from "./shapes.js";

export interface NewWebhook<D extends TableOfDatabase<string>> {
  /** The URL FileMaker Server POSTs each change to. */
  url: string;
  table: D;
  /** Headers sent with each delivery (a receiver's secret, say). */
  headers?: Record<string, string>;
  notifySchemaChanges?: boolean;
  /** Only these fields in each delivery (default all). */
  select?: readonly FieldNameOf<D>[];
  /** Only changes to the rows this filter matches (default all). */
  filter?: FilterOf<D>;
  /** Give up an operation after this many failed deliveries (default 0: retry forever). */
  maxFailedAttempts?: number;
}

export interface PendingOperation {
  operation: "ADD" | "UPDATE" | "DELETE" | "SCHEMA";
  rowIds: number[];
  status: string;
  lastErrorCode?: number;
  lastErrorMessage?: string;
  sendAttempts: number;
}

export interface Webhook {
  id: number;
  table: string;
  url: string;
  headers: Record<string, string>;
  notifySchemaChanges: boolean;
  select: string;
  filter: string;
  pendingOperations: PendingOperation[];
}

export interface WebhookCalls<Db extends string> {
  add<D extends TableOfDatabase<Db>>(webhook: NewWebhook<D>, options?: CallOptions): Promise<{ id: number }>;
  list(options?: CallOptions): Promise<Webhook[]>;
  /** The webhook, or `null` when the server has none of that id. */
  get(id: number, options?: CallOptions): Promise<Webhook | null>;
  remove(id: number, options?: CallOptions): Promise<void>;
  /** Sends the webhook's payload now, for these rows (ROWIDs) or all; resolves to the payload sent. */
  invoke(id: number, options?: { rowIds?: number[] } & CallOptions): Promise<unknown>;
}
