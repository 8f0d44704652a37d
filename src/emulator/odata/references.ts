// References (docs/emulator.md, "References (`$ref`)"): `T(k)/Nav/$ref`. A FileMaker relationship is a match field, so
// a reference is the child record's match field holding the parent's value: adding one writes it, removing one empties
// it, through the hosted file's record writes (validation, modId, the change feed; the Data API sees it at once).
// Choices (UNCONFIRMED or silent in the contract; docs/emulator.md "References ($ref)"):
// - GET `T(k)/Nav/$ref` lists the related records' ids, as OData 4.0 does (`#Collection($ref)`, `[{"@id": …}]`).
// - POST, PATCH and PUT all relate the named record (204): every navigation is a collection and the write that
//   "adds" and "points" a child's reference is the same one field write; no other record is unrelated.
// - DELETE `T(k)/Nav/$ref?$id=<url>` or `T(k)/Nav(k2)/$ref` empties the child's match field; a record that is not
//   related is 404 -1023.
// - Only a navigation of one step whose match field is on the target (the portal's child side) can be written; the
//   reverse direction (the match field is this record's own) and several pairs of fields are 400 -1002.

import { sameName } from "../hosted-file/name-map.js";
import { parseJsonExactly } from "../../runtime/core/json-numbers.js";
import { globalScopeOf } from "../hosted-file/globals.js";
import type { DatabaseModel } from "../hosted-file/model.js";
import { USER_ENTRY } from "../hosted-file/records/entry-options.js";
import { buildEditedRecord, commitRecord } from "../hosted-file/records/record-writes.js";
import { describeStep, joinKey, type RelationStep } from "../hosted-file/relations.js";
import type { HostedDatabase, StoredRecord } from "../hosted-file/store.js";
import type { StoredValue } from "../hosted-file/stored-value.js";
import type { EmulatorClock } from "../hosted-file/clock.js";
import { findRecord, findSet, navigations, recordKey, relatedRecords, type EntitySet } from "./entity-sets.js";
import { hostedWrite } from "./entity-write.js";
import { ODataError, quoted } from "./odata-error.js";
import type { Annotations } from "./entity-read.js";
import { formatODataPath } from "./url-format.js";
import { parseODataRequestTarget, SERVICE_ROOT } from "./url-request.js";
import type { EntityKey, ODataPath } from "./url-path.js";
import type { QueryOptions } from "./query-options.js";

export type RefPath = Extract<ODataPath, { kind: "ref" }>;

/** One `$ref` request as plain values (a top-level request or a `$batch` part). */
export interface RefRequest {
  readonly method: string;
  readonly path: RefPath;
  readonly query: QueryOptions;
  /** The request target as sent (`/fmi/odata/v4/…?$id=…`): `$id` is read from it. */
  readonly target: string;
  readonly body: Buffer | undefined;
  /** `http://host:port/fmi/odata/v4`. */
  readonly root: string;
  readonly annotations: Annotations;
  /** Names the URL's `{db}` forms resolve to (database-name.ts): a reference must name this database. */
  readonly sameDatabase: (urlName: string) => boolean;
}

export interface RefHost {
  readonly db: HostedDatabase;
  readonly clock: EmulatorClock;
}

/** 204 with no body, or 200 with the JSON body (GET). */
export type RefAnswer = { readonly status: 204 } | { readonly status: 200; readonly body: unknown };

