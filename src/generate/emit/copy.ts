import { withDocs } from "../print.js";
import { fillTemplateText, type TemplateDeclaration } from "../template.js";

/**
 * A declaration of the template that no emitter fills (`<Name>Input`, `<Name>Record`, a portal's row type, ...),
 * copied with its JSDoc: the template's names replaced through `rename`, and for a per-portal declaration the
 * portal's name, as a string literal, where the template says "Lines". `firstDocs` (the definition's: the layout's
 * description) comes before the template's JSDoc.
 */
export function emitCopy(declaration: TemplateDeclaration, rename: (templateName: string) => string, portalName?: string, firstDocs?: string): string {
  const text = fillTemplateText(declaration.text, rename, portalName);
  const docs = declaration.docs === undefined ? undefined : fillTemplateText(declaration.docs, rename, portalName);
  return withDocs(firstDocs && docs ? `${firstDocs}\n\n${docs}` : (firstDocs ?? docs), text);
}
