// `GET /db/T?$apply=…` (docs/emulator.md, "$apply"): the transformations (apply-parse.ts, apply-eval.ts) over the table's
// records, then `$filter`, `$orderby`, `$count`, `$skip`, `$top` and paging on the rows they give, as OData applies
// the other options after `$apply`. Rows hold their keys and aliases, no `@id` (2.9's choice); rows that are still
// whole records (only `filter`/`compute` ran) show their fields as the read path does, aliases after them.

import { compareNumbers, ExactNumber, type StoredNumber } from "../hosted-file/exact-number.js";
import type { StoredRecord } from "../hosted-file/store.js";
import { numberJson } from "./exact-values.js";
import { parseFilter } from "./filter-parser.js";
import type { FilterValue } from "./filter-check.js";
import { formatDate, formatTimeOfDay, formatTimestamp } from "./filter-values.js";
import { parseApply } from "./apply-parse.js";
import { columnReader, compileFilterStep, compileSequence, exactText, joinMiss, resolveColumn, type ApplyColumn, type ApplyRow, type ApplySchema, type ApplySource, type ColumnType } from "./apply-eval.js";
import { fieldJson, filterRow, filterTable, findSet, navigations, relatedRecords, type EntitySet } from "./entity-sets.js";
import { MAX_PAGE, MAX_RECORDS_PER_RESPONSE, type Body, type ReadContext } from "./entity-read.js";
import { NumberToken } from "../../runtime/core/json-numbers.js";
import { ODataError } from "./odata-error.js";
import { formatODataPath, formatQueryOptions } from "./url-format.js";

const NO_VALUES: ReadonlyMap<string, FilterValue> = new Map();

/** The body of `GET /db/T?$apply=…`: a page of result rows. */
export function readApplied(set: EntitySet, ctx: ReadContext): Body {
  const q = ctx.query;
  if (q.apply === undefined) throw new Error("readApplied: no $apply in the request");
  // Rule one: options not applied to $apply's rows are refused, not ignored.
  if (q.select !== undefined) throw new ODataError(400, "-1002", "Error: $select together with $apply is not supported by the emulator; name the properties in groupby or aggregate");
  if (q.expand !== undefined) throw new ODataError(400, "-1002", "Error: $expand together with $apply is not supported by the emulator");
  const steps = parseApply(q.apply);
  const table = filterTable(set, ctx.db);
  const navs = navigations(ctx.db, set);
  const src: ApplySource = {
    table,
    baseRow: (r) => filterRow(set, r, ctx.db),
    now: ctx.now,
    produced: 0,
    navigation(name) {
      const steps = navs.get(name);
      if (steps === undefined) return undefined;
      const target = findSet(ctx.db, { by: "name", name });
      return {
        table: filterTable(target, ctx.db),
        hidden: new Set(target.fields.filter((f) => f.type === "container").map((f) => f.name)),
        related: (record) => relatedRecords(ctx.db, set, record, target, steps),
        row: (record) => filterRow(target, record, ctx.db),
      };
    },
  };
  const base: ApplySchema = {
    records: true,
    columns: set.fields.map((field) => {
      const f = table.fields.find((t) => t.name === field.name)!;
      const type = (f.type === "Edm.Stream" ? "Edm.Binary" : f.type) as ColumnType;
      return { name: field.name, type, field, ...(f.id === undefined ? {} : { id: f.id }), hidden: field.type === "container", aggregated: false };
    }),
  };
  let plan = compileSequence(steps, base, src);
  if (q.filter !== undefined) {
    const filter = compileFilterStep(parseFilter(q.filter), plan.schema, src);
    const before = plan;
    plan = { schema: filter.schema, run: (rows) => filter.run(before.run(rows)) };
  }
  const schema = plan.schema;
  const sort = q.orderby?.map((o) => {
    if (o.path.length > 2) throw new ODataError(400, "-1002", `Error: navigation paths ('${o.path.join("/")}') are not supported by the emulator yet`);
    // `A/Field` names a joined column (or is refused as navigation by resolveColumn).
    const column = resolveColumn({ by: "name", name: o.path.join("/") }, schema, src);
    if (column.type === "Edm.Binary") throw new ODataError(400, "8309", "incompatible data types");
    return { read: columnReader(column, schema, src), descending: o.direction === "desc" };
  });
  const records: StoredRecord[] = [...set.data.records.values()];
  let rows = plan.run(records.map((record) => ({ record, values: NO_VALUES })));
  if (sort !== undefined) rows = sorted(rows, sort);

  const skip = (q.skip ?? 0) + (q.skiptoken?.skip ?? 0);
  const size = q.top !== undefined ? Math.min(q.top, MAX_PAGE) : Math.min(ctx.prefer.maxPageSize ?? MAX_PAGE, MAX_PAGE);
  const page = rows.slice(skip, skip + size);
  ctx.written += page.length;
  if (ctx.written > MAX_RECORDS_PER_RESPONSE) throw new ODataError(400, "-1", `Error: the response would hold more than ${MAX_RECORDS_PER_RESPONSE} records`);
  const shown = schema.columns.filter((c) => !c.hidden);
  const body: Body = {};
  const ann = (name: string) => (ctx.annotations.prefixed ? `@odata.${name}` : `@${name}`);
  if (!ctx.annotations.none) {
    const whole = schema.records && shown.every((c) => c.field !== undefined);
    const list = whole ? "" : `(${shown.map((c) => `"${c.name}"`).join(",")})`;
    body[ann("context")] = `${ctx.root}${formatODataPath({ kind: "serviceDocument", db: ctx.urlDb })}/$metadata#${set.name}${list}`;
  }
  if (q.count === true) body[ann("count")] = rows.length;
  body.value = page.map((r) => rowJson(set, r, shown, ctx));
  if (q.top === undefined && skip + size < rows.length) {
    const next = formatQueryOptions({ ...q, skiptoken: { skip: (q.skiptoken?.skip ?? 0) + size, t: 0 } });
    body[ann("nextLink")] = `${ctx.root}${formatODataPath({ kind: "collection", db: ctx.urlDb, set: { by: "name", name: set.name } })}?${next}`;
  }
  return body;
}

