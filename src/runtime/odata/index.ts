// @fmgen/runtime/odata on Node (the "node" export condition): requests go to undici's dispatcher.
export * from "./public-api.js";
