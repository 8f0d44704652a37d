// The discovery documents (docs/emulator.md, "Reads", "Discovery"): the service document of a database (`GET /{db}`:
// its entity sets) and the service root's list of databases (`GET /fmi/odata/v4`).

import type { DatabaseModel } from "../hosted-file/model.js";
import { odataModel, type ODataModel } from "./metadata-model.js";

export interface DiscoveryOptions {
  /** `@odata.context` rather than `@context` (2.2's rule, decided by the caller from the request's headers). */
  prefixed?: boolean;
  /** `odata.metadata=none`: no context annotation at all. */
  noContext?: boolean;
}

export interface DiscoveryEntry {
  name: string;
  kind: "EntitySet" | "EntityContainer";
  url: string;
}

export interface DiscoveryDocument {
  "@context"?: string;
  "@odata.context"?: string;
  value: DiscoveryEntry[];
}

/** One path segment, percent-encoded (`%20` for a space), keeping what OData URLs write literally (2.8). */
export function encodeSegment(text: string): string {
  return encodeURIComponent(text).replace(/%(3A|24|28|29|27|2C|3D|40)/g, (e) => decodeURIComponent(e));
}

function withContext(url: string, value: DiscoveryEntry[], options: DiscoveryOptions): DiscoveryDocument {
  if (options.noContext) return { value };
  return options.prefixed ? { "@odata.context": url, value } : { "@context": url, value };
}

/**
 * `GET /{db}`: every entity set (table occurrence) with its absolute, percent-encoded URL. `serviceRoot` is the
 * database's root as the request reached it (`http://127.0.0.1:8080/fmi/odata/v4/Contacts`, already encoded).
 * `db` may be an OData model already built (the read path's cached one).
 */
export function serviceDocument(db: DatabaseModel | { model: DatabaseModel } | ODataModel, serviceRoot: string, options: DiscoveryOptions = {}): DiscoveryDocument {
  const root = serviceRoot.replace(/\/+$/, "");
  const model = "entityTypes" in db ? db : odataModel(db);
  const value = model.entityTypes.map((t): DiscoveryEntry => ({ name: t.set, kind: "EntitySet", url: `${root}/${encodeSegment(t.set)}` }));
  return withContext(`${root}/$metadata`, value, options);
}

/** `GET /fmi/odata/v4`: the databases given (those the account may use with `fmodata`), as entity containers. */
export function serviceRootDocument(databases: readonly string[], odataRoot: string, options: DiscoveryOptions = {}): DiscoveryDocument {
  const root = odataRoot.replace(/\/+$/, "");
  const value = databases.map((name): DiscoveryEntry => ({ name, kind: "EntityContainer", url: `${root}/${encodeSegment(name)}` }));
  return withContext(`${root}/$metadata`, value, options);
}
