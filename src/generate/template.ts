import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ImportedName } from "./print.js";
import { commentText } from "./text.js";

/**
 * `templates/layout-module.ts`, read as data: the header, the imports and the ordered declarations of every
 * generated layout module (see the comment at the top of the template for its rules). The template is real
 * TypeScript that the test suite type-checks; this reader needs no TypeScript parser (loading one would cost every
 * `fmgen generate` most of its run time), because the template keeps to a simple layout: a test checks that what
 * it reads is what the TypeScript parser sees.
 */

export const LAYOUT_MODULE_TEMPLATE_FILE = fileURLToPath(new URL("../../templates/layout-module.ts", import.meta.url));

/** The template's layout: every exported name starts with it. */
export const LAYOUT_PLACEHOLDER = "Layout";
/** The template's portal: per-portal names start with `LayoutLines`, and its name is the string "Lines". */
export const PORTAL_PLACEHOLDER = "Lines";

/** The suffix of the definition's spec (`@fill definition`), which the definition (`Layout`) types with its shapes' names. */
export const SPEC_SUFFIX = "Spec";

export const FILL_ROLES = ["definition", "fields"] as const;
export type FillRole = (typeof FILL_ROLES)[number];

/** A declaration's text as parts: literal text, and references to the template's own names or its imports. */
export type TemplateText = readonly (string | { ref: string } | { portalName: true })[];

export interface TemplateDeclaration {
  /** Its name in the template (`LayoutFields`). */
  templateName: string;
  /** The name without the placeholders: "" for the definition, "Spec" for its spec, "Fields", and "Row" for `LayoutLinesRow`. */
  suffix: string;
  /** Repeated for each portal, named `<Layout><Portal><suffix>`. */
  perPortal: boolean;
  kind: "type" | "interface" | "const";
  /** Set for declarations an emitter fills; the others are copies. */
  fill: FillRole | undefined;
  /** JSDoc of a copy, copied with it (for per-portal copies, with the portal name marked). */
  docs: TemplateText | undefined;
  /** The whole statement of a copy (one line); for the definition, the call up to its object literal. */
  text: TemplateText;
}

export interface LayoutModuleTemplate {
  /** First line of every generated file. */
  header: string;
  /** The names every module may import, and from where (in template order). */
  imports: readonly ImportedName[];
  /**
   * The runtime's module specifier: where the definition's call (`defineLayout`) is imported from. Database modules
   * import `defineDatabase` from it, so that the two kinds of module import the same runtime.
   */
  runtimeModule: string;
  declarations: readonly TemplateDeclaration[];
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

const IMPORTS = /^(?:import\s*\{[^}]*\}\s*from\s*"[^"]+";\s*)+$/;
const IMPORT = /import\s*\{([^}]*)\}\s*from\s*"([^"]+)";/g;
const DECLARATION = /^export (type|interface|const) ([A-Za-z_$][\w$]*)\b/;
const IDENTIFIER = /[A-Za-z_$][\w$]*/y;