/** `$orderby` on result rows: empty first when ascending, text case-insensitively, ties in the rows' order (2.6). */
function sorted(rows: ApplyRow[], keys: readonly { read: (r: ApplyRow) => FilterValue; descending: boolean }[]): ApplyRow[] {
  const keyed = rows.map((row, index) => ({ row, index, keys: keys.map((k) => sortKey(k.read(row))) }));
  keyed.sort((a, b) => {
    for (let i = 0; i < keys.length; i++) {
      const order = compareKeys(a.keys[i]!, b.keys[i]!);
      if (order !== 0) return keys[i]!.descending ? -order : order;
    }
    return a.index - b.index;
  });
  return keyed.map((k) => k.row);
}

function sortKey(v: FilterValue): string | StoredNumber | null {
  if (v === null) return null;
  if (typeof v === "boolean") return v ? 1 : 0;
  return typeof v === "string" ? v.toLowerCase() : v;
}

/** Empty first, numbers (exactly: compareNumbers) before text. */
function compareKeys(a: string | StoredNumber | null, b: string | StoredNumber | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (typeof a === "string" && typeof b === "string") return a < b ? -1 : 1;
  if (typeof a !== "string" && typeof b !== "string") return compareNumbers(a, b);
  return typeof a === "string" ? 1 : -1;
}

/** One result row: a record's fields as the read path writes them, then its values in their Edm JSON form (1.4). */
function rowJson(set: EntitySet, row: ApplyRow, columns: readonly ApplyColumn[], ctx: ReadContext): Body {
  const out: Body = Object.create(null);
  for (const c of columns) {
    if (c.path !== undefined) {
      // A joined record's field, nested under its alias; an outer join's row without one shows the alias null.
      const [alias, field] = c.path;
      if (row.values.has(joinMiss(alias))) out[alias] = null;
      else if (row.values.has(c.name)) ((out[alias] ??= Object.create(null)) as Body)[field] = valueJson(row.values.get(c.name) ?? null, c.type, ctx);
      continue;
    }
    const exact = row.values.get(exactText(c.name));
    if (typeof exact === "string") out[c.name] = ctx.annotations.ieee754 ? exact : new NumberToken(exact);
    else if (row.values.has(c.name)) out[c.name] = valueJson(row.values.get(c.name) ?? null, c.type, ctx);
    else if (c.field !== undefined && row.record !== undefined) {
      const value = fieldJson(set, row.record, c.field, ctx.containers, ctx.db.model.name);
      out[c.name] = c.type === "Edm.Decimal" ? numberJson(value, ctx.annotations.ieee754 === true) : value;
    }
    // A concat branch's row without this column shows none.
  }
  return out;
}

function valueJson(v: FilterValue, type: ColumnType, ctx: ReadContext): unknown {
  if (v === null) return null;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "string") return v;
  if (v instanceof ExactNumber) return numberJson(v, ctx.annotations.ieee754 === true);
  switch (type) {
    case "Edm.Date":
      return formatDate(v);
    case "Edm.TimeOfDay":
      return formatTimeOfDay(v);
    case "Edm.DateTimeOffset":
      return formatTimestamp(v);
    default:
      // Every digit (exact-values.ts): a bare token, or its canonical text under IEEE754Compatible.
      return numberJson(v, ctx.annotations.ieee754 === true);
  }
}
