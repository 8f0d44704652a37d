import { commentText, PRINT_WIDTH, textWidth } from "./text.js";

/**
 * Text in the pinned prettier layout (`format.ts`). The emitters write each statement of a module as text through
 * these helpers, in the layout prettier gives it whenever every line fits the print width: objects one member a
 * line with trailing commas, JSDoc blocks as prettier keeps them, imports on one line or one name a line. A
 * statement with a longer line (a huge value list, a very long name) is where prettier makes choices of its own;
 * the formatter runs prettier on those statements alone (prettier lays top-level statements out independently).
 * Tests prove that prettier leaves every other statement as printed.
 */

/** A module as printed, statement by statement, so that the formatter can reformat one statement on its own. */
export interface PrintedFile {
  /** The leading trivia: the header comment and its blank line. */
  header: string;
  statements: readonly PrintedStatement[];
}

export interface PrintedStatement {
  /** The statement with its JSDoc, without a final newline. */
  text: string;
  /** A blank line separates it from the statement before (none between imports, none between re-exports). */
  blankLineBefore: boolean;
}

/**
 * A module as printed: the header and its blank line, the `imports` one a line (or the barrel's re-exports), then
 * the `declarations`, each after a blank line.
 */
export function printedModule(header: string, imports: readonly string[], declarations: readonly string[]): PrintedFile {
  return {
    header: `${header}\n\n`,
    statements: [
      ...imports.map((text): PrintedStatement => ({ text, blankLineBefore: false })),
      ...declarations.map((text, i): PrintedStatement => ({ text, blankLineBefore: imports.length + i > 0 })),
    ],
  };
}

/** The text of a printed file: header, statements, LF line endings, one final newline. */
export function joinPrinted(file: PrintedFile): string {
  let body = "";
  file.statements.forEach((statement, i) => {
    if (i > 0) body += statement.blankLineBefore ? "\n\n" : "\n";
    body += statement.text;
  });
  return `${file.header}${body}\n`;
}

/**
 * A JSDoc block for `text` at `indent`: `/** one line *\/`, or one ` * ` line per line of text. Every line goes
 * through `commentText`, whoever wrote it, so no text can end the block or hide code.
 */
export function docComment(text: string, indent: string): string {
  const lines = text.split("\n").map(commentText);
  if (lines.length === 1) return `${indent}/** ${lines[0]} */`;
  return [`${indent}/**`, ...lines.map((line) => (line ? `${indent} * ${line}` : `${indent} *`)), `${indent} */`].join("\n");
}

/** A statement with its JSDoc before it (none when `docs` is undefined). */
export function withDocs(docs: string | undefined, statement: string): string {
  return docs === undefined ? statement : `${docComment(docs, "")}\n${statement}`;
}

/** `{ key: value, ... }` at `indent`, one entry a line (empty: `{}`); values may be objects printed one level deeper. */
export function objectLiteral(entries: readonly (readonly [key: string, value: string])[], indent: string): string {
  if (!entries.length) return "{}";
  return `{\n${entries.map(([key, value]) => `${indent}  ${key}: ${value},`).join("\n")}\n${indent}}`;
}

export interface ObjectTypeMember {
  /** Printed property key (see `propertyKey`). */
  key: string;
  type: string;
  /** JSDoc text, one block; `\n` separates its lines. */
  docs?: string | undefined;
}

/** The members of an interface or type literal at `indent`, one a line with their JSDoc: `{\n  key: type;\n}` (empty: `{}`). */
export function objectType(members: readonly ObjectTypeMember[], indent: string): string {
  if (!members.length) return "{}";
  const inner = `${indent}  `;
  const lines = members.map((m) => `${m.docs !== undefined ? `${docComment(m.docs, inner)}\n` : ""}${inner}${m.key}: ${m.type};`);
  return `{\n${lines.join("\n")}\n${indent}}`;
}

/** A name a module may import, and from where. */
export interface ImportedName {
  name: string;
  isTypeOnly: boolean;
  from: string;
}

/** One import statement per module of `imports` (in their order), each keeping only the `used` names; one none of whose names is used is left out. */
export function importStatements(imports: readonly ImportedName[], used: ReadonlySet<string>): string[] {
  const statements: string[] = [];
  for (const from of new Set(imports.map((i) => i.from))) {
    const names = imports.filter((i) => i.from === from && used.has(i.name)).map((i) => `${i.isTypeOnly ? "type " : ""}${i.name}`);
    if (names.length) statements.push(importStatement(names, from));
  }
  return statements;
}

/** The specifier of a generated module as another imports it: `./contacts.js`, or `./contacts.ts` with `importExtension` ".ts". */
export function relativeSpecifier(fileName: string, importExtension: string): string {
  return `./${fileName.replace(/\.ts$/, importExtension)}`;
}

/** `import { a, type B } from "x";`: one line when it fits, else one name a line (prettier's rule). */
export function importStatement(names: readonly string[], from: string): string {
  const tail = ` from ${JSON.stringify(from)};`;
  const oneLine = `import { ${names.join(", ")} }${tail}`;
  if (textWidth(oneLine) <= PRINT_WIDTH) return oneLine;
  return `import {\n${names.map((n) => `  ${n},\n`).join("")}}${tail}`;
}
