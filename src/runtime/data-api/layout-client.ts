import { broken, idIn, newRowsIn, pageIn } from "./answer-shape.js";
import { describe, encodeFields, type WireValue } from "./codecs.js";
import { ISO_ENCODERS } from "./iso-dates.js";
import type { AnyDatabase, ScriptNameOf } from "./database.js";
import { checkDatabase, type AnyDefinition, type ContainersOf, type InputOf, type PortalInputOf, type PortalsOf, type RecordOf, type SortNameOf, type SortOrderOf } from "./definition.js";
import { FileMakerError } from "./errors.js";
import { encodeFindRequest } from "./find-criteria.js";
import type { FindRequest, QueryOf } from "./find-request.js";
import type { UploadSource } from "./multipart.js";
import type { UploadOptions } from "./upload.js";
import type { ContainerFile } from "../core/container-file.js";
import type { ContainerDownloadOptions } from "./download.js";
import { portalOf, readView, type NewPortalRow, type PortalChoice, type PortalEdits, type OnlyPortals, type ResponseMismatch, type View, type ViewOptions, type ViewRecord } from "./portal-selection.js";
import { entryKeys, scriptKeys, scriptsIn, type EntryOptions, type ScriptOptions, type ScriptsOf } from "./script-options.js";
import type { PortalWireKeys, PortalWrites } from "./portal-writes.js";
import { FindQuery, type QueryTarget } from "./query-builder.js";
import { recordDecoder } from "./record-decoder.js";
import type { Session } from "./session.js";
import { segment, type Envelope, type WireRequest } from "./transport.js";
import { pageStream } from "../core/page-stream.js";
import { stringifyJson } from "../core/json-numbers.js";
import { listQuery, positive, type CallOptions, type DataInfo, type Page, type SortOrder, type SortSpec } from "./paging.js";

export type { CallOptions, DataInfo, Page, SortOrder, SortSpec } from "./paging.js";
export type { UploadOptions } from "./upload.js";
export type { ContainerDownloadOptions, DownloadOptions } from "./download.js";

/**
 * What a layout client's `list` takes: the page (`offset`, `limit`), its order (`Name`: the fields it may sort by,
 * `Order`: the sort orders), and the portals, response layout and scripts of the answer.
 */
export interface ListOptions<Name extends string, R extends AnyDefinition = never, P = undefined, Order extends string = SortOrder> extends CallOptions, ViewOptions<R, P> {
  /** One-based index of the first record (default 1). */
  offset?: number;
  /** Records per page (default 100). */
  limit?: number;
  /** Sort keys, first the most significant (default: the server's order, creation order in practice). */
  sort?: readonly SortSpec<Name, Order>[];
}

/**
 * What a layout client's `find` takes: the find requests, and what `list` takes. No match is an empty page, not an
 * error.
 */
export interface FindOptions<Fields, Name extends string, Kinds = Record<never, never>, Order extends string = SortOrder> extends ListOptions<Name, never, undefined, Order> {
  /** The requests: a plain value means "equals exactly"; `q` helpers say anything else. */
  query: readonly FindRequest<Fields, Kinds>[];
}

/** What `listAll` and `findAll` take: the order, the page size they read by, and where to start and stop. */
export interface StreamOptions<Name extends string, R extends AnyDefinition = never, P = undefined, Order extends string = SortOrder> extends CallOptions, ViewOptions<R, P> {
  /** Sort keys, first the most significant (default: the server's order, creation order in practice). */
  sort?: readonly SortSpec<Name, Order>[];
  /** Records fetched per request (default 500); memory stays bounded by three pages (one consumed, two read ahead). */
  pageSize?: number;
  /** One-based index of the first record (default 1). */
  offset?: number;
  /** At most this many records in all (default: every one). */
  limit?: number;
}

declare const databaseOf: unique symbol;

export interface ClientSettings {
  database: string;
  validate: boolean;
  /** 2 when dates and timestamps travel in ISO form (`dateFormat: "iso"`): sent on get, list, find, create and edit. */
  dateformats?: 2 | undefined;
}

