// What a hosted file's webhooks wait to deliver: per webhook, its operations in order, each the kind of change and
// the ids of the records it tells of. No payload is kept: the registry (webhook-registry.ts) builds one when it sends
// the operation. A write's changes of one kind merge into one operation (at most a page), sealed once the write has
// run. The backlog is bounded in bytes across all the file's webhooks, and in operations per webhook; past either,
// the oldest operations not tried yet are dropped (and logged), so what a client does cannot grow the emulator.

import type { ChangeOperation } from "../hosted-file/change-feed.js";
import { MAX_PAGE } from "./entity-read.js";

/** Most operations waiting per webhook; beyond, the oldest not tried yet is dropped (and logged). */
export const MAX_PENDING_OPERATIONS = 1000;

/** Most bytes the waiting operations of one hosted file's webhooks hold, all together (choice: 16 MiB). */
export const MAX_PENDING_BYTES = 16 * 1024 * 1024;

/** What a waiting operation is counted as holding: its object, and its ids at 8 bytes each (a number array's). */
const OPERATION_BYTES = 128;
const ROW_ID_BYTES = 8;

export interface PendingOperation {
  readonly operation: ChangeOperation;
  rowIDs: number[];
  /** While the write that queued it runs: later changes of that write merge into it. */
  open: boolean;
  sendAttempts: number;
  lastErrorCode: number;
  lastErrorMessage: string;
}

/** A webhook as its backlog knows it. */
export interface WebhookQueue {
  readonly id: number;
  readonly tableName: string;
  readonly pending: PendingOperation[];
}

const bytesOf = (op: PendingOperation) => OPERATION_BYTES + op.rowIDs.length * ROW_ID_BYTES;

export class FileBacklog {
  /** What all the waiting operations hold, counted as bytesOf counts. */
  bytes = 0;
  /** The operations not tried yet, oldest first (a Map keeps insertion order), each with its webhook. */
  private readonly untried = new Map<PendingOperation, WebhookQueue>();
  /** Changes refused for want of room while a write runs, per webhook: logged once, when the write is sealed. */
  private readonly refused = new Map<WebhookQueue, { operation: ChangeOperation; records: number }>();

  constructor(private readonly log: (line: string) => void) {}

  /**
   * Queues a change: merged into the webhook's open operation of the same kind when it fits in a page, else a new
   * operation (`open` false: never merged, as an Invoke's). Makes room by dropping the oldest untried operations of
   * the file; when none is left to drop, the change itself is dropped.
   */
  add(queue: WebhookQueue, operation: ChangeOperation, rowIDs: readonly number[], open = true): void {
    const cost = OPERATION_BYTES + rowIDs.length * ROW_ID_BYTES;
    while (this.bytes + cost > MAX_PENDING_BYTES && this.untried.size > 0) {
      const [oldest, owner] = this.untried.entries().next().value as [PendingOperation, WebhookQueue];
      this.remove(owner, oldest);
      this.log(`webhook ${owner.id} (${owner.tableName}): ${this.full()}; dropped ${oldest.operation} of ${oldest.rowIDs.length} record(s)`);
    }
    if (this.bytes + cost > MAX_PENDING_BYTES) {
      const refused = this.refused.get(queue);
      if (refused) refused.records += rowIDs.length;
      else this.refused.set(queue, { operation, records: rowIDs.length });
      return;
    }
    const last = queue.pending.at(-1);
    if (open && last?.open && last.operation === operation && operation !== "SCHEMA" && last.rowIDs.length + rowIDs.length <= MAX_PAGE) {
      for (const id of rowIDs) last.rowIDs.push(id);
      this.bytes += rowIDs.length * ROW_ID_BYTES;
      return;
    }
    if (queue.pending.length >= MAX_PENDING_OPERATIONS) {
      // The first operation, once tried, is being sent (or waits for its retry): the next one goes.
      const oldest = queue.pending[0]!.sendAttempts > 0 ? queue.pending[1]! : queue.pending[0]!;
      this.remove(queue, oldest);
      this.log(`webhook ${queue.id} (${queue.tableName}): more than ${MAX_PENDING_OPERATIONS} operations wait; dropped the oldest (${oldest.operation} of ${oldest.rowIDs.length} record(s))`);
    }
    const op: PendingOperation = { operation, rowIDs: [...rowIDs], open, sendAttempts: 0, lastErrorCode: 0, lastErrorMessage: "" };
    queue.pending.push(op);
    this.untried.set(op, queue);
    this.bytes += bytesOf(op);
  }

  /** Ends the write's merging into the webhook's open operation (its ids once each); logs what was refused. */
  seal(queue: WebhookQueue): void {
    const last = queue.pending.at(-1);
    if (last?.open) {
      last.open = false;
      const unique = [...new Set(last.rowIDs)];
      this.bytes -= (last.rowIDs.length - unique.length) * ROW_ID_BYTES;
      last.rowIDs = unique;
    }
    const refused = this.refused.get(queue);
    if (refused) {
      this.refused.delete(queue);
      this.log(`webhook ${queue.id} (${queue.tableName}): ${this.full()}; dropped ${refused.operation} of ${refused.records} record(s)`);
    }
  }

  /** The operation is being tried: the bound no longer drops it. */
  tried(op: PendingOperation): void {
    this.untried.delete(op);
  }

  /** Takes an operation off its webhook's queue (delivered, dropped). */
  remove(queue: WebhookQueue, op: PendingOperation): void {
    const at = queue.pending.indexOf(op);
    if (at < 0) return;
    queue.pending.splice(at, 1);
    this.untried.delete(op);
    this.bytes -= bytesOf(op);
  }

  /** Drops every operation of a webhook (it is deleted). */
  clear(queue: WebhookQueue): void {
    for (const op of queue.pending) {
      this.untried.delete(op);
      this.bytes -= bytesOf(op);
    }
    queue.pending.length = 0;
    this.refused.delete(queue);
  }

  private full(): string {
    return `the file's waiting webhook operations hold ${MAX_PENDING_BYTES / 1024 / 1024} MiB, the most`;
  }
}
