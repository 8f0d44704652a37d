// The OData read path over the hosted file (docs/emulator.md, "Reads"): a collection with `$select`, `$filter`,
// `$orderby`, `$top`, `$skip`, `$count`, paging; `/$count`; one record by key; one field; its raw `$value`.
// Bodies are built here; odata-api.ts authenticates, picks the annotation form and writes them.

import { sameName } from "../hosted-file/name-map.js";
import type { TableField } from "../hosted-file/model.js";
import type { RelationStep } from "../hosted-file/relations.js";
import type { ContainerStore, HostedDatabase, StoredRecord } from "../hosted-file/store.js";
import { sortRecords, type SortKey } from "../hosted-file/sorting.js";
import { isContainerRef, isStoredNumber } from "../hosted-file/stored-value.js";
import { compileODataFilter } from "./filter.js";
import { numberJson } from "./exact-values.js";
import { numberText } from "../hosted-file/exact-number.js";
import { ODataError } from "./odata-error.js";
import type { Preferences } from "./query-options-prefer.js";
import type { ExpandItem, ExpandOptions, NamePath, OrderByItem, QueryOptions } from "./query-options.js";
import { formatKey, formatODataPath, formatQueryOptions } from "./url-format.js";
import { preferredTimestamp } from "./timestamp-prefer.js";
import { orderPath, ownPath, withNavSelect } from "./nav-paths.js";
import type { EntityKey } from "./url-path.js";
import {
  FieldMissing,
  fieldId,
  fieldJson,
  fieldMissing,
  findSet,
  navigations,
  relatedRecords,
  filterRow,
  filterTable,
  findField,
  findRecord,
  isSpecialColumn,
  jsonValue,
  recordKey,
  type EntitySet,
} from "./entity-sets.js";

/** Most records in one response (2.5). */
export const MAX_PAGE = 10_000;

/** Most records one response holds, expanded ones included: nested `$expand`s multiply, and must not run away. */
export const MAX_RECORDS_PER_RESPONSE = 200_000;

/** How annotations are written (2.2): `@x` or `@odata.x`; `metadata=none` drops context, id and editLink. */
export interface Annotations {
  readonly prefixed: boolean;
  readonly none: boolean;
  /** `IEEE754Compatible=true` in Accept (2.1): Edm.Decimal values as strings. */
  readonly ieee754?: boolean;
}

export interface ReadContext {
  readonly db: HostedDatabase;
  /** The database as the request's URL wrote it, which the answer's URLs echo (routes.ts, `ODataCall.urlDb`). */
  readonly urlDb: string;
  readonly containers: ContainerStore;
  /** `http://host:port/fmi/odata/v4`, as the client reached it (2.3: absolute, no proxy prefix). */
  readonly root: string;
  readonly annotations: Annotations;
  readonly prefer: Preferences;
  readonly query: QueryOptions;
  /** The request's instant, for `now()` in `$filter`. */
  readonly now: number;
  /** Records written into this response so far (MAX_RECORDS_PER_RESPONSE). */
  written: number;
}

export type Body = Record<string, unknown>;

const ann = (a: Annotations, name: string) => (a.prefixed ? `@odata.${name}` : `@${name}`);

function dbUrl(ctx: ReadContext): string {
  return ctx.root + formatODataPath({ kind: "serviceDocument", db: ctx.urlDb });
}

function entityUrl(ctx: ReadContext, set: EntitySet, key: EntityKey): string {
  return ctx.root + formatODataPath({ kind: "entity", db: ctx.urlDb, set: { by: "name", name: set.name }, key });
}

/** Options this read path does not implement are refused, never ignored (rule one). */
export function refuseUnsupported(query: QueryOptions, takesApply = false): void {
  if (query.apply !== undefined && !takesApply) throw new ODataError(400, "-1002", "Error: $apply applies to a collection (GET /db/T) only in the emulator");
  // `$schemaversion` is checked before any path is served (schema-api.ts).
}

export type Column = { kind: "field"; field: TableField } | { kind: "special"; name: "ROWID" | "ROWMODID" };

/** The one-segment name of a `$select` path, or undefined for `Nav/Field`, which nests as an expansion (nav-paths.ts). */
function single(path: NamePath): string | undefined {
  return path.length > 1 ? undefined : path[0]!;
}

function column(set: EntitySet, name: string): Column {
  const field = findField(set, name);
  if (field) return { kind: "field", field };
  if (isSpecialColumn(set, name)) return { kind: "special", name: name as "ROWID" | "ROWMODID" };
  throw fieldMissing(name);
}