/** Thrown by findOne when a find does not match exactly one record. */
export class NotExactlyOneError extends Error {
  /** The layout the find was made on. */
  declare readonly layout: string;
  /** How many records the find matched: 0, or more than 1. */
  declare readonly foundCount: number;

  constructor(layout: string, foundCount: number) {
    super(`findOne on layout "${layout}" expected exactly one record, found ${foundCount}`);
    this.layout = layout;
    this.foundCount = foundCount;
    this.name = "NotExactlyOneError";
  }
}

/**
 * What create and edit take for `T` (a layout's input or portal input), decided here rather than in the layout's
 * own types, so that those stay plain and cost the compiler nothing until a call uses them:
 * - with nothing to write (no writable field, no portal), an object that takes no key: TypeScript checks no key of
 *   an object literal against an empty type;
 * - a field or portal named like a member of `Object` (`toString`, `constructor`) is checked by TypeScript against
 *   the member an object literal inherits when it leaves that name out; admitting that member's type keeps such
 *   layouts usable.
 */
// `keyof T extends never`, not `[keyof T] extends [never]`: `keyof T` is no type parameter, so the test does not
// distribute, and it needs no tuple types (about 400 instantiations less on the 200-layout type-check benchmark).
type Admit<T> = keyof T extends never ? Record<string, never> : keyof T & keyof Object extends never ? T : { [K in keyof T]: K extends keyof Object ? T[K] | Object[K] : T[K] };

/** `FindOptions` of a layout, its requests typed by `QueryOf` (the type generated modules export as `<Name>Query`). */
interface FindOptionsOf<D extends AnyDefinition, R extends AnyDefinition = D, P = undefined> extends ListOptions<SortNameOf<D>, R, P, SortOrderOf<D>> {
  query: readonly QueryOf<D>[];
}

/**
 * The options of a read of `D` shaped by `R` with portals `P`: the call's, `portals` and `response`, checked. A response
 * layout that cannot shape the read makes them `OtherResponseLayout`, not `R & sentence`: the compiler's message is
 * then the sentence, without the layout's type and a hint about optional properties.
 */
type Read<D extends AnyDefinition, R extends AnyDefinition, P, O> = [ResponseMismatch<D, R>] extends [never] ? ViewRead<R, P, O> : OtherResponseLayout<D, R>;
/** A read's options when its response layout can shape it: the call's, `portals` and `response`. An alias, so that messages print its name. */
type ViewRead<R extends AnyDefinition, P, O> = O & ViewOptions<R, P> & { portals?: OnlyPortals<R, P> };
/**
 * What a read takes when its response layout `R` is of another database or table than `D`: `response` is the sentence
 * naming both (the other options are checked once it is fixed). An interface, so that messages print its name.
 */
interface OtherResponseLayout<D extends AnyDefinition, R extends AnyDefinition> {
  response: ResponseMismatch<D, R>;
  [option: string]: unknown;
}
/** The script options of a call, the names the client's database has. */
type Scripts<Db extends AnyDatabase> = ScriptOptions<ScriptNameOf<Db>>;
/** A call's script options as wire keys. */
type Keys = Record<string, string>;
/** What the plain signatures take in place of script options: none (so options spread from elsewhere pick the generic one). */
// Interfaces, not intersections: an intersection with a layout's options is a new type per layout whose members the
// compiler merges at each call (about 20 instantiations a call on the 200-layout type-check benchmark).
interface NoView {
  portals?: never;
  response?: never;
}
interface NoScripts {
  script?: never;
  prerequest?: never;
  presort?: never;
}
interface PlainList<D extends AnyDefinition> extends ListOptions<SortNameOf<D>, never, undefined, SortOrderOf<D>>, NoScripts {}
// A plain find's options name no response layout (`ListOptions`' default), so that its portals and response are not
// typed against the layout on every find (about 800 instantiations on the 200-layout type-check benchmark).
interface PlainFind<D extends AnyDefinition> extends ListOptions<SortNameOf<D>, never, undefined, SortOrderOf<D>>, NoScripts {
  query: readonly QueryOf<D>[];
}
interface PlainRead extends CallOptions, NoView, NoScripts {}
interface PlainWrite extends CallOptions, EntryOptions, NoScripts {}
interface PlainCall extends CallOptions, NoScripts {}
/** What the implementations of the overloaded calls take: every option, loosely typed (the overloads type them). */
type Loose = ListOptions<string, AnyDefinition, unknown, string> & ScriptOptions<string> & EntryOptions;
/** A portal's row type, from its rows. */
type RowOf<Rows> = Rows extends readonly (infer Row)[] ? Row : never;

