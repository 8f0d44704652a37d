// The emulator's OData webhooks (docs/emulator.md, "Webhooks"): registrations per hosted file (ids sequential, never
// reused; kept across the restart fault, which drops sessions only), and their deliveries. Each webhook listens to
// the hosted file's change feed (change-feed.ts): records added, updated or deleted in its table through either API
// or a script, and schema changes when it asked for them. A change queues row ids (webhook-backlog.ts), nothing
// more: a write's work for its webhooks is a few steps per record. Payloads are built when sent, one per turn of the
// event loop across all webhooks, so no request waits behind them. Deliveries are asynchronous (a write never waits
// for or fails by one), one at a time per webhook in the order the changes happened, retried with a capped
// exponential backoff until a 2xx, and stopped by close(): no timer, socket or listener is left. Each attempt, once
// it ends, goes in a bounded history (webhook-history.ts) the inspector shows.
// With a data directory, registrations (not the deliveries waiting) are kept: observe() tells it of each one added or
// deleted, restore() registers them again at the next start (store/persistence.ts, through index.ts).

import { stringifyJson } from "../../runtime/core/json-numbers.js";
import type { RecordChange } from "../hosted-file/change-feed.js";
import { onChange } from "../hosted-file/change-feed.js";
import type { HostedServer } from "../hosted-file/hosted-server.js";
import type { HostedDatabase } from "../hosted-file/store.js";
import type { Body } from "./entity-read.js";
import { ODataError } from "./odata-error.js";
import { WebhookTargets, type WebhookSpec } from "./webhook-add.js";
import { FileBacklog, type PendingOperation, type WebhookQueue } from "./webhook-backlog.js";
import { DeliveryHistory } from "./webhook-history.js";
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

/**
 * Most bytes of payloads on their way at once, across all webhooks (choice: 64 MiB): past it, the next payload is
 * built once an attempt under way ends. One is always allowed, whatever its size.
 */
export const MAX_IN_FLIGHT_BYTES = 64 * 1024 * 1024;

interface Webhook extends WebhookSpec, WebhookQueue {
  readonly file: HostedFileHooks;
  readonly url: URL;
  /** Known while the table exists: what SCHEMA payloads name. */
  facts: TableFacts | undefined;
  /** The attempt under way, and the bytes of its payload. */
  sending: { readonly attempt: PostAttempt; readonly bytes: number } | undefined;
  retry: NodeJS.Timeout | undefined;
  /** Whether a write's changes wait for it to end (the microtask that seals them). */
  scheduled: boolean;
  /** Whether it waits for its turn to build and send. */
  waiting: boolean;
  deleted: boolean;
}

interface HostedFileHooks {
  readonly name: string;
  readonly db: HostedDatabase;
  nextId: number;
  readonly hooks: Map<number, Webhook>;
  /** SCHEMA changes seen per table since start: the payload's ModCount (choice). */
  readonly modCounts: Map<string, number>;
  readonly backlog: FileBacklog;
}

/** What the registry reads of the hosted server. */
export type WebhookHost = Pick<HostedServer, "databases" | "containers" | "clock" | "log">;

/** What `stats().webhooks` reports: what waiting deliveries hold, and the work their payloads cost. */
export interface WebhookStats {
  /** An estimate of the memory the waiting operations of all files hold, bytes. */
  pendingBytes: number;
  /** Payloads built for a delivery attempt since start (an Invoke's answer not counted). */
  payloadsBuilt: number;
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
  /** The last attempts at a delivery, delivered or not (the inspector's). */
  readonly deliveries = new DeliveryHistory();
  private readonly files = new Map<string, HostedFileHooks>();
  private readonly stops: (() => void)[] = [];
  private readonly timing: typeof DEFAULTS;
  private closed = false;
  private payloadsBuilt = 0;
  /** Webhooks whose first operation waits to be built and sent, in the order they became ready. */
  private readonly line: Webhook[] = [];
  private turn: NodeJS.Immediate | undefined;
  private inFlightBytes = 0;
  /** Told of each webhook registered or deleted (a data directory keeps them). */
  private observer: ((database: string, id: number) => void) | undefined;

