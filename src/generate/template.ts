import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ts } from "ts-morph";
import { commentText } from "./text.js";

/**
 * `templates/layout-module.ts`, read as data: the header, the import list and the ordered declarations of every
 * generated layout module. The template is the source of truth; the emitters fill its `@fill` declarations and
 * the layout module emitter copies the others (see the comment at the top of the template).
 */

export const LAYOUT_MODULE_TEMPLATE_FILE = fileURLToPath(new URL("../../templates/layout-module.ts", import.meta.url));

/** The template's layout: every exported name starts with it. */
export const LAYOUT_PLACEHOLDER = "Layout";
/** The template's portal: per-portal names start with `LayoutLines`. */
export const PORTAL_PLACEHOLDER = "Lines";

export const FILL_ROLES = ["definition", "fields", "input", "portalRow", "portalRowInput", "portals", "portalInput", "containers", "kinds"] as const;
export type FillRole = (typeof FILL_ROLES)[number];
const PORTAL_ROLES: ReadonlySet<FillRole> = new Set(["portalRow", "portalRowInput"]);

/**
 * Text that refers to the template's exported names and imports; `{ ref }` parts are replaced by planned names
 * (imports keep their names, and filling records them as used).
 */
export type TemplateText = readonly (string | { ref: string })[];

export type TemplateBody =
  | { kind: "text"; text: TemplateText }
  | { kind: "objectType"; members: readonly { key: string; optional: boolean; type: TemplateText; docs: string | undefined }[] };

export interface TemplateDeclaration {
  /** Its name in the template (`LayoutFields`). */
  templateName: string;
  /** The name without the placeholders: "" for the definition, "Fields", and "Row" for `LayoutLinesRow`. */
  suffix: string;
  /** Repeated for each portal, named `<Layout><Portal><suffix>`. */
  perPortal: boolean;
  kind: "type" | "const";
  /** Set for declarations an emitter fills; the others are copies. */
  fill: FillRole | undefined;
  /** JSDoc of a copy, copied with it. */
  docs: string | undefined;
  /** Type or initializer of a copy. */
  body: TemplateBody | undefined;
}

export interface LayoutModuleTemplate {
  /** First line of every generated file. */
  header: string;
  /** The names every module may import, and from where (in template order). */
  imports: readonly { name: string; isTypeOnly: boolean; from: string }[];
  declarations: readonly TemplateDeclaration[];
  /** The definition's initializer is `callee<typeArguments>({ ...filled... })`. */
  definitionCall: { callee: TemplateText; typeArguments: readonly TemplateText[] };
}

export class TemplateError extends Error {
  constructor(file: string, message: string) {
    super(`${file}: ${message}`);
    this.name = "TemplateError";
  }
}

let cached: LayoutModuleTemplate | undefined;

/** The shipped template, read and parsed once per process. */
export function layoutModuleTemplate(): LayoutModuleTemplate {
  cached ??= parseLayoutModuleTemplate(readFileSync(LAYOUT_MODULE_TEMPLATE_FILE, "utf8"), "templates/layout-module.ts");
  return cached;
}

