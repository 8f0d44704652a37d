// The one rule naming a hosted file from a URL's database segment, for every path of both APIs (the Data API's
// `/databases/{db}/...`, OData's `/fmi/odata/v4/{db}/...`, under an API key's prefix too): the name as given, else
// the name without a trailing `.fmp12`, each matched as FileMaker matches names (name-map.ts). Real servers answer
// `Contacts.fmp12` as the file `Contacts` on both APIs (docs/emulator.md, "Names").

import type { NameMap } from "./name-map.js";

/** `.fmp12` at the end of a file name, in any case. */
const EXTENSION = /\.fmp12$/i;

/** The file name without its `.fmp12` extension (as it is when there is none). */
export function withoutExtension(name: string): string {
  return name.replace(EXTENSION, "");
}

export interface NamedDatabase<D> {
  /** The hosted file's own name (its key among the hosted files), whatever form the URL used. */
  readonly name: string;
  readonly db: D;
}

/** The hosted file a URL's database segment names, or undefined. */
export function resolveDatabase<D>(databases: NameMap<D>, urlName: string): NamedDatabase<D> | undefined {
  for (const given of [urlName, withoutExtension(urlName)]) {
    const name = databases.ownName(given);
    if (name !== undefined) return { name, db: databases.get(name)! };
  }
  return undefined;
}