/** The typed client of one layout; every call goes through the client's single shared session. */
export class LayoutClient<D extends AnyDefinition, Db extends AnyDatabase = string> {
  /** Phantom: the client's database, whose script names the calls' script options take. */
  declare readonly [databaseOf]?: Db;
  /** The layout's definition, as given to `fm.layout()`. */
  declare readonly definition: D;
  // Private names (#): a bundler's minifier shortens them, as it cannot a TypeScript `private` member's name.
  readonly #session: Session;
  readonly #settings: ClientSettings;
  readonly #base: string;
  readonly #decodeRecord: (raw: unknown) => RecordOf<D>;
  /** How dates and timestamps are written: in ISO form for `dateformats` 2, else (undefined) the US default. */
  readonly #encoders: typeof ISO_ENCODERS | undefined;
  /** `dateformats=2` on the query of get and list when dates travel in ISO form. */
  readonly #dateKeys: { dateformats: string } | undefined;

  /** @internal Layout clients are made by `fm.layout(Definition)`. */
  constructor(definition: D, session: Session, settings: ClientSettings) {
    this.definition = definition;
    this.#session = session;
    this.#settings = settings;
    checkDatabase("layout", definition, settings.database);
    this.#base = `/databases/${segment(settings.database)}/layouts/${segment(definition.layout, "layout: layout")}`;
    this.#decodeRecord = recordDecoder(definition, settings) as (raw: unknown) => RecordOf<D>;
    this.#encoders = settings.dateformats && ISO_ENCODERS;
    this.#dateKeys = settings.dateformats && { dateformats: String(settings.dateformats) };
  }

  // Each read and write has a plain signature first: a call without portals, response or scripts resolves against it
  // and costs the compiler what it did before those options existed (the generic one costs ~5x per call).
  /**
   * One page of the layout's records (`offset`, `limit`, `sort`), with the portals, response layout and scripts asked
   * for. An empty table is an empty page, not an error.
   */
  list(options?: PlainList<D>): Promise<Page<RecordOf<D>>>;
  list<P extends PortalChoice<R> | undefined = undefined, R extends AnyDefinition = D, const S extends Scripts<Db> = {}>(
    options: Read<D, R, P, ListOptions<SortNameOf<D>, R, P, SortOrderOf<D>> & S>,
  ): Promise<Page<ViewRecord<R, P>> & ScriptsOf<S>>;
  async list(options: Loose = {}): Promise<unknown> {
    const view = this.#view("list", options);
    const keys = scriptKeys("list", options);
    return this.#page(await this.#listResponse(options, view, keys), view, keys) as never;
  }

