// `$apply`'s transformations (apply-parse.ts) compiled once against the columns they read, then run over rows. A
// row is a hosted record (its fields read as `$filter` reads them) plus the values transformations gave it
// (computed aliases, grouping keys, aggregates), typed as the `$filter` evaluator types values (dates as epoch ms).
// Every name is checked when the plan is built, so an error does not depend on the data; a plan runs in time linear
// in the rows it reads, and the rows all steps produce together are capped (MAX_APPLY_WORK).

import { findByName, sameName } from "../hosted-file/name-map.js";
import type { TableField } from "../hosted-file/model.js";
import type { StoredRecord } from "../hosted-file/store.js";
import { forEachField, mapFields, type FieldName, type FilterNode } from "./filter-ast.js";
import { checkExpression, checkFilter, type CheckedNode, type FilterType, type FilterValue } from "./filter-check.js";
import { incompatibleTypes, unknownField } from "./filter-error.js";
import { compareValues, compileExpression, compileFilter } from "./filter-eval.js";
import { SPECIAL_COLUMNS, type FilterRow, type FilterTable } from "./filter-schema.js";
import { formatDate, formatTimeOfDay, formatTimestamp } from "./filter-values.js";
import type { AggregateItem, ApplyStep, ComputeItem } from "./apply-parse.js";
import { ODataError, quoted } from "./odata-error.js";
import { averageDecimal, decimalText, digitsOf, storedOf, sumDecimals, type Decimal } from "./apply-decimal.js";
import { ExactNumber, numberText, type StoredNumber } from "../hosted-file/exact-number.js";
import { isStoredNumber } from "../hosted-file/stored-value.js";

/** A column's type: the Edm types a value can have (containers are Edm.Binary). */
export type ColumnType = Exclude<FilterType, "Boolean" | "Null">;

export interface ApplyColumn {
  readonly name: string;
  readonly type: ColumnType;
  /** The table field a record row reads it from (a base column); absent for values transformations made. */
  readonly field?: TableField;
  /** The field's FMFID, so `FMFID:n` names it too. */
  readonly id?: string;
  /** Containers: filterable for emptiness, left out of rows (as the read path leaves them out, 2.3). */
  readonly hidden: boolean;
  /** Made by an aggregate (or from aggregates only): what a groupby may keep beside its grouping properties. */
  readonly aggregated: boolean;
  /** A joined record's field (`Alias/Field`, named so): shown nested, `{"Alias":{"Field":…}}`. */
  readonly path?: readonly [string, string];
}

export interface ApplySchema {
  readonly columns: readonly ApplyColumn[];
  /** Whether rows are still whole records (only `filter` and `compute` ran): navigation works, fields show. */
  readonly records: boolean;
}

export interface ApplyRow {
  readonly record?: StoredRecord;
  readonly values: RowValues;
}

/** A row's own values by column name (a ReadonlyMap is one). */
export interface RowValues {
  has(name: string): boolean;
  get(name: string): FilterValue | undefined;
}

/**
 * Values a step adds on top of a row's: shared names and index, one array per row, the row's values beneath. A join
 * or compute costs its new values per row, not a copy of all the row's earlier ones.
 */
class Layer implements RowValues {
  constructor(
    private readonly below: RowValues,
    private readonly index: ReadonlyMap<string, number>,
    private readonly own: readonly FilterValue[],
  ) {}

  has(name: string): boolean {
    return this.index.has(name) || this.below.has(name);
  }

  get(name: string): FilterValue | undefined {
    const i = this.index.get(name);
    return i === undefined ? this.below.get(name) : (this.own[i] ?? null);
  }
}

const indexOf = (names: readonly string[]) => new Map(names.map((n, i) => [n, i]));

/** What a plan reads of the table it starts from. */
export interface ApplySource {
  /** The table as `$filter` checks it (fields, FMFIDs, navigations). */
  readonly table: FilterTable;
  /** One record as `$filter` reads it. */
  baseRow(record: StoredRecord): FilterRow;
  /** The request's instant, for `now()`. */
  readonly now: number;
  /** Rows produced so far by every step (MAX_APPLY_WORK). */
  produced: number;
  /** A navigation of the table, for `join`; undefined when the table has none so named. */
  navigation(name: string): JoinTarget | undefined;
}

