/**
 * The database definition: what a generated database module exports (`export const Contacts = defineDatabase(...)`)
 * and an app passes to `createClient({ database: Contacts })`. It names the hosted file and, as types, the scripts
 * the file has and its global fields, so that a script name or a global the file lacks fails to compile. A plain
 * string (`database: "Contacts"`) is a database with every script name and global allowed.
 */
import type { AnyDefinition, DatabaseOfLayout, FieldSpec } from "./definition.js";

/**
 * What the runtime knows of a hosted file at run time: its name, scripts and global fields; `fmgen` writes it from
 * the database description.
 */
export interface DatabaseSpec {
  /** The hosted file's name, without `.fmp12`. */
  database: string;
  /** The file's script names, as `GET /scripts` lists them (folders flattened). */
  scripts: readonly string[];
  /** The global fields of the file's layouts (`TO::Field`), with their kinds, for `setGlobals`. */
  globals: Readonly<Record<string, FieldSpec>>;
}

declare const databaseTypes: unique symbol;

/**
 * A database definition: its spec, and its script names and globals as types (phantom, never present at run time).
 * `Name` is the file's name as a literal type: `fm.layout()` refuses, at compile time, a layout whose definition
 * names another database.
 */
export interface DatabaseDefinition<Scripts extends string = string, Globals extends object = Record<string, GlobalValue>, Name extends string = string> extends DatabaseSpec {
  database: Name;
  /** Phantom: the script names and globals' types, never present at run time. */
  readonly [databaseTypes]: { scripts: Scripts; globals: Globals };
}

/** What `setGlobals` takes for a global field: FileMaker sets globals from text; numbers are sent as text. */
export type GlobalValue = string | number;

/** Any database, as a constraint; a plain name counts as an untyped database. */
export type AnyDatabase = DatabaseDefinition<any, any, any> | string;

/** The file name a database's type says: its definition's, as a literal; `string` for a plain name (any file). */
export type DatabaseNameOf<Db extends AnyDatabase> = Db extends { readonly database: infer N extends string } ? N : string;

/** The script names a database allows: its scripts, or any name for a plain database name. */
export type ScriptNameOf<Db extends AnyDatabase> = Db extends DatabaseDefinition<infer S, any, any> ? S : string;

/** What `setGlobals` takes: the database's global fields, each optional; any field name for a plain database name. */
export type GlobalsOf<Db extends AnyDatabase> = Db extends DatabaseDefinition<any, infer G, any> ? { [K in keyof G]?: G[K] } : Record<string, GlobalValue>;

/**
 * What `fm.layout()` (and `runScript`) takes for layout `D` on a client of database `Db`: the definition itself when
 * it is a layout of that database, or when either type does not say which file it is (a plain database name, a
 * hand-written definition); else a sentence, which the compiler shows: `Argument of type 'InvoiceLayout' is not
 * assignable to parameter of type '"a layout of database \"Invoicing\", but this client is for database
 * \"Contacts\""'`. (The runtime refuses it too.) A conditional type, not `D & sentence`: `D` is still inferred from
 * the argument (through the branches that are `D`), and the message is the sentence alone, not the definition's type
 * with a hint about optional properties.
 */
export type LayoutOfClient<D extends AnyDefinition, Db extends AnyDatabase> = Db extends string ? D : SameDatabase<D, DatabaseOfLayout<D>, DatabaseNameOf<Db>>;
type SameDatabase<D, L, C> = [L] extends [never] ? D : string extends C ? D : [L] extends [C] ? D : `a layout of database "${L & string}", but this client is for database "${C & string}"`;

/** The file name of a database, from its definition or as given. */
export function databaseName(database: AnyDatabase): string {
  return typeof database === "string" ? database : database.database;
}

/**
 * A database definition. Generated database modules write
 * `defineDatabase({ database: "Contacts", scripts: ["Send Invoice"], globals: { "Globals::gUserId": { type: "text" } } })`;
 * the file name, the script names and the global names are kept as literal types.
 */
export function defineDatabase<const S extends DatabaseSpec>(spec: S): DatabaseDefinition<S["scripts"][number], { [K in keyof S["globals"] as K | (K extends string ? RepetitionNames<K, S["globals"][K]> : never)]: GlobalValue }, S["database"]> {
  return spec as never;
}

// The names setGlobals takes for a database's globals (the mapped type above, written out there so that an editor
// shows the names, not an alias): each field's own (`TO::field`), and for a repeating field each repetition's too
// (`TO::field(1)` to `TO::field(n)`; past 100 repetitions, any `TO::field(<number>)`).
type RepetitionNames<K extends string, F> = F extends { readonly repetitions: infer N extends number } ? (N extends 0 | 1 ? never : `${K}(${Ordinals<N>})`) : never;
/** 1 to N, as a union (`number` past 100, as `ReadValue` types a repeating field past 100 as an array, or for a wide N). */
type Ordinals<N extends number, Acc extends unknown[] = [unknown], Out = never> = number extends N
  ? number
  : Acc["length"] extends 101
    ? number
    : Acc["length"] extends N
      ? Out | N
      : Ordinals<N, [...Acc, unknown], Out | Acc["length"]>;
