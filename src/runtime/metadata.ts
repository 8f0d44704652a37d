/**
 * What a server says about a layout it has no definition for, read through a client's shared session (so logins,
 * the 952 re-login and typed errors are the same as for record calls), and the OData API's `$metadata` document, read
 * over an OData client's carrier. For tools that inspect layouts and tables, such as `fmgen pull`; apps use
 * `fm.layout(Definition)` and generated table definitions, and never load this module.
 *
 * @module \@fmgen/runtime/metadata
 */
import { broken, isObject, pageIn } from "./data-api/answer-shape.js";
import type { FileMakerClient } from "./data-api/client.js";
import type { AnyDatabase } from "./data-api/database.js";
import { sessionOf } from "./data-api/client-sessions.js";
import { getOwn, setOwn } from "./core/own.js";
import { listQuery, type DataInfo } from "./data-api/paging.js";
import { segment } from "./core/call-bounds.js";
import { checkCall } from "./core/call-options.js";

export { odataMetadata, type ODataMetadataAnswer } from "./odata/metadata-document.js";

/** One field of `fieldMetaData` (FileMaker Server's shape; fields a server leaves out get their defaults). */
export interface FieldMetadata {
  /** The field's name (`TableOccurrence::Field` in a portal). */
  name: string;
  /** `normal`, `calculation` or `summary`. */
  type: string;
  /** `text`, `number`, `date`, `time`, `timeStamp` or `container`. */
  result: string;
  /** A global field: one value per session. */
  global: boolean;
  /** FileMaker enters a value when a record is created. */
  autoEnter: boolean;
  /** Its repetitions (1: not repeating). */
  maxRepeat: number;
  /** Validation: not empty. */
  notEmpty: boolean;
  /** Name of the field's value list in `valueLists`. */
  valueList?: string;
  /** How the layout shows it (`editText`, `popupList`, `checkBox`, ...), when the server says. */
  displayType?: string;
  [key: string]: unknown;
}

/** A value list of the layout, with its values. */
export interface ValueListMetadata {
  /** The value list's name. */
  name: string;
  /** `customList` or `byField`. */
  type: string;
  /** Its values: what is stored, and what is shown. */
  values: { value: string; displayValue: string }[];
}

/** What `layoutMetadata` resolves to: a layout's fields, portals and value lists, as the server states them. */
export interface LayoutMetadata {
  /** The layout's own fields. */
  fieldMetaData: FieldMetadata[];
  /** Portal object name -> its fields, each named `TableOccurrence::Field`. */
  portalMetaData: Record<string, FieldMetadata[]>;
  /** The value lists its fields use. */
  valueLists: ValueListMetadata[];
  /** The layout's table occurrence, when the server says. */
  table?: string;
}

/** A record exactly as it travels: wire values, repetitions as `F(n)`, nothing decoded. */
export interface WireRecord {
  /** FileMaker's internal id of the record. */
  recordId: string;
  /** Its modification count. */
  modId: string;
  /** The fields, as they travel (strings, numbers; repetitions as `F(n)`). */
  fieldData: Record<string, unknown>;
  /** The portals' rows, as they travel. */
  portalData: Record<string, Record<string, unknown>[]>;
}

/** Where and how an answer's shape is wrong, as "fieldMetaData.0.name: expected a string, got number". */
class ShapeError extends Error {
  declare readonly path: readonly (string | number)[];

  constructor(path: readonly (string | number)[], what: string) {
    super(what);
    this.path = path;
  }
}

type Path = readonly (string | number)[];
const kindOf = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value);
const expected = (what: string, value: unknown, path: Path): never => {
  throw new ShapeError(path, `expected ${what}, got ${kindOf(value)}`);
};

function objectAt(value: unknown, path: Path): Record<string, unknown> {
  return isObject(value) ? value : expected("an object", value, path);
}

function arrayAt<T>(value: unknown, path: Path, item: (value: unknown, path: Path) => T): T[] {
  return Array.isArray(value) ? value.map((v, i) => item(v, [...path, i])) : expected("an array", value, path);
}

/** `object[key]` of the given type; missing (undefined), `fallback` when there is one. */
function member<T extends string | boolean>(object: Record<string, unknown>, key: string, type: "string" | "boolean", path: Path, fallback?: T): T {
  const value = getOwn(object, key);
  if (value === undefined && fallback !== undefined) return fallback;
  return typeof value === type ? (value as T) : expected(`a ${type}`, value, [...path, key]);
}