/** What `join(Nav as A)` reads of the related table. */
export interface JoinTarget {
  /** The related table as `$filter` checks it: its fields' names, types, FMFIDs. */
  readonly table: FilterTable;
  /** Its container fields: joined, not shown. */
  readonly hidden: ReadonlySet<string>;
  /** The related records of one record, in creation order. */
  related(record: StoredRecord): readonly StoredRecord[];
  /** A related record as `$filter` reads it. */
  row(record: StoredRecord): FilterRow;
}

/** An outer join's row without a related record holds this key, so the alias shows as null. */
export const joinMiss = (alias: string) => `${alias}/`;

export interface ApplyPlan {
  readonly schema: ApplySchema;
  run(rows: readonly ApplyRow[]): ApplyRow[];
}

/** Most rows all steps of one `$apply` may produce together (concat multiplies rows; each step re-reads them). */
export const MAX_APPLY_WORK = 1_000_000;

export const groupbyError = () => new ODataError(400, "8309", "All non-aggregated field references must be in the groupby clause.");

const D = "Edm.Decimal";

export function compileSequence(steps: readonly ApplyStep[], input: ApplySchema, src: ApplySource): ApplyPlan {
  let plan: ApplyPlan = { schema: input, run: (rows) => [...rows] };
  for (const step of steps) plan = chain(plan, compileStep(step, plan.schema, src));
  return plan;
}

function chain(first: ApplyPlan, second: ApplyPlan): ApplyPlan {
  return { schema: second.schema, run: (rows) => second.run(first.run(rows)) };
}

function compileStep(step: ApplyStep, schema: ApplySchema, src: ApplySource): ApplyPlan {
  switch (step.kind) {
    case "filter":
      return compileFilterStep(step.predicate, schema, src);
    case "compute":
      return compileCompute(step.items, schema, src);
    case "aggregate":
      return compileAggregate(step.items, schema, src);
    case "groupby":
      return compileGroupby(step.properties, step.inner, schema, src);
    case "concat":
      return compileConcat(step.branches, schema, src);
    case "join":
      return compileJoin(step.outer, step.navigation, step.alias, schema, src);
  }
}

/** Counts rows a step produced; past MAX_APPLY_WORK the request fails at once. */
function produced(src: ApplySource, n: number): void {
  src.produced += n;
  if (src.produced > MAX_APPLY_WORK) {
    throw new ODataError(400, "-1", `Error: the $apply would produce more than ${MAX_APPLY_WORK} rows in its steps (concat, chained transformations); narrow it with filter`);
  }
}

/** A `$filter`, inside `$apply` or after it: the filter pipeline over the schema's columns. */
export function compileFilterStep(filter: FilterNode, schema: ApplySchema, src: ApplySource): ApplyPlan {
  const predicate = joinedNames(filter, schema);
  checkReferences(predicate, schema, src, true);
  const test = compileFilter(checkFilter(predicate, tableOf(schema, src)), { now: () => src.now });
  const view = rowView(schema, src);
  return {
    schema,
    run: (rows) => {
      const out = rows.filter((r) => test(view(r)));
      produced(src, out.length);
      return out;
    },
  };
}

/** The checked value expression an item computes or aggregates; navigation is refused there (not emulated). */
function valueExpression(expression: FilterNode, schema: ApplySchema, src: ApplySource): { checked: CheckedNode; evaluate: (r: ApplyRow) => FilterValue; aggregated: boolean } {
  const node = joinedNames(expression, schema);
  const refs = checkReferences(node, schema, src, false);
  const checked = checkExpression(node, tableOf(schema, src));
  const compiled = compileExpression(checked, { now: () => src.now });
  const view = rowView(schema, src);
  const byName = new Map(schema.columns.map((c) => [c.name, c]));
  const aggregated = refs.every((name) => byName.get(name)?.aggregated === true);
  return { checked, evaluate: (r) => compiled(view(r)), aggregated };
}

/** A Boolean result is 1 or 0 (FileMaker has no boolean, 2.7's choice); a bare `null` is empty text. */
function columnType(t: FilterType): ColumnType {
  if (t === "Boolean") return D;
  if (t === "Null") return "Edm.String";
  return t;
}

function asColumnValue(v: FilterValue): FilterValue {
  return typeof v === "boolean" ? (v ? 1 : 0) : v;
}

function aliasTaken(alias: string): ODataError {
  return new ODataError(400, "-1002", `Error: the $apply alias '${quoted(alias)}' names a property that already exists`);
}

