/**
 * The layout definition: the one value a generated module exports per layout and passes to `fm.layout()`. Its
 * run-time part, the spec, describes the fields (the codecs need their types); its type carries every TypeScript
 * shape of the layout. A generated module writes one shape, the read shape of the fields (`<Name>Fields`, with its
 * JSDoc), and the runtime derives the others from the spec's literal types (`SpecTypes`), so that each fact about a
 * field is stated once. Hand-written definitions (tests) may give every shape themselves (`HandWrittenTypes`).
 */
import { setOwn } from "../core/own.js";
import type { SortOrder } from "./paging.js";
import type { FieldKind, InputValue } from "../core/field-types.js";

// A field's kind and what writes take for it are shared with the OData client (core/field-types.ts).
export type { FieldKind, InputValue } from "../core/field-types.js";

/** One field of a layout spec: what the runtime needs to encode, decode and check its values. */
export interface FieldSpec {
  /** The field's kind: it picks the codec. */
  type: FieldKind;
  /** Default 1. Repeating fields travel as `F`, `F(2)`, ... and appear in TypeScript as a tuple. */
  repetitions?: number;
  /** A calculation, summary or protected auto-enter field: create and edit refuse it. */
  readOnly?: boolean;
  /** The values of the field's value list: its TypeScript type is their union (or `""`). */
  valueList?: readonly string[];
  /**
   * A number field whose values keep every digit: read as decimal text (`string | null`, canonical: `"-1200.05"`), and
   * written and found from decimal text, sent digit for digit. For keys such as `Get ( UUIDNumber )`'s, which a
   * JavaScript number would round (docs/reading-and-writing.md, "Exact numbers").
   */
  exact?: boolean;
}

/** A field of a spec's `containers`: a container field, its type implied. */
export interface ContainerSpec {
  /** Default 1: a repeating container field has this many repetitions. */
  repetitions?: number;
}

/** One portal of a layout spec: its fields, named as the Data API names them (`TableOccurrence::Field`). */
export interface PortalSpec {
  /** The portal's fields, by their `TableOccurrence::Field` names. */
  fields: Readonly<Record<string, FieldSpec>>;
}

/**
 * What the runtime knows of a layout at run time: its name, database and fields. A generated module's definition is
 * one; `fmgen` writes it from the layout's description.
 */
export interface LayoutSpec {
  /** The layout's name on the server. */
  layout: string;
  /** The hosted database the layout belongs to; a client for another database refuses it. */
  database?: string;
  /** The layout's base table: a response layout (`response`) must show the same one. */
  table?: string;
  /** The fields; generated modules list here the ones create and edit may write, and the others apart (below). */
  fields: Readonly<Record<string, FieldSpec>>;
  /** Read-only fields (calculations, summaries, protected auto-enter), each as a field with `readOnly: true`. */
  readOnly?: Readonly<Record<string, FieldSpec>>;
  /** Container fields, each as a field of type "container". */
  containers?: Readonly<Record<string, ContainerSpec>>;
  /** The layout's portals, by object name (or related table occurrence when unnamed). */
  portals?: Readonly<Record<string, PortalSpec>>;
  /** Check records against the layout's schema before decoding; overrides the client's `validate`. */
  validate?: boolean;
  /**
   * The names of the file's value lists: a sort's `sortOrder` may name one (records follow the list's order). Types
   * only; the server refuses a name it does not have.
   */
  valueLists?: readonly string[];
}

/** The TypeScript shapes behind a layout, as a hand-written definition gives them. */
export interface LayoutTypes {
  /** Read shape of fieldData. */
  fields: object;
  /** Writable fields, all optional. */
  input: object;
  /** Read shape of portalData: portal name -> rows. */
  portals: object;
  /** What create/edit accept in portalData. */
  portalInput: object;
  /** Names of the container fields (the only ones upload accepts). */
  containers: string;
  /**
   * Each field's kind, layout and portal fields alike (`{ "First Name": "text"; "Invoices::Amount": "number" }`), or
   * a spec's groups (`KindSource`, as `KindsOf` a generated definition gives them): which `q` helpers a find may use
   * on it. Without it, a field whose value is a number counts as a number field and any other may take every helper
   * (the runtime still checks).
   */
  kinds?: object;
  /** The names of the file's value lists, which a sort's `sortOrder` may name besides `ascend` and `descend`; none by default. */
  valueLists?: string;
}

