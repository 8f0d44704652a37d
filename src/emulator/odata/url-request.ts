// A whole OData request target (`/fmi/odata/v4/DB/contacts?$top=2`): the length cap (section 10's choice, 414), the
// service root prefix, then the path (url-path.ts) and the query string (query-options.ts).

import { sameName } from "../hosted-file/name-map.js";
import { incorrectServiceRoot, MAX_URL_LENGTH, ODataError, parseFailure, syntaxError, uriTooLong } from "./odata-error.js";
import { parseODataPath, type ODataPath, type SetRef } from "./url-path.js";
import { parseQueryOptions, type QueryOptions } from "./query-options.js";

export const SERVICE_ROOT = "/fmi/odata/v4";

export interface ODataRequestTarget {
  readonly path: ODataPath;
  readonly query: QueryOptions;
}

/**
 * Parses a request target as it arrives on the request line (path and query, still percent-encoded). Throws only
 * ODataError: 414 over MAX_URL_LENGTH, 404 -1000 outside `/fmi/odata/v4`, 400 -1002 for syntax.
 */
export function parseODataRequestTarget(target: string): ODataRequestTarget {
  if (target.length > MAX_URL_LENGTH) throw uriTooLong(target.length);
  const q = target.indexOf("?");
  const rawPath = q < 0 ? target : target.slice(0, q);
  const rawQuery = q < 0 ? "" : target.slice(q + 1);
  if (rawPath !== SERVICE_ROOT && !rawPath.startsWith(`${SERVICE_ROOT}/`)) throw incorrectServiceRoot();
  const path = parseODataPath(rawPath.slice(SERVICE_ROOT.length));
  const query = parseQueryOptions(rawQuery);
  if (path.kind === "crossjoin") checkCrossjoinOptions(path.sets, query);
  return { path, query };
}

/**
 * What `$crossjoin` takes, as the live capture shows it (2.9, PKX): `$select` → -1002 parse failure; `$expand` of one
 * of its sets, with only a `$select` inside (choice), and a second expand → -1002; `$orderby` → FileMaker's internal error (500,
 * code -1: the status is the choice). A cross-table `$filter` (`a/x eq b/y`) fails too: filter-*.ts parses `$filter`
 * and the caller refuses it there.
 */
function checkCrossjoinOptions(sets: readonly SetRef[], query: QueryOptions): void {
  if (query.select !== undefined) throw parseFailure("$select");
  if (query.orderby !== undefined) throw new ODataError(500, "-1", "Unexpected internal OData Provider error");
  const expand = query.expand ?? [];
  if (expand.length > 1) throw syntaxError(expand[1]!.nav);
  const [one] = expand;
  if (one === undefined) return;
  const known = sets.some((s) => (s.by === "name" ? sameName(s.name, one.nav) : `FMTID:${s.id}` === one.nav));
  // CL/request-cross-join's `$expand=A($select=x,y)` names A's fields; PKX does not contradict it (choice: taken; any
  // other option inside, or a `Nav/Field` path, is refused at the name).
  const inner = Object.keys(one.options).filter((k) => k !== "select");
  if (!known || inner.length > 0 || (one.options.select ?? []).some((p) => p.length > 1)) throw syntaxError(one.nav);
}
