import type { DateFormat } from "../date-format.js";
import type { GlobalScope, TableData } from "../store.js";
import type { ContainerRef, WireValue } from "../stored-value.js";

/**
 * What reading a record through a layout takes and gives (record-view.ts reads it): a call's view of a hosted
 * database, and the record as the Data API answers it. Here so that the state (which makes a view) and the
 * scripts' contract (whose records are wire records) can name them without importing the reader.
 */

/**
 * A record's field values as an answer carries them: `V` is WireValue (a number a double does not hold is a
 * NumberToken, which the answer's stringifyJson writes as its bare token), or `string | number` as a script handler
 * reads a record (that number as its decimal text: script-module.ts).
 */
export type WireFields<V = WireValue> = Record<string, V>;
export interface WireRecord<V = WireValue> {
  fieldData: WireFields<V>;
  portalData: Record<string, (WireFields<V> & { recordId: string; modId: string })[]>;
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
