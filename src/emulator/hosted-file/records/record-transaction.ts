import type { EmulatorClock } from "../clock.js";
import { findByName } from "../name-map.js";
import { holdChanges } from "../change-feed.js";
import { EmulatorError } from "../fm-error.js";
import type { LayoutModel, PortalModel, TableField } from "../model.js";
import { buildChangedRecord, buildEditedRecord, buildNewRecord, commitRecord, parseFieldChanges, type FieldChange, type FieldInput } from "./record-writes.js";
import { dateFormatFromBody } from "../date-format.js";
import { joinKey, portalRow } from "../relations.js";
import { globalScopeOf } from "../globals.js";
import type { GlobalScope, HostedDatabase, StoredRecord, TableData } from "../store.js";
import { decodeWireValue, type ContainerRef, type StoredValue } from "../stored-value.js";
import { entryOptions, type EntryOptions } from "./entry-options.js";
import { applyDeletions, parseDeleteRelated, resolveDeletions, splitDeleteRelated, type NewPortalRecordInfo } from "./portal-writes.js";

/**
 * Create, edit and upload, with their portal rows, all or nothing: every input is parsed before anything is
 * stored, and a validation failure part-way undoes the records already stored.
 *
 * Each write is one synchronous step that starts from the record as it is now: the caller has already read
 * and parsed the whole request (no await may come between looking a record up and storing its next version),
 * so no concurrent request can be undone by a stale copy, or bring back a record deleted meanwhile.
 *
 * Each record stored is told to the change feed (change-feed.ts: ADD for a new record, UPDATE for a new version),
 * held until the whole write has succeeded: a write that fails and is undone tells nothing.
 */
class Transaction {
  private readonly undo: (() => void)[] = [];

  /** `scope`: where global field values are read and written (the request's session's; globals.ts). */
  constructor(
    readonly db: HostedDatabase,
    readonly scope: GlobalScope,
  ) {}

  store(table: TableData, built: { record: StoredRecord; globals: Map<string, StoredValue[]> }): StoredRecord {
    const previous = table.records.get(built.record.recordId);
    const previousGlobals = new Map([...built.globals.keys()].map((k) => [k, this.scope.own(table, k)]));
    commitRecord(table, built, this.scope, this.db);
    this.undo.push(() => {
      if (previous) table.put(previous);
      else table.remove(built.record.recordId);
      for (const [k, v] of previousGlobals) this.scope.write(table, k, v);
    });
    return built.record;
  }

  run<T>(work: () => T): T {
    return holdChanges(this.db, () => {
      try {
        return work();
      } catch (error) {
        for (const undo of this.undo.reverse()) undo();
        throw error;
      }
    });
  }
}

interface PortalRowInput {
  portal: PortalModel;
  recordId?: number;
  modId?: string;
  changes: FieldChange[];
}

/**
 * A create's whole body (`fieldData`, `portalData`, `options`). `entry`: how a write that is not a client's is
 * validated (a script handler's: entry-options.ts); a client's comes from its body's `options`.
 */
export function writeCreate(db: HostedDatabase, layout: LayoutModel, body: Record<string, unknown>, clock: EmulatorClock, entry?: EntryOptions): StoredRecord {
  if (body.fieldData === undefined) throw new EmulatorError(400, "1708", "fieldData is required");
  const dateFormat = dateFormatFromBody(body.dateformats);
  const writeEntry = entry ?? entryOptions(body.options);
  const input: FieldInput = { dateFormat, entry: writeEntry };
  const changes = parseFieldChanges(layout.fields, body.fieldData, `layout "${layout.description.layout}"`, input);
  const rows = parsePortalData(layout, body.portalData, false, input);
  const table = db.tables.get(layout.table.name)!;
  const tx = new Transaction(db, globalScopeOf(db));
  return tx.run(() => {
    const parent = tx.store(table, buildNewRecord(table, changes, clock, tx.scope, writeEntry, db.account));
    storePortalRows(db, table, parent, rows, clock, tx, writeEntry);
    return parent;
  });
}

