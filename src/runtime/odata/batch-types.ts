/**
 * The types of `od.batch`: a builder names each step of one atomic changeset through a table of the client's database,
 * and the batch resolves to each step's result, in order, typed. (The steps' requests are built by batch.ts.)
 */
import type { AnyTable, FilterOf, InsertOf, RowOf, RowRef, TableOfClient, UpdateOf } from "./definition.js";
import type { CallOptions } from "./shapes.js";

declare const stepResult: unique symbol;

/** One request of a changeset; `R` is what the batch resolves to for it. */
export interface BatchStep<R> {
  /** Phantom: the step's result type, never present at run time. */
  readonly [stepResult]?: R;
}

/** The writes a changeset may hold on one table. */
export interface BatchTable<D extends AnyTable> {
  /** Creates a row; the batch's result for it is the row as stored. */
  create(row: InsertOf<D>): BatchStep<RowOf<D>>;
  /** Changes some fields of one row. */
  update(row: RowRef<D>, changes: UpdateOf<D>): BatchStep<void>;
  /** Deletes one row. */
  delete(row: RowRef<D>): BatchStep<void>;
  /** Changes every row the filter matches; the result is how many. */
  updateWhere(filter: FilterOf<D>, changes: UpdateOf<D>): BatchStep<number>;
  /** Deletes every row the filter matches; the result is how many. */
  deleteWhere(filter: FilterOf<D>): BatchStep<number>;
}

/**
 * What `od.batch`'s callback gets: it returns the steps, each made through `b.table(T)`.
 *
 * @example
 * <!-- snippet: dir examples/odata -->
 * ```ts
 * import { createODataClient } from "@fmgen/runtime/odata";
 * import { Contacts, Invoices } from "./generated/index.js";
 *
 * const od = createODataClient({ server: "https://fms.example.com", database: "Office", auth: { username: "web", password: process.env.FM_PASSWORD! } });
 * const [contact, invoice] = await od.batch((b) => [
 *   b.table(Contacts).create({ "First Name": "Katherine", "Last Name": "Johnson" }),
 *   b.table(Invoices).create({ ContactID: 1, Amount: 99.95 }),
 * ]);
 * ```
 */
export interface BatchBuilder<Db extends string> {
  /** A table of the client's database: a table of another database fails to compile (and is refused at run time). */
  table<D extends AnyTable>(definition: TableOfClient<D, Db>): BatchTable<D>;
}

/** What `od.batch` takes: what every call takes. */
export interface BatchOptions extends CallOptions {}

/** The results of a batch's steps, in their order and types. */
export type BatchResults<Steps extends readonly BatchStep<unknown>[]> = { -readonly [I in keyof Steps]: Steps[I] extends BatchStep<infer R> ? R : never };
