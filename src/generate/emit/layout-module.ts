import { declarationName, type LayoutPlan, type PortalPlan } from "../plan/layout-plan.js";
import { importStatements, printedModule, type PrintedFile } from "../print.js";
import { stringLiteral } from "../text.js";
import { fillTemplateText, importsUsed, inSchemasModule, type LayoutModuleTemplate, type TemplateDeclaration } from "../template.js";
import { emitCopy } from "./copy.js";
import { emitDefinition, layoutDocs } from "./definition.js";
import { emitFields } from "./fields.js";

/**
 * One layout's module, statement by statement: the template's header and imports, then the template's
 * declarations in order, the definition's spec and the fields filled from the description, the others copied (the
 * definition itself with the layout's description before its JSDoc);
 * per-portal declarations once per portal, in description order. The declarations of the schemas module
 * (`inSchemasModule`) are left out: `emitSchemasFile` writes them. The imports keep only the runtime names the
 * module uses (an import none of whose names is used is left out).
 */
export function emitLayoutModule(plan: LayoutPlan, template: LayoutModuleTemplate, validateRecords = true): PrintedFile {
  const own = template.declarations.filter((d) => !inSchemasModule(d, template));
  const { statements, used } = emitDeclarations(plan, template, own, validateRecords);
  return printedModule(template.header, importStatements(template.imports, used), statements);
}

/** The template's names as one layout (and one of its portals) declares them: `LayoutFields` -> `ContactFields`. */
export function layoutRenamer(plan: LayoutPlan, template: LayoutModuleTemplate, portal: PortalPlan | undefined): (templateName: string) => string {
  const importNames = new Set(template.imports.map((i) => i.name));
  return (templateName) => {
    if (importNames.has(templateName)) return templateName;
    const declaration = template.declarations.find((d) => d.templateName === templateName);
    if (!declaration || (declaration.perPortal && !portal)) throw new Error(`template name ${templateName} has no layout-level declaration`);
    return declarationName(plan, declaration.suffix, declaration.perPortal ? portal : undefined);
  };
}

/** `declarations` of the template for one layout, as statements (per-portal ones once per portal), and the imports they use. */
export function emitDeclarations(plan: LayoutPlan, template: LayoutModuleTemplate, declarations: readonly TemplateDeclaration[], validateRecords: boolean): { statements: string[]; used: Set<string> } {
  const importNames = new Set(template.imports.map((i) => i.name));
  const used = new Set<string>();
  const statements: string[] = [];
  for (const declaration of declarations) {
    const portals: (PortalPlan | undefined)[] = declaration.perPortal ? [...plan.portals] : [undefined];
    for (const portal of portals) {
      for (const name of importsUsed(declaration.text, importNames)) used.add(name);
      const name = declarationName(plan, declaration.suffix, portal);
      if (declaration.fill === "definition") statements.push(emitDefinition(plan, name, fillTemplateText(declaration.text, layoutRenamer(plan, template, undefined)), validateRecords));
      else if (declaration.fill === "fields") statements.push(emitFields(plan, name));
      else statements.push(emitCopy(declaration, layoutRenamer(plan, template, portal), portal && stringLiteral(portal.portal.name), declaration.suffix === "" ? layoutDocs(plan) : undefined));
    }
  }
  return { statements, used };
}
