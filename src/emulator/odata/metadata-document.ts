// What the HTTP layer calls for `GET /{db}/$metadata` (and `$metadata%23T`): the body and its content type.

import type { DatabaseModel } from "../hosted-file/model.js";
import { metadataJson } from "./metadata-json.js";
import { entityTypeOf, odataModel, withIdAnnotationsOnly, type ODataModelOptions } from "./metadata-model.js";
import { metadataXml } from "./metadata-xml.js";
import { ODataError } from "./odata-error.js";

export interface MetadataOptions extends ODataModelOptions {
  /** CSDL XML (the default) or JSON CSDL (`Accept: application/json`, `$format=json`). */
  format?: "xml" | "json";
  /** One table occurrence only (`$metadata%23T`, by name or `FMTID:n`). */
  table?: string;
  /** `Prefer: include-annotations="-*"`: only TableID and FieldID annotations (1.6's choice). */
  idAnnotationsOnly?: boolean;
}

export interface MetadataDocument {
  body: string;
  contentType: string;
  /** The schema's SchemaVersion (absent before 22.0.2), for `$schemaversion` checks, even when the body omits it. */
  schemaVersion?: string;
}

/** `$metadata` of a hosted database (or its model); an unknown `table` is 404 -1020, as for any unknown table. */
export function odataMetadata(db: DatabaseModel | { model: DatabaseModel }, options: MetadataOptions = {}): MetadataDocument {
  const { format = "xml", table, idAnnotationsOnly = false, ...modelOptions } = options;
  const full = odataModel(db, modelOptions);
  const model = idAnnotationsOnly ? withIdAnnotationsOnly(full) : full;
  const only = table === undefined ? undefined : entityTypeOf(model, table);
  if (table !== undefined && !only) throw new ODataError(404, "-1020", `Table '${table.slice(0, 100)}' not defined in database`);
  const schema = full.schemaVersion ? { schemaVersion: full.schemaVersion } : {};
  if (format === "json") return { body: metadataJson(model, only), contentType: "application/json;charset=utf-8", ...schema };
  return { body: metadataXml(model, only), contentType: "application/xml;charset=utf-8", ...schema };
}
