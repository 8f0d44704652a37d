import { parseLayoutDescription, type LayoutDescription, type LayoutDescriptionInput } from "../../src/layout/index.js";
import { layoutModuleTemplate, planModules, type LayoutModuleTemplate, type LayoutPlan } from "../../src/generate/index.js";

type Partial = Omit<LayoutDescriptionInput, "database" | "layout" | "table"> & { database?: string; layout?: string; table?: string };

/** A validated description with defaults for what a test does not care about. */
export function layout(json: Partial, source = "test.layout.json"): LayoutDescription {
  return parseLayoutDescription({ database: "DB", layout: "Things", table: "Things", ...json }, source);
}

/** The layout modules' plans of `layouts` (and of no table or database description), as generate makes them, in file order. */
export function layoutPlans(layouts: readonly LayoutDescription[], template: LayoutModuleTemplate = layoutModuleTemplate()): LayoutPlan[] {
  return planModules({ layouts }, template).filter((plan): plan is LayoutPlan => plan.kind === "layout");
}

/** The plan of one layout, as generate makes it with the shipped template. */
export function planOf(description: LayoutDescription): LayoutPlan {
  return layoutPlans([description])[0]!;
}