/** The record as stored now, or 101. */
export function currentRecord(table: TableData, recordId: number): StoredRecord {
  const record = table.records.get(recordId);
  if (!record) throw new EmulatorError(404, "101", `no record with id ${recordId} in table "${table.model.name}"`);
  return record;
}

/**
 * An edit's whole body (`fieldData` with its `deleteRelated`, `portalData`, `modId`, `options`) against the record
 * as it is now. The portal rows it creates are added to `created` (the answer's newPortalRecordInfo). `entry`, as
 * for writeCreate: a script handler's write; a client's comes from its body's `options`.
 */
export function writeEdit(db: HostedDatabase, layout: LayoutModel, recordId: number, body: Record<string, unknown>, clock: EmulatorClock, created: NewPortalRecordInfo[] = [], entry?: EntryOptions): StoredRecord {
  if (body.modId !== undefined && typeof body.modId !== "string") throw new EmulatorError(400, "1708", "modId must be a string");
  const table = db.tables.get(layout.table.name)!;
  const current = currentRecord(table, recordId);
  if (body.modId !== undefined && body.modId !== String(current.modId)) {
    throw new EmulatorError(400, "306", `record ${current.recordId} is at modId ${current.modId}, not ${body.modId}`);
  }
  if (body.fieldData === undefined) throw new EmulatorError(400, "1708", "fieldData is required");
  const dateFormat = dateFormatFromBody(body.dateformats);
  const writeEntry = entry ?? entryOptions(body.options);
  const input: FieldInput = { dateFormat, entry: writeEntry };
  const { fieldData, deleteRelated } = splitDeleteRelated(body.fieldData);
  const changes = parseFieldChanges(layout.fields, fieldData, `layout "${layout.description.layout}"`, input);
  const rows = parsePortalData(layout, body.portalData, true, input);
  const deleting = parseDeleteRelated(layout, deleteRelated);
  const tx = new Transaction(db, globalScopeOf(db));
  const deletions = deleting.length > 0 ? resolveDeletions(db, layout, table, current, deleting, tx.scope) : [];
  return tx.run(() => {
    const parent = changes.length > 0 ? tx.store(table, buildEditedRecord(table, current, changes, clock, tx.scope, writeEntry, db.account)) : current;
    const newRows = storePortalRows(db, table, parent, rows, clock, tx, writeEntry);
    // Last: a deletion removes its whole cascade or, failing, puts back what it removed (cascade.ts); then the
    // transaction undoes the rest.
    applyDeletions(db, deletions);
    // One at a time: spreading an array of rows into arguments overflows the stack past some 100,000 rows.
    for (const row of newRows) created.push(row);
    return parent;
  });
}

/**
 * An uploaded file into one repetition (zero-based) of a container field, against the record as it is now.
 * `storeFile` keeps the bytes and is called only once the record is known to exist (and at `expectedModId`, the
 * upload URL's `?modId=`, when given: 306 otherwise, as for an edit).
 */
export function writeContainer(db: HostedDatabase, layout: LayoutModel, recordId: number, field: TableField, repetition: number, storeFile: () => ContainerRef, clock: EmulatorClock, expectedModId?: string): StoredRecord {
  return writeTableContainer(db, db.tables.get(layout.table.name)!, recordId, field, repetition, storeFile, clock, expectedModId);
}

/**
 * {@link writeContainer} by table rather than layout: what both APIs' uploads write through (the Data API's
 * multipart upload, OData's binary PATCH), so a file uploaded by one is read by the other at once, modId bumped once.
 */
export function writeTableContainer(db: HostedDatabase, table: TableData, recordId: number, field: TableField, repetition: number, storeFile: () => ContainerRef, clock: EmulatorClock, expectedModId?: string): StoredRecord {
  const current = currentRecord(table, recordId);
  if (expectedModId !== undefined && expectedModId !== String(current.modId)) {
    throw new EmulatorError(400, "306", `record ${current.recordId} is at modId ${current.modId}, not ${expectedModId}`);
  }
  const scope = globalScopeOf(db);
  const built = buildChangedRecord(table, current, [{ field, repetition, value: storeFile() }], clock, scope, db.account);
  commitRecord(table, built, scope, db);
  return built.record;
}

