// OData's side of the one rule naming a hosted file from a URL's `{db}` segment (hosted-file/database-name.ts, shared
// with the Data API), used by every path kind: the name as given, else without `.fmp12` (PKM requested
// `WebData.fmp12`; @proofkit/fmodata adds it on webhook calls), case aside. What comes after the lookup (webhook
// registry, batch parts) uses the hosted name it returns; answers' URLs echo the URL's own form (`path.db`).

import { resolveDatabase, type NamedDatabase } from "../hosted-file/database-name.js";
import type { NameMap } from "../hosted-file/name-map.js";
import type { HostedDatabase } from "../hosted-file/store.js";
import { incorrectServiceRoot } from "./odata-error.js";

export type HostedName = NamedDatabase<HostedDatabase>;

/** The hosted file the URL's `{db}` names; 404 -1000 "Incorrect OData service root path" when none. */
export function hostedDatabase(databases: NameMap<HostedDatabase>, urlName: string): HostedName {
  const named = resolveDatabase(databases, urlName);
  if (!named) throw incorrectServiceRoot();
  return named;
}
