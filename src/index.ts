// The programmatic API of fmgen: the layout and table description formats and the generator.
// Apps import `@fmgen/runtime` (its own package); tests and local development import `fmgen/emulator`.
export * from "./layout/index.js";
export * from "./table/index.js";
export * from "./generate/index.js";
export * from "./project/index.js";
