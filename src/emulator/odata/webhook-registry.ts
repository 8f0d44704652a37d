// The emulator's OData webhooks (odata-server.md section 7): registrations per hosted file (ids sequential, never
// reused; kept across the restart fault, which drops sessions only), and their deliveries. Each webhook listens to
// the hosted file's change feed (change-feed.ts): records added, updated or deleted in its table through either API
// or a script, and schema changes when it asked for them. Deliveries are asynchronous (a write never waits for or
// fails by one), one at a time per webhook in the order the changes happened, retried with a capped exponential
// backoff until a 2xx, and stopped by close(): no timer, socket or listener is left.

import type { ChangeOperation, RecordChange } from "../hosted-file/change-feed.js";
import { onChange } from "../hosted-file/change-feed.js";
import type { ContainerStore, HostedDatabase } from "../hosted-file/store.js";
import type { Body } from "./entity-read.js";
import { MAX_PAGE } from "./entity-read.js";
import { ODataError } from "./odata-error.js";
import { WebhookTargets, type WebhookSpec } from "./webhook-add.js";
import { deletePayload, recordsPayload, schemaPayload, tableFacts, type TableFacts } from "./webhook-payload.js";
import { postJson, type PostAttempt } from "./webhook-post.js";

/** `startEmulator({ webhooks })`: where webhooks may POST and how failed deliveries are retried. */
export interface WebhookOptions {
  /**
   * Hosts (names or IP addresses, no port) webhook URLs may name besides loopback (`localhost`, `127.0.0.1`,
   * `[::1]`), or `"*"` for any. Default none: the emulator POSTs to this machine only.
   */
  readonly allowedHosts?: readonly string[];
  /** The wait before the first retry of a failed delivery, ms; it doubles with each failure (default 1,000). */
  readonly retryDelayMs?: number;
  /** The longest wait between retries, ms (default 60,000). */
  readonly maxRetryDelayMs?: number;
  /** How long one delivery may take before it counts as failed, ms (default 10,000). */
  readonly timeoutMs?: number;
}

/** Most webhooks one hosted file holds (choice): a client cannot grow the emulator without bound. */
export const MAX_WEBHOOKS = 1000;

/** Most operations waiting per webhook; beyond, the oldest not being sent is dropped (and logged). */
export const MAX_PENDING_OPERATIONS = 1000;

interface PendingOperation {
  readonly operation: ChangeOperation;
  readonly rowIDs: number[];
  /** The ids in rowIDs, for merging without scanning. */
  readonly ids: Set<number>;
  sendAttempts: number;
  lastErrorCode: number;
  lastErrorMessage: string;
  /**
   * What is sent: an Invoke's, built when it was asked for; a change's, built once the write that made it has
   * finished (the records as that write left them). Undefined while it cannot be built (a bad select or filter):
   * each attempt tries again and records the error.
   */
  payload?: Body | undefined;
  /** Whether building the payload from the change was tried. */
  built?: boolean;
}

interface Webhook extends WebhookSpec {
  readonly id: number;
  readonly file: HostedFileHooks;
  readonly url: URL;
  readonly pending: PendingOperation[];
  /** Known while the table exists: what SCHEMA payloads name. */
  facts: TableFacts | undefined;
  sending: PostAttempt | undefined;
  retry: NodeJS.Timeout | undefined;
  scheduled: boolean;
  deleted: boolean;
}

interface HostedFileHooks {
  readonly name: string;
  readonly db: HostedDatabase;
  nextId: number;
  readonly hooks: Map<number, Webhook>;
  /** SCHEMA changes seen per table since start: the payload's ModCount (choice). */
  readonly modCounts: Map<string, number>;
}

/** What the registry reads of the running emulator. */
export interface WebhookHost {
  readonly databases: ReadonlyMap<string, HostedDatabase>;
  readonly containers: ContainerStore;
  now(): number;
  log(line: string): void;
}

const DEFAULTS = { retryDelayMs: 1000, maxRetryDelayMs: 60_000, timeoutMs: 10_000 };

