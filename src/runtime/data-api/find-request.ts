import type { AnyDefinition, FieldKind, KindSource, LayoutTypesKey } from "./definition.js";
import type { Criterion, HelperName, HelpersOf } from "./q.js";

/**
 * The types of find requests. Everything keys off two things a definition carries: the fields a find may name
 * with their types (`findable`: the layout's fields and its portals'), and where their kinds are (`kinds`: the
 * spec of a generated definition, or a hand-written kinds map as a spec's group), so a field takes its own value
 * type and the `q` helpers of its kind (`HELPERS_BY_KIND`). A definition without kinds (some hand-written ones) gets
 * the kind of a field guessed from its value type: number fields are numbers, any other field may take every
 * helper, and the runtime refuses what does not apply to the field's actual type.
 */

/** A repeating field is found by the value of any repetition. */
type FindValue<T> = T extends readonly (infer E)[] ? E : T;

/**
 * A field named like a member of Object (`constructor`, `toString`) is checked by TypeScript against the
 * inherited member when a request leaves it out; admitting that type keeps such layouts usable.
 */
type Inherited<K> = ObjectMembers[K & keyof ObjectMembers];
type ObjectMembers = { [K in keyof Object]: Object[K] };

/** What helper `H` compares with on a field whose values are `V`. */
type ArgOf<H, V> = H extends "eq" ? V : H extends "empty" | "notEmpty" ? never : H extends "words" | "beginsWith" | "endsWith" | "contains" | "raw" ? string : Exclude<V, null>;

/** Stands where a helper does not apply to a kind of field, so that the compiler's complaint says why. */
export type NotApplicable<H extends HelperName, K extends FieldKind> = { readonly helper: H } & { readonly [S in `q.${H}() does not apply to ${K} fields`]: never };

/** The criteria a field of kind `K` whose values are `V` takes: the helpers of its kind, with its value type. */
export type CriterionFor<K, V> = K extends FieldKind ? { [H in HelperName]: H extends HelpersOf<K> ? Criterion<H, ArgOf<H, V>> : NotApplicable<H, K> }[HelperName] : never;

/** The kind of field `K` in a kinds map (`{ "First Name": "text" }`), or else guessed from its value type. */
type MapKind<Kinds, K, V> = K extends keyof Kinds ? Extract<Kinds[K], FieldKind> : Guess<V>;
/**
 * The kind of field `K` of a definition: looked up in its kinds' groups (`KindSource`: a generated definition's
 * spec), or else guessed from its value type. No test of which form the kinds have: that test would compare every
 * spec with the form, field by field, on each find.
 */
type SourceKind<S extends KindSource, K, V> = K extends keyof S["fields"]
  ? S["fields"][K]["type"]
  : K extends keyof S["readOnly"]
    ? TypeIn<S["readOnly"][K], V>
    : K extends keyof S["containers"]
      ? "container"
      : PortalKind<S["portals"], K, V>;
type TypeIn<F, V> = F extends { readonly type: infer T extends FieldKind } ? T : Guess<V>;
type PortalKind<P, K, V> =
  { [N in keyof P]: P[N] extends { readonly fields: infer F } ? (K extends keyof F ? TypeIn<F[K], never> : never) : never }[keyof P] extends infer T
    ? [T] extends [never]
      ? Guess<V>
      : T
    : never;
type Guess<V> = [V] extends [number | null] ? "number" : FieldKind;

/** What a find request may say about one field: a plain value ("equals exactly") or a `q` criterion. */
export type FieldCriterion<K, V> = V | CriterionFor<K, V>;

/** The field criteria of one find request, ANDed; `Kinds` maps field names to kinds (`{ "First Name": "text" }`). */
export type FindFields<Fields, Kinds = Record<never, never>> = {
  [K in keyof Fields]?: FieldCriterion<MapKind<Kinds, K, FindValue<Fields[K]>>, FindValue<Fields[K]>> | Inherited<K>;
};

/** One find request; `omit: true` removes its matches from the records the requests before it found. */
export type FindRequest<Fields, Kinds = Record<never, never>> = FindFields<Fields, Kinds> & { omit?: boolean };

/** Where a layout definition's kinds are: its spec's groups (`KindSource`). */
export type KindsOf<D extends AnyDefinition> = D[LayoutTypesKey]["kinds"];

/** What a find request may name: the layout's fields and its portals' fields. */
export type FindableOf<D extends AnyDefinition> = D[LayoutTypesKey]["findable"];

/** What a find request may say besides its criteria. */
export interface FindOmit {
  /** Removes the request's matches from the records the requests before it found. */
  omit?: boolean;
}

/**
 * The field criteria of one request of a layout whose types are `T` (a definition's types): its fields and its
 * portals' fields, each a value or a `q` criterion of its kind. Written out, not as `FindFields`, so that an editor
 * shows the fields rather than the alias.
 */
export type CriteriaShape<T extends { findable: object; kinds: KindSource }> = {
  [K in keyof T["findable"]]?: FieldCriterion<SourceKind<T["kinds"], K, FindValue<T["findable"][K]>>, FindValue<T["findable"][K]>> | Inherited<K>;
};

/**
 * The field criteria of one request of a layout (what the query builder's `where`, `or` and `omit` take). A generated
 * definition's types name them (`criteria?: <Name>Criteria`, an interface, which compiler messages print by name;
 * optional, so that the spec's own types, which lack it, are a `<Name>Layout`); other definitions get them worked
 * out here.
 */
export type CriteriaOf<D extends AnyDefinition> = "criteria" extends keyof D[LayoutTypesKey] ? NamedShape<D[LayoutTypesKey], "criteria"> : CriteriaShape<D[LayoutTypesKey]>;

/** One find request of a layout: its field criteria and `omit` (a generated definition's types name it: `query?: <Name>Query`). */
export type QueryOf<D extends AnyDefinition> = "query" extends keyof D[LayoutTypesKey] ? NamedShape<D[LayoutTypesKey], "query"> : CriteriaOf<D> & FindOmit;

/** Member `K` of a definition's types, which names a shape, without the `undefined` of an optional member. */
type NamedShape<T, K extends string> = Exclude<T[K & keyof T], undefined>;
