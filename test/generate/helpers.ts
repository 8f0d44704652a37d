import { parseLayoutDescription, type LayoutDescription, type LayoutDescriptionInput } from "../../src/layout/index.js";
import { layoutModuleTemplate, planIdentifiers, type LayoutPlan } from "../../src/generate/index.js";

type Partial = Omit<LayoutDescriptionInput, "database" | "layout" | "table"> & { database?: string; layout?: string; table?: string };

/** A validated description with defaults for what a test does not care about. */
export function layout(json: Partial, source = "test.layout.json"): LayoutDescription {
  return parseLayoutDescription({ database: "DB", layout: "Things", table: "Things", ...json }, source);
}

/** The plan of one layout, as generate makes it with the shipped template. */
export function planOf(description: LayoutDescription): LayoutPlan {
  return planIdentifiers([description], layoutModuleTemplate())[0]!;
}
