/** FileMaker's own wording for the codes the emulator answers with. */
const MESSAGES: Record<string, string> = {
  "0": "OK",
  "3": "Command is unavailable (for example, wrong operating system or mode)",
  "9": "Insufficient privileges",
  "100": "File is missing",
  "101": "Record is missing",
  "102": "Field is missing",
  "104": "Script is missing",
  "105": "Layout is missing",
  "201": "Field cannot be modified",
  "212": "Invalid user account and/or password; please try again",
  "306": "Record modification ID does not match",
  "400": "Find criteria are empty",
  "401": "No records match the request",
  "500": "Date value does not meet validation entry options",
  "501": "Time value does not meet validation entry options",
  "502": "Number value does not meet validation entry options",
  "504": "Value in field is not unique as required in validation entry options",
  "509": "Field requires a valid value",
  "511": "Value in field exceeds maximum field size",
  "952": "Invalid FileMaker Data API token (*)",
  "953": "Exceeded limit on data the FileMaker Data API can transmit",
  "956": "Maximum number of database sessions exceeded",
  "958": "Parameter missing in query",
  "960": "Unknown parameter(s)",
  "1630": "URL format is incorrect",
  "1708": "Parameter value is invalid",
  "1710": "JSON input isn't syntactically valid",
};

/** An error answer: HTTP status, FileMaker code, and the detail that tells the caller what to fix. */
export class EmulatorError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail?: string,
    /**
     * The status real servers answer (`serverStatuses`), when it is not the rule's: by default FileMaker errors
     * given as 400/404 become 500 and HTTP-level codes keep their status.
     */
    readonly serverStatus?: number,
  ) {
    super(standardMessage(code) + (detail ? `: ${detail}` : ""));
    this.name = "EmulatorError";
  }

  /** What the error answer's `response` holds: the answer keys of scripts that ran before the call failed. */
  response?: Record<string, string>;
}

export function standardMessage(code: string): string {
  return MESSAGES[code] ?? "Unknown error";
}