function compileCompute(items: readonly ComputeItem[], schema: ApplySchema, src: ApplySource): ApplyPlan {
  const names = new Set(schema.columns.map((c) => c.name));
  const computed = items.map((item) => {
    if (names.has(item.alias) || SPECIAL_COLUMNS.includes(item.alias)) throw aliasTaken(item.alias);
    names.add(item.alias);
    const e = valueExpression(item.expression, schema, src);
    if (e.checked.type === "Edm.Binary") throw incompatibleTypes();
    const column: ApplyColumn = { name: item.alias, type: columnType(e.checked.type), hidden: false, aggregated: e.aggregated };
    return { column, evaluate: e.evaluate };
  });
  return {
    schema: { columns: [...schema.columns, ...computed.map((c) => c.column)], records: schema.records },
    run: (rows) => {
      produced(src, rows.length);
      const index = indexOf(computed.map((c) => c.column.name));
      return rows.map((r) => {
        const values = new Layer(r.values, index, computed.map((c) => asColumnValue(c.evaluate(r))));
        return r.record === undefined ? { values } : { record: r.record, values };
      });
    },
  };
}

type Aggregator = (rows: readonly ApplyRow[]) => Aggregated;

function compileAggregate(items: readonly AggregateItem[], schema: ApplySchema, src: ApplySource): ApplyPlan {
  const aliases = new Set<string>();
  const parts = items.map((item): { column: ApplyColumn; aggregate: Aggregator } => {
    if (aliases.has(item.alias)) throw aliasTaken(item.alias);
    aliases.add(item.alias);
    if (item.kind === "count") return { column: { name: item.alias, type: D, hidden: false, aggregated: true }, aggregate: (rows) => rows.length };
    const e = valueExpression(item.expression, schema, src);
    const type = columnType(e.checked.type);
    const numeric = type === D;
    if (type === "Edm.Binary" || ((item.method === "sum" || item.method === "average") && !numeric)) throw incompatibleTypes();
    const values = (rows: readonly ApplyRow[]) => {
      const out: (string | StoredNumber)[] = [];
      for (const r of rows) {
        const v = asColumnValue(e.evaluate(r));
        if (v !== null && typeof v !== "boolean") out.push(v);
      }
      return out;
    };
    const resultType: ColumnType = item.method === "min" || item.method === "max" ? type : D;
    return { column: { name: item.alias, type: resultType, hidden: false, aggregated: true }, aggregate: aggregator(item.method, values) };
  });
  return {
    schema: { columns: parts.map((p) => p.column), records: false },
    run: (rows) => {
      produced(src, 1);
      const values = new Map<string, FilterValue>();
      for (const p of parts) setAggregated(values, p.column.name, p.aggregate(rows));
      return [{ values }];
    },
  };
}

/**
 * An aggregate's value: a plain value, or an exact decimal (sum, average), kept as a stored number (every digit, what
 * `$filter`, `$orderby`, `compute` and the answer read); past FileMaker's numbers (over 400 digits, beyond 10^±400)
 * its row value is the nearest finite double and its text, under exactText, is what the answer writes.
 */
type Aggregated = FilterValue | Decimal;

const isDecimal = (v: Aggregated): v is Decimal => typeof v === "object" && v !== null && !(v instanceof ExactNumber);

/** The key a row keeps a column's exact decimal text under; no column is named so (names hold no NUL). */
export const exactText = (name: string) => `${name}\u0000exact`;

/** sum, average (of numbers), min, max, countdistinct: over the non-empty values; empty input → null (0 for countdistinct). */
function aggregator(method: string, values: (rows: readonly ApplyRow[]) => (string | StoredNumber)[]): (rows: readonly ApplyRow[]) => Aggregated {
  switch (method) {
    case "sum":
      return (rows) => {
        const vs = values(rows) as StoredNumber[];
        return vs.length === 0 ? null : exactSum(vs);
      };
    case "average":
      return (rows) => {
        const vs = values(rows) as StoredNumber[];
        return vs.length === 0 ? null : exactAverage(vs);
      };
    case "min":
    case "max": {
      // Compared exactly (compareValues: compareNumbers), the value as stored: its every digit is the answer.
      const sign = method === "min" ? -1 : 1;
      return (rows) => {
        let best: string | StoredNumber | null = null;
        for (const v of values(rows)) if (best === null || compareValues(v, best) * sign > 0) best = v;
        return best;
      };
    }
    default:
      // A number by its canonical text: two stored forms of one value are one value.
      return (rows) => new Set(values(rows).map((v) => (isStoredNumber(v) ? `number:${numberText(v)}` : `string:${v}`))).size;
  }
}