/**
 * The columns a record shows: `$select`'s, in its order, or every field but containers (2.3) in definition order,
 * then ROWID and ROWMODID with `fmodata.include-specialcolumns` (2.10, only without `$select`).
 */
export function columns(set: EntitySet, select: readonly NamePath[] | undefined, specialColumns: boolean): Column[] {
  if (select === undefined || select.some((p) => p[0] === "*")) {
    const out: Column[] = set.fields.filter((f) => f.type !== "container").map((field) => ({ kind: "field", field }));
    if (specialColumns) out.push({ kind: "special", name: "ROWID" }, { kind: "special", name: "ROWMODID" });
    if (select !== undefined) for (const p of select) if (p[0] !== "*" && single(p) !== undefined) addUnique(out, column(set, single(p)!));
    return out;
  }
  const out: Column[] = [];
  for (const p of select) if (single(p) !== undefined) addUnique(out, column(set, single(p)!));
  return out;
}

function addUnique(out: Column[], c: Column): void {
  if (!out.some((o) => (o.kind === "field" && c.kind === "field" ? o.field === c.field : o.kind === "special" && c.kind === "special" && o.name === c.name))) out.push(c);
}

const columnName = (c: Column) => (c.kind === "field" ? c.field.name : c.name);

function entityJson(set: EntitySet, record: StoredRecord, cols: readonly Column[], ctx: ReadContext, expansions: readonly Expansion[]): Body {
  // Null-prototype: a field named "__proto__" stays a key.
  const out: Body = Object.create(null);
  if (!ctx.annotations.none) {
    const url = entityUrl(ctx, set, recordKey(set, record));
    out[ann(ctx.annotations, "id")] = url;
    out[ann(ctx.annotations, "editLink")] = url;
  }
  for (const c of cols) {
    if (c.kind === "special") out[c.name] = c.name === "ROWID" ? record.recordId : record.modId;
    else out[ctx.prefer.entityIds ? fieldId(set, c.field) : c.field.name] = numbersAsText(c.field, preferredTimestamp(c.field, fieldJson(set, record, c.field, ctx.containers, ctx.db.model.name), ctx.prefer), ctx);
  }
  for (const e of expansions) {
    const prepared = e.prepared();
    if (prepared instanceof ODataError) {
      // 2.6 (PKC): a bad field inside an expand is answered 200, the nav key replaced by an error in each record.
      out.error = [prepared.toJSON()];
      continue;
    }
    const rows = page(matching(e.target, relatedRecords(ctx.db, set, record, e.target, e.steps), e.options, ctx, prepared.predicate), e.options);
    if (e.options.count === true) out[`${e.name}${ann(ctx.annotations, "count")}`] = rows.total;
    reserve(ctx, rows.rows.length);
    out[e.name] = rows.rows.map((r) => entityJson(e.target, r, prepared.cols, ctx, prepared.expansions));
  }
  return out;
}

/** With `IEEE754Compatible=true` (2.1), a number field's values are strings, every digit (exact-values.ts). */
function numbersAsText(field: TableField, value: unknown, ctx: ReadContext): unknown {
  if (field.type !== "number") return value;
  return numberJson(value, ctx.annotations.ieee754 === true);
}

/** Counts `n` more records into the response before they are built; past the bound, the request fails at once. */
function reserve(ctx: ReadContext, n: number): void {
  ctx.written += n;
  if (ctx.written > MAX_RECORDS_PER_RESPONSE) {
    throw new ODataError(400, "-1", `Error: the response would hold more than ${MAX_RECORDS_PER_RESPONSE} records (nested $expand); narrow it with $top or $filter`);
  }
}

/** One `$expand` item of a table: its target, its relation, its options checked once (or the error they give). */
interface Expansion {
  readonly name: string;
  readonly target: EntitySet;
  readonly steps: readonly RelationStep[];
  readonly options: ExpandOptions;
  prepared(): { cols: Column[]; predicate: Predicate | undefined; expansions: Expansion[] } | ODataError;
}

type Predicate = (r: StoredRecord) => boolean;

