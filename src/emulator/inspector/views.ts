import type { HostedServer } from "../hosted-file/hosted-server.js";
import type { LayoutModel, TableField } from "../hosted-file/model.js";
import { portalRows } from "../hosted-file/relations.js";
import type { HostedDatabase, StoredRecord, TableData } from "../hosted-file/store.js";
import { encodeWireValue, isContainerRef, type StoredValue } from "../hosted-file/stored-value.js";
import type { LogEntry, RequestLog } from "../http/request-log.js";
import { isNumberToken } from "../../runtime/core/json-numbers.js";
import { redactBody, redactHeaders, redactJson, redactTarget, redactUrl, scrubText } from "./redact.js";

// What the inspector's JSON endpoints answer (http-api.ts): the hosted files, records as the emulator holds them,
// the request log with its secrets removed (redact.ts), sessions, webhooks and their deliveries, the fault plan. Only
// the emulator's own data; nothing is written.

/** What the inspector reads of a running emulator; index.ts gives it, so that the inspector imports neither API. */
export interface InspectorSource {
  readonly server: HostedServer;
  readonly log: RequestLog;
  /** The Data API's sessions, each with a short id of its token, never the token. */
  sessions(): readonly { id: string; database: string; account: string; createdMs: number; lastUsedMs: number; expired: boolean }[];
  /** The OData webhooks of a hosted file, as `Webhook.Get` shows them (their headers' values are removed here). */
  webhooks(database: string): readonly unknown[];
  /** The webhooks' last delivery attempts, raw (odata/webhook-history.ts): their URLs are redacted here. */
  readonly deliveries: DeliverySource;
  /** The injected faults' plan and what it played, when the emulator injects faults. */
  faults(): { options: unknown; counts: Record<string, number> } | undefined;
}

/** The webhooks' delivery history as the inspector reads it. */
export interface DeliverySource {
  readonly size: number;
  readonly total: number;
  since(after: number): readonly {
    readonly id: number;
    readonly at: number;
    readonly database: string;
    readonly webhookId: number;
    readonly tableName: string;
    readonly operation: string;
    readonly records: number;
    readonly url: string;
    readonly delivered: boolean;
    readonly status: number | undefined;
    readonly error: string | undefined;
    readonly attempt: number;
    readonly ms: number;
  }[];
}

/** A page of records at most this long. */
export const MAX_PAGE = 200;
/** A record's portal shows at most this many rows. */
export const MAX_PORTAL_ROWS = 100;

export function overview(source: InspectorSource): unknown {
  const { server } = source;
  return {
    files: [...server.databases.values()].map((db) => ({
      name: db.model.name,
      layouts: [...db.model.layouts.values()].map((layout) => ({
        name: layout.description.layout,
        table: layout.table.name,
        fields: [...layout.fields.keys()],
        portals: layout.portals.map((p) => ({ name: p.name, table: p.table.name })),
      })),
      tables: [...db.model.tables.values()].map((table) => ({
        name: table.name,
        fields: [...table.fields.values()].map((f) => ({ name: f.name, type: f.type, ...(f.global ? { global: true } : {}), ...(f.computed ? { computed: f.computed.kind } : {}) })),
        records: db.tables.get(table.name)?.records.size ?? 0,
      })),
      // Their headers' values and their URLs' secret parameters removed (redactJson: a `headers` object, a `webhook` URL).
      webhooks: redactJson(safe(() => source.webhooks(db.model.name), [])),
    })),
    sessions: source.sessions().map((s) => ({ ...s, created: iso(s.createdMs), lastUsed: iso(s.lastUsedMs) })),
    faults: source.faults() ?? null,
    clock: iso(server.clock.now()),
    log: { size: source.log.size, total: source.log.total },
    deliveries: { size: source.deliveries.size, total: source.deliveries.total },
  };
}

/** The delivery attempts after `after`, newest last, URLs and error messages with their secrets removed. */
export function deliveries(source: DeliverySource, after: number): unknown {
  return {
    size: source.size,
    total: source.total,
    entries: source.since(after).map((d) => ({
      id: d.id,
      at: new Date(d.at).toISOString(),
      file: d.database,
      webhookID: d.webhookId,
      table: d.tableName,
      operation: d.operation,
      records: d.records,
      url: redactUrl(d.url),
      delivered: d.delivered,
      status: d.status ?? null,
      error: d.error === undefined ? null : scrubText(d.error),
      attempt: d.attempt,
      ms: Math.round(d.ms * 10) / 10,
    })),
  };
}

/** Which records to read: a layout's (its fields, its portals) or a table's (every field). */
export interface RecordsQuery {
  file: string;
  layout?: string | undefined;
  table?: string | undefined;
  offset: number;
  limit: number;
  /** Records any of whose shown fields holds this text (case-insensitive). */
  search?: string | undefined;
}

export class NotFound extends Error {}

interface Target {
  db: HostedDatabase;
  data: TableData;
  layout: LayoutModel | undefined;
  /** The fields shown: name as shown, and the table field. */
  fields: [string, TableField][];
}

