import type { ImportExtension } from "../../project/index.js";
import type { ModulePlan } from "../plan/plan-modules.js";
import type { PrintedFile } from "../print.js";
import type { LayoutModuleTemplate } from "../template.js";
import { emitDatabaseModule } from "./database-module.js";
import { emitLayoutModule } from "./layout-module.js";
import { emitTableModule } from "./table-module.js";

/** What every module's emission reads besides its plan. */
export interface EmitOptions {
  template: LayoutModuleTemplate;
  /** `false` writes `validate: false` in every layout definition. */
  validateRecords: boolean;
  /** How a module imports another (a table its related tables'). */
  importExtension: ImportExtension;
}

/** A planned module, printed statement by statement by the emitter of its kind. */
export function emitModule(plan: ModulePlan, options: EmitOptions): PrintedFile {
  switch (plan.kind) {
    case "layout":
      return emitLayoutModule(plan, options.template, options.validateRecords);
    case "database":
      return emitDatabaseModule(plan, options.template);
    case "table":
      return emitTableModule(plan, options.template, options.importExtension);
  }
}
