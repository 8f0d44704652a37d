import type { DatabaseDescription, LayoutDescription } from "../../layout/index.js";
import { compareCodeUnits } from "../../project/index.js";
import type { TableDescription } from "../../table/index.js";
import type { LayoutModuleTemplate } from "../template.js";
import { planDatabases, type DatabasePlan } from "./database-plan.js";
import { planLayouts, type LayoutPlan } from "./layout-plan.js";
import { NameRegistry } from "./name-registry.js";
import { finishTables, nameTables, type TablePlan } from "./table-plan.js";

/** The plan of one generated module, by kind: every name it declares decided, and its file. */
export type ModulePlan = LayoutPlan | DatabasePlan | TablePlan;

export interface ModuleDescriptions {
  layouts: readonly LayoutDescription[];
  /** Their scripts go into the database modules; every database with layouts gets a module, described or not. */
  databases?: readonly DatabaseDescription[] | undefined;
  tables?: readonly TableDescription[] | undefined;
}

/**
 * The plan of every module of one generation: all names decided in one registry, in the order of its rule 4 (see
 * name-registry.ts), so that a kind planned earlier never yields to one planned later. Sorted by file name. Throws
 * `IdentifierClashError`, `TablePlanError` or `DatabasePlanError` for what cannot be named, whichever comes first.
 */
export function planModules({ layouts, databases = [], tables = [] }: ModuleDescriptions, template: LayoutModuleTemplate): ModulePlan[] {
  const registry = new NameRegistry();
  const layoutPlans = planLayouts(layouts, template, registry);
  const named = nameTables(tables, registry);
  const databasePlans = planDatabases(databases, layoutPlans, template, registry);
  const tablePlans = finishTables(named, registry);
  return [...layoutPlans, ...databasePlans, ...tablePlans].sort((a, b) => compareCodeUnits(a.fileName, b.fileName));
}
