// Table descriptions (`<Name>.table.json`): OData's table occurrences, as layout descriptions are the Data API's layouts.
export * from "./schema.js";
export * from "./description.js";
export * from "./load.js";
export * from "./json-schema.js";
