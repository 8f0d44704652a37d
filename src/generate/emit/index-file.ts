import { compareCodeUnits, type ImportExtension } from "../../project/index.js";
import { printedModule, relativeSpecifier, type PrintedFile } from "../print.js";
import type { LayoutModuleTemplate } from "../template.js";

/**
 * The barrel `index.ts`: `export * from "./<module>.js"` for every module (layouts, databases, tables), in file name order
 * (`export {}` for none). `importExtension` ".ts" writes `./<module>.ts`, which Deno resolves with no flag.
 */
export function emitIndexFile(fileNames: readonly string[], template: LayoutModuleTemplate, importExtension: ImportExtension = ".js"): PrintedFile {
  const exports = [...fileNames].sort(compareCodeUnits).map((fileName) => `export * from ${JSON.stringify(relativeSpecifier(fileName, importExtension))};`);
  // Re-exports are printed as imports are, one a line; with no module, `export {}` keeps the file a module.
  return printedModule(template.header, exports.length ? exports : ["export {};"], []);
}
