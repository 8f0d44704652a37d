// Schema changes through OData (docs/emulator.md, "Schema changes"): `FileMaker_Tables` creates and deletes tables and
// adds and deletes fields, `FileMaker_Indexes` sets and drops field indexes; and `$schemaversion` (2.9), checked
// against the SchemaVersion `$metadata` states. Requests are read and checked here, then applied by the hosted file
// (hosted-file/schema-changes.ts), which both APIs read, so a new table is at once an entity set and a dropped field
// gone from the Data API's layouts. Takes plain values (no IncomingMessage), so a `$batch` part can call it.

import { foldName } from "../hosted-file/name-map.js";
import { carriedNameFault, shownName } from "../../layout/carried-name.js";
import type { AutoEnter, FieldType } from "../../layout/schema.js";
import type { TableField, TableModel } from "../hosted-file/model.js";
import { addField, createTable, deleteField, deleteTable, setFieldIndex, type FieldDefinition } from "../hosted-file/schema-changes.js";
import type { ContainerStore, HostedDatabase } from "../hosted-file/store.js";
import { fieldMissing, odataModelOf } from "./entity-sets.js";
import { parseWriteBody } from "./entity-write.js";
import { entityTypeOf, propertyOf, type ODataEntityType } from "./metadata-model.js";
import { ODataError, quoted } from "./odata-error.js";
import type { QueryOptions } from "./query-options.js";
import type { ODataPath } from "./url-path.js";

export type SchemaPath = Extract<ODataPath, { kind: "tables" } | { kind: "indexes" }>;

/** A schema request's answer: its status and, unless 204, its JSON body. */
export interface SchemaAnswer {
  readonly status: number;
  readonly body?: unknown;
}

/** Longest table or field name FileMaker takes. */
export const MAX_NAME_LENGTH = 100;

/** Most fields one request may define (choice: a bound on work per request). */
export const MAX_FIELDS_PER_REQUEST = 1000;

const invalid = (message: string) => new ODataError(400, "-1", `Error: ${message}`);
const tableMissing = (name: string) => new ODataError(404, "-1020", `Table '${quoted(name)}' not defined in database`);
const notAllowed = (method: string, what: string) => new ODataError(405, "-1002", `Error: ${method} is not supported on ${what}`);

/**
 * `$schemaversion=<v>` (2.9): the current SchemaVersion passes; any other is 400 -1 naming the current one (2.9's
 * choice), so a client that read `$metadata` before a schema change learns that it must read it again.
 */
export function checkSchemaVersion(db: HostedDatabase, given: string | undefined): void {
  if (given === undefined) return;
  const current = odataModelOf(db).schemaVersion;
  if (current === undefined) throw invalid("$schemaversion cannot be checked: this server's $metadata states no SchemaVersion");
  if (given.toLowerCase() !== current) {
    throw invalid(`$schemaversion '${quoted(given)}' is not the current schema version '${current}'; read $metadata again`);
  }
}

/** `FileMaker_Tables[/T[/F]]` and `FileMaker_Indexes/T[/F]`, every method (section 6). */
export function serveSchemaChange(db: HostedDatabase, containers: ContainerStore, method: string, path: SchemaPath, query: QueryOptions, body: Buffer | undefined): SchemaAnswer {
  // 6: the system tables cannot be read (FMS 21/26 answer 404 -1020).
  if (method === "GET") throw tableMissing(path.kind === "tables" ? "FileMaker_Tables" : "FileMaker_Indexes");
  // Rule one: nothing here applies a query option.
  const given = Object.entries(query).filter(([k, v]) => k !== "ignored" && k !== "schemaversion" && v !== undefined);
  if (given.length > 0) throw new ODataError(400, "-1002", `Error: $${given[0]![0]} does not apply to a schema change`);
  return path.kind === "tables" ? tables(db, containers, method, path, body) : indexes(db, method, path, body);
}

function tables(db: HostedDatabase, containers: ContainerStore, method: string, path: Extract<SchemaPath, { kind: "tables" }>, body: Buffer | undefined): SchemaAnswer {
  if (path.table === undefined) {
    if (method !== "POST") throw notAllowed(method, "FileMaker_Tables (POST creates a table)");
    return create(db, containers, parseWriteBody(body));
  }
  const type = findType(db, path.table);
  if (path.field === undefined) {
    if (method === "PATCH") return addFields(db, type, parseWriteBody(body));
    if (method === "DELETE") {
      deleteTable(db, type.table);
      return { status: 204 };
    }
    throw notAllowed(method, "FileMaker_Tables/{table} (PATCH adds fields, DELETE deletes the table)");
  }
  if (method !== "DELETE") throw notAllowed(method, "FileMaker_Tables/{table}/{field} (DELETE deletes the field)");
  deleteField(db, type.table, findField(type, path.field));
  return { status: 204 };
}

