import { withDocs } from "../print.js";
import { PRINT_WIDTH, textWidth } from "../text.js";
import { fillTemplateText, type TemplateDeclaration } from "../template.js";

/**
 * A declaration of the template that no emitter fills (`<Name>Input`, `<Name>Record`, a portal's row type, ...),
 * copied with its JSDoc: the template's names replaced through `rename`, and for a per-portal declaration the
 * portal's name, as a string literal, where the template says "Lines". `firstDocs` (the definition's: the layout's
 * description) comes before the template's JSDoc.
 */
export function emitCopy(declaration: TemplateDeclaration, rename: (templateName: string) => string, portalName?: string, firstDocs?: string): string {
  const text = expandMembers(fillTemplateText(declaration.text, rename, portalName));
  const docs = declaration.docs === undefined ? undefined : fillTemplateText(declaration.docs, rename, portalName);
  return withDocs(firstDocs && docs ? `${firstDocs}\n\n${docs}` : (firstDocs ?? docs), text);
}

/**
 * An interface whose members the template writes on its one line (`export interface X extends Y { a: A; b: B }`),
 * one member a line when the line does not fit the print width, as prettier prints it. (The template's members are
 * `name: Type` with no braces or semicolons inside; a line still too long goes through prettier, format.ts.)
 */
function expandMembers(text: string): string {
  const match = /^(export interface [^{]*)\{ ([^{}]*) \}$/.exec(text);
  if (!match || textWidth(text) <= PRINT_WIDTH) return text;
  return `${match[1]}{\n${match[2]!
    .split(";")
    .map((m) => m.trim())
    .filter(Boolean)
    .map((m) => `  ${m};\n`)
    .join("")}}`;
}