/**
 * A sum in decimal arithmetic (FileMaker's numbers are decimal): `0.1 + 0.2` is 0.3, not 0.30000000000000004, and
 * `1e308 + 1e308` is 2e308, not Infinity. A value that is not finite (a compute that overflowed) makes it the
 * floating-point sum.
 */
export function exactSum(values: readonly StoredNumber[]): Decimal | number {
  const finite = values.every((v) => typeof v !== "number" || Number.isFinite(v));
  return finite ? sumDecimals(values) : (values as number[]).reduce((a, b) => a + b, 0);
}

/**
 * The exact sum divided by the count (apply-decimal.ts): exact when its decimal ends within 400 digits, else to as
 * many significant digits as the widest value has, at least AVERAGE_DIGITS.
 */
function exactAverage(values: readonly StoredNumber[]): Decimal | number {
  const sum = exactSum(values);
  if (typeof sum === "number") return sum / values.length;
  let widest = 0;
  for (const v of values) widest = Math.max(widest, digitsOf(v));
  return averageDecimal(sum, values.length, widest);
}

/**
 * Sets an aggregate's value in a row's values: a decimal as a stored number when it is one; past FileMaker's numbers
 * as its nearest double, and its text beside it.
 */
function setAggregated(values: Map<string, FilterValue>, name: string, value: Aggregated): void {
  if (!isDecimal(value)) {
    values.set(name, value);
    return;
  }
  const stored = storedOf(value);
  if (stored !== undefined) {
    values.set(name, stored);
    return;
  }
  const text = decimalText(value);
  // Past the double's range, the largest double: it still orders after every finite number a filter names.
  values.set(name, Math.max(-Number.MAX_VALUE, Math.min(Number.MAX_VALUE, Number(text))));
  values.set(exactText(name), text);
}

function compileGroupby(properties: readonly FieldName[], innerSteps: readonly ApplyStep[], schema: ApplySchema, src: ApplySource): ApplyPlan {
  const keys: ApplyColumn[] = [];
  for (const p of properties) {
    const column = resolveColumn(p, schema, src);
    // A container has no value to group by (only its emptiness is known to `$filter`).
    if (column.type === "Edm.Binary") throw incompatibleTypes();
    if (!keys.includes(column)) keys.push(column);
  }
  const keyNames = new Set(keys.map((k) => k.name));
  const inner = compileSequence(innerSteps, schema, src);
  // SQL's rule, as FileMaker answers it (2.9): what a group keeps is its keys and aggregates, nothing else.
  for (const c of inner.schema.columns) if (!c.hidden && !keyNames.has(c.name) && !c.aggregated) throw groupbyError();
  const rest = inner.schema.columns.filter((c) => !c.hidden && !keyNames.has(c.name));
  const keyReaders = keys.map((k) => columnReader(k, schema, src));
  const restReaders = rest.map((c) => columnReader(c, inner.schema, src));
  return {
    schema: {
      columns: [...keys.map((k): ApplyColumn => ({ name: k.name, type: k.type, ...(k.id === undefined ? {} : { id: k.id }), ...(k.path === undefined ? {} : { path: k.path }), hidden: false, aggregated: false })), ...rest],
      records: false,
    },
    run: (rows) => {
      // Groups in the order their first row comes (creation order by default, 2.5's choice).
      const groups = new Map<string, { key: FilterValue[]; rows: ApplyRow[] }>();
      for (const r of rows) {
        const key = keyReaders.map((read) => read(r));
        const id = JSON.stringify(key);
        let group = groups.get(id);
        if (group === undefined) groups.set(id, (group = { key, rows: [] }));
        group.rows.push(r);
      }
      const out: ApplyRow[] = [];
      for (const { key, rows: members } of groups.values()) {
        for (const r of inner.run(members)) {
          const values = new Map<string, FilterValue>();
          keys.forEach((k, i) => values.set(k.name, key[i] ?? null));
          rest.forEach((c, i) => {
            values.set(c.name, restReaders[i]!(r));
            // An aggregate's exact text goes with it.
            const exact = r.values.get(exactText(c.name));
            if (exact !== undefined) values.set(exactText(c.name), exact);
          });
          out.push({ values });
        }
      }
      produced(src, out.length);
      return out;
    },
  };
}

