// @fmgen/runtime/odata where there is no Node (the "workerd", "deno", "bun", "browser" and "default" export
// conditions, and "./odata/fetch"): requests go to global `fetch`. Nothing here imports a `node:` module or undici.
export * from "./public-api.js";
