/**
 * The types of `od.batch`: a builder names each step of one atomic changeset through a table of the client's database,
 * and the batch resolves to each step's result, in order, typed. (The steps' requests are built by batch.ts.)
 */
import type { AnyTable, InsertOf, RowOf, RowRef, TableOfDatabase, UpdateOf } from "./definition.js";
import type { FilterOf } from "./filter.js";
import type { CallOptions } from "./shapes.js";

declare const stepResult: unique symbol;

/** One request of a changeset; `R` is what the batch resolves to for it. */
export interface BatchStep<R> {
  /** Phantom: the step's result type, never present at run time. */
  readonly [stepResult]?: R;
}

/** The writes a changeset may hold on one table. */
export interface BatchTable<D extends AnyTable> {
  create(row: InsertOf<D>): BatchStep<RowOf<D>>;
  update(row: RowRef<D>, changes: UpdateOf<D>): BatchStep<void>;
  delete(row: RowRef<D>): BatchStep<void>;
  updateWhere(filter: FilterOf<D>, changes: UpdateOf<D>): BatchStep<number>;
  deleteWhere(filter: FilterOf<D>): BatchStep<number>;
}

export interface BatchBuilder<Db extends string> {
  /** A table of the client's database: a table of another database fails to compile (and is refused at run time). */
  table<D extends TableOfDatabase<Db>>(definition: D): BatchTable<D>;
}

export interface BatchOptions extends CallOptions {}

/** The results of a batch's steps, in their order and types. */
export type BatchResults<Steps extends readonly BatchStep<unknown>[]> = { -readonly [I in keyof Steps]: Steps[I] extends BatchStep<infer R> ? R : never };
