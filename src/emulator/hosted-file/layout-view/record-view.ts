import type { LayoutField, LayoutModel } from "../model.js";
import type { StoredRecord, TableData } from "../store.js";
import { encodeFieldValue } from "../date-format.js";
import { scriptValue } from "../stored-value.js";
import { portalRows } from "../relations.js";
import { allPortals, type PortalRange } from "./portal-range.js";
import type { PortalDataInfo, ViewContext, WireFields, WireRecord } from "./record-view-types.js";

/** A record as the Data API shows it through a layout, with the chosen portals and rows (default: all, 50 each). */
export function recordToWire(layout: LayoutModel, record: StoredRecord, context: ViewContext, portals: readonly PortalRange[] = allPortals(layout)): WireRecord {
  const table = context.tables.get(layout.table.name)!;
  // Null-prototype objects keyed by names a user chose: a portal or field named "__proto__" stays a key.
  const portalData: WireRecord["portalData"] = Object.create(null);
  const portalDataInfo: PortalDataInfo[] = [];
  for (const { portal, offset, limit } of portals) {
    const childTable = context.tables.get(portal.table.name)!;
    const rows = portalRows(portal, table, record, childTable, context.globals);
    const page = rows.slice(offset - 1, offset - 1 + limit);
    portalData[portal.name] = page.map((row) => ({
      recordId: String(row.recordId),
      // Spreading defines own properties (no setter runs), so a field named "__proto__" is copied as a key.
      ...fieldsToWire(portal.fields, childTable, row, context),
      modId: String(row.modId),
    }));
    portalDataInfo.push({ portalObjectName: portal.name, database: context.database, table: portal.table.name, foundCount: rows.length, returnedCount: page.length });
  }
  const wire: WireRecord = {
    fieldData: fieldsToWire(layout.fields, table, record, context),
    portalData,
    recordId: String(record.recordId),
    modId: String(record.modId),
  };
  if (portalDataInfo.length > 0) wire.portalDataInfo = portalDataInfo;
  return wire;
}

/**
 * A record as a script handler reads it (script-module.ts, ScriptRecord): the answer's record with each number a
 * double does not hold as its decimal text (`scriptValue`), every other value as the answer has it.
 */
export function scriptRecordOf(wire: WireRecord): WireRecord<string | number> {
  const fields = <T extends object>(values: WireFields & T): WireFields<string | number> & T => {
    const out = Object.create(null) as Record<string, unknown>;
    for (const [name, value] of Object.entries(values)) out[name] = typeof value === "object" ? scriptValue(value) : value;
    return out as WireFields<string | number> & T;
  };
  const portalData: WireRecord<string | number>["portalData"] = Object.create(null);
  for (const [name, rows] of Object.entries(wire.portalData)) portalData[name] = rows.map((row) => fields(row));
  return { ...wire, fieldData: fields(wire.fieldData), portalData };
}

function fieldsToWire(fields: Map<string, LayoutField>, table: TableData, record: StoredRecord, context: ViewContext): WireFields {
  const out: WireFields = Object.create(null);
  for (const { wireName, field } of fields.values()) {
    const values = table.valuesOf(record, field, context.globals);
    values.forEach((value, i) => {
      out[i === 0 ? wireName : `${wireName}(${i + 1})`] = encodeFieldValue(field.type, value, context.containerUrl, context.dateFormat ?? 0);
    });
  }
  return out;
}
