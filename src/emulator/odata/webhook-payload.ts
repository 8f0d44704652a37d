// What a webhook POSTs (docs/emulator.md, "Webhooks"): the changed records as a collection read with the webhook's
// `select` and `filter` (the read path's own `$select`/`$filter`, entity-read.ts), its `queryHeaders` applied; URLs
// relative with no leading `/`; `@odata.`-prefixed annotations; each record's keys in alphabetical (code unit) order.
// A DELETE carries only the ROWIDs (the records are gone: choice); a SCHEMA change one FileMaker_Tables row.

import { findByName } from "../hosted-file/name-map.js";
import type { ContainerStore, HostedDatabase } from "../hosted-file/store.js";
import { entitySets, filterRow, filterTable, findSet } from "./entity-sets.js";
import { compileODataFilter } from "./filter.js";
import { MAX_PAGE, readCollection, type Body } from "./entity-read.js";
import { parsePrefer } from "./query-options-prefer.js";
import { parseQueryOptions, type QueryOptions } from "./query-options.js";
import { encodeODataText, formatODataPath } from "./url-format.js";
import { acceptOf } from "./webhook-add.js";

/** The root payload URLs start from: relative, no leading `/` (DSC). */
export const PAYLOAD_ROOT = "fmi/odata/v4";

/** What a payload reads: the hosted file as it is when the delivery is made. */
export interface PayloadSource {
  readonly db: HostedDatabase;
  readonly containers: ContainerStore;
  /** The emulator's clock, for `now()` in a filter. */
  readonly now: number;
}

/** The parts of a registration a payload depends on. */
export interface PayloadShape {
  readonly tableName: string;
  readonly select: string;
  readonly filter: string;
  readonly queryHeaders: Readonly<Record<string, string>>;
}

function header(headers: Readonly<Record<string, string>>, name: string): string | undefined {
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
  return undefined;
}

/** `select` and `filter` as the read path's query options: the same parser, so the same errors (-1002, 8309). */
function webhookQuery(shape: PayloadShape): QueryOptions {
  const parts: string[] = [];
  if (shape.select !== "") parts.push(`$select=${encodeODataText(shape.select)}`);
  if (shape.filter !== "") parts.push(`$filter=${encodeODataText(shape.filter)}`);
  return parseQueryOptions(parts.join("&"));
}

function dbRoot(db: HostedDatabase): string {
  return PAYLOAD_ROOT + formatODataPath({ kind: "serviceDocument", db: db.model.name });
}

/**
 * The records among `rowIDs` (all of the table's, in creation order, when undefined) that the webhook's filter keeps,
 * at most a page (10,000), with its select, and their ROWIDs. Records that no longer exist are left out. Throws
 * ODataError for a bad select or filter, or a table that no longer exists.
 */
export function recordsPayload(src: PayloadSource, shape: PayloadShape, rowIDs: readonly number[] | undefined): { body: Body; rowIDs: number[] } {
  const set = findSet(src.db, { by: "name", name: shape.tableName });
  const { filter, ...query } = webhookQuery(shape);
  const accept = acceptOf(header(shape.queryHeaders, "accept") ?? "application/json");
  let records = rowIDs === undefined ? [...set.data.records.values()] : [...new Set(rowIDs)].flatMap((id) => set.data.records.get(id) ?? []);
  if (filter !== undefined) {
    const test = compileODataFilter(filter, filterTable(set, src.db), { now: () => src.now });
    records = records.filter((r) => test(filterRow(set, r, src.db)));
  }
  records = records.slice(0, MAX_PAGE);
  const body = readCollection(
    set,
    {
      db: src.db,
      // A payload answers no request: it names the hosted file by its own name (docs/emulator.md, "Names").
      urlDb: src.db.model.name,
      containers: src.containers,
      root: PAYLOAD_ROOT,
      annotations: { prefixed: true, none: accept.none, ieee754: accept.ieee754 },
      prefer: parsePrefer(header(shape.queryHeaders, "prefer")),
      query: { ...query, top: MAX_PAGE },
      now: src.now,
      written: 0,
    },
    { records, self: "" },
  );
  return { body: { ...body, value: (body.value as Body[]).map(alphabetical) }, rowIDs: records.map((r) => r.recordId) };
}

/** A DELETE's payload: the ROWIDs deleted (choice; the contract has no capture of one). */
export function deletePayload(db: HostedDatabase, shape: PayloadShape, rowIDs: readonly number[]): Body {
  const none = acceptOf(header(shape.queryHeaders, "accept") ?? "application/json").none;
  return {
    ...(none ? {} : { "@odata.context": `${dbRoot(db)}/$metadata#${shape.tableName}("ROWID")` }),
    value: rowIDs.map((ROWID) => ({ ROWID })),
  };
}

/** What the registry knows of a table for its SCHEMA payloads (kept while the table exists). */
export interface TableFacts {
  readonly tableId: number;
  readonly baseTableName: string;
  /** Its place among the file's tables, 1-based: the FileMaker_Tables row the payload's links name. */
  readonly row: number;
}

/** The table's facts now, or undefined when the file has no such table (any more). */
export function tableFacts(db: HostedDatabase, tableName: string): TableFacts | undefined {
  const sets = entitySets(db);
  const set = findByName(sets, tableName, (s) => s.name);
  const i = set === undefined ? -1 : sets.indexOf(set);
  if (i < 0) return undefined;
  return { tableId: sets[i]!.id, baseTableName: sets[i]!.model.name, row: i + 1 };
}

/** A SCHEMA change's payload (DSC's shape): the table's FileMaker_Tables row. */
export function schemaPayload(db: HostedDatabase, tableName: string, facts: TableFacts, modCount: number): Body {
  const root = dbRoot(db);
  const link = `${root}/FileMaker_Tables(${facts.row})`;
  return {
    "@odata.context": `${root}/$metadata#FileMaker_Tables("TableName","TableId","BaseTableName","ModCount")`,
    value: [{ "@odata.editLink": link, "@odata.id": link, BaseTableName: facts.baseTableName, ModCount: modCount, TableId: facts.tableId, TableName: tableName }],
  };
}

/** The same record with its keys in code unit order (DSC: observed alphabetical). */
function alphabetical(record: Body): Body {
  const out: Body = Object.create(null);
  for (const key of Object.keys(record).sort()) out[key] = record[key];
  return out;
}
