/** FileMaker's own wording for the codes the emulator answers with. */
const MESSAGES: Record<string, string> = {
  "0": "OK",
  "9": "Insufficient privileges",
  "100": "File is missing",
  "101": "Record is missing",
  "102": "Field is missing",
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
  "952": "Invalid FileMaker Data API token (*)",
  "960": "Unknown parameter(s)",
  "1630": "URL format is incorrect",
  "1708": "Parameter value is invalid",
};

/** An error answer: HTTP status, FileMaker code, and the detail that tells the caller what to fix. */
export class EmulatorError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail?: string,
  ) {
    super(standardMessage(code) + (detail ? `: ${detail}` : ""));
    this.name = "EmulatorError";
  }
}

export function standardMessage(code: string): string {
  return MESSAGES[code] ?? "Unknown error";
}
