/**
 * The public shape of `@fmgen/runtime/odata`: the client of one database and the client of one table
 * (docs/odata.md, "3. The client"). The entries (index.ts on Node, fetch.ts elsewhere) implement these.
 */
import type { ContainerFile } from "../core/container-file.js";
import type { RetryPolicy } from "../core/retry.js";
import type { AnyTable, ContainerNameOf, ExpandOf, FieldNameOf, FilterOf, InsertOf, RelationNameOf, RelationsOf, RowOf, RowRef, TableOfClient, UpdateOf } from "./definition.js";
import type { AllOptions, CallOptions, ListOptions, ListResult, ReadOptions, RowResult } from "./shapes.js";
import type { BatchBuilder, BatchOptions, BatchResults, BatchStep } from "./batch-types.js";
import type { SchemaCalls } from "./schema-types.js";
import type { WebhookCalls } from "./webhook-types.js";

/** How every request signs in: OData has no session; each request carries the credential. */
export type ODataAuth =
  /** Basic auth with a FileMaker account that has the `fmodata` privilege. */
  | { username: string; password: string }
  /** FileMaker Cloud: a Claris ID (FMID) token, asked for again when the server refuses it. */
  | { claris: () => Promise<string> }
  /** A proxy (OttoFMS) that takes a static bearer key, under its path prefix (`/otto`). */
  | { apiKey: string; pathPrefix?: string };

/** What `createODataClient` takes on every entry; the Node entry adds `dispatcher`, the fetch entry `fetch`. */
export interface CommonODataClientOptions<Db extends string = string> {
  /** `https://fms.example.com`: the client appends `/fmi/odata/v4/{database}`. */
  server: string;
  /** The hosted file, without `.fmp12`. Tables of another database are refused (at compile time for generated ones). */
  database: Db;
  /** How each request signs in: an account with the `fmodata` privilege, a Claris ID token, or a proxy's API key. */
  auth: ODataAuth;
  /**
   * Address tables and fields by FileMaker's ids (FMTID/FMFID, `Prefer: fmodata.entity-ids`) and map answers back to
   * the definitions' names: renaming a table or field in FileMaker breaks no deployed app. Needs generated ids.
   */
  entityIds?: boolean;
  /** Bound on one call, from sending to the answer's last byte (default 60,000 ms). */
  timeoutMs?: number;
  /** Longest answer body read; past it the call fails with ResponseTooLargeError (default 64 MiB). */
  maxResponseBytes?: number;
  /** Retries of idempotent reads after network faults and proxies' 5xx pages (writes are never retried blindly). */
  retry?: Partial<RetryPolicy>;
  /**
   * What to do when credentials would travel over plain `http://` to a host that is not loopback, as the Data API's
   * client does: "warn" (default: one warning per client, naming the host, never the secret), "refuse"
   * (createODataClient throws), "allow" (silence).
   */
  insecure?: "warn" | "refuse" | "allow";
}

/** Options of `upload`: the file's name and type as FileMaker keeps them. */
export interface UploadOptions extends CallOptions {
  /** The file's name as FileMaker keeps it (default `Untitled` with the type's extension). */
  filename?: string;
  /** Default: what the bytes say (PNG, JPEG, GIF, PDF, ...). */
  contentType?: string;
}

/**
 * The typed calls on one table, from `od.table(Definition)`: rows read, written, counted, related, and their
 * containers.
 */