/** What a definition carries: its shapes, and what finds key off, worked out once by `defineLayout`. */
export interface DefinitionTypes extends LayoutTypes {
  kinds: KindSource;
  /** The fields a find may name: the layout's and its portals' (`TO::F`), each with its read type. */
  findable: object;
  /** A record as the runtime returns it (`FmRecord` of the fields and portals). */
  record: object;
  /** The field names sort specs take. */
  names: string;
  /** The orders sort specs take: `ascend`, `descend` and the file's value lists' names. */
  orders: string;
}

/**
 * A second base of a generated module's named shapes (`interface ContactInput extends InputOf<...>, Named {}`): the
 * compiler compares an interface with one base and no members of its own as that base, and prints the base in its
 * messages; with a second base, it prints the interface's name.
 */
export interface Named {}

/** The key of a definition's types: declared, never present at run time, and not exported as a value. */
declare const layoutTypes: unique symbol;
/** The type of the phantom key under which a definition carries its TypeScript shapes (`D[LayoutTypesKey]`). */
export type LayoutTypesKey = typeof layoutTypes;

/**
 * A layout definition: its spec, and its TypeScript shapes as a phantom type. What generated modules export per
 * layout and `fm.layout()` takes; made by `defineLayout`.
 */
export interface LayoutDefinition<T extends DefinitionTypes = HandWrittenTypes<AnyLayoutTypes>> extends LayoutSpec {
  /** Phantom: the layout's types, never present at run time. */
  readonly [layoutTypes]: T;
}

/** The types of a definition written without generated interfaces. */
export interface AnyLayoutTypes extends LayoutTypes {
  fields: Record<string, unknown>;
  input: Record<string, unknown>;
  portals: Record<string, PortalRow<Record<string, unknown>>[]>;
  portalInput: Record<string, Record<string, unknown>[]>;
  containers: string;
}

/**
 * A layout definition. Generated modules write `defineLayout<NameFields>()({ ...spec })`: the spec's literal types
 * are kept (a const type parameter) and every shape but the read shape of the fields is derived from them. A
 * hand-written definition may give all of its shapes instead: `defineLayout<Types>(spec)`. Either way a spec's
 * `readOnly` and `containers` join its `fields`, where the runtime looks fields up.
 */
export function defineLayout<Fields extends object>(): <const S extends LayoutSpec>(spec: S) => LayoutDefinition<SpecTypes<Fields, S>>;
export function defineLayout<T extends LayoutTypes = AnyLayoutTypes>(spec: LayoutSpec): LayoutDefinition<HandWrittenTypes<T>>;
export function defineLayout(spec?: LayoutSpec): unknown {
  return spec === undefined ? withAllFields : withAllFields(spec);
}

/** Refuses a layout of another hosted database than the client's (a mistake in the program: a TypeError). */
export function checkDatabase(what: string, layout: LayoutSpec, database: string): void {
  if ((layout.database ?? database) !== database) throw new TypeError(`${what} "${layout.layout}" is of database "${layout.database}", but this client is for "${database}"`);
}

/** The spec with its `readOnly` and `containers` among its `fields` (in that order, after the writable ones). */
function withAllFields(spec: LayoutSpec): LayoutSpec {
  if (!spec.readOnly && !spec.containers) return spec;
  const fields: Record<string, FieldSpec> = {};
  // Through setOwn: a field named "__proto__" stays a field.
  const add = (name: string, field: FieldSpec) => setOwn(fields, name, field);
  for (const [name, field] of Object.entries(spec.fields)) add(name, field);
  for (const [name, field] of Object.entries(spec.readOnly ?? {})) add(name, { ...field, readOnly: true });
  for (const [name, container] of Object.entries(spec.containers ?? {})) add(name, { ...container, type: "container" });
  return { ...spec, fields };
}

// ---- Shapes derived from a spec. Each is a mapped type over a part of the spec, so that the compiler works a
// field's type out only where something names that field: a layout's sixty fields cost nothing until used. (Any
// type that filters fields by their spec would cost the compiler work per field of every layout; the spec's
// groups, `readOnly` and `containers`, make that filtering unnecessary.)

/**
 * The TypeScript value of a field as read: text a string (a value list's union), number a number or null (an exact one
 * decimal text or null), date, time and timestamp an ISO string or null, container its URL or null; a repeating field
 * is a tuple (an array past 100).
 */
