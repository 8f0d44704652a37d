import { StructureKind, type SourceFileStructure } from "ts-morph";
import type { LayoutPlan } from "../plan.js";
import type { LayoutModuleTemplate } from "../template.js";

/** The barrel `index.ts`: `export * from "./<module>.js"` for every layout, in file name order. */
export function emitIndexFile(plans: readonly LayoutPlan[], template: LayoutModuleTemplate): SourceFileStructure {
  const exports = plans.map((plan) => ({ kind: StructureKind.ExportDeclaration as const, moduleSpecifier: `./${plan.fileName.replace(/\.ts$/, ".js")}` }));
  return {
    kind: StructureKind.SourceFile,
    leadingTrivia: `${template.header}\n\n`,
    // With no layout, `export {}` keeps the file a module.
    statements: exports.length ? exports : [{ kind: StructureKind.ExportDeclaration, namedExports: [] }],
  };
}
