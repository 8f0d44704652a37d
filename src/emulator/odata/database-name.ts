// The one rule naming a hosted file from a URL's `{db}` segment (docs/emulator.md, "Third-party clients"), used by
// every path kind: the name as given, else without `.fmp12` (PKM requested `WebData.fmp12`; @proofkit/fmodata adds it
// on webhook calls). What comes after the lookup (webhook registry, batch parts, answers' URLs) uses the hosted name it
// returns.

import type { HostedDatabase } from "../hosted-file/store.js";
import { incorrectServiceRoot } from "./odata-error.js";

export interface HostedName {
  /** The hosted file's own name (its key among the hosted files), whatever form the URL used. */
  readonly name: string;
  readonly db: HostedDatabase;
}

/** The hosted file the URL's `{db}` names; 404 -1000 "Incorrect OData service root path" when none. */
export function hostedDatabase(databases: ReadonlyMap<string, HostedDatabase>, urlName: string): HostedName {
  for (const name of [urlName, urlName.replace(/\.fmp12$/i, "")]) {
    const db = databases.get(name);
    if (db) return { name, db };
  }
  throw incorrectServiceRoot();
}