/** `$expand`'s items (2.6): navigations of `set`; an unknown one is 400 8309, as `Nav/Field` in `$filter` is. */
function expansions(set: EntitySet, items: readonly ExpandItem[] | undefined, ctx: ReadContext): Expansion[] {
  if (items === undefined) return [];
  const navs = navigations(ctx.db, set);
  return items.map((item) => {
    const steps = navs.get(item.nav);
    if (steps === undefined) throw fieldMissing(item.nav);
    const target = findSet(ctx.db, { by: "name", name: item.nav });
    let prepared: ReturnType<Expansion["prepared"]> | undefined;
    return {
      // The answer keys it by the navigation's own name, however the request spelled it.
      name: navs.ownName(item.nav)!,
      target,
      steps,
      options: item.options,
      prepared: () => {
        if (prepared !== undefined) return prepared;
        try {
          const cols = columns(target, item.options.select, false);
          for (const o of item.options.orderby ?? []) orderPath(ctx.db, target, o.path);
          const items = withNavSelect(ctx.db, target, item.options.select, item.options.expand);
          prepared = { cols, predicate: predicateOf(target, item.options, ctx), expansions: expansions(target, items, ctx) };
        } catch (error) {
          if (error instanceof FieldMissing) prepared = new ODataError(400, "8309", `FQL0009: The column named "${error.field}" does not exist in table "${target.name}".`);
          else if (error instanceof ODataError && error.code === "8309") prepared = error;
          else throw error;
        }
        return prepared;
      },
    };
  });
}

function predicateOf(set: EntitySet, o: ExpandOptions, ctx: ReadContext): Predicate | undefined {
  if (o.filter === undefined) return undefined;
  const test = compileODataFilter(o.filter, filterTable(set, ctx.db), { now: () => ctx.now });
  return (r) => test(filterRow(set, r, ctx.db));
}

/** `$skip` then `$top` (capped at a page) of the matching records, and how many matched. */
function page(records: StoredRecord[], o: ExpandOptions): { rows: StoredRecord[]; total: number } {
  const skip = o.skip ?? 0;
  return { rows: records.slice(skip, skip + Math.min(o.top ?? MAX_PAGE, MAX_PAGE)), total: records.length };
}

/** The records `$filter` keeps, in `$orderby` order (default: creation order, 2.5's choice). */
function matching(set: EntitySet, records: StoredRecord[], o: ExpandOptions, ctx: ReadContext, predicate = predicateOf(set, o, ctx)): StoredRecord[] {
  let out = predicate === undefined ? records : records.filter(predicate);
  if (o.orderby !== undefined) out = sorted(set, out, o.orderby, ctx.db);
  return out;
}

/** The hosted file's order (sortRecords): empty first when ascending, text case-insensitively; ties keep creation order. */
function sorted(set: EntitySet, records: StoredRecord[], orderby: readonly OrderByItem[], db: HostedDatabase): StoredRecord[] {
  const keys = orderby.map((o): SortKey => {
    // `Nav/Field`: the first related record's value (nav-paths.ts).
    const { last, name, from } = orderPath(db, set, o.path);
    const c = column(last, name);
    return { field: c.kind === "field" ? c.field : c.name === "ROWID" ? "recordId" : "modId", descending: o.direction === "desc", ...(from ? { from } : {}) };
  });
  return sortRecords(set.data, records, keys);
}

/**
 * `GET /db/T`: a page of records (2.3, 2.5); also a navigation's records (`T(k)/Nav`: `source` and `self`, the
 * path its nextLink repeats).
 */
export function readCollection(set: EntitySet, ctx: ReadContext, source?: { records: StoredRecord[]; self: string }): Body {
  const q = ctx.query;
  const cols = columns(set, q.select, ctx.prefer.includeSpecialColumns);
  const exps = expansions(set, withNavSelect(ctx.db, set, q.select, q.expand), ctx);
  const records = matching(set, source?.records ?? [...set.data.records.values()], q, ctx);
  const skip = (q.skip ?? 0) + (q.skiptoken?.skip ?? 0);
  // Any $top suppresses nextLink (2.5's choice); a page is min(maxpagesize, 10,000).
  const size = q.top !== undefined ? Math.min(q.top, MAX_PAGE) : Math.min(ctx.prefer.maxPageSize ?? MAX_PAGE, MAX_PAGE);
  const rows = records.slice(skip, skip + size);
  const body: Body = {};
  if (!ctx.annotations.none) {
    const navSelected = (q.select ?? []).filter((p) => p.length > 1).map((p) => `"${ownPath(ctx.db, set, p)}"`);
    const selected = q.select === undefined ? "" : `(${[...cols.map((c) => `"${columnName(c)}"`), ...navSelected].join(",")})`;
    body[ann(ctx.annotations, "context")] = `${dbUrl(ctx)}/$metadata#${set.name}${selected}`;
  }
  if (q.count === true) body[ann(ctx.annotations, "count")] = records.length;
  reserve(ctx, rows.length);
  body.value = rows.map((r) => entityJson(set, r, cols, ctx, exps));
  if (q.top === undefined && skip + size < records.length) {
    const next = formatQueryOptions({ ...q, skiptoken: { skip: (q.skiptoken?.skip ?? 0) + size, t: 0 } });
    const self = source?.self ?? formatODataPath({ kind: "collection", db: ctx.urlDb, set: { by: "name", name: set.name } });
    body[ann(ctx.annotations, "nextLink")] = `${ctx.root}${self}?${next}`;
  }
  return body;
}