export type ReadValue<F> = F extends { readonly repetitions: infer N extends number } ? (N extends 1 ? Scalar<F> : Repeat<Scalar<F>, N>) : Scalar<F>;
type Scalar<F> = F extends { readonly type: "text" } ? (F extends { readonly valueList: readonly (infer V extends string)[] } ? V | "" : string) : F extends { readonly type: "number" } ? (F extends { readonly exact: true } ? string | null : number | null) : string | null;
type Repeat<T, N extends number, Acc extends T[] = []> = Acc["length"] extends N ? Acc : Acc["length"] extends 100 ? T[] : Repeat<T, N, [...Acc, T]>;

type PortalFields<S extends LayoutSpec, N extends keyof S["portals"]> = NonNullable<S["portals"]>[N]["fields"];

/**
 * Every shape of a layout, derived from the read shape of its fields and its spec's literal types. The mapped types
 * are written out here, not through type aliases, so that an editor shows the shapes themselves. A shape built on
 * another one reads it from this interface (`SpecTypes<Fields, S>["rows"]`), so the compiler works it out once.
 */
export interface SpecTypes<Fields extends object, S extends LayoutSpec> extends DefinitionTypes {
  /** The spec's database, as its literal type: a response layout of another database fails to compile. */
  database: S["database"];
  /** The spec's base table, as its literal type: a response layout of another table fails to compile. */
  table: S["table"];
  fields: Fields;
  /** The spec's `fields` are the writable ones. */
  input: { -readonly [K in keyof S["fields"]]?: InputValue<Fields[K & keyof Fields]> };
  /** Each portal's row as read, its fields only (`PortalRowOf` reads it). */
  rows: { -readonly [N in keyof S["portals"]]: { -readonly [K in keyof PortalFields<S, N>]: ReadValue<PortalFields<S, N>[K]> } };
  portals: { -readonly [N in keyof S["portals"]]: PortalRow<SpecTypes<Fields, S>["rows"][N]>[] };
  portalInput: {
    -readonly [N in keyof S["portals"]]?: ({
      -readonly [K in keyof PortalFields<S, N> as PortalFields<S, N>[K] extends { readonly type: "container" } | { readonly readOnly: true } ? never : K]?: InputValue<ReadValue<PortalFields<S, N>[K]>>;
    } & RowIds)[];
  };
  containers: keyof S["containers"] & string;
  /** The spec itself: its groups say each field's kind. */
  kinds: S;
  findable: [keyof S["portals"]] extends [never] ? Fields : Fields & UnionToIntersection<SpecTypes<Fields, S>["rows"][keyof S["portals"]]>;
  record: FmRecord<Fields, SpecTypes<Fields, S>["portals"]>;
  names: keyof Fields & string;
  orders: SortOrder<S extends { readonly valueLists: readonly (infer V extends string)[] } ? V : never>;
}

/** Field specs as kinds are read from them. */
export type SpecKindsOf = { readonly [name: string]: { readonly type: FieldKind } };

/**
 * Where a find looks a field's kind up: groups of field specs, as a spec has them (a generated definition's kinds are
 * its spec). A field in none of them gets its kind guessed from its value type.
 */
export interface KindSource {
  /** The layout's writable fields. */
  fields: SpecKindsOf;
  /** Its read-only fields. */
  readOnly?: SpecKindsOf;
  /** Its container fields (finds take no helper on them). */
  containers?: object;
  /** Its portals' fields. */
  portals?: { readonly [name: string]: { readonly fields: SpecKindsOf } };
}

/** A hand-written definition's shapes, with what finds key off worked out from them. */
export interface HandWrittenTypes<T extends LayoutTypes> extends DefinitionTypes {
  fields: T["fields"];
  input: T["input"];
  portals: T["portals"];
  portalInput: T["portalInput"];
  containers: T["containers"];
  /**
   * The kinds as given when they are in a spec's form, else the kinds map as one group (portal fields among them: a
   * lookup only needs a field's kind).
   */
  kinds: T extends { kinds: infer K extends object } ? (K extends KindSource ? K : { fields: { [F in keyof K]: { readonly type: Extract<K[F], FieldKind> } } }) : { fields: {} };
  findable: T["fields"] & UnionToIntersection<{ [P in keyof T["portals"]]: RowFields<T["portals"][P]> }[keyof T["portals"]]>;
  record: FmRecord<T["fields"], T["portals"]>;
  names: keyof T["fields"] & string;
  orders: SortOrder<T extends { valueLists: infer V extends string } ? V : never>;
}

/** The ids of an existing portal row in create and edit: without them, a row is added. */
export interface RowIds {
  /** The row to edit; without it, create and edit add a new row. */
  recordId?: string;
  /** The row's modId when read: the edit fails if the row changed since. */
  modId?: string;
}

