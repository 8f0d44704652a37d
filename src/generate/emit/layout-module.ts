import { declarationName, type LayoutPlan, type PortalPlan } from "../plan.js";
import { importStatement, type PrintedFile, type PrintedStatement } from "../print.js";
import { stringLiteral } from "../text.js";
import { fillTemplateText, importsUsed, type LayoutModuleTemplate, type TemplateDeclaration } from "../template.js";
import { emitCopy } from "./copy.js";
import { emitDefinition, layoutDocs } from "./definition.js";
import { emitFields } from "./fields.js";

/**
 * One layout's module, statement by statement: the template's header and imports, then the template's
 * declarations in order, the definition's spec and the fields filled from the description, the others copied (the
 * definition itself with the layout's description before its JSDoc);
 * per-portal declarations once per portal, in description order. The imports keep only the runtime names the
 * module uses (an import none of whose names is used is left out).
 */
export function emitLayoutModule(plan: LayoutPlan, template: LayoutModuleTemplate, validateRecords = true): PrintedFile {
  const importNames = new Set(template.imports.map((i) => i.name));
  const used = new Set<string>();
  const renamer = (portal: PortalPlan | undefined) => (templateName: string): string => {
    if (importNames.has(templateName)) return templateName;
    const declaration = template.declarations.find((d) => d.templateName === templateName);
    if (!declaration || (declaration.perPortal && !portal)) throw new Error(`template name ${templateName} has no layout-level declaration`);
    return declarationName(plan, declaration.suffix, declaration.perPortal ? portal : undefined);
  };
  const use = (declaration: TemplateDeclaration) => {
    for (const name of importsUsed(declaration.text, importNames)) used.add(name);
  };

  const statements: string[] = [];
  for (const declaration of template.declarations) {
    const portals: (PortalPlan | undefined)[] = declaration.perPortal ? [...plan.portals] : [undefined];
    for (const portal of portals) {
      use(declaration);
      const name = declarationName(plan, declaration.suffix, portal);
      if (declaration.fill === "definition") statements.push(emitDefinition(plan, name, fillTemplateText(declaration.text, renamer(undefined)), validateRecords));
      else if (declaration.fill === "fields") statements.push(emitFields(plan, name));
      else statements.push(emitCopy(declaration, renamer(portal), portal && stringLiteral(portal.portal.name), declaration.suffix === "" ? layoutDocs(plan) : undefined));
    }
  }

  const imports: string[] = [];
  for (const from of new Set(template.imports.map((i) => i.from))) {
    const names = template.imports.filter((i) => i.from === from && used.has(i.name)).map((i) => `${i.isTypeOnly ? "type " : ""}${i.name}`);
    if (names.length) imports.push(importStatement(names, from));
  }
  return {
    header: `${template.header}\n\n`,
    statements: [
      ...imports.map((text): PrintedStatement => ({ text, blankLineBefore: false })),
      ...statements.map((text, i): PrintedStatement => ({ text, blankLineBefore: imports.length + i > 0 })),
    ],
  };
}
