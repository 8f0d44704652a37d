// `Prefer: fmodata.basic-timestamp` and `fmodata.gmtoffset` (docs/emulator.md, "Timestamps: `basic-timestamp`,
// `gmtoffset`"): how timestamp values are written in answers. Their formats are UNCONFIRMED; the contract's choices:
// `"2025-10-31 11:13:13"` (FileMaker's timestamp, not Zulu) and `"…+HH:MM"` (the server's GMT difference in place of
// `Z`). The server's zone is UTC (2.7's choice), so the difference is always `+00:00`. Both at once (choice):
// `"2025-10-31 11:13:13+00:00"`.

import type { TableField } from "../hosted-file/model.js";
import type { Preferences } from "./query-options-prefer.js";

/** The server's GMT difference: the emulator's server runs on UTC (2.7's choice). */
export const SERVER_GMT_OFFSET = "+00:00";

const ZULU = /^(\d{4,}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2}(?:\.\d+)?)Z$/;

/**
 * A timestamp field's JSON value (`YYYY-MM-DDThh:mm:ssZ`, or an array of them for a repeating field) in the form
 * the preferences ask for; any other field, a null, or a calculation's invalid result (`?`) is left as it is.
 */
export function preferredTimestamp(field: TableField, value: unknown, prefer: Pick<Preferences, "basicTimestamp" | "gmtOffset">): unknown {
  if (field.type !== "timestamp" || (!prefer.basicTimestamp && !prefer.gmtOffset)) return value;
  const one = (v: unknown): unknown => {
    const m = typeof v === "string" ? ZULU.exec(v) : null;
    if (!m) return v;
    return `${m[1]}${prefer.basicTimestamp ? " " : "T"}${m[2]}${prefer.gmtOffset ? SERVER_GMT_OFFSET : prefer.basicTimestamp ? "" : "Z"}`;
  };
  return Array.isArray(value) ? value.map(one) : one(value);
}
