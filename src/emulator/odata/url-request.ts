// A whole OData request target (`/fmi/odata/v4/DB/contacts?$top=2`): the length cap (section 10's choice, 414), the
// service root prefix, then the path (url-path.ts) and the query string (query-options.ts).

import { incorrectServiceRoot, MAX_URL_LENGTH, uriTooLong } from "./url-error.js";
import { parseODataPath, type ODataPath } from "./url-path.js";
import { parseQueryOptions, type QueryOptions } from "./query-options.js";

export const SERVICE_ROOT = "/fmi/odata/v4";

export interface ODataRequestTarget {
  readonly path: ODataPath;
  readonly query: QueryOptions;
}

/**
 * Parses a request target as it arrives on the request line (path and query, still percent-encoded). Throws only
 * ODataRequestError: 414 over MAX_URL_LENGTH, 404 -1000 outside `/fmi/odata/v4`, 400 -1002 for syntax.
 */
export function parseODataRequestTarget(target: string): ODataRequestTarget {
  if (target.length > MAX_URL_LENGTH) throw uriTooLong(target.length);
  const q = target.indexOf("?");
  const rawPath = q < 0 ? target : target.slice(0, q);
  const rawQuery = q < 0 ? "" : target.slice(q + 1);
  if (rawPath !== SERVICE_ROOT && !rawPath.startsWith(`${SERVICE_ROOT}/`)) throw incorrectServiceRoot();
  const path = parseODataPath(rawPath.slice(SERVICE_ROOT.length));
  const query = parseQueryOptions(rawQuery);
  return { path, query };
}