export function parseLayoutModuleTemplate(rawText: string, file = "<template>"): LayoutModuleTemplate {
  // A checkout with CRLF line endings must not put "\r" into generated files.
  const text = rawText.replace(/\r\n?/g, "\n");
  const fail = (message: string): never => {
    throw new TemplateError(file, message);
  };
  const lines = text.split("\n");
  const firstLine = lines[0] ?? "";
  if (!firstLine.startsWith("// ")) fail("the first line must be the header comment");
  // Written as the first line of every generated file: nothing in it may end the comment (a U+2028) or hide code.
  const header = `// ${commentText(firstLine.slice(3))}`;

  // Blocks: runs of lines between blank lines, `//` comment lines left out.
  const blocks: { line: number; lines: string[] }[] = [];
  let current: { line: number; lines: string[] } | undefined;
  lines.forEach((line, i) => {
    if (line.trim() === "") current = undefined;
    else if (!line.startsWith("//")) {
      if (!current) blocks.push((current = { line: i + 1, lines: [] }));
      current.lines.push(line);
    }
  });

  const imports: ImportedName[] = [];
  const raw: { line: number; docs: string | undefined; statement: string[] }[] = [];
  for (const block of blocks) {
    const joined = block.lines.join(" ").replace(/\s+/g, " ");
    if (joined.startsWith("import ")) {
      if (!IMPORTS.test(joined)) fail(`line ${block.line}: the template's imports are of named bindings (import { a, type B } from "x";)`);
      for (const [, bindings, from] of joined.matchAll(IMPORT)) {
        for (const binding of bindings!.split(",").map((b) => b.trim()).filter(Boolean)) {
          const [, type, name] = /^(type\s+)?([A-Za-z_$][\w$]*)$/.exec(binding) ?? fail(`line ${block.line}: imports are not renamed ("${binding}")`);
          imports.push({ name: name!, isTypeOnly: type !== undefined, from: from! });
        }
      }
      continue;
    }
    let docs: string | undefined;
    let at = 0;
    if (block.lines[0]!.trimStart().startsWith("/**")) {
      const end = block.lines.findIndex((l) => l.includes("*/"));
      if (end < 0) fail(`line ${block.line}: an unterminated JSDoc`);
      docs = jsDocText(block.lines.slice(0, end + 1).join("\n"));
      at = end + 1;
    }
    raw.push({ line: block.line + at, docs, statement: block.lines.slice(at) });
  }
  if (!imports.length) fail("the template has no import");

  const referable = new Set([...raw.map((r) => DECLARATION.exec(r.statement[0] ?? "")?.[2]).filter((n): n is string => n !== undefined), ...imports.map((i) => i.name)]);
  const declarations = raw.map(({ line, docs, statement }): TemplateDeclaration => {
    const where = `line ${line}`;
    const first = statement[0] ?? "";
    const match = DECLARATION.exec(first);
    if (!match) return fail(`${where}: only exported type aliases, interfaces and const declarations belong in the template`);
    const [, kind, name] = match as unknown as [string, "type" | "interface" | "const", string];
    const fill = /^@fill (\w+)$/.exec(docs ?? "")?.[1];
    if (fill !== undefined && !(FILL_ROLES as readonly string[]).includes(fill)) fail(`${where}: unknown fill role "${fill}"`);
    const role = fill as FillRole | undefined;
    const perPortal = name.startsWith(LAYOUT_PLACEHOLDER + PORTAL_PLACEHOLDER);
    if (!name.startsWith(LAYOUT_PLACEHOLDER)) fail(`${where}: "${name}" must start with "${LAYOUT_PLACEHOLDER}"`);
    const suffix = name.slice((perPortal ? LAYOUT_PLACEHOLDER + PORTAL_PLACEHOLDER : LAYOUT_PLACEHOLDER).length);

    let body: string;
    if (role === "definition") {
      // The call up to its object literal: `defineLayout<LayoutFields>()(`; the emitter writes the literal.
      const call = new RegExp(`^export const ${name} = (.*\\()\\{$`).exec(first);
      if (kind !== "const" || !call || statement[statement.length - 1] !== "});") fail(`${where}: the definition is \`export const ${name} = <call>({ ... });\``);
      body = call![1]!;
    } else if (role === "fields") {
      if (kind !== "interface" || !first.endsWith("{") || statement[statement.length - 1] !== "}") fail(`${where}: the fields are \`export interface ${name} { ... }\``);
      body = "";
    } else {
      if (statement.length !== 1) fail(`${where}: "${name}" is copied, so it must fit on one line`);
      body = first;
    }
    return { templateName: name, suffix, perPortal, kind, fill: role, docs: role || docs === undefined ? undefined : marked(docs, false, perPortal), text: marked(body, true, perPortal) };
  });

  for (const role of FILL_ROLES) {
    const count = declarations.filter((d) => d.fill === role).length;
    if (count !== 1) fail(`"@fill ${role}" must tag exactly one declaration, found ${count}`);
  }
  const definition = declarations.find((d) => d.fill === "definition")!;
  if (definition.suffix !== SPEC_SUFFIX) fail(`the definition's spec must be named "${LAYOUT_PLACEHOLDER}${SPEC_SUFFIX}"`);
  if (!declarations.some((d) => d.suffix === "" && !d.perPortal && d.kind === "const")) fail(`the definition, a const named "${LAYOUT_PLACEHOLDER}", is missing`);
  const [definedWith] = importsUsed(definition.text, new Set(imports.map((i) => i.name)));
  if (definedWith === undefined) fail("the definition must call a function the template imports (defineLayout)");
  const runtimeModule = imports.find((i) => i.name === definedWith)!.from;
  const portalNames = new Set(declarations.filter((d) => d.perPortal).map((d) => d.templateName));
  for (const d of declarations) {
    const portalRef = d.perPortal ? undefined : referencesOf(d.text).find((r) => portalNames.has(r));
    if (portalRef) fail(`"${d.templateName}" is copied once per layout, so it cannot refer to the per-portal "${portalRef}"`);
  }
  return { header, imports, runtimeModule, declarations };

  /**
   * Text with its references marked: identifiers that name the template's declarations or imports (outside string
   * literals, and not as a property name after a dot), and, in per-portal declarations, the portal's name.
   */
  function marked(source: string, code: boolean, perPortal: boolean): TemplateText {
    const parts: (string | { ref: string } | { portalName: true })[] = [];
    let literal = "";
    const flush = () => {
      if (literal) parts.push(literal);
      literal = "";
    };
    const portal = `"${PORTAL_PLACEHOLDER}"`;
    for (let i = 0; i < source.length; ) {
      if (perPortal && source.startsWith(portal, i)) {
        flush();
        parts.push({ portalName: true });
        i += portal.length;
        continue;
      }
      const c = source[i]!;
      if (code && (c === '"' || c === "'" || c === "`")) {
        const end = source.indexOf(c, i + 1);
        if (end < 0) fail(`"${source}": an unterminated string`);
        literal += source.slice(i, end + 1);
        i = end + 1;
        continue;
      }
      IDENTIFIER.lastIndex = i;
      const word = code && /[A-Za-z_$]/.test(c) ? IDENTIFIER.exec(source)?.[0] : undefined;
      if (word === undefined) {
        literal += c;
        i++;
        continue;
      }
      if (referable.has(word) && source[i - 1] !== ".") {
        flush();
        parts.push({ ref: word });
      } else literal += word;
      i += word.length;
    }
    flush();
    return parts;
  }
}

