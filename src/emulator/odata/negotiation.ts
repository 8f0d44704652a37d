// What a request asks its answer to look like (2.1, 2.2, 1.6): Accept and `$format`, the annotation form.

import { mediaTypeOf } from "../http/media-type.js";
import type { Annotations } from "./entity-read.js";

/** Header names in lower case, values as one string each. */
export type PlainHeaders = Readonly<Record<string, string | undefined>>;

/** What Accept allows: JSON or not, and the annotation form the answer takes. */
export interface Accepted {
  readonly json: boolean;
  readonly annotations: Annotations;
}

/**
 * What Accept (and `$format`, which overrides it: 2.1) allows: JSON when absent, `*∕*`, `application/*` or
 * `application/json`; Atom and XML data are not emulated (2.1's choice: 406). The annotation form (2.2's choice):
 * `@odata.` when the request has `OData-Version`/`OData-MaxVersion` 4.0 or an `odata.metadata=` parameter.
 */
export function readAccept(headers: PlainHeaders, format: "json" | "xml" | undefined): Accepted {
  const header = headers.accept;
  let jsonOk = header === undefined || header.trim() === "";
  let metadata: string | undefined;
  let ieee754 = false;
  for (const range of (header ?? "").split(",")) {
    const [type, ...params] = range.split(";").map((s) => s.trim().toLowerCase());
    if (type === "*/*" || type === "application/*" || type === "application/json") jsonOk = true;
    for (const p of params) {
      // 4.01: the parameter with or without `odata.` (2.1).
      const m = /^(?:odata\.)?metadata=(.*)$/.exec(p);
      if (m) metadata ??= m[1];
      if (p === "ieee754compatible=true") ieee754 = true;
    }
  }
  if (format !== undefined) jsonOk = format === "json";
  const v4 = (h: string | undefined) => h?.trim().startsWith("4.0") ?? false;
  const prefixed = metadata !== undefined || v4(headers["odata-version"]) || v4(headers["odata-maxversion"]);
  return { json: jsonOk, annotations: { prefixed, none: metadata === "none", ieee754 } };
}

/**
 * `$metadata`'s form (1.6): CSDL XML by default (no Accept, `*∕*`, XML); JSON CSDL for `$format=json`, or an Accept
 * that names `application/json` and not XML. `$format` overrides Accept (2.9).
 */
export function metadataFormat(headers: PlainHeaders, format: "json" | "xml" | undefined): "json" | "xml" {
  if (format !== undefined) return format;
  const types = (headers.accept ?? "").split(",").map(mediaTypeOf);
  return types.includes("application/json") && !types.includes("application/xml") ? "json" : "xml";
}

/** The discovery documents follow the read path's annotation form (1.7, 2.2). */
export function discovery(a: Annotations): { prefixed: boolean; noContext: boolean } {
  return { prefixed: a.prefixed, noContext: a.none };
}