/**
 * Any layout definition, as a constraint. Its types are `any` on purpose: `LayoutDefinition<DefinitionTypes>` would
 * have the compiler compare every layout's derived shapes with `DefinitionTypes`, member by member.
 */
export type AnyDefinition = LayoutDefinition<any>;
/** Every shape of definition `D` (a generated module's `<Name>Types` extends those of its spec). */
export type TypesOf<D extends AnyDefinition> = D[LayoutTypesKey];
// The shapes of a definition are read by indexed access, not `D extends LayoutDefinition<infer T>`: inference
// would check the derived shapes against `LayoutTypes` member by member, for every layout.
/** The read shape of layout `D`'s fields (`fieldData` of its records). */
export type FieldsOf<D extends AnyDefinition> = D[LayoutTypesKey]["fields"];
/** What create and edit of layout `D` take as `fieldData`: its writable fields, all optional. */
export type InputOf<D extends AnyDefinition> = D[LayoutTypesKey]["input"];
/** The read shape of layout `D`'s portals (`portalData`): portal name -> rows. */
export type PortalsOf<D extends AnyDefinition> = D[LayoutTypesKey]["portals"];
/** What create and edit of layout `D` take as `portalData`: rows to add, or to edit with their `recordId`. */
export type PortalInputOf<D extends AnyDefinition> = D[LayoutTypesKey]["portalInput"];
/** The names of layout `D`'s container fields: the only ones `upload` and `download` take. */
export type ContainersOf<D extends AnyDefinition> = D[LayoutTypesKey]["containers"];
// Read from the definition's types, where each is worked out once per layout (generated modules' aliases share it).
/** A record of layout `D` as the runtime returns it. */
export type RecordOf<D extends AnyDefinition> = D[LayoutTypesKey]["record"];
/** The field names of layout `D` that sort specs take. */
export type SortNameOf<D extends AnyDefinition> = D[LayoutTypesKey]["names"];
/** The sort orders of layout `D`: `ascend`, `descend` and the names of its file's value lists. */
export type SortOrderOf<D extends AnyDefinition> = D[LayoutTypesKey]["orders"];
/**
 * One portal's row as read, its fields only (`PortalRow` adds the ids); for generated definitions, which name only
 * their own portals. `P` is not checked against the definition's portals: that check cost the compiler about fifty
 * instantiations per generated row type.
 */
export type PortalRowOf<D extends AnyDefinition, P extends string> = D[LayoutTypesKey]["rows"][P];
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type RowFields<Rows> = Rows extends readonly (infer Row)[] ? Omit<Row, "recordId" | "modId"> : never;
/** Every portal field of a layout (`TO::F`) with its row type: finds may name them. */
export type PortalFieldsOf<D extends AnyDefinition> = UnionToIntersection<{ [P in keyof PortalsOf<D>]: RowFields<PortalsOf<D>[P]> }[keyof PortalsOf<D>]>;

/**
 * The database a definition's type names, as a literal: its `database` when that is a literal, else its spec's (a
 * generated definition keeps it); never when the type does not say (a hand-written definition: `string`).
 */
export type DatabaseOfLayout<L extends AnyDefinition> = string extends NonNullable<L["database"]> ? SpecLiteral<L[LayoutTypesKey], "database"> : NonNullable<L["database"]>;
/** The base table a definition's type names, as a literal (a generated definition's spec has it), or never. */
export type TableOfLayout<L extends AnyDefinition> = string extends NonNullable<L["table"]> ? SpecLiteral<L[LayoutTypesKey], "table"> : NonNullable<L["table"]>;
/** Member `K` of a definition's types when it is a string literal, else never. */
type SpecLiteral<T, K extends string> = T extends { [_ in K]: infer B extends string } ? (string extends B ? never : B) : never;

/** A record as the runtime returns it: values decoded to their TypeScript types. */
export interface FmRecord<Fields, Portals> {
  /** FileMaker's internal id of the record: what get, edit and delete take. */
  recordId: string;
  /** Its modification count when read: pass it to edit so that the edit fails if the record changed since. */
  modId: string;
  /** The layout's fields, decoded. */
  fieldData: Fields;
  /** The layout's portals' rows, decoded (the portals asked for). */
  portalData: Portals;
}

/** A portal row: its own record and modification ids beside its fields. */
export type PortalRow<Fields> = Fields & { recordId: string; modId: string };
