/**
 * The table definition: the one value a generated table module exports per table occurrence and passes to
 * `od.table()`. As with layouts (../data-api/definition.ts), its run-time part, the spec, says what the runtime needs (each
 * field's kind, read-only fields, repetitions, FileMaker's ids, the key and the relations), and its type carries every
 * TypeScript shape: a generated module writes the read shape of a row (`<Name>Row`, with its JSDoc) and the relations'
 * target tables; every other shape is derived from the spec's literal types, so that each fact is stated once.
 *
 * Type-only imports of the Data API's definition: its value types are the same, and nothing of it loads.
 */
import type { FieldKind, InputValue } from "../core/field-types.js";
import { setOwn } from "../core/own.js";
import type { Filter, FilterKind } from "./filter.js";

export type { FieldKind };

/** One field of a table spec: what the runtime needs to encode, decode and check its values. */
export interface TableFieldSpec {
  /** The field's kind: it picks the codec, as for the Data API. */
  readonly type: FieldKind;
  /** Calculation, summary, global or protected auto-enter: never written by clients (create/update refuse it). */
  readonly readOnly?: boolean;
  /** Default 1. A repeating field is read as a tuple, as through the Data API. */
  readonly repetitions?: number;
  /** Validation: not empty. Without `autoEnter`, an insert must give it. */
  readonly notNull?: boolean;
  /** FileMaker fills it in when a record is created: an insert may leave it out even when `notNull`. */
  readonly autoEnter?: string;
  /** `FMFID:n`: the field's FileMaker id (`entityIds: true` addresses the field by it). */
  readonly id?: string;
  /**
   * A number field whose values are decimal text with every digit (`"12345678901234567890123"`), never a JavaScript
   * number: read as canonical text, written and compared as decimal text (docs/odata.md, "Values").
   */
  readonly exact?: boolean;
}

/** A navigation property of a table: the table occurrence it reaches and how many rows. */
export interface RelationSpec {
  /** The table occurrence (entity set) the navigation property reaches. */
  readonly table: string;
  /** Whether a row has a collection of related rows (every FileMaker Server navigation) or at most one. */
  readonly many: boolean;
  /**
   * The target table's definition, when asked (expanded rows are decoded by its fields). A function, so that two
   * generated modules may name each other: `target: (): TableSpec => Invoices` (typed, so that the compiler does not
   * infer one module's type from the other's).
   */
  readonly target: () => TableSpec;
}

/**
 * What the runtime knows of a table at run time: its name, database, key, fields and relations; `fmgen` writes it
 * from the table's description.
 */
export interface TableSpec {
  /** The hosted file without `.fmp12`; a client of another database refuses the table. */
  readonly database: string;
  /** The table occurrence's name: the OData entity set. */
  readonly table: string;
  /** `FMTID:n`: the table occurrence's FileMaker id (`entityIds: true` addresses the table by it). */
  readonly id?: string;
  /** The primary key field; absent: rows are addressed by ROWID only. */
  readonly key?: string;
  /** The fields, by name. */
  readonly fields: Readonly<Record<string, TableFieldSpec>>;
  /** Navigation properties, by name. */
  readonly relations?: Readonly<Record<string, RelationSpec>>;
}

/**
 * What a table definition's type carries: the read shape of a row, the relations' target tables, the spec's literal
 * type, and the shapes calls check their arguments against. `defineTable` derives the latter from the former
 * (`TableSpecTypes`); a generated module's `<Name>Types` extends those and gives each its own name (`<Name>Insert`,
 * ...), which is what compiler messages then print.
 */
export interface TableTypes {
  /** The read shape of a row (`<Name>Row`). */
  row: object;
  /** Relation name -> the target table's definition (`typeof Invoices`). */
  relations: object;
  /** The spec's literal type: keys, read-only fields and relations' cardinality are derived from it. */
  spec: TableSpec;
  /** What `create` takes (`<Name>Insert`). */
  insert: object;
  /** What `update` takes (`<Name>Update`). */
  update: object;
  /** The field names `select`, `orderBy` and filters take (`<Name>FieldName`). */
  names: string;
  /** Each field's kind, as filters are checked against them (`<Name>Kinds`). */
  kinds: object;
  /** A `$filter` of the table (`<Name>Filter`). */
  filter: Filter<any>;
  /** What `expand` takes (`<Name>Expand`). */
  expand: object;
}

