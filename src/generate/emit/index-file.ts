import { compareCodeUnits, type ImportExtension } from "../../project/index.js";
import type { PrintedFile } from "../print.js";
import type { LayoutModuleTemplate } from "../template.js";

/**
 * The barrel `index.ts`: `export * from "./<module>.js"` for every module (layouts and databases), in file name order
 * (`export {}` for none). `importExtension` ".ts" writes `./<module>.ts`, which Deno resolves with no flag.
 */
export function emitIndexFile(fileNames: readonly string[], template: LayoutModuleTemplate, importExtension: ImportExtension = ".js"): PrintedFile {
  const exports = [...fileNames].sort(compareCodeUnits).map((fileName) => `export * from ${JSON.stringify(`./${fileName.replace(/\.ts$/, importExtension)}`)};`);
  return {
    header: `${template.header}\n\n`,
    // With no module, `export {}` keeps the file a module.
    statements: (exports.length ? exports : ["export {};"]).map((text) => ({ text, blankLineBefore: false })),
  };
}
