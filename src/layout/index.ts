export * from "./schema.js";
export * from "./description.js";
export * from "./load.js";
export * from "./json-file.js";
export * from "./wire-keys.js";
export * from "./bounded-name.js";