/** The key of a definition's types: declared, never present at run time. */
declare const tableTypes: unique symbol;
/** The type of the phantom key under which a table definition carries its TypeScript shapes. */
export type TableTypesKey = typeof tableTypes;

/**
 * A table definition: its spec, and its TypeScript shapes as a phantom type. What generated table modules export per
 * table occurrence and `od.table()` takes; made by `defineTable`.
 */
export interface TableDefinition<T extends TableTypes = AnyTableTypes> extends TableSpec {
  /** The spec's database, as its literal type: a client of another database refuses the table at compile time. */
  readonly database: T["spec"]["database"];
  /** The spec's table occurrence, as its literal type. */
  readonly table: T["spec"]["table"];
  /** Phantom: the table's types, never present at run time. */
  readonly [tableTypes]: T;
}

/** The types of a table definition written without generated shapes: any row. */
export interface AnyTableTypes extends TableTypes {
  /** Any field, of any value. */
  row: Record<string, unknown>;
  relations: Record<string, AnyTable>;
  /** Any spec. */
  spec: TableSpec;
  insert: Record<string, unknown>;
  update: Record<string, unknown>;
  names: string;
  kinds: Record<string, FilterKind>;
  filter: Filter<Record<string, FilterKind>>;
  expand: Record<string, unknown>;
}

/** Any table definition, as a constraint (its types `any`, so that no table's shapes are compared with another's). */
export type AnyTable = TableDefinition<any>;

/**
 * A table definition. Generated modules write `defineTable<NameRow, NameRelations>()({ ...spec })`: the spec's literal
 * types are kept (a const type parameter) and every shape but the row's is derived from them (`TableSpecTypes`). A
 * hand-written definition may leave the types out: `defineTable()(spec)` reads every field as `unknown`.
 */
export function defineTable<Row extends object = Record<string, unknown>, Relations extends object = {}>(): <const S extends TableSpec>(
  spec: S,
) => TableDefinition<TableSpecTypes<Row, Relations, S>> {
  return (spec) => frozenCopy(spec) as never;
}

/** The spec as given, copied (so that a caller's later change to its object cannot change the table) with own names kept. */
function frozenCopy(spec: TableSpec): TableSpec {
  const fields: Record<string, TableFieldSpec> = {};
  // Through setOwn: a field named "__proto__" stays a field.
  for (const [name, field] of Object.entries(spec.fields)) setOwn(fields, name, Object.freeze({ ...field }));
  const copy: { -readonly [K in keyof TableSpec]: TableSpec[K] } = { ...spec, fields: Object.freeze(fields) };
  if (spec.relations) {
    const relations: Record<string, RelationSpec> = {};
    for (const [name, relation] of Object.entries(spec.relations)) {
      if (typeof relation.target !== "function") throw new TypeError(`table "${spec.table}": relation "${name}" needs target, a function that returns the definition of table "${relation.table}"`);
      setOwn(relations, name, Object.freeze({ ...relation }));
    }
    copy.relations = Object.freeze(relations);
  }
  return Object.freeze(copy);
}

/** Refuses a table of another hosted database than the client's (a mistake in the program: a TypeError). */
export function checkTableDatabase(table: TableSpec, database: string): void {
  if (table.database !== database) throw new TypeError(`table "${table.table}" is of database "${table.database}", but this client is for "${database}"`);
}

// ---- Shapes derived from a spec, and read from a definition. Each is read by indexed access (`D[TableTypesKey]`),
// never by inference against TableDefinition<infer T>, which would compare every table's shapes member by member.

