import { EmulatorError } from "../fm-error.js";
import { shorten } from "./input-text.js";

/**
 * The error for names a call does not implement (no parameter is silently ignored: docs/emulator.md, "The wider
 * Data API of real servers"): HTTP 400, code 960, naming them. The Data API's routes check their query and body names
 * with it (data-api/wire/known-params.ts), and so do the hosted file's own option objects (records/entry-options.ts).
 */
export function unknownParameters(names: readonly string[]): EmulatorError {
  // Names as the client sent them (shortened), as FileMaker Server lists them: "Unknown parameter(s): script".
  return new EmulatorError(400, "960", names.map(shorten).join(", "));
}
