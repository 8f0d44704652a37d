import { StructureKind, type StatementStructures } from "ts-morph";
import { parseLayoutDescription, type LayoutDescription, type LayoutDescriptionInput } from "../../src/layout/index.js";
import type { FillContext, Filled } from "../../src/generate/emit/context.js";
import { declarationName, planIdentifiers, printSourceFile, layoutModuleTemplate, type LayoutPlan } from "../../src/generate/index.js";
import type { FillRole } from "../../src/generate/template.js";

type Partial = Omit<LayoutDescriptionInput, "database" | "layout" | "table"> & { database?: string; layout?: string; table?: string };

/** A validated description with defaults for what a test does not care about. */
export function layout(json: Partial, source = "test.layout.json"): LayoutDescription {
  return parseLayoutDescription({ database: "DB", layout: "Things", table: "Things", ...json }, source);
}

/** The context an emitter gets for a layout (and, for per-portal roles, its portal at `portalIndex`). */
export function fillContext(description: LayoutDescription, role: FillRole, portalIndex?: number): FillContext {
  const template = layoutModuleTemplate();
  const [plan] = planIdentifiers([description], template) as [LayoutPlan];
  const portal = portalIndex === undefined ? undefined : plan.portals[portalIndex];
  const suffixOf = (r: FillRole) => template.declarations.find((d) => d.fill === r)!.suffix;
  return {
    plan,
    portal,
    name: declarationName(plan, suffixOf(role), portal),
    nameOf: (r, p) => declarationName(plan, suffixOf(r), p),
    definitionCall: { callee: "defineLayout", typeArguments: [`${plan.typeName}Types`] },
    validateRecords: true,
  };
}

/** One statement as printed in a file (without the file's trailing newline). */
export function printStatement(statement: StatementStructures | Filled): string {
  const structure = "statement" in statement ? statement.statement : statement;
  return printSourceFile({ kind: StructureKind.SourceFile, statements: [structure] }).replace(/\n$/, "");
}