  constructor(
    private readonly host: WebhookHost,
    options: WebhookOptions = {},
  ) {
    const checked = checkWebhookOptions(options);
    this.targets = new WebhookTargets(checked.allowedHosts ?? []);
    this.timing = { ...DEFAULTS, ...checked };
    for (const [name, db] of host.databases) {
      const file: HostedFileHooks = { name, db, nextId: 1, hooks: new Map(), modCounts: new Map(), backlog: new FileBacklog(host.log) };
      this.files.set(name, file);
      this.stops.push(onChange(db, (change) => this.changed(file, change)));
    }
  }

  /** Registers a webhook on a table the caller has found; returns its id. */
  add(database: string, spec: WebhookSpec & { url: URL }): number {
    const file = this.file(database);
    if (file.hooks.size >= MAX_WEBHOOKS) throw new ODataError(400, "-1002", `Error: Webhook.Add: the file holds ${MAX_WEBHOOKS} webhooks, the emulator's most; delete one first`);
    const id = file.nextId++;
    this.register(file, id, spec);
    this.observer?.(database, id);
    return id;
  }

  /** Tells `observer` of each webhook registered or deleted from now on; the function returned stops it. */
  observe(observer: (database: string, id: number) => void): () => void {
    this.observer = observer;
    return () => {
      if (this.observer === observer) this.observer = undefined;
    };
  }

  /** A webhook's registration, as a data directory keeps it; undefined when there is none. */
  registration(database: string, id: number): RegisteredWebhook | undefined {
    const hook = this.files.get(database)?.hooks.get(id);
    return hook && registrationOf(hook);
  }

  /** A file's registrations in id order, and the id the next one gets. */
  registrations(database: string): { next: number; hooks: RegisteredWebhook[] } {
    const file = this.files.get(database);
    return { next: this.nextId(database), hooks: [...(file?.hooks.values() ?? [])].map(registrationOf) };
  }

  /** The id a file's next webhook gets. */
  nextId(database: string): number {
    return this.files.get(database)?.nextId ?? 1;
  }

  /**
   * Registers webhooks kept from before (a data directory's, at a start) under their ids; the next id is never below
   * `next`. Returns a line for each one left out: its table is not in the file now, or its URL is not one this
   * emulator may POST to (its webhooks.allowedHosts changed), or the file holds MAX_WEBHOOKS already.
   */
  restore(database: string, kept: { readonly next: number; readonly hooks: readonly RegisteredWebhook[] }): string[] {
    const file = this.files.get(database);
    if (!file) return [];
    const lines: string[] = [];
    const dropped = (hook: RegisteredWebhook, why: string) => lines.push(`webhook ${hook.id} (${hook.tableName}, registered before) was dropped: ${why}`);
    for (const hook of kept.hooks) {
      let url: URL | undefined;
      try {
        url = new URL(hook.webhook);
      } catch {
        url = undefined;
      }
      if (tableFacts(file.db, hook.tableName) === undefined) dropped(hook, `the file has no table "${hook.tableName}" now`);
      else if (url === undefined || !this.targets.allows(url)) dropped(hook, `its URL names a host the emulator does not POST to now (webhooks.allowedHosts)`);
      else if (file.hooks.size >= MAX_WEBHOOKS) dropped(hook, `the file holds ${MAX_WEBHOOKS} webhooks, the emulator's most`);
      else this.register(file, hook.id, { ...hook, url });
      file.nextId = Math.max(file.nextId, hook.id + 1);
    }
    file.nextId = Math.max(file.nextId, kept.next);
    return lines;
  }

  private register(file: HostedFileHooks, id: number, spec: WebhookSpec & { url: URL }): void {
    const { webhook, tableName, headers, queryHeaders, notifySchemaChanges, select, filter, maxFailedAttempts, url } = spec;
    const registered = { webhook, tableName, headers, queryHeaders, notifySchemaChanges, select, filter, maxFailedAttempts, url };
    file.hooks.set(id, { ...registered, id, file, pending: [], facts: tableFacts(file.db, tableName), sending: undefined, retry: undefined, scheduled: false, waiting: false, deleted: false });
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
    hook.file.backlog.clear(hook);
    this.file(database).hooks.delete(id);
    this.observer?.(database, id);
  }

