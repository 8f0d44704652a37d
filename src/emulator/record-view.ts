import type { LayoutField, LayoutModel } from "./model.js";
import type { StoredRecord, TableData } from "./store.js";
import { encodeWireValue, type ContainerRef } from "./stored-value.js";
import { portalRows } from "./relations.js";

export type WireFields = Record<string, string | number>;
export interface WireRecord {
  fieldData: WireFields;
  portalData: Record<string, (WireFields & { recordId: string; modId: string })[]>;
  recordId: string;
  modId: string;
}

export interface ViewContext {
  tables: Map<string, TableData>;
  containerUrl: (ref: ContainerRef) => string;
}

/** A record as the Data API shows it through a layout. */
export function recordToWire(layout: LayoutModel, record: StoredRecord, context: ViewContext): WireRecord {
  const table = context.tables.get(layout.table.name)!;
  // Null-prototype objects keyed by names a user chose: a portal or field named "__proto__" stays a key.
  const portalData: WireRecord["portalData"] = Object.create(null);
  for (const portal of layout.portals) {
    const childTable = context.tables.get(portal.table.name)!;
    portalData[portal.name] = portalRows(portal, table, record, childTable).map((row) => ({
      recordId: String(row.recordId),
      // Spreading defines own properties (no setter runs), so a field named "__proto__" is copied as a key.
      ...fieldsToWire(portal.fields, childTable, row, context),
      modId: String(row.modId),
    }));
  }
  return {
    fieldData: fieldsToWire(layout.fields, table, record, context),
    portalData,
    recordId: String(record.recordId),
    modId: String(record.modId),
  };
}

function fieldsToWire(fields: Map<string, LayoutField>, table: TableData, record: StoredRecord, context: ViewContext): WireFields {
  const out: WireFields = Object.create(null);
  for (const { wireName, field } of fields.values()) {
    const values = table.valuesOf(record, field);
    values.forEach((value, i) => {
      out[i === 0 ? wireName : `${wireName}(${i + 1})`] = encodeWireValue(field.type, value, context.containerUrl);
    });
  }
  return out;
}
