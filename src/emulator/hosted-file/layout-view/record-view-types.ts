import type { DateFormat } from "../date-format.js";
import type { GlobalScope, TableData } from "../store.js";
import type { ContainerRef } from "../stored-value.js";

/**
 * What reading a record through a layout takes and gives (record-view.ts reads it): a call's view of a hosted
 * database, and the record as the Data API answers it. Here so that the state (which makes a view) and the
 * scripts' contract (whose records are wire records) can name them without importing the reader.
 */

export type WireFields = Record<string, string | number>;
export interface WireRecord {
  fieldData: WireFields;
  portalData: Record<string, (WireFields & { recordId: string; modId: string })[]>;
  recordId: string;
  modId: string;
  /** One entry per portal answered; absent when no portal is (docs/emulator.md, "3. Portals"). */
  portalDataInfo?: PortalDataInfo[];
}

/** Every described portal has an object name (its `name`), so each entry carries `portalObjectName`. */
export interface PortalDataInfo {
  portalObjectName: string;
  database: string;
  table: string;
  foundCount: number;
  returnedCount: number;
}

export interface ViewContext {
  /** The hosted database's name (portalDataInfo). */
  database: string;
  tables: Map<string, TableData>;
  containerUrl: (ref: ContainerRef) => string;
  /** The session's global values (globals.ts); without it, the file's. */
  globals?: GlobalScope;
  /** The call's `dateformats` for date and timestamp fields (date-format.ts); default US. */
  dateFormat?: DateFormat;
}
