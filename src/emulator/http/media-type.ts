// Media types as both APIs read them from Content-Type and Accept headers: the one rule for which bodies are JSON.

/** A header's media type without parameters, lower-case (`image/PNG; x=1` → `image/png`; none → `""`). */
export function mediaTypeOf(header: string | undefined): string {
  return (header ?? "").split(";")[0]!.trim().toLowerCase();
}

/** The media type a JSON body is sent with. */
export const JSON_MEDIA_TYPE = "application/json";

/**
 * Whether a Content-Type declares a JSON body: `application/json` in any case, with any parameters
 * (`;charset=utf-8`, `;odata.metadata=minimal`, `;IEEE754Compatible=true`). A `+json` suffix type is not JSON
 * here: OData's JSON format names `application/json` as the type of a JSON message and the Data API takes only
 * it. The types an HTML form can send without a CORS preflight (text/plain, form-urlencoded, multipart/form-data)
 * are never JSON, so no web page can make a browser write through the emulator with the credentials it holds.
 */
export function isJsonMediaType(header: string | undefined): boolean {
  return mediaTypeOf(header) === JSON_MEDIA_TYPE;
}