function indexes(db: HostedDatabase, method: string, path: Extract<SchemaPath, { kind: "indexes" }>, body: Buffer | undefined): SchemaAnswer {
  const type = findType(db, path.table);
  if (path.field === undefined) {
    if (method !== "POST") throw notAllowed(method, "FileMaker_Indexes/{table} (POST creates an index)");
    const request = parseWriteBody(body);
    for (const key of Object.keys(request)) if (key !== "indexName") throw invalid(`FileMaker_Indexes takes {"indexName": "<field>"}; '${quoted(key)}' is not a member of it`);
    const name = request.indexName;
    if (typeof name !== "string" || name === "") throw invalid(`FileMaker_Indexes: indexName must be the name of a field of '${quoted(type.set)}'`);
    const property = propertyOf(type, name) ?? fieldMissingError(name);
    const why = property.field.global ? "a global field" : property.field.type === "container" ? "a container field" : property.calculation ? "a calculation" : undefined;
    if (why !== undefined) throw invalid(`'${quoted(name)}' is ${why}, which cannot be indexed`);
    setFieldIndex(db, type.table, property.field, true);
    // The field's own name, however the request spelled it.
    return { status: 200, body: { indexName: property.name } };
  }
  if (method !== "DELETE") throw notAllowed(method, "FileMaker_Indexes/{table}/{field} (DELETE drops the index)");
  const property = propertyOf(type, path.field) ?? fieldMissingError(path.field);
  const field = property.field;
  if (field.unique) throw invalid(`the index of '${quoted(path.field)}' cannot be dropped: its unique validation needs it`);
  if (isJoinField(db, field)) throw invalid(`the index of '${quoted(path.field)}' cannot be dropped: a relationship joins on it`);
  setFieldIndex(db, type.table, field, false);
  return { status: 204 };
}

function fieldMissingError(name: string): never {
  throw fieldMissing(name);
}

function isJoinField(db: HostedDatabase, field: TableField): boolean {
  for (const layout of db.model.layouts.values()) {
    for (const portal of layout.portals) if (portal.relation && (portal.relation.parentField === field || portal.relation.childField === field)) return true;
  }
  return false;
}

/** A table by name (as FileMaker matches names) or `FMTID:n`; unknown → 404 -1020. */
function findType(db: HostedDatabase, ref: string): ODataEntityType {
  return entityTypeOf(odataModelOf(db), ref) ?? throwError(tableMissing(ref));
}

/** A field by name (as FileMaker matches names) or `FMFID:n`; unknown → 400 8309. */
function findField(type: ODataEntityType, ref: string): TableField {
  return propertyOf(type, ref)?.field ?? throwError(fieldMissing(ref));
}

function throwError(error: ODataError): never {
  throw error;
}

/** `POST FileMaker_Tables`: `{tableName, fields}`, all or nothing (choice): one bad field creates nothing. */
function create(db: HostedDatabase, containers: ContainerStore, body: Record<string, unknown>): SchemaAnswer {
  for (const key of Object.keys(body)) if (key !== "tableName" && key !== "fields") throw invalid(`FileMaker_Tables takes {"tableName", "fields"}; '${quoted(key)}' is not a member of it`);
  const name = body.tableName;
  if (typeof name !== "string") throw invalid("FileMaker_Tables: tableName must be a string, the new table's name");
  checkName(name, "table");
  if (RESERVED_TABLE.test(name)) throw invalid(`'${quoted(name)}' cannot name a table: it would read as another kind of OData path`);
  if (db.model.tables.has(name)) throw invalid(`a table named '${quoted(name)}' already exists`);
  const raw = fieldList(body.fields, "FileMaker_Tables");
  if (raw.length === 0) throw invalid("FileMaker_Tables: fields must define at least one field");
  const taken = new Set<string>();
  const defs = raw.map((entry, i) => {
    const def = fieldDefinition(entry, `fields[${i}]`);
    if (taken.has(foldName(def.name))) throw invalid(`fields[${i}]: '${quoted(def.name)}' is defined twice`);
    taken.add(foldName(def.name));
    return def;
  });
  if (defs.filter((d) => d.primary).length > 1) throw invalid("FileMaker_Tables: only one field may be primary");
  createTable(db, containers, name, defs);
  return { status: 200, body: { tableName: name, fields: raw } };
}

/**
 * `PATCH FileMaker_Tables/T`: `{fields}`. Each good field is added even when another fails (6: "other fields can
 * still be added"); the failed ones are listed in `failedFields` (choice). When none is added, the first failure
 * is the answer.
 */