/** `portalData: { "<portal>": [ { "TO::F": value, recordId?, modId? } ] }`; recordId only on edit. */
function parsePortalData(layout: LayoutModel, portalData: unknown, allowExisting: boolean, fieldInput: FieldInput = {}): PortalRowInput[] {
  if (portalData === undefined) return [];
  if (typeof portalData !== "object" || portalData === null || Array.isArray(portalData)) {
    throw new EmulatorError(400, "1708", "portalData must be an object of portal names to arrays of rows");
  }
  const inputs: PortalRowInput[] = [];
  for (const [name, rows] of Object.entries(portalData)) {
    // By its object name, else its table occurrence's, each matched as FileMaker matches names.
    const portal = findByName(layout.portals, name, (p) => p.name) ?? findByName(layout.portals, name, (p) => p.table.name);
    if (!portal) throw new EmulatorError(400, "102", `portal "${name}" is not on layout "${layout.description.layout}"`);
    if (!Array.isArray(rows)) throw new EmulatorError(400, "1708", `portalData["${name}"] must be an array of rows`);
    rows.forEach((row: unknown, i) => {
      if (typeof row !== "object" || row === null || Array.isArray(row)) {
        throw new EmulatorError(400, "1708", `portalData["${name}"][${i}] must be an object`);
      }
      const { recordId, modId, ...fields } = row as Record<string, unknown>;
      const input: PortalRowInput = { portal, changes: parseFieldChanges(portal.fields, fields, `portal "${name}"`, fieldInput) };
      if (recordId !== undefined) {
        if (!allowExisting) throw new EmulatorError(400, "1708", `portalData["${name}"][${i}].recordId: create makes new rows only`);
        if (typeof recordId !== "string" || !/^\d+$/.test(recordId)) throw new EmulatorError(400, "1708", `portalData["${name}"][${i}].recordId must be a record id string`);
        input.recordId = Number(recordId);
      }
      if (modId !== undefined) {
        if (typeof modId !== "string") throw new EmulatorError(400, "1708", `portalData["${name}"][${i}].modId must be a string`);
        input.modId = modId;
      }
      if (!portal.relation && input.recordId === undefined) {
        throw new EmulatorError(400, "1708", `portal "${name}" has no relation in its description, so the emulator cannot create its rows`);
      }
      inputs.push(input);
    });
  }
  return inputs;
}

/** Edits and creates an edit's (or create's) portal rows; returns the rows it created, in order. */
function storePortalRows(db: HostedDatabase, table: TableData, parent: StoredRecord, rows: PortalRowInput[], clock: EmulatorClock, tx: Transaction, entry: EntryOptions): NewPortalRecordInfo[] {
  const created: NewPortalRecordInfo[] = [];
  // Each row costs the same whatever the portal's size: a row is looked up by id, never by listing the portal.
  for (const row of rows) {
    const childTable = db.tables.get(row.portal.table.name)!;
    if (row.recordId !== undefined) {
      const current = portalRow(row.portal, table, parent, childTable, row.recordId, tx.scope);
      if (!current) throw new EmulatorError(404, "101", `record ${row.recordId} is not a row of portal "${row.portal.name}"`);
      if (row.modId !== undefined && row.modId !== String(current.modId)) {
        throw new EmulatorError(400, "306", `portal row ${current.recordId} is at modId ${current.modId}, not ${row.modId}`);
      }
      tx.store(childTable, buildEditedRecord(childTable, current, row.changes, clock, tx.scope, entry, db.account));
    } else {
      const { parentField, childField } = row.portal.relation!;
      const key = joinKey(table.valuesOf(parent, parentField, tx.scope)[0]);
      if (key === undefined) throw new EmulatorError(400, "509", `"${parentField.name}" is empty, so portal "${row.portal.name}" rows cannot be related to the record`);
      const decoded = decodeWireValue(childField.type, key);
      const link: FieldChange = { field: childField, repetition: 0, value: decoded.ok ? decoded.value : key };
      const stored = tx.store(childTable, buildNewRecord(childTable, [...row.changes, link], clock, tx.scope, entry, db.account));
      created.push({ tableName: row.portal.table.name, recordId: String(stored.recordId), modId: String(stored.modId) });
    }
  }
  return created;
}