/**
 * Every shape of a table, derived from the read shape of its row, its relations and its spec's literal types: what
 * `defineTable` gives a definition. Members of an interface, so that the compiler works each out only where a call
 * uses it, and once per table; a shape built on another reads it from here (`TableSpecTypes<...>["kinds"]`).
 */
export interface TableSpecTypes<Row extends object, Relations extends object, S extends TableSpec> extends TableTypes {
  row: Row;
  relations: Relations;
  spec: S;
  /** Writable fields; the not-empty ones without auto-enter required. */
  insert: { -readonly [K in RequiredName<Row, S["fields"]>]: WriteValue<Row, S["fields"], K> } & {
    -readonly [K in Exclude<WritableName<Row, S["fields"]>, RequiredName<Row, S["fields"]>>]?: WriteValue<Row, S["fields"], K>;
  };
  /** Writable fields, all optional; `null` clears one (not a not-empty one). */
  update: { -readonly [K in WritableName<Row, S["fields"]>]?: WriteValue<Row, S["fields"], K> };
  names: keyof Row & string;
  kinds: { -readonly [K in keyof S["fields"]]: S["fields"][K] extends ExactField ? "exact number" : S["fields"][K]["type"] };
  filter: Filter<TableSpecTypes<Row, Relations, S>["kinds"]>;
  /** Per relation, `true` (every field) or the target table's own select, filter, orderBy, top, expand. */
  expand: { readonly [R in keyof Relations & string]?: true | (Relations[R] extends AnyTable ? ExpandOptions<Relations[R]> : never) };
}

type FieldSpecs = TableSpec["fields"];
/** A number field whose values are decimal text (`exact: true`). */
type ExactField = { readonly type: "number"; readonly exact: true };
/** Names of the fields create and update may write: not read-only, not containers (written by `upload`). */
type WritableName<Row, Fields extends FieldSpecs> = { [K in keyof Fields]: Fields[K] extends { readonly readOnly: true } | { readonly type: "container" } ? never : K }[keyof Fields] &
  keyof Row &
  string;
/** Writable fields an insert must give: not empty by validation, with nothing auto-entered. */
type RequiredName<Row, Fields extends FieldSpecs> = {
  [K in WritableName<Row, Fields>]: Fields[K] extends { readonly notNull: true } ? (Fields[K] extends { readonly autoEnter: string } ? never : K) : never;
}[WritableName<Row, Fields>];
/**
 * What a write takes for field `K`: its input value (decimal text for an exact number field that does not repeat,
 * whatever the row says), without `null` for a not-empty field (validation refuses it).
 */
type WriteValue<Row, Fields extends FieldSpecs, K extends keyof Row & keyof Fields> = Fields[K] extends { readonly notNull: true }
  ? NonNullable<FieldInput<Row, Fields, K>>
  : FieldInput<Row, Fields, K>;
type FieldInput<Row, Fields extends FieldSpecs, K extends keyof Row & keyof Fields> = Fields[K] extends ExactField
  ? [Row[K]] extends [readonly unknown[]]
    ? InputValue<Row[K]>
    : string | null
  : InputValue<Row[K]>;

type Types<D extends AnyTable> = D[TableTypesKey];
type SpecFields<D extends AnyTable> = Types<D>["spec"]["fields"];

/** Every shape of table `D` (a generated module's `<Name>Types` extends those of its spec). */
export type TableTypesOf<D extends AnyTable> = Types<D>;
/** A row of table `D` as read, every field (the generated `<Name>Row`). */
export type RowOf<D extends AnyTable> = Types<D>["row"];
/** The field names of table `D`: what `select`, `orderBy` and filters may name (the generated `<Name>FieldName`). */
export type FieldNameOf<D extends AnyTable> = Types<D>["names"];
/**
 * Each field's kind: `{ "First Name": "text"; Amount: "number"; Id: "exact number" }`, what `f`'s helpers are checked
 * against (`<Name>Kinds`); an exact number field's is `"exact number"`: its filters take decimal text.
 */
