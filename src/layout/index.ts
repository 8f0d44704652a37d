export * from "./schema.js";
export * from "./description.js";
export * from "./load.js";