  /** A list's response, not yet decoded; undefined when the list returns nothing. */
  #listResponse(options: ListOptions<string, AnyDefinition, unknown, string>, view: View | undefined, keys?: Keys): Promise<Record<string, unknown> | undefined> {
    // Servers answer 101 when a list returns nothing (an empty table, an offset past the end).
    return this.#pageResponse({ method: "GET", path: `${this.#base}/records${listQuery(options, { ...view?.keys, ...keys, ...this.#dateKeys })}` }, options, view, keys, "101");
  }

  /** The response of a list or find (a read: sent again after a network fault unless it runs a script); undefined when the answer is code `none`. */
  async #pageResponse(req: WireRequest, options: CallOptions, view: View | undefined, keys: Keys | undefined, none: string): Promise<Record<string, unknown> | undefined> {
    try {
      const envelope = await this.#send(req, options, !keys);
      return this.#scripted(pageIn(envelope, req, view?.portals), envelope, req, keys);
    } catch (error) {
      if (error instanceof FileMakerError && error.code === none) return keys && { scripts: error.scripts ?? {} };
      throw error;
    }
  }

  /**
   * One record by its `recordId`; a missing one is a `RecordMissingError`. Takes the same portals, response layout
   * and scripts options as list.
   */
  get(recordId: string | number, options?: PlainRead): Promise<RecordOf<D>>;
  get<P extends PortalChoice<R> | undefined = undefined, R extends AnyDefinition = D, const S extends Scripts<Db> = {}>(
    recordId: string | number,
    options: Read<D, R, P, CallOptions & S>,
  ): Promise<ViewRecord<R, P> & ScriptsOf<S>>;
  async get(recordId: string | number, options: Loose = {}): Promise<never> {
    const view = this.#view("get", options);
    const keys = scriptKeys("get", options);
    const req = { method: "GET", path: this.#recordPath("get", recordId) + listQuery({}, { ...view?.keys, ...keys, ...this.#dateKeys }) } as const;
    const envelope = await this.#send(req, options, !keys);
    const page = this.#page(pageIn(envelope, req, view?.portals), view);
    if (page.data.length !== 1) throw broken(envelope, req, `expected one record, got ${page.data.length}`);
    return this.#scripted(page.data[0]!, envelope, req, keys);
  }

  /**
   * Creates a record from `fieldData` (and portal rows in `portalData`); resolves to its `recordId` and `modId`.
   * Fields left out get FileMaker's auto-enter values.
   */
  create(record: { fieldData: Admit<InputOf<D>>; portalData?: Admit<PortalInputOf<D>> }, options?: PlainWrite): Promise<{ recordId: string; modId: string }>;
  create<const S extends Scripts<Db> = {}>(
    record: { fieldData: Admit<InputOf<D>>; portalData?: Admit<PortalInputOf<D>> },
    options: CallOptions & EntryOptions & S,
  ): Promise<{ recordId: string; modId: string } & ScriptsOf<S>>;
  async create(record: { fieldData: object; portalData?: object }, options: Loose = {}): Promise<never> {
    const keys = scriptKeys("create", options);
    const fieldData = this.#encode(record.fieldData);
    // stringifyJson: an exact field's decimal text is sent as a bare number token, digit for digit.
    const body = stringifyJson({ fieldData, ...(await this.#portalWrites({ portalData: record.portalData })), ...keys, ...entryKeys("create", options), dateformats: this.#settings.dateformats });
    const req = { method: "POST", path: `${this.#base}/records`, headers: JSON_HEADERS, body } as const;
    return this.#created(req, options, keys);
  }

  /** A copy of a record (new recordId, serials and creation stamps; the other fields as the original's). */
  duplicate(recordId: string | number, options?: PlainCall): Promise<{ recordId: string; modId: string }>;
  duplicate<const S extends Scripts<Db> = {}>(recordId: string | number, options: CallOptions & S): Promise<{ recordId: string; modId: string } & ScriptsOf<S>>;
  async duplicate(recordId: string | number, options: Loose = {}): Promise<never> {
    const keys = scriptKeys("duplicate", options);
    return this.#created({ method: "POST", path: this.#recordPath("duplicate", recordId), headers: JSON_HEADERS, body: JSON.stringify(keys ?? {}) }, options, keys);
  }

  /** Sends a create or duplicate: its `{ recordId, modId }`, with the scripts' results when it ran any. */
  async #created(req: WireRequest, options: CallOptions, keys: Keys | undefined): Promise<never> {
    const envelope = await this.#send(req, options);
    return this.#scripted({ recordId: idIn(envelope, req, "recordId"), modId: idIn(envelope, req, "modId") }, envelope, req, keys);
  }

  /**
   * Changes fields and portal rows (a row with `recordId` edits that row, one without adds a row) and deletes related
   * rows (`deleteRelated`). The answer lists the portal rows the edit created, when the server reports them. With the
   * `modId` a read gave, the edit fails with a `ModIdMismatchError` if the record changed since.
   *
   * @example
   * ```ts
   * const record = await contacts.get(id);
   * await contacts.edit(record.recordId, {
   *   fieldData: { Status: "Inactive" },
   *   portalData: { Invoices: [{ "Invoices::Amount": 120 }] },
   *   modId: record.modId,
   * });
   * ```
   */
  edit(
    recordId: string | number,
    change: { fieldData?: Admit<InputOf<D>>; portalData?: Admit<PortalInputOf<D>>; modId?: string } & PortalEdits<D>,
    options?: PlainWrite,
  ): Promise<{ modId: string; newPortalRecordInfo?: NewPortalRow[] }>;
  edit<const S extends Scripts<Db> = {}>(
    recordId: string | number,
    change: { fieldData?: Admit<InputOf<D>>; portalData?: Admit<PortalInputOf<D>>; modId?: string } & PortalEdits<D>,
    options: CallOptions & EntryOptions & S,
  ): Promise<{ modId: string; newPortalRecordInfo?: NewPortalRow[] } & ScriptsOf<S>>;
  async edit(recordId: string | number, change: PortalWrites & { fieldData?: object; modId?: string }, options: Loose = {}): Promise<never> {
    const keys = scriptKeys("edit", options);
    const fieldData = this.#encode(change.fieldData ?? {});
    const { portalData, deleteRelated } = await this.#portalWrites(change);
    const body = stringifyJson({
      // deleteRelated joins fieldData only when the call has it (fieldData is not copied otherwise). An undefined member
      // is left out of the JSON.
      fieldData: deleteRelated ? { ...fieldData, deleteRelated } : fieldData,
      portalData,
      modId: change.modId,
      ...keys,
      ...entryKeys("edit", options),
      dateformats: this.#settings.dateformats,
    });
    const req = { method: "PATCH", path: this.#recordPath("edit", recordId), headers: JSON_HEADERS, body } as const;
    const envelope = await this.#send(req, options);
    const modId = idIn(envelope, req, "modId");
    const created = newRowsIn<NewPortalRow>(envelope, req);
    return this.#scripted(created ? { modId, newPortalRecordInfo: created } : { modId }, envelope, req, keys);
  }

  /** Deletes a record; with script options, resolves to their `{ scripts }`. */
  delete(recordId: string | number, options?: PlainCall): Promise<void>;
  delete<const S extends Scripts<Db> = {}>(recordId: string | number, options: CallOptions & S): Promise<ScriptsOf<S, void>>;
  async delete(recordId: string | number, options: Loose = {}): Promise<never> {
    const keys = scriptKeys("delete", options);
    const req = { method: "DELETE", path: this.#recordPath("delete", recordId) + listQuery({}, keys) } as const;
    const envelope = await this.#send(req, options);
    return (keys && this.#scripted({}, envelope, req, keys)) as never;
  }

  /**
   * A find; no match (code 401) is an empty page, never an error. The requests are ORed, the fields of one request
   * ANDed; a plain value means "equals exactly", a `q` helper anything else; `omit: true` removes a request's matches.
   *
   * @example
   * ```ts
   * const { data, dataInfo } = await contacts.find({
   *   query: [{ Status: "Active", Birthday: q.gte("1990-01-01") }, { Email: q.endsWith("@example.com"), omit: true }],
   *   sort: [{ fieldName: "Last Name" }],
   *   portals: { Invoices: { limit: 5 } },
   *   limit: 20,
   * });
   * ```
   */
  find(options: PlainFind<D>): Promise<Page<RecordOf<D>>>;
  find<P extends PortalChoice<R> | undefined = undefined, R extends AnyDefinition = D, const S extends Scripts<Db> = {}>(
    options: Read<D, R, P, FindOptionsOf<D, R, P> & S>,
  ): Promise<Page<ViewRecord<R, P>> & ScriptsOf<S>>;
  async find(options: Loose & { query: readonly object[] }): Promise<never> {
    const view = this.#view("find", options, true);
    const keys = scriptKeys("find", options);
    return this.#page(await this.#findResponse(options, view, keys), view, keys) as never;
  }

  /** A find's response, not yet decoded; undefined when nothing matches. */
  #findResponse(options: ListOptions<string, AnyDefinition, unknown, string> & { query: readonly object[] }, view: View | undefined, keys?: Keys): Promise<Record<string, unknown> | undefined> {
    // Undefined members are left out of the JSON.
    const body = stringifyJson({
      ...view?.keys,
      ...keys,
      query: options.query.map((request) => encodeFindRequest(this.definition, request as Record<string, unknown>, this.#encoders)),
      sort: options.sort?.length ? options.sort : undefined,
      offset: options.offset === undefined ? undefined : String(positive(options.offset, "offset")),
      limit: options.limit === undefined ? undefined : String(positive(options.limit, "limit")),
      dateformats: this.#settings.dateformats,
    });
    // A find changes nothing, so it may be sent again after a network fault; 401 is no match.
    return this.#pageResponse({ method: "POST", path: `${this.#base}/_find`, headers: JSON_HEADERS, body }, options, view, keys, "401");
  }

  /**
   * A find query to build step by step: `query().where({ Status: "Active" }).or({ Email: q.endsWith("@example.com") })
   * .sort("Birthday", "descend").limit(10).run()`, or `for await (const r of query)` over every page.
   */
  query(): FindQuery<D> {
    return new FindQuery(this as QueryTarget<D>);
  }

  /** The single record a find matches; NotExactlyOneError when it matches none or several. */
  findOne(options: Omit<PlainFind<D>, "limit" | "offset">): Promise<RecordOf<D>>;
  findOne<P extends PortalChoice<R> | undefined = undefined, R extends AnyDefinition = D>(options: Read<D, R, P, Omit<FindOptionsOf<D, R, P>, "limit" | "offset">>): Promise<ViewRecord<R, P>>;
  async findOne(options: Loose & { query: readonly object[] }): Promise<never> {
    const page = await this.find({ ...options, limit: 2 } as never);
    if (page.data.length !== 1) throw new NotExactlyOneError(this.definition.layout, page.dataInfo.foundCount);
    return page.data[0]! as never;
  }

  /** The first record a find matches, or undefined. */
  findFirst(options: Omit<PlainFind<D>, "limit">): Promise<RecordOf<D> | undefined>;
  findFirst<P extends PortalChoice<R> | undefined = undefined, R extends AnyDefinition = D>(options: Read<D, R, P, Omit<FindOptionsOf<D, R, P>, "limit">>): Promise<ViewRecord<R, P> | undefined>;
  async findFirst(options: Loose & { query: readonly object[] }): Promise<never> {
    return (await this.find({ ...options, limit: 1 } as never)).data[0] as never;
  }

  /** Every record (from `offset`, up to `limit`), page by page; at most three pages in memory. */
  listAll(options?: StreamOptions<SortNameOf<D>, never, undefined, SortOrderOf<D>>): AsyncIterable<RecordOf<D>>;
  listAll<P extends PortalChoice<R> | undefined = undefined, R extends AnyDefinition = D>(options: Read<D, R, P, StreamOptions<SortNameOf<D>, R, P, SortOrderOf<D>>>): AsyncIterable<ViewRecord<R, P>>;
  listAll(options: StreamOptions<string, AnyDefinition, unknown, string> = {}): AsyncIterable<never> {
    const view = this.#view("listAll", options);
    return this.#stream("listAll", (offset, limit) => this.#listResponse({ ...options, offset, limit }, view), options, view?.decode);
  }

  /** Every record a find matches (from `offset`, up to `limit`), page by page. */
  findAll(options: Omit<PlainFind<D>, "offset" | "limit"> & StreamOptions<SortNameOf<D>, never, undefined, SortOrderOf<D>>): AsyncIterable<RecordOf<D>>;
  findAll<P extends PortalChoice<R> | undefined = undefined, R extends AnyDefinition = D>(
    options: Read<D, R, P, Omit<FindOptionsOf<D, R, P>, "offset" | "limit"> & StreamOptions<SortNameOf<D>, R, P, SortOrderOf<D>>>,
  ): AsyncIterable<ViewRecord<R, P>>;
  findAll(options: StreamOptions<string, AnyDefinition, unknown, string> & { query: readonly object[] }): AsyncIterable<never> {
    const view = this.#view("findAll", options, true);
    return this.#stream("findAll", (offset, limit) => this.#findResponse({ ...options, offset, limit }, view), options, view?.decode);
  }

  /**
   * Every row of one record's portal, page by page (`pageSize` rows a request, default 500): the record is read with
   * that portal only, one page of rows in memory at a time, up to the portal's found count.
   */
  async *portalRows<P extends keyof PortalsOf<D> & string>(recordId: string | number, portal: P, options: CallOptions & { pageSize?: number } = {}): AsyncGenerator<RowOf<PortalsOf<D>[P]>> {
    const pageSize = positive(options.pageSize ?? 500, "portalRows: pageSize");
    // Checks the portal's name here, so that the error names this call.
    portalOf("portalRows", this.definition, portal);
    const plan = { what: `portalRows on layout "${this.definition.layout}"`, skip: 0, pageSize, limit: Infinity, ahead: 0 };
    yield* pageStream(
      plan,
      async (skip, limit) => {
        const record = (await this.get(recordId, { signal: options.signal, portals: { [portal]: { offset: skip + 1, limit } } } as never)) as unknown as { portalData: Record<string, []>; portalInfo: Record<string, { foundCount: number } | undefined> };
        const rows: { recordId?: unknown }[] = record.portalData[portal]!;
        return { rows, identity: idsOf(rows), found: record.portalInfo[portal]?.foundCount };
      },
      (row) => row as RowOf<PortalsOf<D>[P]>,
    );
  }

  /** Uploads a file into a container field: a Blob, bytes, a web ReadableStream, or (on Node) a file path streamed from disk. */
  async upload(recordId: string | number, field: ContainersOf<D>, data: UploadSource, options: UploadOptions = {}): Promise<{ modId: string }> {
    // Loaded on first use: most apps never upload.
    const { uploadInto } = await import("./upload.js");
    return uploadInto(this.#session, this.definition, this.#recordPath("upload", recordId), field, data, options);
  }

  /** Downloads the file of a record's container field (that repetition's): `null` when the container is empty. */
  async download(recordId: string | number, field: ContainersOf<D>, options: ContainerDownloadOptions = {}): Promise<ContainerFile | null> {
    // Loaded on first use: most apps never download.
    const { downloadFrom } = await import("./download.js");
    return downloadFrom(this.#session, this.definition, this.#recordPath("download", recordId), field, options);
  }

  /**
   * The records of `fetchPage`'s pages (page-stream.ts), decoded as they are handed out. Up to two pages are
   * requested ahead (within the found count the server reported), so the server is never idle while this side
   * parses, decodes and consumes: at most three pages are held at once, whatever the number of records. Its
   * options are checked when the stream is first read, as every stream's.
   */
  async *#stream(
    call: string,
    fetchPage: (offset: number, limit: number) => Promise<Record<string, unknown> | undefined>,
    options: StreamOptions<string, AnyDefinition, unknown, string>,
    decode: (raw: unknown) => unknown = this.#decodeRecord,
  ): AsyncGenerator<never> {
    const plan = {
      what: `${call} on layout "${this.definition.layout}"`,
      pageSize: positive(options.pageSize ?? 500, "pageSize"),
      skip: options.offset === undefined ? 0 : positive(options.offset, "offset") - 1,
      limit: options.limit === undefined ? Infinity : positive(options.limit, "limit"),
      ahead: 2,
    };
    yield* pageStream(
      plan,
      async (skip, limit) => {
        const response = await fetchPage(skip + 1, limit);
        const data: unknown = response?.data;
        const rows: { recordId?: unknown }[] = Array.isArray(data) ? data : [];
        return { rows, identity: idsOf(rows), found: (response?.dataInfo as DataInfo | undefined)?.foundCount };
      },
      decode as (raw: unknown) => never,
    );
  }

  /**
   * Sends `req` through the session; a read (`idempotent`) may be sent again after a network fault. A call that runs a
   * script (`script`, `prerequest`, `presort`: `keys`) is never a read here: the fault may have come after the script
   * ran, and a script may change data. (Answers that say nothing was done, 952, 812 and 956, are sent again still.)
   */
  #send(req: WireRequest, options: CallOptions, idempotent = false): Promise<Envelope> {
    return this.#session.call(() => req, { idempotent, signal: options.signal });
  }

  /** The path of a record; its id checked as what it is, a whole number (a path segment such as "." or "x/.." never). */
  #recordPath(call: string, recordId: string | number): string {
    if (!/^\d+$/.test(String(recordId))) throw new TypeError(`${call}: recordId must be a whole number, got ${describe(recordId)}`);
    return `${this.#base}/records/${recordId}`;
  }

  #encode(input: object): Record<string, WireValue> {
    return encodeFields(this.definition.fields, input as Record<string, unknown>, this.definition.layout, this.#encoders);
  }

  /** A create's or edit's `portalData` and `deleteRelated` as the wire takes them; their code loads when a call has them. */
  async #portalWrites(change: PortalWrites): Promise<PortalWireKeys> {
    if (change.portalData === undefined && change.deleteRelated === undefined) return {};
    const { portalWrites } = await import("./portal-writes.js");
    return portalWrites(this.definition, change, this.#encoders);
  }

  /** How a read with `portals` or `response` asks and decodes; undefined (the plain read) without them. */
  #view(call: string, options: ViewOptions<AnyDefinition, unknown>, find?: boolean): View | undefined {
    return options.portals === undefined && options.response === undefined ? undefined : readView(call, this.definition, this.#settings, options, find);
  }

  /** Decodes a response's records; undefined (nothing returned or matched) is an empty page. */
  #page(response: Record<string, unknown> | undefined, view?: View, keys?: Keys): Page<never> {
    // With script options, the response is there (101 and 401 too: then it carries only the scripts).
    const page: Page<never> = response?.dataInfo
      ? { data: (response.data as unknown[]).map(view?.decode ?? this.#decodeRecord) as never[], dataInfo: response.dataInfo as DataInfo }
      : { data: [], dataInfo: { database: this.#settings.database, layout: this.definition.layout, table: "", totalRecordCount: 0, foundCount: 0, returnedCount: 0 } };
    return keys ? ({ ...page, scripts: response!.scripts } as Page<never>) : page;
  }

  /** `out` with the answer's script results, checked, when the call sent script keys; `out` itself otherwise. */
  #scripted(out: object, envelope: Envelope, req: { method: string; path: string }, keys: Keys | undefined): never {
    return (keys ? { ...out, scripts: scriptsIn(envelope.response, keys, (what) => { throw broken(envelope, req, what); }) } : out) as never;
  }
}

const JSON_HEADERS = { "content-type": "application/json" };

/** What tells a page of records (or portal rows) from another: their record ids. */
const idsOf = (rows: readonly { recordId?: unknown }[]) => rows.map((row) => row.recordId).join();