function target(server: HostedServer, q: Pick<RecordsQuery, "file" | "layout" | "table">): Target {
  const db = server.databases.get(q.file);
  if (!db) throw new NotFound(`no hosted file named ${JSON.stringify(q.file)}`);
  if (q.layout !== undefined) {
    const layout = db.model.layouts.get(q.layout);
    if (!layout) throw new NotFound(`no layout named ${JSON.stringify(q.layout)} in ${JSON.stringify(q.file)}`);
    return { db, data: db.tables.get(layout.table.name)!, layout, fields: [...layout.fields].map(([name, f]) => [name, f.field]) };
  }
  const data = q.table === undefined ? undefined : db.tables.get(q.table);
  if (!data) throw new NotFound(`no table named ${JSON.stringify(q.table ?? "")} in ${JSON.stringify(q.file)}: name a layout or a table`);
  return { db, data, layout: undefined, fields: [...data.model.fields].map(([name, f]) => [name, f]) };
}

export function records(server: HostedServer, q: RecordsQuery): unknown {
  const t = target(server, q);
  const needle = q.search?.trim().toLowerCase() || undefined;
  const shown: unknown[] = [];
  let found = 0;
  for (const record of t.data.records.values()) {
    if (needle !== undefined && !matches(t, record, needle)) continue;
    if (found >= q.offset && shown.length < q.limit) shown.push(recordView(t, record));
    found++;
  }
  return { file: q.file, layout: q.layout ?? null, table: t.data.model.name, fields: t.fields.map(([n]) => n), total: t.data.records.size, found, offset: q.offset, limit: q.limit, records: shown };
}

export function record(server: HostedServer, q: Pick<RecordsQuery, "file" | "layout" | "table">, recordId: number): unknown {
  const t = target(server, q);
  const stored = t.data.records.get(recordId);
  if (!stored) throw new NotFound(`no record ${recordId} in ${JSON.stringify(t.data.model.name)}`);
  const portals = (t.layout?.portals ?? []).map((portal) => {
    const child = t.db.tables.get(portal.table.name)!;
    const rows = portalRows(portal, t.data, stored, child);
    const fields: [string, TableField][] = [...portal.fields].map(([name, f]) => [name, f.field]);
    const ct: Target = { db: t.db, data: child, layout: undefined, fields };
    return { name: portal.name, table: portal.table.name, count: rows.length, fields: fields.map(([n]) => n), rows: rows.slice(0, MAX_PORTAL_ROWS).map((row) => recordView(ct, row)) };
  });
  return { ...(recordView(t, stored) as object), portals };
}

function recordView(t: Target, record: StoredRecord): unknown {
  const fields: Record<string, unknown> = {};
  for (const [name, field] of t.fields) {
    const values = safe(() => t.data.valuesOf(record, field), []);
    const shown = values.map((v) => shownValue(t.db.model.name, field, v));
    fields[name] = field.repetitions > 1 ? shown : (shown[0] ?? "");
  }
  return { recordId: record.recordId, modId: record.modId, fields };
}

function shownValue(file: string, field: TableField, value: StoredValue): unknown {
  if (isContainerRef(value)) {
    return { container: { filename: value.filename, contentType: value.contentType, size: value.size, url: `/fmgen/api/container?file=${encodeURIComponent(file)}&id=${encodeURIComponent(value.id)}` } };
  }
  try {
    const wire = encodeWireValue(field.type, value, () => "");
    // A number a double does not hold: its digits as text, which the page shows as they are (its JSON.parse would round a token).
    return isNumberToken(wire) ? wire.text : wire;
  } catch {
    return String(value);
  }
}


function matches(t: Target, record: StoredRecord, needle: string): boolean {
  for (const [, field] of t.fields) {
    for (const value of safe(() => t.data.valuesOf(record, field), [])) {
      if (value === null || value === undefined) continue;
      const text = isContainerRef(value) ? value.filename : String(shownValue("", field, value));
      if (text.toLowerCase().includes(needle)) return true;
    }
  }
  return false;
}

/** The log's entries after `after`, as shown: summaries (the list) or with headers and bodies (one request). */
export function logEntries(log: RequestLog, after: number, limit: number): unknown {
  const entries = log.since(after);
  const shown = entries.slice(Math.max(0, entries.length - limit));
  return { size: log.size, total: log.total, entries: shown.map((entry) => summary(log, entry)) };
}

export function logEntry(log: RequestLog, id: number): unknown {
  const entry = log.since(id - 1)[0];
  if (entry?.id !== id) throw new NotFound(`request ${id} is no longer in the log (it keeps the last ${log.size})`);
  return {
    ...summary(log, entry),
    requestHeaders: redactHeaders(log.requestHeaders(entry)),
    answerHeaders: redactHeaders(entry.answerHeaders),
    request: redactBody(log.requestBody(entry)) ?? null,
    answer: redactBody(log.answerBody(entry)) ?? null,
  };
}

function summary(log: RequestLog, entry: LogEntry): Record<string, unknown> {
  return {
    id: entry.id,
    at: new Date(entry.at).toISOString(),
    api: entry.api,
    method: entry.method,
    path: redactTarget(log.target(entry)),
    account: entry.account ?? null,
    status: entry.status ?? null,
    code: entry.code ?? null,
    ms: entry.ms === undefined ? null : Math.round(entry.ms * 10) / 10,
  };
}

function iso(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString();
}

function safe<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}