export function serveReference(host: RefHost, req: RefRequest): RefAnswer {
  const { db } = host;
  const { path } = req;
  // Rule one: options a `$ref` does not implement are refused, never ignored (`$format` and `$schemaversion` apply).
  const given = Object.entries(req.query).filter(([k, v]) => k !== "ignored" && k !== "format" && k !== "schemaversion" && v !== undefined);
  if (given.length > 0) throw new ODataError(400, "-1002", `Error: $${given[0]![0]} does not apply to a $ref request`);
  const set = findSet(db, path.set);
  const record = findRecord(set, path.key);
  const steps = navigations(db, set).get(path.nav);
  if (steps === undefined) throw new ODataError(400, "8309", `The field named '${quoted(path.nav)}' does not exist in a specified table (9)`);
  const target = findSet(db, { by: "name", name: path.nav });
  const idText = queryId(req.target);
  if (req.method === "GET") {
    if (path.target !== undefined || idText !== undefined) throw new ODataError(400, "-1002", "Error: GET T(k)/Nav/$ref lists every reference; it takes no key and no $id");
    // The answer's URLs name the database as the request's URL did (routes.ts, `ODataCall.urlDb`).
    const dbUrl = req.root + formatODataPath({ kind: "serviceDocument", db: path.db });
    const ann = (name: string) => (req.annotations.prefixed ? `@odata.${name}` : `@${name}`);
    const value = relatedRecords(db, set, record, target, steps).map((r) => ({ [ann("id")]: req.root + formatODataPath({ kind: "entity", db: path.db, set: { by: "name", name: target.name }, key: recordKey(target, r) }) }));
    return { status: 200, body: { ...(!req.annotations.none && { [ann("context")]: `${dbUrl}/$metadata#Collection($ref)` }), value } };
  }
  const step = writableStep(db.model, set, path.nav, steps);
  if (req.method === "POST" || req.method === "PATCH" || req.method === "PUT") {
    if (path.target !== undefined || idText !== undefined) throw new ODataError(400, "-1002", `Error: ${req.method} T(k)/Nav/$ref names the record in its body's @odata.id, not in the URL`);
    const child = referenced(req, target, bodyId(req.body), db);
    const value = set.data.valuesOf(record, step.fromField)[0];
    if (joinKey(value) === undefined) {
      throw new ODataError(400, "-1002", `Error: ${set.name}::${step.fromField.name} is empty in this record, so no ${target.name} record can be related to it (${describeStep(set.name, step)})`);
    }
    writeMatchField(host, target, child, step, value ?? null);
    return { status: 204 };
  }
  if (req.method === "DELETE") {
    if (path.target !== undefined && idText !== undefined) throw new ODataError(400, "-1002", "Error: DELETE T(k)/Nav(k2)/$ref takes no $id");
    let child: StoredRecord;
    if (path.target !== undefined) child = findRecord(target, path.target);
    else if (idText !== undefined) child = referenced(req, target, idText, db);
    else throw new ODataError(400, "-1002", "Error: DELETE T(k)/Nav/$ref needs $id=<the related record's URL> (or use T(k)/Nav(k2)/$ref)");
    if (!relatedRecords(db, set, record, target, steps).some((r) => r.recordId === child.recordId)) throw new ODataError(404, "-1023", "Record not found");
    writeMatchField(host, target, child, step, null);
    return { status: 204 };
  }
  throw new ODataError(405, "-1002", `Error: ${req.method} is not supported on a ref resource by the emulator's OData API`);
}

/** `$id`'s value in the raw query (query-options.ts leaves unknown names aside), percent-decoded once. */
function queryId(target: string): string | undefined {
  const q = target.indexOf("?");
  if (q < 0) return undefined;
  for (const piece of target.slice(q + 1).split("&")) {
    const eq = piece.indexOf("=");
    const name = eq < 0 ? piece : piece.slice(0, eq);
    if (name.toLowerCase() !== "$id" && name.toLowerCase() !== "id") continue;
    const raw = eq < 0 ? "" : piece.slice(eq + 1);
    try {
      return decodeURIComponent(raw.replace(/\+/g, "%20"));
    } catch {
      throw new ODataError(400, "-1002", `Error: $id '${quoted(raw)}' is not percent-encoded correctly`);
    }
  }
  return undefined;
}