/** One field's metadata, with the defaults of the fields a server leaves out; other members kept as they are. */
function fieldMetadata(value: unknown, path: Path): FieldMetadata {
  const field = objectAt(value, path);
  const given = getOwn(field, "maxRepeat");
  const maxRepeat = given === undefined ? 1 : given;
  if (!Number.isInteger(maxRepeat) || (maxRepeat as number) < 1) expected("a whole number >= 1", maxRepeat, [...path, "maxRepeat"]);
  const out: FieldMetadata = {
    ...field,
    name: member(field, "name", "string", path),
    type: member(field, "type", "string", path, "normal"),
    result: member(field, "result", "string", path, "text"),
    global: member(field, "global", "boolean", path, false),
    autoEnter: member(field, "autoEnter", "boolean", path, false),
    maxRepeat: maxRepeat as number,
    notEmpty: member(field, "notEmpty", "boolean", path, false),
  };
  for (const key of ["valueList", "displayType"]) if (out[key] !== undefined) member(field, key, "string", path);
  return out;
}

function valueList(value: unknown, path: Path): ValueListMetadata {
  const list = objectAt(value, path);
  const values = list.values === undefined ? [] : arrayAt(list.values, [...path, "values"], (v, at) => {
    const entry = objectAt(v, at);
    return { ...entry, value: member<string>(entry, "value", "string", at), displayValue: member<string>(entry, "displayValue", "string", at) };
  });
  return { ...list, name: member(list, "name", "string", path), type: member(list, "type", "string", path, "customList"), values };
}

/** A layout's metadata as the server sent it, checked, with defaults filled in; names like `__proto__` kept as keys. */
function layoutMetadataOf(response: Record<string, unknown>): LayoutMetadata {
  const portals: Record<string, FieldMetadata[]> = {};
  if (response.portalMetaData !== undefined) {
    for (const [name, fields] of Object.entries(objectAt(response.portalMetaData, ["portalMetaData"]))) {
      setOwn(portals, name, arrayAt(fields, ["portalMetaData", name], fieldMetadata));
    }
  }
  return {
    fieldMetaData: arrayAt(response.fieldMetaData, ["fieldMetaData"], fieldMetadata),
    portalMetaData: portals,
    valueLists: response.valueLists === undefined ? [] : arrayAt(response.valueLists, ["valueLists"], valueList),
    ...(response.table !== undefined ? { table: member<string>(response, "table", "string", []) } : {}),
  };
}

/** `GET /databases/{database}/layouts/{layout}`: fields, portals and value lists, checked. */
export async function layoutMetadata(fm: FileMakerClient<AnyDatabase>, layout: string, options: { signal?: AbortSignal } = {}): Promise<LayoutMetadata> {
  const { session, database } = sessionOf(fm, "layoutMetadata: fm");
  checkCall("layoutMetadata", options, layout);
  const req = { method: "GET", path: `${layoutsPath(database)}/${segment(layout, "layoutMetadata: layout")}` } as const;
  const envelope = await session.call(() => req, { idempotent: true, signal: options.signal });
  try {
    return layoutMetadataOf(envelope.response);
  } catch (error) {
    if (!(error instanceof ShapeError)) throw error;
    // The path holds the server's names (of portals): scrubbed as the session scrubs what a server says.
    throw broken(envelope, req, session.scrub(`the layout metadata has an unexpected shape at ${error.path.join(".") || "response"}: ${error.message}`));
  }
}

/** The list call, undecoded; no record (code 101) is an empty page, as for `list`. */
export async function wireRecords(
  fm: FileMakerClient<AnyDatabase>,
  layout: string,
  options: { offset?: number; limit?: number; signal?: AbortSignal } = {},
): Promise<{ data: WireRecord[]; dataInfo?: DataInfo }> {
  const { session, database } = sessionOf(fm, "wireRecords: fm");
  checkCall("wireRecords", options, layout);
  const req = { method: "GET", path: `${layoutsPath(database)}/${segment(layout, "wireRecords: layout")}/records${listQuery(options)}` } as const;
  try {
    const response = pageIn(await session.call(() => req, { idempotent: true, signal: options.signal }), req);
    return {
      data: (response.data as WireRecord[]).map((r) => ({ recordId: r.recordId, modId: r.modId, fieldData: r.fieldData, portalData: r.portalData ?? {} })),
      dataInfo: response.dataInfo as DataInfo,
    };
  } catch (error) {
    // The session's FileMakerError for code 101, known by its code: importing the class would bring every error class
    // into this entry (their names are set when the module loads), and a bundle may hold a second copy of it.
    if (error instanceof Error && (error as { code?: unknown }).code === "101") return { data: [] };
    throw error;
  }
}

function layoutsPath(database: string): string {
  return `/databases/${segment(database)}/layouts`;
}
