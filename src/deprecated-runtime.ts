/**
 * `fmgen/runtime`, deprecated: the runtime is its own package, `@fmgen/runtime`, which apps install as a
 * dependency while `fmgen` stays a devDependency. Import `@fmgen/runtime` (and `recordSchema` from
 * `@fmgen/runtime/schema`); `fmgen generate` writes modules that do. This re-export keeps modules generated
 * before the split compiling and running unchanged until they are regenerated; it goes in the next minor version.
 */
export * from "@fmgen/runtime";
export { recordSchema } from "@fmgen/runtime/schema";