export function parseLayoutModuleTemplate(rawText: string, file = "<template>"): LayoutModuleTemplate {
  // A checkout with CRLF line endings must not put "\r" into generated files.
  const text = rawText.replace(/\r\n?/g, "\n");
  const fail = (message: string): never => {
    throw new TemplateError(file, message);
  };
  const firstLine = text.split("\n", 1)[0] ?? "";
  if (!firstLine.startsWith("// ")) fail("the first line must be the header comment");
  // Written as the first line of every generated file: nothing in it may end the comment (a U+2028) or hide code.
  const header = `// ${commentText(firstLine.slice(3))}`;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);

  const referable = new Set<string>();
  for (const statement of source.statements) {
    if (ts.isTypeAliasDeclaration(statement)) referable.add(statement.name.text);
    if (ts.isVariableStatement(statement)) for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name)) referable.add(d.name.text);
    const bindings = ts.isImportDeclaration(statement) ? statement.importClause?.namedBindings : undefined;
    if (bindings && ts.isNamedImports(bindings)) for (const e of bindings.elements) referable.add(e.name.text);
  }

  const imports: { name: string; isTypeOnly: boolean; from: string }[] = [];
  let definitionCall: LayoutModuleTemplate["definitionCall"] | undefined;
  const declarations: TemplateDeclaration[] = [];

  for (const statement of source.statements) {
    const where = `line ${source.getLineAndCharacterOfPosition(statement.getStart(source)).line + 1}`;
    if (ts.isImportDeclaration(statement)) {
      const bindings = statement.importClause?.namedBindings;
      if (!bindings || !ts.isNamedImports(bindings) || statement.importClause?.name || statement.importClause?.isTypeOnly) {
        fail(`${where}: the template's imports are of named bindings`);
      }
      const from = (statement.moduleSpecifier as ts.StringLiteral).text;
      for (const e of (bindings as ts.NamedImports).elements) {
        if (e.propertyName) fail(`${where}: imports are not renamed`);
        imports.push({ name: e.name.text, isTypeOnly: e.isTypeOnly, from });
      }
      continue;
    }
    const exported = ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    const docs = jsDocText(text, statement);
    const fill = /^@fill (\w+)$/.exec(docs ?? "")?.[1];
    if (fill !== undefined && !(FILL_ROLES as readonly string[]).includes(fill)) fail(`${where}: unknown fill role "${fill}"`);
    const role = fill as FillRole | undefined;

    let name: string;
    let kind: "type" | "const";
    let body: TemplateBody | undefined;
    if (exported && ts.isTypeAliasDeclaration(statement) && !statement.typeParameters) {
      name = statement.name.text;
      kind = "type";
      if (!role) body = typeBody(statement.type);
    } else if (exported && ts.isVariableStatement(statement) && statement.declarationList.flags & ts.NodeFlags.Const && statement.declarationList.declarations.length === 1) {
      const declaration = statement.declarationList.declarations[0]!;
      if (!ts.isIdentifier(declaration.name) || !declaration.initializer || declaration.type) fail(`${where}: a const needs a plain name and an initializer`);
      name = (declaration.name as ts.Identifier).text;
      kind = "const";
      const initializer = declaration.initializer!;
      if (role === "definition") {
        if (!ts.isCallExpression(initializer) || initializer.arguments.length !== 1 || !ts.isObjectLiteralExpression(initializer.arguments[0]!)) {
          fail(`${where}: the definition is a call with one object literal argument`);
        }
        const callExpression = initializer as ts.CallExpression;
        definitionCall = {
          callee: templateText(callExpression.expression),
          typeArguments: (callExpression.typeArguments ?? []).map((t) => templateText(t)),
        };
      } else if (!role) {
        body = { kind: "text", text: templateText(initializer) };
      }
    } else {
      return fail(`${where}: only exported type aliases and const declarations belong in the template`);
    }

    const perPortal = role !== undefined && PORTAL_ROLES.has(role);
    const prefix = perPortal ? LAYOUT_PLACEHOLDER + PORTAL_PLACEHOLDER : LAYOUT_PLACEHOLDER;
    if (!name.startsWith(prefix)) fail(`${where}: "${name}" must start with "${prefix}"`);
    if (kind === "const" && role && role !== "definition") fail(`${where}: "${name}" (@fill ${role}) must be a type`);
    declarations.push({ templateName: name, suffix: name.slice(prefix.length), perPortal, kind, fill: role, docs: role ? undefined : docs, body });
  }

  if (!imports.length) return fail("the template has no import");
  for (const role of FILL_ROLES) {
    const count = declarations.filter((d) => d.fill === role).length;
    if (count !== 1) fail(`"@fill ${role}" must tag exactly one declaration, found ${count}`);
  }
  if (declarations.find((d) => d.fill === "definition")?.suffix !== "") fail(`the definition must be named "${LAYOUT_PLACEHOLDER}"`);
  const portalNames = new Set(declarations.filter((d) => d.perPortal).map((d) => d.templateName));
  for (const d of declarations) {
    const refs = d.body ? referencesOf(d.body) : [];
    const portalRef = refs.find((r) => portalNames.has(r));
    if (portalRef) fail(`"${d.templateName}" is copied once per layout, so it cannot refer to the per-portal "${portalRef}"`);
  }
  return { header, imports, declarations, definitionCall: definitionCall! };

  /** A node's text, with every reference to an exported name of the template marked. */
  function templateText(node: ts.Node): TemplateText {
    const nodeText = node.getText(source);
    if (nodeText.includes("\n")) fail(`"${nodeText.slice(0, 40)}...": copied text must fit on one line`);
    const start = node.getStart(source);
    const parts: (string | { ref: string })[] = [];
    let at = start;
    const visit = (child: ts.Node) => {
      if (ts.isIdentifier(child) && referable.has(child.text) && !isPropertyName(child)) {
        const from = child.getStart(source);
        if (from > at) parts.push(text.slice(at, from));
        parts.push({ ref: child.text });
        at = child.end;
        return;
      }
      ts.forEachChild(child, visit);
    };
    visit(node);
    if (node.end > at) parts.push(text.slice(at, node.end));
    return parts;
  }

  function typeBody(type: ts.TypeNode): TemplateBody {
    if (!ts.isTypeLiteralNode(type)) return { kind: "text", text: templateText(type) };
    const members = type.members.map((member) => {
      if (!ts.isPropertySignature(member) || !member.type || member.modifiers?.length) fail(`${member.getText(source)}: object types in the template hold plain properties`);
      const property = member as ts.PropertySignature;
      return { key: property.name.getText(source), optional: property.questionToken !== undefined, type: templateText(property.type!), docs: jsDocText(text, property) };
    });
    return { kind: "objectType", members };
  }
}

function isPropertyName(node: ts.Identifier): boolean {
  const parent = node.parent;
  return (ts.isPropertySignature(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyAccessExpression(parent)) && parent.name === node;
}

function referencesOf(body: TemplateBody): string[] {
  const texts = body.kind === "text" ? [body.text] : body.members.map((m) => m.type);
  return texts.flatMap((t) => t.flatMap((part) => (typeof part === "string" ? [] : [part.ref])));
}

/** The text of the JSDoc block right before `node`, with its `/**`, `*\/` and leading stars removed. */
function jsDocText(text: string, node: ts.Node): string | undefined {
  const ranges = ts.getLeadingCommentRanges(text, node.pos) ?? [];
  const last = ranges[ranges.length - 1];
  if (!last || last.kind !== ts.SyntaxKind.MultiLineCommentTrivia || !text.startsWith("/**", last.pos)) return undefined;
  return text
    .slice(last.pos + 3, last.end - 2)
    .split("\n")
    .map((line) => line.replace(/^\s*\* ?/, "").trimEnd())
    .join("\n")
    .trim();
}

/** Fills a template text with planned names. */
export function fillTemplateText(text: TemplateText, rename: (templateName: string) => string): string {
  return text.map((part) => (typeof part === "string" ? part : rename(part.ref))).join("");
}