export interface TableClient<D extends AnyTable> {
  /** The table's definition, as given to `od.table()`. */
  readonly definition: D;
  /**
   * One page of rows, one request: `filter` (the `f` helpers), `select`, `expand`, `orderBy`, `top`, `skip`, `count`.
   * The row type has only the selected fields. At most `top` rows, and at most the server's page (FileMaker Server cuts
   * one at 10,000 rows; its nextLink is not followed): `all` reads every row.
   */
  list<const S extends readonly FieldNameOf<D>[] | undefined = undefined, const E extends ExpandOf<D> | undefined = undefined, Sc extends boolean | undefined = undefined>(
    options?: ListOptions<D, S, E, Sc>,
  ): Promise<ListResult<RowResult<D, S, E, Sc>>>;
  /** One row by its key (or `{ rowId }`); a missing row is a `RecordMissingError`. */
  get<const S extends readonly FieldNameOf<D>[] | undefined = undefined, const E extends ExpandOf<D> | undefined = undefined, Sc extends boolean | undefined = undefined>(
    row: RowRef<D>,
    options?: ReadOptions<S, E, Sc>,
  ): Promise<RowResult<D, S, E, Sc>>;
  /**
   * Every row the filter matches, page by page (`$top`/`$skip` by the key or ROWID order, each page counted): memory
   * stays bounded. A server that does not move through the rows (a page past its own count, or the same page twice)
   * stops it with an error naming the table.
   */
  all<const S extends readonly FieldNameOf<D>[] | undefined = undefined, const E extends ExpandOf<D> | undefined = undefined, Sc extends boolean | undefined = undefined>(
    options?: AllOptions<D, S, E, Sc>,
  ): AsyncIterable<RowResult<D, S, E, Sc>>;
  /** How many rows the filter matches (every row without one). */
  count(options?: { filter?: FilterOf<D> } & CallOptions): Promise<number>;
  /** Creates a row; resolves to the new row as stored (auto-entered values included). */
  create(row: InsertOf<D>, options?: CallOptions): Promise<RowOf<D>>;
  /** Changes some fields of one row; the fields not named keep their values. */
  update(row: RowRef<D>, changes: UpdateOf<D>, options?: CallOptions): Promise<void>;
  /** Deletes one row. */
  delete(row: RowRef<D>, options?: CallOptions): Promise<void>;
  /** Updates every row the filter matches; resolves to how many. */
  updateWhere(filter: FilterOf<D>, changes: UpdateOf<D>, options?: CallOptions): Promise<number>;
  /** Deletes every row the filter matches; resolves to how many. */
  deleteWhere(filter: FilterOf<D>, options?: CallOptions): Promise<number>;
  /** Puts a file into one row's container field (OData's binary `PATCH`), replacing what it held. */
  upload(row: RowRef<D>, field: ContainerNameOf<D>, data: Blob | Uint8Array | ArrayBuffer, options?: UploadOptions): Promise<void>;
  /** The container's file, or `null` when it is empty. */
  download(row: RowRef<D>, field: ContainerNameOf<D>, options?: CallOptions): Promise<ContainerFile | null>;
  /** One row's related rows through a relation, typed as the target table's: one page, one request, as `list`. */
  related<R extends RelationNameOf<D>, const S extends readonly FieldNameOf<RelationsOf<D>[R]>[] | undefined = undefined, const E extends ExpandOf<RelationsOf<D>[R]> | undefined = undefined>(
    row: RowRef<D>,
    relation: R,
    options?: Omit<ListOptions<RelationsOf<D>[R], S, E, undefined>, "specialColumns" | "count">,
  ): Promise<ListResult<RowResult<RelationsOf<D>[R], S, E, undefined>>>;
}

/** What a script run answers: FileMaker's error code (0 on success) and its result; a failing script is data, not an error. */
export interface ScriptRunResult {
  /** FileMaker's error code of the script: 0 when it succeeded. */
  code: number;
  /** What the script passed to Exit Script, when it passed anything. */
  result?: string;
}

/**
 * The client of one hosted database through its OData API, from `createODataClient`. OData has no session: each
 * request carries the credential.
 */
export interface ODataClient<Db extends string = string> {
  /** The hosted file this client reads and writes. */
  readonly database: Db;
  /** The typed calls on one table of this database. */
  table<D extends AnyTable>(definition: TableOfClient<D, Db>): TableClient<D>;
  /** How many rows of a table the filter matches: `od.count(T, opts)` is `od.table(T).count(opts)`. */
  count<D extends AnyTable>(definition: TableOfClient<D, Db>, options?: { filter?: FilterOf<D> } & CallOptions): Promise<number>;
  /** One atomic changeset: every step applies, or none does. Results in the order of the steps. */
  batch<const Steps extends readonly BatchStep<unknown>[]>(build: (b: BatchBuilder<Db>) => Steps, options?: BatchOptions): Promise<BatchResults<Steps>>;
  /**
   * Runs a script of the file with an optional parameter (a string, number or JSON-able object); its failure is data
   * (`code`), not an exception.
   */
  runScript(name: string, options?: { param?: string | number | object } & CallOptions): Promise<ScriptRunResult>;
  /** Schema changes: create and delete tables, fields and indexes. */
  readonly schema: SchemaCalls;
  /** The database's webhooks: add, list, remove. */
  readonly webhooks: WebhookCalls<Db>;
  /** Releases what the client owns (its connection pool on Node). */
  close(): Promise<void>;
}
