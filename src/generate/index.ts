/**
 * The generator: `fmgen generate` and its stages.
 * load (src/layout) -> plan (`planIdentifiers`) -> emit (`emitFiles`: ts-morph structures) -> print
 * (`printFile`) -> format (`formatPrinted`) -> write (`writeGeneratedFiles`) | check (`checkGeneratedFiles`).
 * Only the writer touches the disk.
 */
export { generate, emitFiles, type GeneratedFile, type GenerateOptions } from "./generate.js";
export { planIdentifiers, kebabCase, hashSuffix, moduleFileBase, declarationName, IdentifierClashError, type LayoutPlan, type PortalPlan } from "./plan.js";
export {
  printSourceFile,
  printFile,
  joinPrinted,
  objectType,
  objectLiteral,
  call,
  satisfies,
  type PrintedFile,
  type PrintedStatement,
  type Value,
  type ObjectTypeMember,
  type ObjectLiteralEntry,
} from "./print.js";
export { formatPrinted, prettierFormat, needsPrettier, PRETTIER_OPTIONS } from "./format.js";
export { writeGeneratedFiles, type WriteReport } from "./write.js";
export { checkGeneratedFiles, type FileDrift } from "./check.js";
export { unifiedDiff } from "./diff.js";
export { layoutModuleTemplate, parseLayoutModuleTemplate, LAYOUT_MODULE_TEMPLATE_FILE, TemplateError, type LayoutModuleTemplate } from "./template.js";
export { resolveGenerateSettings, SettingsError, type GenerateSettings, type SettingsRequest } from "./settings.js";
export { generateFromSettings, generateAndWrite, generateAndCheck } from "./from-settings.js";
export { watchAndGenerate, watchTargets, type WatchOptions, type WatchResult } from "./watch.js";