/** Checks `startEmulator({ webhooks })`; throws an Error naming the option. */
export function checkWebhookOptions(options: unknown): WebhookOptions {
  if (options === undefined) return {};
  if (typeof options !== "object" || options === null || Array.isArray(options)) throw new Error("webhooks must be an object ({ allowedHosts, retryDelayMs, maxRetryDelayMs, timeoutMs })");
  const o = options as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if (!["allowedHosts", "retryDelayMs", "maxRetryDelayMs", "timeoutMs"].includes(key)) throw new Error(`webhooks.${key} is not an option (allowedHosts, retryDelayMs, maxRetryDelayMs, timeoutMs)`);
  }
  for (const key of ["retryDelayMs", "maxRetryDelayMs", "timeoutMs"]) {
    const v = o[key];
    if (v !== undefined && (typeof v !== "number" || !Number.isInteger(v) || v < 1 || v > 2_147_483_647)) throw new Error(`webhooks.${key} must be a whole number of milliseconds, 1 or more, got ${JSON.stringify(v)}`);
  }
  if (o.allowedHosts !== undefined && !Array.isArray(o.allowedHosts)) throw new Error("webhooks.allowedHosts must be an array of host names");
  return o as WebhookOptions;
}

export class WebhookRegistry {
  readonly targets: WebhookTargets;
  private readonly files = new Map<string, HostedFileHooks>();
  private readonly stops: (() => void)[] = [];
  private readonly timing: typeof DEFAULTS;
  private closed = false;

  constructor(
    private readonly host: WebhookHost,
    options: WebhookOptions = {},
  ) {
    const checked = checkWebhookOptions(options);
    this.targets = new WebhookTargets(checked.allowedHosts ?? []);
    this.timing = { ...DEFAULTS, ...checked };
    for (const [name, db] of host.databases) {
      const file: HostedFileHooks = { name, db, nextId: 1, hooks: new Map(), modCounts: new Map() };
      this.files.set(name, file);
      this.stops.push(onChange(db, (change) => this.changed(file, change)));
    }
  }

  /** Registers a webhook on a table the caller has found; returns its id. */
  add(database: string, spec: WebhookSpec & { url: URL }): number {
    const file = this.file(database);
    if (file.hooks.size >= MAX_WEBHOOKS) throw new ODataError(400, "-1002", `Error: Webhook.Add: the file holds ${MAX_WEBHOOKS} webhooks, the emulator's most; delete one first`);
    const id = file.nextId++;
    file.hooks.set(id, { ...spec, id, file, pending: [], facts: tableFacts(file.db, spec.tableName), sending: undefined, retry: undefined, scheduled: false, deleted: false });
    return id;
  }

  /** The webhook as `Webhook.Get` shows it (404 -1061 when unknown). */
  describe(database: string, id: number): Body {
    return describeHook(this.hook(database, id));
  }

  /** Every webhook of the file, in id order. */
  list(database: string): Body[] {
    return [...this.file(database).hooks.values()].map(describeHook);
  }

  /** Deletes a webhook; its waiting deliveries go with it (404 -1061 when unknown). */
  delete(database: string, id: number): void {
    const hook = this.hook(database, id);
    this.stop(hook);
    hook.deleted = true;
    this.file(database).hooks.delete(id);
  }

  /**
   * The payload of the records `rowIDs` names (all records of the table when undefined) that the webhook's filter
   * keeps, which is also queued for delivery (as an UPDATE: choice). Throws ODataError for a bad select or filter.
   */
  invoke(database: string, id: number, rowIDs: readonly number[] | undefined): Body {
    const hook = this.hook(database, id);
    const payload = recordsPayload({ db: hook.file.db, containers: this.host.containers, now: this.host.now() }, hook, rowIDs);
    this.enqueue(hook, { operation: "UPDATE", rowIDs: payload.rowIDs, ids: new Set(payload.rowIDs), sendAttempts: 0, lastErrorCode: 0, lastErrorMessage: "", payload: payload.body });
    return payload.body;
  }

