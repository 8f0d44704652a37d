// The errors a `$filter` can raise, as FileMaker's OData API answers them (odata-server.md section 9): HTTP 400 with
// `{"error":{"code","message"}}`. -1002 is a URL the server could not parse; 8309 a name or type it could not resolve.

/** How far an offending text is quoted in a message: hostile input must not come back as a megabyte of error. */
const QUOTED_TEXT_LIMIT = 100;

export type FilterErrorCode = "-1002" | "8309";

export class ODataFilterError extends Error {
  readonly status = 400;
  override readonly name = "ODataFilterError";
  constructor(
    readonly code: FilterErrorCode,
    message: string,
  ) {
    super(message);
  }

  /** The body the HTTP layer sends. */
  toBody(): { error: { code: FilterErrorCode; message: string } } {
    return { error: { code: this.code, message: this.message } };
  }
}

const quoted = (text: string) => (text.length > QUOTED_TEXT_LIMIT ? text.slice(0, QUOTED_TEXT_LIMIT) : text);

/** A token the server recognises but refuses where it stands (an operator word, `in`, an unsupported function). */
export const syntaxError = (text: string) =>
  new ODataFilterError("-1002", `Error: syntax error in URL at: '${quoted(text)}'`);

/** A token where an operand was expected, the end of the text too early, or input beyond the limits. */
export const parseFailure = (text: string) =>
  new ODataFilterError("-1002", `Error: parse failure in URL at: '${quoted(text)}'`);

export const unknownField = (name: string) =>
  new ODataFilterError("8309", `The field named '${quoted(name)}' does not exist in a specified table (9)`);

export const incompatibleTypes = () => new ODataFilterError("8309", "incompatible data types");
