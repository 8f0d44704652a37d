// The typed error of the OData API's parsers and checks (url-*, query-options*, batch-*, filter-*): the HTTP status
// and the FileMaker OData error code and message (docs/emulator.md, "Requests: paths, query options, `Prefer`,
// `$batch`"). They throw only this; the emulator answers it as {"error":{"code":…,"message":…}} with `status`.

/** How far an offending text is quoted in a message: hostile input must not come back as a megabyte of error. */
const QUOTED_TEXT_LIMIT = 100;

export const quoted = (text: string) => (text.length > QUOTED_TEXT_LIMIT ? text.slice(0, QUOTED_TEXT_LIMIT) : text);

export class ODataError extends Error {
  override readonly name = "ODataError";
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
export function syntaxError(at: string): ODataError {
  return new ODataError(400, "-1002", `Error: syntax error in URL at: '${quoted(at)}'`);
}

/** 400 -1002 "Error: parse failure in URL at: '<text>'" (the form a bare `ID` in `$select` gets). */
export function parseFailure(at: string): ODataError {
  return new ODataError(400, "-1002", `Error: parse failure in URL at: '${quoted(at)}'`);
}

/**
 * -1000 "Incorrect OData service root path": a path outside `/fmi/odata/v4` (404, as for an unknown database), or a
 * proxy prefix inside a batch part (400, section 4's choice).
 */
export function incorrectServiceRoot(status: 400 | 404 = 404): ODataError {
  return new ODataError(status, "-1000", "Incorrect OData service root path");
}

/** Longest request target accepted (section 10 choice): longer → 414. */
export const MAX_URL_LENGTH = 8192;

export function uriTooLong(length: number): ODataError {
  return new ODataError(414, "-1002", `Error: URL of ${length} characters exceeds the limit of ${MAX_URL_LENGTH}`);
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
