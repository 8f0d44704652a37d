// `GET /db/$crossjoin(a,b[,…])` (docs/emulator.md, "`$crossjoin`"): the cartesian product of the sets' records, one
// row per combination: `a@navigationLink`, `b@navigationLink`, … then every field of every set merged flat (a later
// set's value wins on a name they share), or only the expanded set's fields with `$expand=a`. `$filter` works only on
// the expanded set (`a/x eq 1`). The product is never built: row i of the page is decoded from its index (the last
// set varies fastest), so a page costs its own size whatever the product's; without `$top`, a product past
// MAX_CROSSJOIN_ROWS is refused, as FileMaker Server times out on it instead.

import { sameName } from "../hosted-file/name-map.js";
import type { StoredRecord } from "../hosted-file/store.js";
import { forEachField, mapFields, type FilterNode } from "./filter-ast.js";
import { checkFilter } from "./filter-check.js";
import { compileFilter } from "./filter-eval.js";
import { parseFilter } from "./filter-parser.js";
import { numberJson } from "./exact-values.js";
import { fieldId, fieldJson, filterRow, filterTable, findSet, recordKey, type EntitySet } from "./entity-sets.js";
import { columns, MAX_PAGE, MAX_RECORDS_PER_RESPONSE, type Body, type ReadContext } from "./entity-read.js";
import { ODataError, parseFailure, quoted, syntaxError } from "./odata-error.js";
import { formatODataPath, formatQueryOptions } from "./url-format.js";
import type { SetRef } from "./url-path.js";

/** Most combinations a `$crossjoin` without `$top` may have (choice; FileMaker Server times out, PKX). */
export const MAX_CROSSJOIN_ROWS = 1_000_000;

const setText = (ref: SetRef) => (ref.by === "name" ? ref.name : `FMTID:${ref.id}`);

export function readCrossjoin(refs: readonly SetRef[], ctx: ReadContext): Body {
  const q = ctx.query;
  const sets = refs.map((ref) => findSet(ctx.db, ref));
  sets.forEach((s, i) => {
    if (sets.indexOf(s) !== i) throw syntaxError(setText(refs[i]!));
  });
  // url-request.ts has checked `$expand`: at most one item, naming one of the sets, no options.
  const expandName = q.expand?.[0]?.nav;
  const expanded = expandName === undefined ? -1 : refs.findIndex((r, i) => sameName(setText(r), expandName) || sameName(sets[i]!.name, expandName));
  const rows = sets.map((s) => [...s.data.records.values()]);
  if (q.filter !== undefined) {
    const node = parseFilter(q.filter);
    const index = filterTarget(node, sets, expanded);
    if (index < 0) throw cannotDetermine(q.filter);
    const set = sets[index]!;
    const test = compileFilter(checkFilter(unqualified(node), filterTable(set, ctx.db)), { now: () => ctx.now });
    rows[index] = rows[index]!.filter((r) => test(filterRow(set, r, ctx.db)));
  }
  let total = 1;
  for (const r of rows) total *= r.length;
  if (total > Number.MAX_SAFE_INTEGER) throw tooLarge(total);
  if (q.top === undefined && total > MAX_CROSSJOIN_ROWS) throw tooLarge(total);

  const skip = (q.skip ?? 0) + (q.skiptoken?.skip ?? 0);
  const size = q.top !== undefined ? Math.min(q.top, MAX_PAGE) : Math.min(ctx.prefer.maxPageSize ?? MAX_PAGE, MAX_PAGE);
  const count = Math.max(0, Math.min(size, total - skip));
  ctx.written += count * sets.length;
  if (ctx.written > MAX_RECORDS_PER_RESPONSE) throw new ODataError(400, "-1", `Error: the response would hold more than ${MAX_RECORDS_PER_RESPONSE} records; narrow the $crossjoin with $top`);

  const ann = (name: string) => (ctx.annotations.prefixed ? `@odata.${name}` : `@${name}`);
  const db = ctx.urlDb;
  const body: Body = {};
  if (!ctx.annotations.none) body[ann("context")] = `${ctx.root}${formatODataPath({ kind: "serviceDocument", db })}/$metadata#Collection(Edm.ComplexType)`;
  if (q.count === true) body[ann("count")] = total;
  const value: Body[] = [];
  const combination: StoredRecord[] = new Array(sets.length);
  for (let n = 0; n < count; n++) {
    let index = skip + n;
    for (let k = sets.length - 1; k >= 0; k--) {
      const list = rows[k]!;
      combination[k] = list[index % list.length]!;
      index = Math.floor(index / list.length);
    }
    value.push(rowJson(sets, combination, expanded, ctx, ann));
  }
  body.value = value;
  if (q.top === undefined && skip + size < total) {
    const next = formatQueryOptions({ ...q, skiptoken: { skip: (q.skiptoken?.skip ?? 0) + size, t: 0 } });
    body[ann("nextLink")] = `${ctx.root}${formatODataPath({ kind: "crossjoin", db, sets: refs })}?${next}`;
  }
  return body;
}