/** The names a template text refers to: the template's own and its imports. */
export function referencesOf(text: TemplateText): string[] {
  return text.flatMap((part) => (typeof part === "object" && "ref" in part ? [part.ref] : []));
}

/** The text of a JSDoc block, with its `/**`, `*\/` and leading stars removed. */
function jsDocText(block: string): string {
  return block
    .trim()
    .replace(/^\/\*\*/, "")
    .replace(/\*\/$/, "")
    .split("\n")
    .map((line) => line.replace(/^\s*\* ?/, "").trimEnd())
    .join("\n")
    .trim();
}

/** Fills a template text: references renamed, the portal's name (already a literal, or comment text) put in. */
export function fillTemplateText(text: TemplateText, rename: (templateName: string) => string, portalName = `"${PORTAL_PLACEHOLDER}"`): string {
  return text.map((part) => (typeof part === "string" ? part : "ref" in part ? rename(part.ref) : portalName)).join("");
}

/** The runtime names (imports) a template text uses. */
export function importsUsed(text: TemplateText, imports: ReadonlySet<string>): string[] {
  return referencesOf(text).filter((name) => imports.has(name));
}

/**
 * Whether a declaration of the template goes into the schemas module (`schemas.ts`) instead of the layout modules:
 * it uses a name imported from a module other than the runtime's (recordSchema, from its own entry
 * `@fmgen/runtime/schema`). The barrel does not re-export the schemas module, so importing the generated modules
 * never reaches that entry, nor zod behind it, even in a bundler, which resolves every import it meets.
 */
export function inSchemasModule(declaration: TemplateDeclaration, template: Pick<LayoutModuleTemplate, "imports" | "runtimeModule">): boolean {
  const elsewhere = new Set(template.imports.filter((i) => i.from !== template.runtimeModule).map((i) => i.name));
  return importsUsed(declaration.text, elsewhere).length > 0;
}