  /** Stops every delivery: no timer, socket or change listener is left. Registrations are dropped with the emulator. */
  close(): void {
    this.closed = true;
    for (const stop of this.stops.splice(0)) stop();
    for (const file of this.files.values()) for (const hook of file.hooks.values()) this.stop(hook);
  }

  private file(database: string): HostedFileHooks {
    const file = this.files.get(database);
    if (!file) throw new ODataError(404, "-1000", "Incorrect OData service root path");
    return file;
  }

  private hook(database: string, id: number): Webhook {
    const hook = this.file(database).hooks.get(id);
    if (!hook) throw new ODataError(404, "-1061", "Specified WebHook not found");
    return hook;
  }

  private stop(hook: Webhook): void {
    clearTimeout(hook.retry);
    hook.retry = undefined;
    hook.sending?.cancel();
    hook.sending = undefined;
  }

  private changed(file: HostedFileHooks, change: RecordChange): void {
    if (this.closed) return;
    if (change.operation === "SCHEMA") file.modCounts.set(change.table, (file.modCounts.get(change.table) ?? 0) + 1);
    for (const hook of file.hooks.values()) {
      if (hook.tableName !== change.table) continue;
      if (change.operation === "SCHEMA" && !hook.notifySchemaChanges) continue;
      const ids = [...change.rowIDs];
      this.enqueue(hook, { operation: change.operation, rowIDs: ids, ids: new Set(ids), sendAttempts: 0, lastErrorCode: 0, lastErrorMessage: "" });
    }
  }

  /**
   * Queues an operation, merged into the last one waiting when it is of the same kind and not tried yet (the records
   * of one write, or of writes in a row, go in one POST of at most a page).
   */
  private enqueue(hook: Webhook, op: PendingOperation): void {
    const last = hook.pending.at(-1);
    const mergeable = (l: PendingOperation) => l.operation === op.operation && op.operation !== "SCHEMA" && !l.built && !l.payload && !op.payload && l.ids.size + op.ids.size <= MAX_PAGE;
    if (last && mergeable(last)) {
      for (const id of op.rowIDs) {
        if (last.ids.has(id)) continue;
        last.ids.add(id);
        last.rowIDs.push(id);
      }
    } else {
      if (hook.pending.length >= MAX_PENDING_OPERATIONS) {
        // The first operation, once tried, is being sent (or waits for its retry): the next one goes.
        const oldest = hook.pending[0]!.sendAttempts > 0 ? 1 : 0;
        const [dropped] = hook.pending.splice(oldest, 1);
        this.host.log(`webhook ${hook.id} (${hook.tableName}): more than ${MAX_PENDING_OPERATIONS} operations wait; dropped the oldest (${dropped!.operation} of ${dropped!.rowIDs.length} record(s))`);
      }
      hook.pending.push(op);
    }
    this.schedule(hook);
  }

  /** Builds and delivers after the current synchronous write, so that all its changes have been merged. */
  private schedule(hook: Webhook): void {
    if (hook.scheduled) return;
    hook.scheduled = true;
    queueMicrotask(() => {
      hook.scheduled = false;
      if (this.closed || hook.deleted) return;
      this.snapshot(hook);
      this.pump(hook);
    });
  }

  /**
   * Builds the payloads of the changes just queued from the records as they are now, right after the write, so a
   * delivery that waits (behind a failing one) still tells what that write did. A change nothing is left to tell of
   * (the filter keeps none of its records) is dropped.
   */
  private snapshot(hook: Webhook): void {
    for (const op of [...hook.pending]) {
      if (op.payload !== undefined || op.built || op.sendAttempts > 0) continue;
      op.built = true;
      try {
        const payload = this.payloadOf(hook, op);
        if (payload === undefined) hook.pending.splice(hook.pending.indexOf(op), 1);
        else op.payload = payload;
      } catch {
        // Left without a payload: each attempt builds it again and records the error.
      }
    }
  }