  /**
   * The payload of the records `rowIDs` names (all records of the table when undefined) that the webhook's filter
   * keeps. Their ids are queued for delivery (as an UPDATE: choice), read again when sent. Throws ODataError for a
   * bad select or filter.
   */
  invoke(database: string, id: number, rowIDs: readonly number[] | undefined): Body {
    const hook = this.hook(database, id);
    const payload = recordsPayload({ db: hook.file.db, containers: this.host.containers, now: this.host.clock.now() }, hook, rowIDs);
    if (payload.rowIDs.length > 0) {
      hook.file.backlog.add(hook, "UPDATE", payload.rowIDs, false);
      this.schedule(hook);
    }
    return payload.body;
  }

  /** The counters as they are now. */
  stats(): WebhookStats {
    let pendingBytes = 0;
    for (const file of this.files.values()) pendingBytes += file.backlog.bytes;
    return { pendingBytes, payloadsBuilt: this.payloadsBuilt };
  }

  /** Stops every delivery: no timer, socket or change listener is left. Registrations are dropped with the emulator. */
  close(): void {
    this.closed = true;
    clearImmediate(this.turn);
    this.turn = undefined;
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
    if (hook.sending) {
      hook.sending.attempt.cancel();
      this.sent(hook);
    }
  }

  /** The attempt under way has ended: its bytes no longer count. */
  private sent(hook: Webhook): void {
    this.inFlightBytes -= hook.sending?.bytes ?? 0;
    hook.sending = undefined;
    this.takeTurn();
  }

  private changed(file: HostedFileHooks, change: RecordChange): void {
    if (this.closed) return;
    if (change.operation === "SCHEMA") file.modCounts.set(change.table, (file.modCounts.get(change.table) ?? 0) + 1);
    for (const hook of file.hooks.values()) {
      if (hook.tableName !== change.table) continue;
      if (change.operation === "SCHEMA" && !hook.notifySchemaChanges) continue;
      file.backlog.add(hook, change.operation, change.rowIDs);
      this.schedule(hook);
    }
  }

  /** Seals the changes queued once the current synchronous write has run (so all of them merged), then lines it up. */
  private schedule(hook: Webhook): void {
    if (hook.scheduled) return;
    hook.scheduled = true;
    queueMicrotask(() => {
      hook.scheduled = false;
      if (this.closed || hook.deleted) return;
      hook.file.backlog.seal(hook);
      this.lineUp(hook);
    });
  }

  /** Puts the webhook in line to send its first operation, unless one is under way or waits for its retry. */
  private lineUp(hook: Webhook): void {
    if (this.closed || hook.deleted || hook.waiting || hook.sending || hook.retry || hook.pending.length === 0) return;
    hook.waiting = true;
    this.line.push(hook);
    this.takeTurn();
  }

  /** The next webhook in line builds and sends its payload in a turn of its own, after what is waiting for I/O. */
  private takeTurn(): void {
    if (this.turn || this.closed || this.line.length === 0) return;
    if (this.inFlightBytes > 0 && this.inFlightBytes >= MAX_IN_FLIGHT_BYTES) return;
    this.turn = setImmediate(() => {
      this.turn = undefined;
      const hook = this.line.shift()!;
      hook.waiting = false;
      this.send(hook);
      this.takeTurn();
    });
  }

