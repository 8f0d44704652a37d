// Which OData request bodies are JSON, and the Content-Type they must then declare (docs/emulator.md "Request
// bodies"). Checked once in the dispatch, before any path reads its body, for top-level requests and `$batch`
// parts alike (a part by its own Content-Type), so a path added later is covered without knowing of it.

import { isJsonMediaType, JSON_MEDIA_TYPE } from "../http/media-type.js";
import { ODataError, quoted } from "./odata-error.js";
import type { ODataPath } from "./url-path.js";

/** Methods whose body a path reads; a DELETE's body is read by none, so its type does not matter. */
const BODY_METHODS: ReadonlySet<string> = new Set(["POST", "PATCH", "PUT"]);

/**
 * Refuses a JSON-bodied request whose Content-Type is not `application/json` (parameters allowed): 415 -1, naming
 * the type needed and the one sent. Every POST/PATCH/PUT body is JSON but a `$batch`'s (multipart, batch-parse.ts)
 * and a binary container upload's (`T(k)/F[/$value]`, container-upload.ts), which keep their own rules. A request
 * with no body and no Content-Type passes (a script call without a parameter); a declared non-JSON type is refused
 * even on an empty body, as an empty HTML form sends one.
 */
export function refuseNonJsonBody(request: { method: string; target: string; contentType: string | undefined; body: Buffer | undefined }, path: ODataPath): void {
  const { method, target, contentType, body } = request;
  if (!BODY_METHODS.has(method) || path.kind === "batch" || path.kind === "member" || path.kind === "value") return;
  const declared = contentType?.trim() ?? "";
  if (declared === "" && (body === undefined || body.byteLength === 0)) return;
  if (isJsonMediaType(declared)) return;
  const sent = declared === "" ? "none" : `'${quoted(declared)}'`;
  const call = target.split("?")[0]!;
  throw new ODataError(415, "-1", `Error: Unsupported media type: the body of ${method} '${quoted(call)}' is JSON and needs Content-Type: ${JSON_MEDIA_TYPE} (got ${sent})`);
}
