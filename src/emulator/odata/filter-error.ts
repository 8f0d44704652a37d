// The errors a `$filter` raises beyond the URL's own -1002 (odata-error.ts): 8309, a name or type the server could
// not resolve (docs/emulator.md, "`$filter`: what it accepts and the choices it makes").
import { ODataError, quoted } from "./odata-error.js";

export const unknownField = (name: string) =>
  new ODataError(400, "8309", `The field named '${quoted(name)}' does not exist in a specified table (9)`);

export const incompatibleTypes = () => new ODataError(400, "8309", "incompatible data types");