  /** Builds the first operation's payload from the records as they are now, and POSTs it. */
  private send(hook: Webhook): void {
    if (this.closed || hook.deleted || hook.sending || hook.retry || hook.pending.length === 0) return;
    const backlog = hook.file.backlog;
    backlog.seal(hook);
    const op = hook.pending[0]!;
    backlog.tried(op);
    const at = Date.now();
    const started = performance.now();
    const ended = (status: number | undefined, error: string | undefined) =>
      this.deliveries.add({ at, database: hook.file.name, webhookId: hook.id, tableName: hook.tableName, operation: op.operation, records: op.rowIDs.length, url: hook.webhook, delivered: error === undefined, status, error, attempt: op.sendAttempts, ms: performance.now() - started });
    let payload: Body | undefined;
    try {
      payload = this.payloadOf(hook, op);
    } catch (error) {
      op.sendAttempts++;
      const message = (error as Error)?.message ?? String(error);
      ended(undefined, message);
      this.failed(hook, op, error instanceof ODataError ? Number(error.code) : -1, message);
      return;
    }
    if (payload === undefined) {
      // Nothing of it is left to tell (its records are gone, or the filter keeps none of them).
      backlog.remove(hook, op);
      this.lineUp(hook);
      return;
    }
    op.sendAttempts++;
    // stringifyJson: a long number field's token is written bare, digit for digit.
    const json = stringifyJson(payload);
    let attempt: PostAttempt;
    try {
      attempt = postJson(hook.url, hook.headers, json, this.timing.timeoutMs);
    } catch (error) {
      // Node refused to make the request at all (it runs in a timer: never let it escape).
      const message = `Error: ${(error as Error)?.message ?? String(error)}`;
      ended(undefined, message);
      this.failed(hook, op, -1, message);
      return;
    }
    hook.sending = { attempt, bytes: json.length };
    this.inFlightBytes += json.length;
    void attempt.done.then((outcome) => {
      if (hook.sending?.attempt !== attempt) return;
      ended(outcome.code > 0 ? outcome.code : undefined, outcome.delivered ? undefined : outcome.message);
      this.sent(hook);
      if (outcome.delivered) backlog.remove(hook, op);
      else this.failed(hook, op, outcome.code, outcome.message);
      this.lineUp(hook);
    });
  }

  /** Records a failed attempt; drops the operation after maxFailedAttempts (n > 0), else waits to retry it. */
  private failed(hook: Webhook, op: PendingOperation, code: number, message: string): void {
    op.lastErrorCode = Number.isFinite(code) ? code : -1;
    op.lastErrorMessage = message;
    if (hook.maxFailedAttempts > 0 && op.sendAttempts >= hook.maxFailedAttempts) {
      hook.file.backlog.remove(hook, op);
      this.lineUp(hook);
      this.host.log(`webhook ${hook.id} (${hook.tableName}): dropped ${op.operation} of ${op.rowIDs.length} record(s) after ${op.sendAttempts} failed attempt(s); last error ${op.lastErrorCode}: ${message}`);
      return;
    }
    const delay = Math.min(this.timing.retryDelayMs * 2 ** Math.min(op.sendAttempts - 1, 30), this.timing.maxRetryDelayMs);
    hook.retry = setTimeout(() => {
      hook.retry = undefined;
      this.lineUp(hook);
    }, delay);
  }

  private payloadOf(hook: Webhook, op: PendingOperation): Body | undefined {
    this.payloadsBuilt++;
    const file = hook.file;
    if (op.operation === "SCHEMA") {
      hook.facts = tableFacts(file.db, hook.tableName) ?? hook.facts;
      if (hook.facts === undefined) throw new ODataError(404, "-1020", `Table '${hook.tableName}' not defined in database`);
      return schemaPayload(file.db, hook.tableName, hook.facts, file.modCounts.get(hook.tableName) ?? 0);
    }
    if (op.operation === "DELETE") return deletePayload(file.db, hook, op.rowIDs);
    const payload = recordsPayload({ db: file.db, containers: this.host.containers, now: this.host.clock.now() }, hook, op.rowIDs);
    return payload.rowIDs.length === 0 ? undefined : payload.body;
  }
}

/** A registration as a data directory keeps it: Webhook.Add's checked body and the webhook's id. */
export type RegisteredWebhook = WebhookSpec & { readonly id: number };

function registrationOf(hook: Webhook): RegisteredWebhook {
  const { id, webhook, tableName, headers, queryHeaders, notifySchemaChanges, select, filter, maxFailedAttempts } = hook;
  return { id, webhook, tableName, headers: { ...headers }, queryHeaders: { ...queryHeaders }, notifySchemaChanges, select, filter, maxFailedAttempts };
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
