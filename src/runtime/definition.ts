/**
 * The layout definition: the one value a generated module exports per layout and passes to `fm.layout()`.
 * Its runtime part describes the fields (the codecs need their types); its type parameters carry the
 * generated interfaces. Hand-written definitions in tests use the same `defineLayout`.
 */
export type FieldKind = "text" | "number" | "date" | "time" | "timestamp" | "container";

export interface FieldSpec {
  type: FieldKind;
  /** Default 1. Repeating fields travel as `F`, `F(2)`, ... and appear in TypeScript as a tuple. */
  repetitions?: number;
  readOnly?: boolean;
  valueList?: readonly string[];
}

export interface PortalSpec {
  fields: Readonly<Record<string, FieldSpec>>;
}

export interface LayoutSpec {
  /** The layout's name on the server. */
  layout: string;
  /** The hosted database the layout belongs to; a client for another database refuses it. */
  database?: string;
  fields: Readonly<Record<string, FieldSpec>>;
  portals?: Readonly<Record<string, PortalSpec>>;
  /** Check records against the layout's schema before decoding; overrides the client's `validate`. */
  validate?: boolean;
}

/** The TypeScript shapes behind a layout, carried only in types. */
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
   * Each field's kind, layout and portal fields alike (`{ "First Name": "text"; "Invoices::Amount": "number" }`):
   * which `q` helpers a find may use on it. Generated modules carry it; without it, a field whose value is a
   * number counts as a number field and any other may take every helper (the runtime still checks).
   */
  kinds?: object;
}

export interface LayoutDefinition<T extends LayoutTypes = AnyLayoutTypes> extends LayoutSpec {
  /** Phantom: never present at run time. */
  readonly __types?: T;
}

/** The types of a definition written without generated interfaces. */
export interface AnyLayoutTypes extends LayoutTypes {
  fields: Record<string, unknown>;
  input: Record<string, unknown>;
  portals: Record<string, PortalRow<Record<string, unknown>>[]>;
  portalInput: Record<string, Record<string, unknown>[]>;
  containers: string;
}

export function defineLayout<T extends LayoutTypes>(spec: LayoutSpec): LayoutDefinition<T> {
  return spec as LayoutDefinition<T>;
}

export type FieldsOf<D> = D extends LayoutDefinition<infer T> ? T["fields"] : never;
export type InputOf<D> = D extends LayoutDefinition<infer T> ? T["input"] : never;
export type PortalsOf<D> = D extends LayoutDefinition<infer T> ? T["portals"] : never;
export type PortalInputOf<D> = D extends LayoutDefinition<infer T> ? T["portalInput"] : never;
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type RowFields<Rows> = Rows extends readonly (infer Row)[] ? Omit<Row, "recordId" | "modId"> : never;
/** Every portal field of a layout (`TO::F`) with its row type: finds may name them. */
export type PortalFieldsOf<D> = D extends LayoutDefinition<infer T> ? UnionToIntersection<{ [P in keyof T["portals"]]: RowFields<T["portals"][P]> }[keyof T["portals"]]> : never;
export type ContainersOf<D> = D extends LayoutDefinition<infer T> ? T["containers"] : never;

/** A record as the runtime returns it: values decoded to their TypeScript types. */
export interface FmRecord<Fields, Portals> {
  recordId: string;
  modId: string;
  fieldData: Fields;
  portalData: Portals;
}

/** A portal row: its own record and modification ids beside its fields. */
export type PortalRow<Fields> = Fields & { recordId: string; modId: string };