/** `GET /db/T/$count`: how many records `$filter` keeps (2.3), as text. */
export function readCount(set: EntitySet, ctx: ReadContext): string {
  return String(matching(set, [...set.data.records.values()], ctx.query, ctx).length);
}

/** `GET /db/T(k)`: one record (2.3). */
export function readEntity(set: EntitySet, key: EntityKey, ctx: ReadContext): Body {
  const record = findRecord(set, key);
  const cols = columns(set, ctx.query.select, ctx.prefer.includeSpecialColumns);
  const exps = expansions(set, withNavSelect(ctx.db, set, ctx.query.select, ctx.query.expand), ctx);
  const body: Body = Object.create(null);
  if (!ctx.annotations.none) body[ann(ctx.annotations, "context")] = `${dbUrl(ctx)}/$metadata#${set.name}/$entity`;
  reserve(ctx, 1);
  return Object.assign(body, entityJson(set, record, cols, ctx, exps));
}

/** `GET /db/T(k)/F`: one field's value (2.3). */
export function readMember(set: EntitySet, key: EntityKey, member: string, ctx: ReadContext): Body {
  const record = findRecord(set, key);
  const steps = findField(set, member) === undefined ? navigations(ctx.db, set).get(member) : undefined;
  if (steps !== undefined) {
    // `T(k)/Nav` (2.3): the related records as a collection of the target set, the request's options applied.
    const target = findSet(ctx.db, { by: "name", name: member });
    const self = formatODataPath({ kind: "member", db: ctx.urlDb, set: { by: "name", name: set.name }, key, member: target.name });
    return readCollection(target, ctx, { records: relatedRecords(ctx.db, set, record, target, steps), self });
  }
  const c = memberColumn(set, member, ctx);
  const body: Body = {};
  // The field by its own name (an `FMFID:n` as given), however the request spelled it.
  const named = sameName(member, columnName(c)) ? columnName(c) : member;
  if (!ctx.annotations.none) body[ann(ctx.annotations, "context")] = `${dbUrl(ctx)}/$metadata#${set.name}${formatKey(key)}/${named}`;
  if (c.kind === "field" && c.field.type === "container") {
    // 2.3: a repeating container gives only its first repetition; 3.3's choice: the file in base64.
    body.value = jsonValue(c.field, set.data.valuesOf(record, c.field)[0], ctx.containers, ctx.db.model.name);
    return body;
  }
  body.value = c.kind === "special" ? (c.name === "ROWID" ? record.recordId : record.modId) : numbersAsText(c.field, preferredTimestamp(c.field, fieldJson(set, record, c.field, ctx.containers, ctx.db.model.name), ctx.prefer), ctx);
  return body;
}

/** `GET /db/T(k)/F/$value`: the raw value (2.3): text, or a container's bytes with its content type (3.3). */
export function readValue(set: EntitySet, key: EntityKey, member: string, ctx: ReadContext): { contentType: string; body: Buffer } {
  const record = findRecord(set, key);
  const c = memberColumn(set, member, ctx);
  if (c.kind === "special") return text(String(c.name === "ROWID" ? record.recordId : record.modId));
  // A repeating field gives its first repetition (2.3).
  const value = set.data.valuesOf(record, c.field)[0];
  if (c.field.type === "number" && isStoredNumber(value)) return text(numberText(value));
  if (isContainerRef(value)) {
    const file = ctx.containers.get(ctx.db.model.name, value.id);
    if (file) return { contentType: file.contentType, body: Buffer.from(file.bytes) };
    return text("");
  }
  const json = preferredTimestamp(c.field, jsonValue(c.field, value, ctx.containers, ctx.db.model.name), ctx.prefer);
  return text(json === null ? "" : String(json));
}

function text(s: string): { contentType: string; body: Buffer } {
  return { contentType: "text/plain;charset=utf-8", body: Buffer.from(s, "utf8") };
}

function memberColumn(set: EntitySet, member: string, ctx: ReadContext): Column {
  const field = findField(set, member);
  if (field) return { kind: "field", field };
  if (isSpecialColumn(set, member)) return { kind: "special", name: member as "ROWID" | "ROWMODID" };
  throw fieldMissing(member);
}