function compileConcat(branches: readonly (readonly ApplyStep[])[], schema: ApplySchema, src: ApplySource): ApplyPlan {
  const plans = branches.map((b) => compileSequence(b, schema, src));
  const columns: ApplyColumn[] = [];
  for (const p of plans) {
    for (const c of p.schema.columns) {
      const at = columns.findIndex((o) => o.name === c.name);
      if (at < 0) columns.push(c);
      else columns[at] = { ...columns[at]!, aggregated: columns[at]!.aggregated && c.aggregated, hidden: columns[at]!.hidden && c.hidden };
    }
  }
  return {
    schema: { columns, records: plans.every((p) => p.schema.records) },
    run: (rows) => {
      const out: ApplyRow[] = [];
      for (const p of plans) {
        // Counted branch by branch, so a wide concat stops before it has built all its branches.
        const part = p.run(rows);
        produced(src, part.length);
        for (const r of part) out.push(r);
      }
      return out;
    },
  };
}

/**
 * `join(Nav as A)` (CL/query-option-apply): each row once per record related through Nav, its fields as columns
 * `A/Field`; `outerjoin` also keeps a row with none (A shows null). Only rows that are still records can join.
 */
function compileJoin(outer: boolean, navigation: string, alias: string, schema: ApplySchema, src: ApplySource): ApplyPlan {
  if (!schema.records) throw new ODataError(400, "-1002", `Error: $apply ${outer ? "outerjoin" : "join"} reads the table's records; place it before groupby and aggregate`);
  const target = src.navigation(navigation);
  if (target === undefined) throw unknownField(navigation);
  if (schema.columns.some((c) => sameName(c.name, alias) || (c.path !== undefined && sameName(c.path[0]!, alias))) || SPECIAL_COLUMNS.includes(alias)) throw aliasTaken(alias);
  const joined = target.table.fields.map((f) => {
    const type = (f.type === "Edm.Stream" ? "Edm.Binary" : f.type) as ColumnType;
    const column: ApplyColumn = { name: `${alias}/${f.name}`, type, hidden: target.hidden.has(f.name), aggregated: false, path: [alias, f.name] };
    const read = compileExpression({ kind: "field", type, name: f.name, navigation: undefined }, { now: () => src.now });
    return { column, read };
  });
  const miss = joinMiss(alias);
  return {
    schema: { columns: [...schema.columns, ...joined.map((j) => j.column)], records: true },
    run: (rows) => {
      const out: ApplyRow[] = [];
      // A record's related values, read once however many rows (earlier joins) repeat it.
      const cache = new Map<StoredRecord, FilterValue[][]>();
      const relatedValues = (record: StoredRecord): FilterValue[][] => {
        let found = cache.get(record);
        if (found === undefined) {
          found = target.related(record).map((rel) => {
            const view = target.row(rel);
            return joined.map((j) => j.read(view));
          });
          cache.set(record, found);
        }
        return found;
      };
      const index = indexOf(joined.map((j) => j.column.name));
      const missIndex = indexOf([...joined.map((j) => j.column.name), miss]);
      const nulls = new Array<FilterValue>(joined.length + 1).fill(null);
      for (const r of rows) {
        const related = r.record === undefined ? [] : relatedValues(r.record);
        if (related.length === 0 && outer) {
          const values = new Layer(r.values, missIndex, nulls);
          out.push(r.record === undefined ? { values } : { record: r.record, values });
        }
        for (const rel of related) {
          const values = new Layer(r.values, index, rel);
          out.push(r.record === undefined ? { values } : { record: r.record, values });
        }
        // A join multiplies rows: stop as soon as the cap is passed, not after building them all.
        if (src.produced + out.length > MAX_APPLY_WORK) produced(src, out.length);
      }
      produced(src, out.length);
      return out;
    },
  };
}

/**
 * `A/Field` of a join, which the `$filter` parser reads as navigation A, named as the column it is (`A/Field`); a
 * field the joined table lacks is 8309 naming it.
 */
function joinedNames(node: FilterNode, schema: ApplySchema): FilterNode {
  if (!schema.columns.some((c) => c.path !== undefined)) return node;
  return mapFields(node, (n) => {
    if (n.navigation === undefined || !schema.columns.some((c) => c.path !== undefined && sameName(c.path[0]!, n.navigation!))) return n;
    if (n.field.by !== "name") throw unknownField(n.field.id);
    const column = findByName(schema.columns, `${n.navigation}/${n.field.name}`, (c) => c.name);
    if (column === undefined) throw unknownField(n.field.name);
    return { kind: "field", field: { by: "name", name: column.name }, at: n.at };
  });
}

