import type { SourceFileStructure } from "ts-morph";
import type { LayoutDescription } from "../layout/index.js";
import { compareCodeUnits } from "../project/index.js";
import { emitIndexFile } from "./emit/index-file.js";
import { emitLayoutModule } from "./emit/layout-module.js";
import { formatPrinted } from "./format.js";
import { planIdentifiers } from "./plan.js";
import { printFile } from "./print.js";
import { layoutModuleTemplate, type LayoutModuleTemplate } from "./template.js";

/** A generated file as data: `path` is relative to the output folder, with `/` separators. */
export interface GeneratedFile {
  path: string;
  contents: string;
}

export interface GenerateOptions {
  /** The module template; default: the shipped `templates/layout-module.ts`. */
  template?: LayoutModuleTemplate;
  /** `false` emits `validate: false` in every definition, so clients skip record validation for them. */
  validateRecords?: boolean;
}

/** The emit stage: each file's ts-morph structure, in path order. Pure. */
export function emitFiles(layouts: readonly LayoutDescription[], options: GenerateOptions = {}): { path: string; structure: SourceFileStructure }[] {
  const template = options.template ?? layoutModuleTemplate();
  const plans = planIdentifiers(layouts, template);
  const files = plans.map((plan) => ({ path: plan.fileName, structure: emitLayoutModule(plan, template, options.validateRecords ?? true) }));
  files.push({ path: "index.ts", structure: emitIndexFile(plans, template) });
  return files.sort((a, b) => compareCodeUnits(a.path, b.path));
}

/**
 * The generator without the disk: validated descriptions in, files out (one module per layout, `index.ts`).
 * Plan -> emit -> print -> format; the same descriptions, in any order, give the same bytes.
 */
export async function generate(layouts: readonly LayoutDescription[], options: GenerateOptions = {}): Promise<GeneratedFile[]> {
  const printed = emitFiles(layouts, options).map(({ path, structure }) => ({ path, printed: printFile(structure) }));
  return Promise.all(printed.map(async ({ path, printed }) => ({ path, contents: await formatPrinted(printed) })));
}