const tooLarge = (total: number) =>
  new ODataError(400, "-1", `Error: the $crossjoin has ${total > Number.MAX_SAFE_INTEGER ? "more than 2^53" : total} rows; without $top the emulator serves at most ${MAX_CROSSJOIN_ROWS} (FileMaker Server times out), and never more than 2^53`);

function rowJson(sets: readonly EntitySet[], combination: readonly StoredRecord[], expanded: number, ctx: ReadContext, ann: (name: string) => string): Body {
  const out: Body = Object.create(null);
  if (!ctx.annotations.none) {
    sets.forEach((set, k) => {
      const url = ctx.root + formatODataPath({ kind: "entity", db: ctx.urlDb, set: { by: "name", name: set.name }, key: recordKey(set, combination[k]!) });
      out[`${set.name}${ann("navigationLink")}`] = url;
    });
  }
  sets.forEach((set, k) => {
    if (expanded >= 0 && k !== expanded) return;
    const record = combination[k]!;
    // `$expand=A($select=x,y)` (CL/request-cross-join) shows A's selected columns only, in `$select`'s order.
    const select = k === expanded ? ctx.query.expand?.[0]?.options.select : undefined;
    for (const c of columns(set, select, ctx.prefer.includeSpecialColumns)) {
      if (c.kind === "special") {
        out[c.name] = c.name === "ROWID" ? record.recordId : record.modId;
        continue;
      }
      const value = fieldJson(set, record, c.field, ctx.containers, ctx.db.model.name);
      out[ctx.prefer.entityIds ? fieldId(set, c.field) : c.field.name] = c.field.type === "number" ? numberJson(value, ctx.annotations.ieee754 === true) : value;
    }
  });
  return out;
}

/**
 * Which set a `$filter` reads (PKX): only the expanded one, named as `a/x`. A name of another set is the parse failure
 * FileMaker gives at its field (`…eq users/id` → at 'id'); an unqualified name cannot be placed in a table.
 */
function filterTarget(node: FilterNode, sets: readonly EntitySet[], expanded: number): number {
  forEachField(node, (n) => {
    const field = n.field.by === "name" ? n.field.name : n.field.id;
    if (n.navigation === undefined) throw cannotDetermine(field);
    if (expanded < 0 || n.navigation !== sets[expanded]!.name) throw parseFailure(field);
  });
  return expanded;
}

/** PKX: an unqualified name ("cannot determine table"); code and status are the choice (-1002, 400). */
const cannotDetermine = (text: string) => new ODataError(400, "-1002", `Error: cannot determine table for '${quoted(text)}' in a $crossjoin $filter; name the expanded set: Set/field`);

/** The filter with its `a/` qualifiers dropped, to check against a's own table. */
function unqualified(node: FilterNode): FilterNode {
  return mapFields(node, (n) => ({ kind: "field", field: n.field, at: n.at }));
}