function addFields(db: HostedDatabase, type: ODataEntityType, body: Record<string, unknown>): SchemaAnswer {
  for (const key of Object.keys(body)) if (key !== "fields") throw invalid(`FileMaker_Tables/{table} takes {"fields"}; '${quoted(key)}' is not a member of it`);
  const raw = fieldList(body.fields, `FileMaker_Tables/${type.set}`);
  if (raw.length === 0) throw invalid(`FileMaker_Tables/${quoted(type.set)}: fields must define at least one field`);
  const table: TableModel = type.table;
  const added: unknown[] = [];
  const failed: { name: unknown; error: ODataError }[] = [];
  raw.forEach((entry, i) => {
    try {
      const def = fieldDefinition(entry, `fields[${i}]`);
      if (table.fields.has(def.name)) throw invalid(`fields[${i}]: table '${quoted(table.name)}' already has a field named '${quoted(def.name)}'`);
      if (def.primary && odataModelOf(db).entityTypes.find((t) => t.table === table)?.key !== undefined) throw invalid(`fields[${i}]: table '${quoted(table.name)}' already has a primary key`);
      addField(db, table, def);
      added.push(entry);
    } catch (error) {
      if (!(error instanceof ODataError)) throw error;
      failed.push({ name: typeof entry === "object" && entry !== null ? (entry as Record<string, unknown>).name : undefined, error });
    }
  });
  if (added.length === 0) throw failed[0]!.error;
  const answer: Record<string, unknown> = { tableName: table.name, fields: added };
  if (failed.length > 0) answer.failedFields = failed.map((f) => ({ name: f.name ?? null, error: f.error.toJSON().error }));
  return { status: 200, body: answer };
}

function fieldList(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) throw invalid(`${quoted(where)}: fields must be an array of field definitions`);
  if (value.length > MAX_FIELDS_PER_REQUEST) throw invalid(`${quoted(where)}: at most ${MAX_FIELDS_PER_REQUEST} fields per request`);
  return value;
}

// A table name that would be parsed as another kind of path segment (url-path.ts).
const RESERVED_TABLE = /^(?:\$|FMTID:|Script\.|Webhook\.|FileMaker_Tables$|FileMaker_Indexes$)/i;

/**
 * The names' rules (choice): 1 to 100 characters, no control characters; what a URL path segment and
 * `$metadata`'s XML can carry (carriedNameFault: no lone surrogate or noncharacter, not only dots); no leading or
 * trailing space, none of `/ ( ) [ ] ' " # ? ~ \ @` or `::` (each would read as another part of an OData URL or body, or a
 * related field), not `FMFID:`/`FMTID:`-prefixed, and not ROWID or ROWMODID (special columns, 2.10).
 */