/** A grouping property (or `$orderby` name) among the schema's columns; a field a groupby dropped is 8309 (2.9). */
export function resolveColumn(name: FieldName, schema: ApplySchema, src: ApplySource): ApplyColumn {
  const column = name.by === "name" ? findByName(schema.columns, name.name, (c) => c.name) : schema.columns.find((c) => c.id === name.id);
  if (column) return column;
  if (name.by === "name" && name.name.includes("/")) {
    const [first] = name.name.split("/");
    if (schema.columns.some((c) => c.path !== undefined && sameName(c.path[0]!, first!))) throw unknownField(name.name.slice(first!.length + 1));
    throw new ODataError(400, "-1002", `Error: navigation paths ('${quoted(name.name)}') in $apply are not supported by the emulator; join the navigation first`);
  }
  if (!schema.records && isSourceName(name, src)) throw groupbyError();
  if (schema.records && name.by === "name" && SPECIAL_COLUMNS.includes(name.name)) return { name: name.name, type: D, hidden: false, aggregated: false };
  throw unknownField(name.by === "name" ? name.name : name.id);
}

function isSourceName(name: FieldName, src: ApplySource): boolean {
  if (name.by === "id") return src.table.fields.some((f) => f.id === name.id);
  return SPECIAL_COLUMNS.includes(name.name) || findByName(src.table.fields, name.name, (f) => f.name) !== undefined;
}

/**
 * Walks an expression's names before the `$filter` checker sees them: a field the rows no longer hold (a groupby or
 * aggregate dropped it) is FileMaker's groupby 8309, not "does not exist". Returns the column names read.
 */
function checkReferences(node: FilterNode, schema: ApplySchema, src: ApplySource, navigation: boolean): string[] {
  const names: string[] = [];
  forEachField(node, (n) => {
    if (n.navigation !== undefined) {
      if (!schema.records) throw groupbyError();
      if (!navigation) throw new ODataError(400, "-1002", `Error: navigation paths ('${quoted(n.navigation)}/…') in $apply compute and aggregate are not supported by the emulator`);
      return;
    }
    const ref = n.field;
    const column = ref.by === "name" ? findByName(schema.columns, ref.name, (c) => c.name) : schema.columns.find((c) => c.id === ref.id);
    if (column) names.push(column.name);
    else if (!schema.records && isSourceName(ref, src)) throw groupbyError();
  });
  return names;
}

/** The schema as `$filter` checks names against it; navigations only while rows are records. */
function tableOf(schema: ApplySchema, src: ApplySource): FilterTable {
  const fields = schema.columns.map((c) => ({ name: c.name, type: c.type, ...(c.id === undefined ? {} : { id: c.id }) }));
  return schema.records && src.table.navigation !== undefined ? { name: src.table.name, fields, navigation: src.table.navigation } : { name: src.table.name, fields };
}

/** How `$filter`'s evaluator reads a row: its values in their wire form, else its record's fields. */
function rowView(schema: ApplySchema, src: ApplySource): (row: ApplyRow) => FilterRow {
  const types = new Map(schema.columns.map((c) => [c.name, c.type]));
  return (row) => {
    // The record's view is made only when a name reads it: `filter(true)` or an alias reads none.
    let base: FilterRow | undefined;
    const record = () => (base ??= row.record === undefined ? undefined : src.baseRow(row.record));
    return {
      value(name) {
        if (row.values.has(name)) return wireValue(row.values.get(name) ?? null, types.get(name) ?? "Edm.String");
        return record()?.value(name);
      },
      related(navigation) {
        return record()?.related?.(navigation) ?? [];
      },
    };
  };
}

/** A typed value back to the text `$filter` reads (filter-schema.ts): dates `YYYY-MM-DD`, times, timestamps. */
function wireValue(v: FilterValue, type: ColumnType): string | number | ExactNumber | null {
  if (v === null || typeof v === "boolean") return v === null ? null : v ? 1 : 0;
  if (typeof v === "string" || v instanceof ExactNumber) return v;
  if (type === "Edm.Date") return formatDate(v);
  if (type === "Edm.TimeOfDay") return formatTimeOfDay(v);
  if (type === "Edm.DateTimeOffset") return formatTimestamp(v);
  return v;
}

/** A column's typed value in a row: the row's own value, else its record's field read as `$filter` reads it. */
export function columnReader(column: ApplyColumn, schema: ApplySchema, src: ApplySource): (row: ApplyRow) => FilterValue {
  const read = compileExpression({ kind: "field", type: column.type, name: column.name, navigation: undefined }, { now: () => src.now });
  const view = rowView(schema, src);
  return (row) => (row.values.has(column.name) ? (row.values.get(column.name) ?? null) : row.record === undefined ? null : read(view(row)));
}