  /** Sends the first waiting operation, unless one is being sent or waits for its retry. */
  private pump(hook: Webhook): void {
    while (!this.closed && !hook.deleted && !hook.sending && !hook.retry && hook.pending.length > 0) {
      const op = hook.pending[0]!;
      let payload: Body | undefined;
      try {
        payload = op.payload ?? this.payloadOf(hook, op);
      } catch (error) {
        op.sendAttempts++;
        this.failed(hook, op, error instanceof ODataError ? Number(error.code) : -1, (error as Error)?.message ?? String(error));
        continue;
      }
      if (payload === undefined) {
        // Nothing of it is left to tell (the filter keeps none of its records).
        hook.pending.shift();
        continue;
      }
      op.sendAttempts++;
      let attempt: PostAttempt;
      try {
        attempt = postJson(hook.url, hook.headers, JSON.stringify(payload), this.timing.timeoutMs);
      } catch (error) {
        // Node refused to make the request at all (it runs in a microtask or a timer: never let it escape).
        this.failed(hook, op, -1, `Error: ${(error as Error)?.message ?? String(error)}`);
        continue;
      }
      hook.sending = attempt;
      void attempt.done.then((outcome) => {
        if (hook.sending !== attempt) return;
        hook.sending = undefined;
        if (outcome.delivered) {
          if (hook.pending[0] === op) hook.pending.shift();
          this.pump(hook);
        } else {
          this.failed(hook, op, outcome.code, outcome.message);
          this.pump(hook);
        }
      });
    }
  }

  /** Records a failed attempt; drops the operation after maxFailedAttempts (n > 0), else waits to retry it. */
  private failed(hook: Webhook, op: PendingOperation, code: number, message: string): void {
    op.lastErrorCode = Number.isFinite(code) ? code : -1;
    op.lastErrorMessage = message;
    if (hook.maxFailedAttempts > 0 && op.sendAttempts >= hook.maxFailedAttempts) {
      if (hook.pending[0] === op) hook.pending.shift();
      this.host.log(`webhook ${hook.id} (${hook.tableName}): dropped ${op.operation} of ${op.rowIDs.length} record(s) after ${op.sendAttempts} failed attempt(s); last error ${op.lastErrorCode}: ${message}`);
      return;
    }
    const delay = Math.min(this.timing.retryDelayMs * 2 ** Math.min(op.sendAttempts - 1, 30), this.timing.maxRetryDelayMs);
    hook.retry = setTimeout(() => {
      hook.retry = undefined;
      this.pump(hook);
    }, delay);
  }

  private payloadOf(hook: Webhook, op: PendingOperation): Body | undefined {
    const file = hook.file;
    if (op.operation === "SCHEMA") {
      hook.facts = tableFacts(file.db, hook.tableName) ?? hook.facts;
      if (hook.facts === undefined) throw new ODataError(404, "-1020", `Table '${hook.tableName}' not defined in database`);
      return schemaPayload(file.db, hook.tableName, hook.facts, file.modCounts.get(hook.tableName) ?? 0);
    }
    if (op.operation === "DELETE") return deletePayload(file.db, hook, op.rowIDs);
    const payload = recordsPayload({ db: file.db, containers: this.host.containers, now: this.host.now() }, hook, op.rowIDs);
    return payload.rowIDs.length === 0 ? undefined : payload.body;
  }
}

/** A webhook as Get and GetAll list it (22.0.x: `headers`, never endpointHeaders/queryHeaders/maxFailedAttempts). */
function describeHook(hook: Webhook): Body {
  return {
    webhookID: hook.id,
    tableName: hook.tableName,
    webhook: hook.webhook,
    headers: { ...hook.headers },
    notifySchemaChanges: hook.notifySchemaChanges,
    select: hook.select,
    filter: hook.filter,
    pendingOperations: hook.pending.map((op) => ({
      operation: op.operation,
      rowIDs: [...op.rowIDs],
      status: "NOT_SENT",
      lastErrorCode: op.lastErrorCode,
      lastErrorMessage: op.lastErrorMessage,
      sendAttempts: op.sendAttempts,
    })),
  };
}