function checkName(name: string, what: "table" | "field"): void {
  const bad = (why: string) => invalid(`${shownName(quoted(name))} cannot name a ${what}: ${why}`);
  if (name.length === 0) throw bad("it is empty");
  if ([...name].length > MAX_NAME_LENGTH) throw bad(`it is longer than ${MAX_NAME_LENGTH} characters`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) throw bad("it holds a control character");
  const fault = carriedNameFault(name);
  if (fault !== undefined) throw bad(fault);
  if (name.trim() !== name) throw bad("it begins or ends with a space");
  const char = /[/()[\]'"#?~\\@]/.exec(name);
  if (char) throw bad(`it holds '${char[0]}'`);
  if (name.includes("::")) throw bad("it holds '::'");
  if (/^FM[FT]ID:/i.test(name)) throw bad("FMFID:/FMTID: names ids");
  if (what === "field" && (name === "ROWID" || name === "ROWMODID")) throw bad("it is a special column");
}

const FIELD_KEYS = new Set(["name", "type", "primary", "unique", "nullable", "default", "global", "externalSecurePath"]);

/** SQL types (6) by their upper-case name, inner spaces as one. */
const TYPES: Record<string, FieldType> = {
  NUMERIC: "number",
  DECIMAL: "number",
  INT: "number",
  DATE: "date",
  TIME: "time",
  TIMESTAMP: "timestamp",
  VARCHAR: "text",
  "CHARACTER VARYING": "text",
  BLOB: "container",
  VARBINARY: "container",
  LONGVARBINARY: "container",
  "BINARY VARYING": "container",
  // proofkit and SOL send it; unproven on servers (6), accepted (choice).
  CONTAINER: "container",
};

/**
 * Defaults (6) and the auto-enter each is, on the one type it fits: the date, time and timestamp of the record's
 * creation, and the account name of the request that creates it (USER, USERNAME, CURRENT_USER: FileMaker's
 * Get ( AccountName ), the account the request signed in as: sign-ins.ts, enteredAccountName).
 */
const DEFAULTS: Record<string, { type: FieldType; autoEnter: AutoEnter }> = {
  CURRENT_DATE: { type: "date", autoEnter: "creationTimestamp" },
  CURDATE: { type: "date", autoEnter: "creationTimestamp" },
  CURRENT_TIME: { type: "time", autoEnter: "creationTimestamp" },
  CURTIME: { type: "time", autoEnter: "creationTimestamp" },
  CURRENT_TIMESTAMP: { type: "timestamp", autoEnter: "creationTimestamp" },
  CURTIMESTAMP: { type: "timestamp", autoEnter: "creationTimestamp" },
  USER: { type: "text", autoEnter: "creationAccount" },
  USERNAME: { type: "text", autoEnter: "creationAccount" },
  CURRENT_USER: { type: "text", autoEnter: "creationAccount" },
};

const TYPE_SYNTAX = /^([A-Za-z]+(?: +[A-Za-z]+)?) *(?:\( *(\d{1,9}) *\))? *(?:\[ *(\d{1,9}) *\])?$/;

/** One field definition of a request body, checked whole (400 -1 naming the member at fault). */
export function fieldDefinition(entry: unknown, where: string): FieldDefinition {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) throw invalid(`${where} must be an object {"name", "type", ...}`);
  const def = entry as Record<string, unknown>;
  for (const key of Object.keys(def)) if (!FIELD_KEYS.has(key)) throw invalid(`${where}: '${quoted(key)}' is not a member of a field definition (${[...FIELD_KEYS].join(", ")})`);
  const flag = (key: string): boolean | undefined => {
    const v = def[key];
    if (v === undefined) return undefined;
    if (typeof v !== "boolean") throw invalid(`${where}.${key} must be true or false`);
    return v;
  };
  if (typeof def.name !== "string") throw invalid(`${where}.name must be a string, the field's name`);
  const name = def.name;
  checkName(name, "field");
  const at = `${where} ('${quoted(name)}')`;
  if (typeof def.type !== "string") throw invalid(`${at}.type must be a string such as "varchar(100)", "int" or "timestamp"`);
  const m = TYPE_SYNTAX.exec(def.type.trim());
  const base = m ? m[1]!.toUpperCase().replace(/ +/g, " ") : undefined;
  const type = base === undefined ? undefined : TYPES[base];
  if (!m || type === undefined) throw invalid(`${at}.type '${quoted(def.type)}' is not one of ${Object.keys(TYPES).join(", ")} (with (n) for text, [n] for repetitions)`);
  let maxLength: number | undefined;
  if (m[2] !== undefined) {
    if (type !== "text") throw invalid(`${at}.type '${quoted(def.type)}': only VARCHAR and CHARACTER VARYING take a (length)`);
    maxLength = Number(m[2]);
    if (maxLength < 1) throw invalid(`${at}.type '${quoted(def.type)}': the length must be at least 1`);
  }
  const repetitions = m[3] === undefined ? 1 : Number(m[3]);
  if (repetitions < 1 || repetitions > 32000) throw invalid(`${at}.type '${quoted(def.type)}': repetitions must be 1 to 32000`);
  const primary = flag("primary") ?? false;
  const unique = flag("unique") ?? false;
  const nullable = flag("nullable");
  const global = flag("global") ?? false;
  if (primary && nullable === true) throw invalid(`${at}: a primary field cannot be nullable`);
  if ((primary || unique) && (global || type === "container" || repetitions > 1)) {
    throw invalid(`${at}: a ${primary ? "primary" : "unique"} field cannot be ${global ? "global" : type === "container" ? "a container" : "repeating"}`);
  }
  let autoEnter: AutoEnter | undefined;
  if (def.default !== undefined && def.default !== null) {
    if (typeof def.default !== "string") throw invalid(`${at}.default must be a string such as "CURRENT_TIMESTAMP"`);
    const known = DEFAULTS[def.default.toUpperCase()];
    if (known === undefined) throw invalid(`${at}.default '${quoted(def.default)}' is not one of ${Object.keys(DEFAULTS).join(", ")}`);
    if (known.type !== type) throw invalid(`${at}.default '${quoted(def.default)}' fits a ${known.type} field, not a ${type} field`);
    if (global) throw invalid(`${at}: a global field takes no default (it belongs to no record)`);
    autoEnter = known.autoEnter;
  }
  let externalSecurePath: string | undefined;
  if (def.externalSecurePath !== undefined) {
    if (typeof def.externalSecurePath !== "string" || def.externalSecurePath === "") throw invalid(`${at}.externalSecurePath must be a non-empty string such as "ContactMgmt/"`);
    if (type !== "container") throw invalid(`${at}.externalSecurePath applies to container fields only`);
    externalSecurePath = def.externalSecurePath;
  }
  return {
    name,
    type,
    repetitions,
    ...(maxLength !== undefined ? { maxLength } : {}),
    primary,
    unique: unique || primary,
    required: primary || nullable === false,
    global,
    ...(autoEnter !== undefined ? { autoEnter } : {}),
    ...(externalSecurePath !== undefined ? { externalSecurePath } : {}),
  };
}
