import type { DatabaseDescription, LayoutDescription } from "../layout/index.js";
import { compareCodeUnits, type ImportExtension } from "../project/index.js";
import type { TableDescription } from "../table/index.js";
import { emitIndexFile } from "./emit/index-file.js";
import { emitModule } from "./emit/module.js";
import { emitSchemasFile } from "./emit/schemas-file.js";
import { formatPrinted } from "./format.js";
import type { LayoutPlan } from "./plan/layout-plan.js";
import { INDEX_FILE, SCHEMAS_FILE } from "./plan/name-registry.js";
import { planModules } from "./plan/plan-modules.js";
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
   * modules and in the same `index.ts` (plan/name-registry.ts says how their names stay apart from the layouts').
   */
  tables?: readonly TableDescription[];
  /**
   * `true` also writes `schemas.ts`, every layout's `<Name>Schema` (zod schemas of decoded records, from
   * `@fmgen/runtime/schema`). Default `false`: the runtime's schema declarations import zod, an optional peer
   * dependency, so an app without zod could not type-check a folder holding it (TS2307 unless `skipLibCheck`).
   */
  schemas?: boolean;
}

/**
 * The plan and emit stages: each file's statements, printed in prettier's layout, in path order. Pure. Between
 * the descriptions and the text there are two representations: the plan (every name decided) and the printed
 * statements.
 */
export function emitFiles(layouts: readonly LayoutDescription[], options: GenerateOptions = {}): { path: string; printed: PrintedFile }[] {
  const template = options.template ?? layoutModuleTemplate();
  const importExtension = options.importExtension ?? ".js";
  const emitOptions = { template, validateRecords: options.validateRecords ?? true, importExtension };
  const plans = planModules({ layouts, databases: options.databases, tables: options.tables }, template);
  const files = plans.map((plan) => ({ path: plan.fileName, printed: emitModule(plan, emitOptions) }));
  files.push({ path: INDEX_FILE, printed: emitIndexFile(files.map((f) => f.path), template, importExtension) });
  // Only when asked (`schemas`), and after the barrel, which does not re-export it: importing the generated modules
  // must not reach zod. Its name stays reserved either way, so turning it on renames nothing.
  const schemas = options.schemas === true && emitSchemasFile(plans.filter((plan): plan is LayoutPlan => plan.kind === "layout"), template, importExtension);
  if (schemas) files.push({ path: SCHEMAS_FILE, printed: schemas });
  return files.sort((a, b) => compareCodeUnits(a.path, b.path));
}

/**
 * The generator without the disk: validated descriptions in, files out (one module per layout, one per database, one
 * per table, `index.ts`, and with `schemas: true` `schemas.ts`, every layout's `<Name>Schema`).
 * Plan -> emit (printed statements) -> format (prettier, only on statements with an over-long line); the same
 * descriptions, in any order, give the same bytes.
 */
export async function generate(layouts: readonly LayoutDescription[], options: GenerateOptions = {}): Promise<GeneratedFile[]> {
  return Promise.all(emitFiles(layouts, options).map(async ({ path, printed }) => ({ path, contents: await formatPrinted(printed) })));
}
