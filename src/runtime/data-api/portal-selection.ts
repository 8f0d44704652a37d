/**
 * What a read may ask beyond its records (docs/portals.md): which portals come back and
 * which rows of each (`portals`), another layout of the same table to shape the answer (`response`), and, for
 * edits, related rows to delete (`deleteRelated`, turned into wire keys by portal-writes.ts). The types here are
 * merged into the calls' option interfaces; the functions turn the options into wire keys and records, and run only
 * when a call uses them.
 */
import { checkDatabase, type AnyDefinition, type DatabaseOfLayout, type FieldsOf, type FmRecord, type LayoutSpec, type PortalSpec, type PortalsOf, type RecordOf, type TableOfLayout } from "./definition.js";
import { getOwn, setOwn } from "../core/own.js";
import { positive } from "./paging.js";
import { recordDecoder, type DecoderOptions } from "./record-decoder.js";

/** One chosen portal: `true` (the server's default rows, the first 50) or a range of its rows (one-based). */
export type PortalRange = true | { offset?: number; limit?: number };

/** What `portals` takes: the layout's portal names, each `true` or a range; a portal left out does not come back. */
export type PortalChoice<R extends AnyDefinition> = { readonly [K in keyof PortalsOf<R>]?: PortalRange };

/** A returned portal's counts, from the record's `portalDataInfo`. */
export interface PortalInfo {
  /** The file the portal's table occurrence is in. */
  database: string;
  /** The portal's table occurrence. */
  table: string;
  /** The portal's related rows, in all. */
  foundCount: number;
  /** The rows returned (within the range asked for). */
  returnedCount: number;
  /** The portal's object name, when it has one (then `portalData` is keyed by it). */
  portalObjectName?: string;
}

/**
 * The options of a read that shape its answer. `R`: the layout records come back as (the request layout, or
 * `response`); `P`: the portals chosen (undefined: every portal, as without the option).
 */
export interface ViewOptions<R extends AnyDefinition = AnyDefinition, P = undefined> {
  /**
   * The portals to return and their rows: `{ Invoices: { offset: 1, limit: 10 }, Notes: true }`. Without it, every
   * portal comes back with its first 50 rows. With it, records carry only those portals, and `portalInfo`.
   */
  portals?: P;
  /**
   * Another layout of the same table (and database) to shape the answer: records are found, sorted and paged
   * through the request layout and come back with the response layout's fields and portals (`portals` names the
   * response layout's portals).
   */
  response?: R;
}

/** The names `P` chooses that are not portals of `R`, each `never`: a chosen name the layout lacks fails to compile. */
export type OnlyPortals<R extends AnyDefinition, P> = { [K in Exclude<keyof P, keyof PortalsOf<R>>]: never };

/**
 * What a read's options must also satisfy, beyond `ViewOptions`: no portal the layout lacks (a chosen name
 * outside `PortalChoice` is `never`), and a response layout of the request layout's database and base table where
 * both types say which they are (generated definitions do). A mismatch makes `response` a sentence, which the
 * compiler shows: `... is not assignable to type '"a layout of table \"Invoices\", not of this layout's table
 * \"Contacts\""'`.
 */
export type ViewCheck<D extends AnyDefinition, R extends AnyDefinition, P> = { portals?: OnlyPortals<R, P> } & ([ResponseMismatch<D, R>] extends [never] ? unknown : { response: ResponseMismatch<D, R> });

/**
 * Why `R` cannot shape a read of layout `D`, in a sentence naming both: a layout of another database, else of another
 * table. Never when it can: the same database and table, or either type does not say which (a hand-written definition).
 * `R` any is never too, before `D` is looked at: TypeScript checks overloads against their implementation with their
 * own type parameters erased to any, the layout's `D` still open.
 */
export type ResponseMismatch<D extends AnyDefinition, R extends AnyDefinition> = 0 extends 1 & R
  ? never
  : Differ<DatabaseOfLayout<D>, DatabaseOfLayout<R>, "database"> extends infer Database
    ? [Database] extends [never]
      ? Differ<TableOfLayout<D>, TableOfLayout<R>, "table">
      : Database
    : never;

/** Never when `A` and `B` are the same or either is unknown (never); else the sentence saying which each is. */
type Differ<A, B, What extends string> = [A] extends [never] ? never : [B] extends [never] ? never : [A] extends [B] ? never : `a layout of ${What} "${B & string}", not of this layout's ${What} "${A & string}"`;

/** The portals of `R` that `P` chooses, each with its rows; every portal of `R` when `P` is undefined. */
export type ChosenPortals<R extends AnyDefinition, P> = [P] extends [undefined] ? PortalsOf<R> : { [K in keyof NonNullable<P> & keyof PortalsOf<R>]: PortalsOf<R>[K] };

