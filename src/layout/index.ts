export * from "./schema.js";
export * from "./description.js";
export * from "./load.js";
export * from "./wire-keys.js";
export * from "./value-lists.js";
export * from "./bounded-name.js";
export * from "./database-schema.js";
export * from "./database-load.js";
