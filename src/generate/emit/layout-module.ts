import { StructureKind, type SourceFileStructure, type StatementStructures } from "ts-morph";
import { declarationName, type LayoutPlan, type PortalPlan } from "../plan.js";
import { fillTemplateText, type FillRole, type LayoutModuleTemplate } from "../template.js";
import { emitContainers } from "./containers.js";
import type { FillContext, Filler } from "./context.js";
import { emitCopy } from "./copy.js";
import { emitDefinition } from "./definition.js";
import { emitFields } from "./fields.js";
import { emitInput } from "./input.js";
import { emitKinds } from "./kinds.js";
import { emitPortalInput } from "./portal-input.js";
import { emitPortalRow } from "./portal-row.js";
import { emitPortalRowInput } from "./portal-row-input.js";
import { emitPortals } from "./portals.js";

/** The emitter of each `@fill` role of the template. */
export const FILLERS: Readonly<Record<FillRole, Filler>> = {
  definition: emitDefinition,
  fields: emitFields,
  input: emitInput,
  portalRow: emitPortalRow,
  portalRowInput: emitPortalRowInput,
  portals: emitPortals,
  portalInput: emitPortalInput,
  containers: emitContainers,
  kinds: emitKinds,
};

/**
 * One layout's module, as a ts-morph structure: the template's header and import, then the template's
 * declarations in order, filled by their emitters or copied; per-portal declarations once per portal, in
 * description order. The imports keep only the runtime names the module uses (a module none of them comes from is
 * not imported).
 */
export function emitLayoutModule(plan: LayoutPlan, template: LayoutModuleTemplate, validateRecords = true): SourceFileStructure {
  const runtimeNames = new Set(template.imports.map((i) => i.name));
  const used = new Set<string>();
  const rename = (templateName: string): string => {
    if (runtimeNames.has(templateName)) {
      used.add(templateName);
      return templateName;
    }
    const declaration = template.declarations.find((d) => d.templateName === templateName && !d.perPortal);
    if (!declaration) throw new Error(`template name ${templateName} has no layout-level declaration`);
    return declarationName(plan, declaration.suffix);
  };
  const nameOf = (role: FillRole, portal?: PortalPlan): string => {
    const declaration = template.declarations.find((d) => d.fill === role)!;
    if (declaration.perPortal && !portal) throw new Error(`@fill ${role} is named per portal`);
    return declarationName(plan, declaration.suffix, declaration.perPortal ? portal : undefined);
  };
  const definitionCall = {
    callee: fillTemplateText(template.definitionCall.callee, rename),
    typeArguments: template.definitionCall.typeArguments.map((t) => fillTemplateText(t, rename)),
  };

  const statements: StatementStructures[] = [];
  for (const declaration of template.declarations) {
    const portals: (PortalPlan | undefined)[] = declaration.perPortal ? [...plan.portals] : [undefined];
    for (const portal of portals) {
      const name = declarationName(plan, declaration.suffix, portal);
      if (!declaration.fill) {
        statements.push(emitCopy(declaration, name, rename));
        continue;
      }
      const context: FillContext = { plan, portal, name, nameOf, definitionCall, validateRecords };
      const filled = FILLERS[declaration.fill](context);
      for (const runtimeName of filled.runtimeNames ?? []) {
        if (!runtimeNames.has(runtimeName)) throw new Error(`@fill ${declaration.fill} uses ${runtimeName}, which the template does not import`);
        used.add(runtimeName);
      }
      statements.push(filled.statement);
    }
  }

  const imports: StatementStructures[] = [];
  for (const from of new Set(template.imports.map((i) => i.from))) {
    const namedImports = template.imports.filter((i) => i.from === from && used.has(i.name)).map((i) => ({ name: i.name, isTypeOnly: i.isTypeOnly }));
    if (namedImports.length) imports.push({ kind: StructureKind.ImportDeclaration, moduleSpecifier: from, namedImports });
  }
  return {
    kind: StructureKind.SourceFile,
    leadingTrivia: `${template.header}\n\n`,
    statements: [...imports, ...statements],
  };
}