/** The body's `@odata.id` (or `@id`). */
function bodyId(body: Buffer | undefined): string {
  const text = body === undefined ? "" : body.toString("utf8").trim();
  let parsed: unknown;
  try {
    parsed = text === "" ? undefined : parseJsonExactly(text);
  } catch {
    throw new ODataError(400, "-1002", "Error: the request body must be a JSON object with @odata.id (it is not JSON)");
  }
  const id = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? ((parsed as Record<string, unknown>)["@odata.id"] ?? (parsed as Record<string, unknown>)["@id"]) : undefined;
  if (typeof id !== "string" || id === "") throw new ODataError(400, "-1002", 'Error: a $ref body must be a JSON object with "@odata.id": the related record\'s URL');
  return id;
}

/**
 * The record an `@odata.id` (or `$id`) names: absolute (`http://host/fmi/odata/v4/db/T2(k)`), an absolute path, or
 * relative to the database (`T2(k)`). It must be an entity of the navigation's target set in this database (400
 * -1002 naming it); a missing record is 404 -1023.
 */
function referenced(req: RefRequest, target: EntitySet, id: string, db: HostedDatabase): StoredRecord {
  const wrong = (why: string) => new ODataError(400, "-1002", `Error: '${quoted(id)}' does not name a ${target.name} record in database '${quoted(db.model.name)}' (${why})`);
  let pathText: string;
  try {
    const base = new URL(req.root + formatODataPath({ kind: "serviceDocument", db: req.path.db }) + "/");
    const url = new URL(id, base);
    if (url.origin !== base.origin) throw wrong("another server");
    pathText = url.pathname + url.search;
  } catch (error) {
    if (error instanceof ODataError) throw error;
    throw wrong("not a URL");
  }
  let path: ODataPath;
  try {
    path = parseODataRequestTarget(pathText).path;
  } catch {
    throw wrong(pathText.startsWith(`${SERVICE_ROOT}/`) ? "not an OData record URL" : `not under ${SERVICE_ROOT}`);
  }
  if (path.kind !== "entity") throw wrong("not a record's URL");
  if (!req.sameDatabase(path.db)) throw wrong("another database");
  const named = path.set.by === "name" ? sameName(path.set.name, target.name) : path.set.id === target.id;
  if (!named) throw wrong(`it names ${path.set.by === "name" ? path.set.name : `FMTID:${path.set.id}`}, not ${target.name}`);
  return findRecord(target, path.key as EntityKey);
}

/**
 * The one step a reference write can take: a single pair of fields whose match field is on the target (a portal's
 * child field, seen from the portal's parent). Else 400 -1002 saying why.
 */
function writableStep(model: DatabaseModel, set: EntitySet, nav: string, steps: readonly RelationStep[]): RelationStep {
  if (steps.length !== 1) {
    throw new ODataError(400, "-1002", `Error: ${set.name}/${nav} joins on ${steps.length} pairs of fields (${steps.map((s) => describeStep(set.name, s)).join("; ")}); no single field write can express a reference`);
  }
  const step = steps[0]!;
  for (const layout of model.layouts.values()) {
    if (layout.table.name !== set.name) continue;
    for (const portal of layout.portals) {
      const r = portal.relation;
      if (r && portal.table.name === step.toTable && r.parentField === step.fromField && r.childField === step.toField) return step;
    }
  }
  throw new ODataError(400, "-1002", `Error: the match field of ${set.name}/${nav} is on ${set.name}'s side (${describeStep(set.name, step)}); set ${set.name}::${step.fromField.name} with PATCH instead`);
}

/** The child's match field set to `value` (or emptied), as one record write, told to the change feed. */
function writeMatchField(host: RefHost, target: EntitySet, child: StoredRecord, step: RelationStep, value: StoredValue): void {
  const scope = globalScopeOf(host.db);
  const stored = hostedWrite(() => {
    const current = target.data.records.get(child.recordId) ?? child;
    const built = buildEditedRecord(target.data, current, [{ field: step.toField, repetition: 0, value }], host.clock, scope, USER_ENTRY, host.db.account);
    commitRecord(target.data, built, scope, host.db);
    return built.record;
  });
}
