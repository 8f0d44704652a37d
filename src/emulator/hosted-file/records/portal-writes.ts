import { deleteAllWithCascade } from "../cascade.js";
import { findByName } from "../name-map.js";
import { EmulatorError } from "../fm-error.js";
import { describeInput } from "../input/input-text.js";
import type { LayoutModel } from "../model.js";
import { portalRow } from "../relations.js";
import type { GlobalScope, HostedDatabase, StoredRecord, TableData } from "../store.js";

/**
 * What an edit does to related records beyond its portal rows' fields (docs/emulator.md, "7. Duplicate, delete related
 * rows, edit portal rows, options, upload modId"): `deleteRelated` inside `fieldData` deletes rows of the record's
 * portals, and the edit reports the rows its `portalData` created as `newPortalRecordInfo`.
 */

/** A portal row an edit created: `{ tableName, recordId, modId }` in the edit's answer. */
export interface NewPortalRecordInfo {
  /** The row's table occurrence. */
  tableName: string;
  recordId: string;
  modId: string;
}

/** One row `deleteRelated` names, before it is looked up. */
export interface RelatedRowName {
  tableName: string;
  recordId: number;
}

/** A related row to delete, as it was when the edit looked it up. */
export interface RelatedDeletion {
  tableName: string;
  recordId: number;
}

/**
 * An edit's `fieldData` without its `deleteRelated` key, and that key's value. The key always means
 * deleteRelated, as on FileMaker Server (a field of that name cannot be written through an edit).
 */
export function splitDeleteRelated(fieldData: unknown): { fieldData: unknown; deleteRelated: unknown } {
  if (typeof fieldData !== "object" || fieldData === null || Array.isArray(fieldData) || !Object.hasOwn(fieldData, "deleteRelated")) {
    return { fieldData, deleteRelated: undefined };
  }
  // Rest properties copy own keys as data, so a field named "__proto__" stays a key.
  const { deleteRelated, ...rest } = fieldData as Record<string, unknown>;
  return { fieldData: rest, deleteRelated };
}

/**
 * `"Invoices.3"` or `["Invoices.7", "Invoices.9"]`: table occurrence, a dot, the related record's id (the last
 * dot splits, so a table occurrence may hold dots). Malformed: 1708. A table occurrence that no portal of the
 * layout shows: 102, as a portal the layout lacks is in `portalData`.
 */
export function parseDeleteRelated(layout: LayoutModel, raw: unknown): RelatedRowName[] {
  if (raw === undefined) return [];
  const items = typeof raw === "string" ? [raw] : raw;
  if (!Array.isArray(items)) throw malformed(raw);
  const names: RelatedRowName[] = [];
  items.forEach((item: unknown, i) => {
    if (typeof item !== "string") throw malformed(item, i);
    const dot = item.lastIndexOf(".");
    const given = item.slice(0, dot);
    const id = item.slice(dot + 1);
    if (dot <= 0 || !/^\d{1,15}$/.test(id)) throw malformed(item, i);
    // The table occurrence as FileMaker matches names; named on by its own name.
    const portal = findByName(layout.portals, given, (p) => p.table.name);
    if (!portal) {
      throw new EmulatorError(400, "102", `fieldData.deleteRelated: no portal of layout "${layout.description.layout}" shows table occurrence ${describeInput(given)}`);
    }
    names.push({ tableName: portal.table.name, recordId: Number(id) });
  });
  return names;
}

function malformed(value: unknown, index?: number): EmulatorError {
  const at = index === undefined ? "fieldData.deleteRelated" : `fieldData.deleteRelated[${index}]`;
  return new EmulatorError(400, "1708", `${at} must be "TableOccurrence.recordId" or an array of them, got ${describeInput(value)}`);
}

/**
 * The rows named, each checked to be a row of one of the layout's portals on that table occurrence for this
 * record as it is now (404 / 101 otherwise, as for a portal row an edit names). Nothing is deleted yet.
 */
export function resolveDeletions(db: HostedDatabase, layout: LayoutModel, parentTable: TableData, parent: StoredRecord, names: readonly RelatedRowName[], scope?: GlobalScope): RelatedDeletion[] {
  const seen = new Set<string>();
  const deletions: RelatedDeletion[] = [];
  for (const { tableName, recordId } of names) {
    const key = `${recordId}\u0000${tableName}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const childTable = db.tables.get(tableName)!;
    // The row by its id, not by listing the portal: deleting every row of a large portal stays linear.
    const related = layout.portals.some((portal) => portal.table.name === tableName && portalRow(portal, parentTable, parent, childTable, recordId, scope) !== undefined);
    if (!related) throw new EmulatorError(404, "101", `record ${recordId} of "${tableName}" is not related to record ${parent.recordId} through a portal of layout "${layout.description.layout}"`);
    deletions.push({ tableName, recordId });
  }
  return deletions;
}

/** Deletes the rows, cascading as their relations say, all in one step (cascade.ts); runs after everything else. */
export function applyDeletions(db: HostedDatabase, deletions: readonly RelatedDeletion[]): void {
  const roots = [];
  for (const { tableName, recordId } of deletions) {
    const record = db.tables.get(tableName)!.records.get(recordId);
    if (record) roots.push({ tableName, record });
  }
  deleteAllWithCascade(db, roots);
}
