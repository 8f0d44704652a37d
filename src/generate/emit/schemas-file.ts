import type { ImportExtension } from "../../project/index.js";
import type { LayoutPlan, PortalPlan } from "../plan/layout-plan.js";
import { importStatement, importStatements, printedModule, relativeSpecifier, type PrintedFile } from "../print.js";
import { inSchemasModule, referencesOf, type LayoutModuleTemplate } from "../template.js";
import { emitDeclarations, layoutRenamer } from "./layout-module.js";

/**
 * The schemas module: for every layout, in file order, the template's declarations that `inSchemasModule` puts
 * here (`export const ContactSchema = recordSchema(Contact);`), with the imports they use: the runtime's schema
 * entry, and from each layout module the names they refer to (`type` for types). Undefined when there is nothing
 * to put in it (no layout, or a template without such declarations). Layout modules are imported as `index.ts`
 * imports them (`importExtension`).
 */
export function emitSchemasFile(plans: readonly LayoutPlan[], template: LayoutModuleTemplate, importExtension: ImportExtension = ".js"): PrintedFile | undefined {
  const declarations = template.declarations.filter((d) => inSchemasModule(d, template));
  if (!declarations.length || !plans.length) return undefined;
  const importNames = new Set(template.imports.map((i) => i.name));
  const used = new Set<string>();
  const moduleImports: string[] = [];
  const statements: string[] = [];
  for (const plan of plans) {
    const emitted = emitDeclarations(plan, template, declarations, true);
    for (const name of emitted.used) used.add(name);
    statements.push(...emitted.statements);
    // The layout module's names these declarations refer to, as the layout declares them.
    const names = new Map<string, boolean>();
    for (const declaration of declarations) {
      const portals: (PortalPlan | undefined)[] = declaration.perPortal ? [...plan.portals] : [undefined];
      for (const portal of portals) {
        for (const ref of referencesOf(declaration.text)) {
          const target = template.declarations.find((d) => d.templateName === ref);
          // Imports, and the declarations of this module (each names itself), are not the layout module's.
          if (importNames.has(ref) || !target || declarations.includes(target)) continue;
          names.set(layoutRenamer(plan, template, portal)(ref), target.kind !== "const");
        }
      }
    }
    if (names.size) moduleImports.push(importStatement([...names].map(([name, isType]) => `${isType ? "type " : ""}${name}`), relativeSpecifier(plan.fileName, importExtension)));
  }
  return printedModule(template.header, [...importStatements(template.imports, used), ...moduleImports], statements);
}
