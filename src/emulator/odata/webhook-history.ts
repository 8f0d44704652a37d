// The webhooks' deliveries already tried (docs/inspector.md, "OData webhooks"): one entry per attempt, delivered or
// not, in a ring of the last MAX_DELIVERIES across all hosted files, so that its memory is bounded whatever the
// traffic. Kept raw, as the registry made the attempt (the URL whole): the inspector removes secrets when it reads it.
// What waits to be delivered is the backlog's (webhook-backlog.ts), not this.

import type { ChangeOperation } from "../hosted-file/change-feed.js";

/** How many attempts the history keeps, the oldest dropped first (choice). */
export const MAX_DELIVERIES = 200;

/** One attempt at a delivery. */
export interface DeliveryAttempt {
  /** 1, 2, 3, ... in the order attempts ended: what a reader asks for entries after. */
  readonly id: number;
  /** When the attempt started, ms since the epoch (the machine's clock, as the request log's). */
  readonly at: number;
  readonly database: string;
  readonly webhookId: number;
  readonly tableName: string;
  readonly operation: ChangeOperation;
  /** How many records its payload told of (the operation's row ids). */
  readonly records: number;
  /** The URL it was POSTed to, as registered (secrets and all). */
  readonly url: string;
  /** Whether a 2xx came. */
  readonly delivered: boolean;
  /** The HTTP status that came; undefined when none did (refused, timed out, no payload could be built). */
  readonly status: number | undefined;
  /** Why it failed ("HTTP 500 Internal Server Error", "Error: connect ECONNREFUSED …"); undefined when delivered. */
  readonly error: string | undefined;
  /** Which attempt at this operation it was: 1 for the first. */
  readonly attempt: number;
  /** Milliseconds from its start until it ended. */
  readonly ms: number;
}

/** The last MAX_DELIVERIES attempts, oldest first. */
export class DeliveryHistory {
  private readonly ring: (DeliveryAttempt | undefined)[];
  private nextId = 1;

  constructor(readonly size: number = MAX_DELIVERIES) {
    this.ring = new Array<DeliveryAttempt | undefined>(size);
  }

  /** How many attempts ended since start (the ring keeps the last `size`). */
  get total(): number {
    return this.nextId - 1;
  }

  add(attempt: Omit<DeliveryAttempt, "id">): void {
    const entry: DeliveryAttempt = { id: this.nextId++, ...attempt };
    this.ring[(entry.id - 1) % this.size] = entry;
  }

  /** The attempts kept with an id above `after`, oldest first. */
  since(after = 0): DeliveryAttempt[] {
    const out: DeliveryAttempt[] = [];
    for (let id = Math.max(after + 1, this.nextId - this.size); id < this.nextId; id++) {
      const entry = this.ring[(id - 1) % this.size];
      if (entry?.id === id) out.push(entry);
    }
    return out;
  }
}
