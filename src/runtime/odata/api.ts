/**
 * The public shape of `@fmgen/runtime/odata`: the client of one database and the client of one table, as DESIGN.md
 * ("Runtime: `@fmgen/runtime/odata`") names them. The entries (index.ts on Node, fetch.ts elsewhere) implement these.
 */
import type { RetryPolicy } from "../retry.js";
import type { AnyTable, ContainerNameOf, FieldNameOf, InsertOf, RelationNameOf, RelationsOf, RowOf, RowRef, TableOfDatabase, UpdateOf } from "./definition.js";
import type { FilterOf } from "./filter.js";
import type { AllOptions, CallOptions, ExpandOf, ListOptions, ListResult, ReadOptions, RowResult } from "./shapes.js";
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

export interface CommonODataClientOptions<Db extends string = string> {
  /** `https://fms.example.com`: the client appends `/fmi/odata/v4/{database}`. */
  server: string;
  /** The hosted file, without `.fmp12`. Tables of another database are refused (at compile time for generated ones). */
  database: Db;
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

export interface UploadOptions extends CallOptions {
  /** The file's name as FileMaker keeps it (default `Untitled` with the type's extension). */
  filename?: string;
  /** Default: what the bytes say (PNG, JPEG, GIF, PDF, ...). */
  contentType?: string;
}

/** A container's file, as `download` reads it; the same shape as the Data API runtime's. */
export interface ContainerFile {
  name: string;
  type: string;
  size: number | undefined;
  body: ReadableStream<Uint8Array>;
  bytes(): Promise<Uint8Array>;
  blob(): Promise<Blob>;
}

export interface TableClient<D extends AnyTable> {
  readonly definition: D;
  list<const S extends readonly FieldNameOf<D>[] | undefined = undefined, const E extends ExpandOf<D> | undefined = undefined, Sc extends boolean | undefined = undefined>(
    options?: ListOptions<D, S, E, Sc>,
  ): Promise<ListResult<RowResult<D, S, E, Sc>>>;
  get<const S extends readonly FieldNameOf<D>[] | undefined = undefined, const E extends ExpandOf<D> | undefined = undefined, Sc extends boolean | undefined = undefined>(
    row: RowRef<D>,
    options?: ReadOptions<S, E, Sc>,
  ): Promise<RowResult<D, S, E, Sc>>;
  /** Every row the filter matches, page by page (`$top`/`$skip` by the key or ROWID order): memory stays bounded. */
  all<const S extends readonly FieldNameOf<D>[] | undefined = undefined, const E extends ExpandOf<D> | undefined = undefined, Sc extends boolean | undefined = undefined>(
    options?: AllOptions<D, S, E, Sc>,
  ): AsyncIterable<RowResult<D, S, E, Sc>>;
  count(options?: { filter?: FilterOf<D> } & CallOptions): Promise<number>;
  /** Creates a row; resolves to the new row as stored (auto-entered values included). */
  create(row: InsertOf<D>, options?: CallOptions): Promise<RowOf<D>>;
  update(row: RowRef<D>, changes: UpdateOf<D>, options?: CallOptions): Promise<void>;
  delete(row: RowRef<D>, options?: CallOptions): Promise<void>;
  /** Updates every row the filter matches; resolves to how many. */
  updateWhere(filter: FilterOf<D>, changes: UpdateOf<D>, options?: CallOptions): Promise<number>;
  /** Deletes every row the filter matches; resolves to how many. */
  deleteWhere(filter: FilterOf<D>, options?: CallOptions): Promise<number>;
  upload(row: RowRef<D>, field: ContainerNameOf<D>, data: Blob | Uint8Array | ArrayBuffer, options?: UploadOptions): Promise<void>;
  /** The container's file, or `null` when it is empty. */
  download(row: RowRef<D>, field: ContainerNameOf<D>, options?: CallOptions): Promise<ContainerFile | null>;
  /** One row's related rows through a relation, typed as the target table's. */
  related<R extends RelationNameOf<D>, const S extends readonly FieldNameOf<RelationsOf<D>[R]>[] | undefined = undefined, const E extends ExpandOf<RelationsOf<D>[R]> | undefined = undefined>(
    row: RowRef<D>,
    relation: R,
    options?: Omit<ListOptions<RelationsOf<D>[R], S, E, undefined>, "specialColumns" | "count">,
  ): Promise<ListResult<RowResult<RelationsOf<D>[R], S, E, undefined>>>;
}

/** What a script run answers: FileMaker's error code (0 on success) and its result; a failing script is data, not an error. */
export interface ScriptRunResult {
  code: number;
  result?: string;
}

export interface ODataClient<Db extends string = string> {
  readonly database: Db;
  table<D extends TableOfDatabase<Db>>(definition: D): TableClient<D>;
  count<D extends TableOfDatabase<Db>>(definition: D, options?: { filter?: FilterOf<D> } & CallOptions): Promise<number>;
  /** One atomic changeset: every step applies, or none does. Results in the order of the steps. */
  batch<const Steps extends readonly BatchStep<unknown>[]>(build: (b: BatchBuilder<Db>) => Steps, options?: BatchOptions): Promise<BatchResults<Steps>>;
  runScript(name: string, options?: { param?: string | number | object } & CallOptions): Promise<ScriptRunResult>;
  readonly schema: SchemaCalls;
  readonly webhooks: WebhookCalls<Db>;
  /** Releases what the client owns (its connection pool on Node). */
  close(): Promise<void>;
}
