import type { LayoutPlan } from "../plan.js";
import type { PrintedFile } from "../print.js";
import type { LayoutModuleTemplate } from "../template.js";

/** The barrel `index.ts`: `export * from "./<module>.js"` for every layout, in file name order (`export {}` for none). */
export function emitIndexFile(plans: readonly LayoutPlan[], template: LayoutModuleTemplate): PrintedFile {
  const exports = plans.map((plan) => `export * from ${JSON.stringify(`./${plan.fileName.replace(/\.ts$/, ".js")}`)};`);
  return {
    header: `${template.header}\n\n`,
    // With no layout, `export {}` keeps the file a module.
    statements: (exports.length ? exports : ["export {};"]).map((text) => ({ text, blankLineBefore: false })),
  };
}