/**
 * A record a read returns: shaped by `R` (the request layout, or `response`), with the portals `P` chooses and,
 * when `portals` was given, their `portalInfo`. Without the options it is the layout's `FmRecord`.
 */
export type ViewRecord<R extends AnyDefinition, P> = [P] extends [undefined]
  ? RecordOf<R>
  : FmRecord<FieldsOf<R>, ChosenPortals<R, P>> & { portalInfo: { [K in keyof NonNullable<P> & keyof PortalsOf<R>]: PortalInfo } };

/** A related row for an edit to delete: a portal of the layout and the row's recordId. */
export interface RelatedRow<D extends AnyDefinition> {
  /** A portal of the layout that shows the row. */
  portal: keyof PortalsOf<D> & string;
  /** The related row's own recordId (as its portal row's `recordId` reads). */
  recordId: string | number;
}

/** What an edit takes beyond fields and portal rows. */
export interface PortalEdits<D extends AnyDefinition> {
  /** Related rows to delete, each through a portal of the layout that shows it. */
  deleteRelated?: readonly RelatedRow<D>[];
}

/** A portal row an edit created, as the server reports it (`newPortalRecordInfo`). */
export interface NewPortalRow {
  /** The row's table occurrence. */
  tableName: string;
  /** The new row's recordId. */
  recordId: string;
  /** Its modId. */
  modId: string;
}

/** How a read that uses `portals` or `response` asks and decodes. */
export interface View {
  /** Its wire keys: the query string's of a GET (`portal` as JSON, `_limit.P`), or the keys of a find body. */
  keys: Record<string, unknown>;
  /** Whether `portals` was given: records then carry `portalInfo`, and `portalDataInfo` is checked. */
  portals: boolean;
  decode: (raw: unknown) => unknown;
}

/** The portal `name` of `layout`, or a TypeError naming the call. */
export function portalOf(call: string, layout: LayoutSpec, name: unknown): PortalSpec {
  const portal = getOwn(layout.portals ?? {}, String(name)) as PortalSpec | undefined;
  if (!portal) throw new TypeError(`${call}: layout "${layout.layout}" has no portal "${name}"`);
  return portal;
}

/**
 * The view of a read's options, checked: portals of the layout the answer is shaped by, ranges of whole numbers
 * >= 1, a response layout of the client's database. `find` spells the keys as a find body does.
 */
export function readView(call: string, request: LayoutSpec, settings: DecoderOptions & { database: string }, { portals, response }: ViewOptions<AnyDefinition, unknown>, find?: boolean): View {
  const layout: LayoutSpec = response ?? request;
  const keys: Record<string, unknown> = {};
  if (response !== undefined) {
    if (typeof response?.layout !== "string") throw new TypeError(`${call}: response must be a layout definition`);
    checkDatabase(`${call}: response layout`, response, settings.database);
    keys["layout.response"] = response.layout;
  }
  const decode = recordDecoder(layout, settings);
  if (portals === undefined) return { keys, portals: false, decode };
  const names = portalKeys(call, layout, portals, keys, find);
  return {
    keys,
    portals: true,
    // The decoder fills in every portal of the layout; the record keeps the chosen ones, with their counts.
    decode: (raw) => {
      const record = decode(raw);
      const portalData = {};
      const portalInfo = {};
      for (const name of names) setOwn(portalData, name, record.portalData[name] ?? []);
      for (const info of (raw as { portalDataInfo?: PortalInfo[] }).portalDataInfo ?? []) setOwn(portalInfo, String(info.portalObjectName ?? info.table), info);
      return { ...record, portalData, portalInfo };
    },
  };
}

/**
 * `portals`, checked against `layout`, as wire keys added to `keys` (`portal`, and `_offset.P` / `_limit.P`, or
 * `offset.P` / `limit.P` for a find); returns the names chosen.
 */
export function portalKeys(call: string, layout: LayoutSpec, portals: unknown, keys: Record<string, unknown> = {}, find?: boolean): string[] {
  if (typeof portals !== "object" || !portals) throw new TypeError(`${call}: portals must be an object`);
  const names = Object.keys(portals);
  keys.portal = find ? names : JSON.stringify(names);
  for (const name of names) {
    portalOf(call, layout, name);
    const range = (portals as Record<string, Record<string, number> | true>)[name]!;
    if (range === true) continue;
    if (typeof range !== "object" || !range) throw new TypeError(`${call}: portals["${name}"] must be true or { offset?, limit? }`);
    for (const key of ["offset", "limit"]) {
      if (range[key] !== undefined) keys[`${find ? "" : "_"}${key}.${name}`] = String(positive(range[key], `${call}: portals["${name}"].${key}`));
    }
  }
  return names;
}
