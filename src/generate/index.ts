/**
 * The generator: `fmgen generate` and its stages.
 * load (src/layout, src/table) -> plan (`planModules`: every module's names, decided in one registry) -> emit
 * (`emitFiles`: each module's statements, printed in prettier's layout, layout modules from
 * templates/layout-module.ts) -> format (`formatPrinted`: prettier on over-long statements) -> write
 * (`writeGeneratedFiles`) | check (`checkGeneratedFiles`). Only the writer touches the disk.
 */
export { generate, emitFiles, type GeneratedFile, type GenerateOptions } from "./generate.js";
export { planModules, type ModulePlan, type ModuleDescriptions } from "./plan/plan-modules.js";
export { kebabCase, hashSuffix, moduleFileBase } from "./plan/module-names.js";
export { declarationName, IdentifierClashError, type LayoutPlan, type PortalPlan } from "./plan/layout-plan.js";
export { DatabasePlanError, type DatabasePlan, type GlobalPlan } from "./plan/database-plan.js";
export { TablePlanError, TABLE_SUFFIXES, TABLE_IMPORTS, TABLE_RUNTIME_MODULE, TABLE_MODULE_SUFFIX, type TablePlan, type TableRelationPlan } from "./plan/table-plan.js";
export { joinPrinted, docComment, objectLiteral, objectType, importStatement, type PrintedFile, type PrintedStatement, type ObjectTypeMember } from "./print.js";
export { formatPrinted, prettierFormat, needsPrettier, PRETTIER_OPTIONS } from "./format.js";
export { writeGeneratedFiles, type WriteReport } from "./write.js";
export { checkGeneratedFiles, type FileDrift } from "./check.js";
export { unifiedDiff } from "./diff.js";
export { layoutModuleTemplate, parseLayoutModuleTemplate, LAYOUT_MODULE_TEMPLATE_FILE, TemplateError, type LayoutModuleTemplate } from "./template.js";
export { resolveGenerateSettings, SettingsError, type GenerateSettings, type SettingsRequest } from "./settings.js";
export { generateFromSettings, generateAndWrite, generateAndCheck, schemasWanted, schemasFileNote } from "./from-settings.js";
export { watchAndGenerate, watchTargets, type WatchOptions, type WatchResult } from "./watch.js";
export { checkAppSetup, unsupportedSetup, type AppSetupVerdict } from "./app-setup.js";