export type KindsOf<D extends AnyTable> = Types<D>["kinds"];
/** Relation name -> target table definition. */
export type RelationsOf<D extends AnyTable> = Types<D>["relations"];
/** The relation names of table `D`: what `expand` and `related` may name. */
export type RelationNameOf<D extends AnyTable> = keyof Types<D>["relations"] & string;
/** A filter of table `D`: what `list`, `count`, `all`, `updateWhere` and `deleteWhere` take (the generated `<Name>Filter`). */
export type FilterOf<D extends AnyTable> = D[TableTypesKey]["filter"];
/** An orderBy item of fields named `Name`: a field name (ascending), or a field and a direction. */
export type OrderBy<Name extends string> = Name | readonly [Name, "asc" | "desc"];
/** What an `expand` entry may set for a relation's rows. */
export interface ExpandOptions<D extends AnyTable> {
  /** Only these fields of the related rows. */
  select?: readonly FieldNameOf<D>[];
  /** Only the related rows this filter matches. */
  filter?: FilterOf<D>;
  /** The related rows' order. */
  orderBy?: readonly OrderBy<FieldNameOf<D>>[];
  /** At most this many related rows per row. */
  top?: number;
  /** Skip this many related rows first. */
  skip?: number;
  /** The related rows' own relations to bring. */
  expand?: ExpandOf<D>;
}
/**
 * `expand` of table `D` (the generated `<Name>Expand`): per relation, `true` (every field) or that table's own select,
 * filter, orderBy, top, expand.
 */
export type ExpandOf<D extends AnyTable> = D[TableTypesKey]["expand"];
/** Names of the fields create and update of table `D` may write: not read-only, not containers. */
export type WritableNameOf<D extends AnyTable> = WritableName<RowOf<D>, SpecFields<D>>;
/** What `create` takes (the generated `<Name>Insert`): writable fields; the not-empty ones without auto-enter required. */
export type InsertOf<D extends AnyTable> = Types<D>["insert"];
/** What `update` takes (the generated `<Name>Update`): writable fields, all optional; `null` clears one (not a not-empty one). */
export type UpdateOf<D extends AnyTable> = Types<D>["update"];
/** Names of the container fields: what `upload` and `download` take. */
export type ContainerNameOf<D extends AnyTable> = { [K in keyof SpecFields<D>]: SpecFields<D>[K] extends { readonly type: "container" } ? K : never }[keyof SpecFields<D>] & string;

/** The key value of a table with a `key` (the key field's type, never null), or never when it has none. */
export type KeyOf<D extends AnyTable> = Types<D>["spec"] extends { readonly key: infer K extends string } ? NonNullable<RowOf<D>[K & keyof RowOf<D>]> : never;
/** Which row a call means: its key, or its ROWID. */
export type RowRef<D extends AnyTable> = KeyOf<D> | { rowId: number };

/** A table definition of database `Db` (a generated definition's database is a literal; a plain string fits every client). */
export type TableOfDatabase<Db extends string> = AnyTable & { readonly database: Db };

/**
 * What `od.table()` (and `count`, `b.table`, `webhooks.add`) takes for table `D` on a client of database `Db`: the
 * definition itself when it is of that database, or when either type does not say which file it is (a plain
 * `string`); else a sentence, which the compiler shows, as the Data API's `fm.layout()` does: `Argument of type
 * 'ContactsDefinition' is not assignable to parameter of type '"a table of database \"Contacts\", but this client is
 * for database \"Office\""'`. (The runtime refuses it too.) A conditional type, not `D & sentence`: `D` is still
 * inferred from the argument (through the branch that is `D`), and the message is the sentence alone, not the whole
 * definition's type with a hint about optional properties.
 */
export type TableOfClient<D extends AnyTable, Db extends string> = string extends Db
  ? D
  : string extends D["database"]
    ? D
    : [D["database"]] extends [Db]
      ? D
      : `a table of database "${D["database"]}", but this client is for database "${Db}"`;
