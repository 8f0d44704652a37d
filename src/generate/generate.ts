import type { DatabaseDescription, LayoutDescription } from "../layout/index.js";
import { compareCodeUnits, type ImportExtension } from "../project/index.js";
import type { TableDescription } from "../table/index.js";
import { emitDatabaseModule } from "./emit/database-module.js";
import { emitIndexFile } from "./emit/index-file.js";
import { emitLayoutModule } from "./emit/layout-module.js";
import { emitSchemasFile, SCHEMAS_FILE } from "./emit/schemas-file.js";
import { emitTableModule } from "./emit/table-module.js";
import { formatPrinted } from "./format.js";
import { layoutExports, planDatabases, planIdentifiers } from "./plan.js";
import { finishTablePlans, planTableNames } from "./table-plan.js";
import type { PrintedFile } from "./print.js";
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
  /**
   * Database descriptions (`<Database>.database.json`): their scripts go into the database modules. Every
   * database with layouts gets a module, described or not (then with no scripts).
   */
  databases?: readonly DatabaseDescription[];
  /**
   * The extension of the relative imports between the generated modules (`index.ts`'s re-exports): ".js" (default,
   * what `"module": "nodenext"` wants) or ".ts" (Deno with no flag; tsc then needs `allowImportingTsExtensions` or
   * `rewriteRelativeImportExtensions`).
   */
  importExtension?: ImportExtension;
  /**
   * Table descriptions (`<Name>.table.json`, OData): one module per table, `<name>.table.ts`, beside the layout
   * modules and in the same `index.ts` (table-plan.ts says how their names stay apart from the layouts').
   */
  tables?: readonly TableDescription[];
}

/**
 * The plan and emit stages: each file's statements, printed in prettier's layout, in path order. Pure. Between
 * the descriptions and the text there are two representations: the plan (every name decided) and the printed
 * statements.
 */
export function emitFiles(layouts: readonly LayoutDescription[], options: GenerateOptions = {}): { path: string; printed: PrintedFile }[] {
  const template = options.template ?? layoutModuleTemplate();
  const plans = planIdentifiers(layouts, template);
  // Layouts first, then tables' explicit names, then database modules, then tables' derived names (table-plan.ts).
  const layoutNames = layoutExports(plans, template);
  const { pending, claimed } = planTableNames(options.tables ?? [], layoutNames);
  const databases = planDatabases(options.databases ?? [], plans, template, claimed);
  const taken = new Map(layoutNames);
  for (const plan of databases) taken.set(plan.typeName, `the database module of "${plan.database}" (${plan.fileName})`);
  const tables = finishTablePlans(pending, taken);
  const files = plans.map((plan) => ({ path: plan.fileName, printed: emitLayoutModule(plan, template, options.validateRecords ?? true) }));
  for (const plan of databases) files.push({ path: plan.fileName, printed: emitDatabaseModule(plan, template) });
  for (const plan of tables) files.push({ path: plan.fileName, printed: emitTableModule(plan, template.header, options.importExtension) });
  files.push({ path: "index.ts", printed: emitIndexFile(files.map((f) => f.path), template, options.importExtension) });
  // After the barrel, which does not re-export it: importing the generated modules must not reach zod.
  const schemas = emitSchemasFile(plans, template, options.importExtension);
  if (schemas) files.push({ path: SCHEMAS_FILE, printed: schemas });
  return files.sort((a, b) => compareCodeUnits(a.path, b.path));
}

/**
 * The generator without the disk: validated descriptions in, files out (one module per layout, one per database, one
 * per table, `index.ts`, and `schemas.ts` with every layout's `<Name>Schema`).
 * Plan -> emit (printed statements) -> format (prettier, only on statements with an over-long line); the same
 * descriptions, in any order, give the same bytes.
 */
export async function generate(layouts: readonly LayoutDescription[], options: GenerateOptions = {}): Promise<GeneratedFile[]> {
  return Promise.all(emitFiles(layouts, options).map(async ({ path, printed }) => ({ path, contents: await formatPrinted(printed) })));
}
