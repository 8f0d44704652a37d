// The typed error of the OData request parsers (url-*, query-options*, batch-*): the HTTP status and the FileMaker
// OData error code and message, exactly as /work/shared/odata-server.md section 9 shows them. The parsers throw only
// this; the emulator answers it as {"error":{"code":…,"message":…}} with `status`.

export class ODataRequestError extends Error {
  override readonly name = "ODataRequestError";
  constructor(
    readonly status: number,
    /** FileMaker's code, always a string on the wire ("-1002", "-1014", …). */
    readonly code: string,
    message: string,
  ) {
    super(message);
  }

  /** The body FileMaker answers: `{"error":{"code":…,"message":…}}`. */
  toJSON(): { error: { code: string; message: string } } {
    return { error: { code: this.code, message: this.message } };
  }
}

/** 400 -1002 "Error: syntax error in URL at: '<text>'". */
export function syntaxError(at: string): ODataRequestError {
  return new ODataRequestError(400, "-1002", `Error: syntax error in URL at: '${at}'`);
}

/** 400 -1002 "Error: parse failure in URL at: '<text>'" (the form a bare `ID` in `$select` gets). */
export function parseFailure(at: string): ODataRequestError {
  return new ODataRequestError(400, "-1002", `Error: parse failure in URL at: '${at}'`);
}

/**
 * -1000 "Incorrect OData service root path": a path outside `/fmi/odata/v4` (404, as for an unknown database), or a
 * proxy prefix inside a batch part (400, section 4's choice).
 */
export function incorrectServiceRoot(status: 400 | 404 = 404): ODataRequestError {
  return new ODataRequestError(status, "-1000", "Incorrect OData service root path");
}

/** Longest request target accepted (section 10 choice): longer → 414. */
export const MAX_URL_LENGTH = 8192;

export function uriTooLong(length: number): ODataRequestError {
  return new ODataRequestError(414, "-1002", `Error: URL of ${length} characters exceeds the limit of ${MAX_URL_LENGTH}`);
}

/**
 * Percent-decodes `text` once. A `%` not followed by two hex digits, or bytes that are not UTF-8, are a -1002 at the
 * offending escape.
 */
export function decodeOnce(text: string): string {
  if (!text.includes("%")) return text;
  const bad = /%(?![0-9A-Fa-f]{2})/.exec(text);
  if (bad) throw syntaxError(text.slice(bad.index, bad.index + 3));
  try {
    return decodeURIComponent(text);
  } catch {
    // The first run of escapes that is not UTF-8.
    for (const run of text.matchAll(/(?:%[0-9A-Fa-f]{2})+/g)) {
      try {
        decodeURIComponent(run[0]);
      } catch {
        throw syntaxError(run[0]);
      }
    }
    throw syntaxError(text);
  }
}
