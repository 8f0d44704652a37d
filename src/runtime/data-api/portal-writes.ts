import { describe, encodeFields } from "./codecs.js";
import type { LayoutSpec } from "./definition.js";
import type { ISO_ENCODERS } from "./iso-dates.js";
import { portalOf } from "./portal-selection.js";

/** What a create or edit may say about a record's portals: rows to write, and (edit only) related rows to delete. */
export interface PortalWrites {
  /** Rows by portal: a row with `recordId` edits that row (its `modId` checked when given), one without adds a row. */
  portalData?: object | undefined;
  deleteRelated?: readonly { portal: string; recordId: string | number }[] | undefined;
}

/** What portalWrites gives: the members of a create's or edit's body (an undefined one is left out of the JSON). */
export interface PortalWireKeys {
  portalData?: Record<string, unknown[]> | undefined;
  deleteRelated?: string[] | undefined;
}

/**
 * The portal rows and related-row deletions of a create or edit, checked against `layout` and encoded as the wire
 * takes them. Loaded when a call has them: most writes touch fields only.
 */
export function portalWrites(layout: LayoutSpec, change: PortalWrites, encoders: typeof ISO_ENCODERS | undefined): PortalWireKeys {
  return {
    deleteRelated: change.deleteRelated && deleteRelatedKeys(layout, change.deleteRelated),
    portalData: change.portalData && portalRowsOf(layout, change.portalData, encoders),
  };
}

/** `portalData`: each portal's rows, their fields encoded, `recordId` and `modId` as strings. */
function portalRowsOf(layout: LayoutSpec, portalData: object, encoders: typeof ISO_ENCODERS | undefined): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = Object.create(null);
  for (const [name, rows] of Object.entries(portalData as Record<string, Record<string, unknown>[]>)) {
    const portal = portalOf("portalData", layout, name);
    out[name] = rows.map(({ recordId, modId, ...fields }) => ({
      ...encodeFields(portal.fields, fields, `${layout.layout}" portal "${name}`, encoders),
      // An undefined member is left out of the JSON.
      recordId: recordId === undefined ? undefined : String(recordId),
      modId: modId === undefined ? undefined : String(modId),
    }));
  }
  return out;
}

/**
 * An edit's `deleteRelated` as the wire takes it: `"TO.recordId"`, the table occurrence being the one its portal's
 * fields name (`Invoices::Amount`), or the portal's name when its fields do not say.
 */
function deleteRelatedKeys(layout: LayoutSpec, rows: readonly { portal: string; recordId: string | number }[]): string[] {
  if (!Array.isArray(rows)) throw new TypeError("edit: deleteRelated must be an array");
  return rows.map((row) => {
    const fields = Object.keys(portalOf("edit: deleteRelated", layout, row?.portal).fields);
    if (!/^\d+$/.test(String(row.recordId))) throw new TypeError(`edit: deleteRelated: ${describe(row.recordId)} is not a recordId`);
    return `${fields.find((name) => name.includes("::"))?.split("::")[0] ?? row.portal}.${row.recordId}`;
  });
}
