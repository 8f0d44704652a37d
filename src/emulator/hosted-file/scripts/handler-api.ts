import { deleteWithCascade } from "../cascade.js";
import { compileFindQuery } from "../find/find-requests.js";
import { SCRIPT_ENTRY } from "../records/entry-options.js";
import { EmulatorError } from "../fm-error.js";
import type { EmulatorClock } from "../clock.js";
import { recordIdParam, sortKeys } from "../input/params.js";
import type { LayoutModel } from "../model.js";
import { currentRecord, writeCreate, writeEdit } from "../records/record-transaction.js";
import { recordToWire, scriptRecordOf } from "../layout-view/record-view.js";
import type { ViewContext } from "../layout-view/record-view-types.js";
import { sortRecords } from "../sorting.js";
import { tableOf, type HostedDatabase, type StoredRecord } from "../store.js";
import type { ScriptRecords } from "./script-module.js";

/**
 * A script step that failed, with its FileMaker error code: `records`' steps throw it (101 no such record, 306 modId
 * mismatch, 5xx validation...). A handler may catch it, or throw one itself; uncaught, the script ends with that
 * code as its script error.
 */
export class ScriptStepError extends Error {
  constructor(
    /** FileMaker's error code the script ends with (`"401"`: no records match). */
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ScriptStepError";
  }
}

/** Where a script runs: the database as the caller's session sees it, the file's clock, and how records read. */
export interface ScriptScope {
  db: HostedDatabase;
  clock: EmulatorClock;
  /** The view records are read through (record-view-types.ts), made when a step reads records. */
  view: () => ViewContext;
}

/**
 * The `records` of handlers run by one call (ScriptRecords, script-module.ts): its database as its session sees
 * it. Their creates and edits are a script's writes, not data entry (SCRIPT_ENTRY, entry-options.ts).
 */
export function scriptRecords(scope: ScriptScope): ScriptRecords {
  const { db, clock } = scope;
  const layoutOf = (name: unknown): LayoutModel => {
    const layout = typeof name === "string" ? db.model.layouts.get(name) : undefined;
    if (!layout) throw new EmulatorError(404, "105", `no layout named ${JSON.stringify(name)} in "${db.model.name}"`);
    return layout;
  };
  const toWire = (layout: LayoutModel, records: readonly StoredRecord[]) => {
    const view = scope.view();
    return records.map((record) => scriptRecordOf(recordToWire(layout, record, view)));
  };
  const recordOf = (layout: LayoutModel, recordId: unknown) => currentRecord(tableOf(db, layout), recordIdParam(typeof recordId === "number" ? String(recordId) : (recordId as string)));
  return {
    find: (layoutName, query, options) =>
      step("find", () => {
        const layout = layoutOf(layoutName);
        const test = compileFindQuery(db, layout, query, clock.today());
        const sort = sortKeys(options?.sort, "sort", layout, db.model);
        const table = tableOf(db, layout);
        const found: StoredRecord[] = [];
        for (const record of table.records.values()) if (test(record)) found.push(record);
        return toWire(layout, sortRecords(table, found, sort));
      }),
    list: (layoutName, options) =>
      step("list", () => {
        const layout = layoutOf(layoutName);
        const table = tableOf(db, layout);
        return toWire(layout, sortRecords(table, [...table.records.values()], sortKeys(options?.sort, "sort", layout, db.model)));
      }),
    get: (layoutName, recordId) =>
      step("get", () => {
        const layout = layoutOf(layoutName);
        return toWire(layout, [recordOf(layout, recordId)])[0]!;
      }),
    create: (layoutName, fieldData, options) =>
      step("create", () => {
        const layout = layoutOf(layoutName);
        const record = writeCreate(db, layout, { fieldData, ...(options?.portalData ? { portalData: options.portalData } : {}) }, clock, SCRIPT_ENTRY);
        return { recordId: String(record.recordId), modId: String(record.modId) };
      }),
    edit: (layoutName, recordId, fieldData, options) =>
      step("edit", () => {
        const layout = layoutOf(layoutName);
        const id = recordOf(layout, recordId).recordId;
        const body = { fieldData, ...(options?.modId !== undefined ? { modId: options.modId } : {}), ...(options?.portalData ? { portalData: options.portalData } : {}) };
        return { modId: String(writeEdit(db, layout, id, body, clock, [], SCRIPT_ENTRY).modId) };
      }),
    delete: (layoutName, recordId) =>
      step("delete", () => {
        const layout = layoutOf(layoutName);
        deleteWithCascade(db, layout.table.name, recordOf(layout, recordId));
      }),
  };
}

/** Runs one step; the emulator's errors become ScriptStepErrors naming the step. */
function step<T>(name: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof EmulatorError) throw new ScriptStepError(error.code, `records.${name}: ${error.message}`);
    throw error;
  }
}
