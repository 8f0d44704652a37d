import {
  StructureKind,
  type ExportDeclarationStructure,
  type ImportDeclarationStructure,
  type JSDocStructure,
  type OptionalKind,
  type SourceFileStructure,
  type StatementStructures,
  type TypeAliasDeclarationStructure,
  type VariableStatementStructure,
  type WriterFunction,
} from "ts-morph";
import { commentText, PRINT_WIDTH, textWidth } from "./text.js";

/**
 * Printing: ts-morph structures -> text, once per file.
 *
 * The emitters build ordinary ts-morph structures (`SourceFileStructure`, `TypeAliasDeclarationStructure`, ...).
 * Where a structure holds a type or an initializer, it holds a `Value`: one-line text, or a shaped writer (an
 * object type, an object literal, a call) that is both a ts-morph `WriterFunction` and plain data. ts-morph's
 * own `printStructure` would print these structures with its own layout (hanging indents, no trailing commas),
 * which would leave all the work to prettier, the slowest stage by far. `printSourceFile` prints them directly in
 * the pinned prettier layout (`format.ts`), so prettier runs only for statements with a line too long to be sure
 * of (see `needsPrettier`); tests prove prettier leaves this printer's output unchanged. Prettier formats
 * top-level statements independently of each other, so the formatter runs it on the long statements only (see
 * `PrintedFile`).
 */

const SHAPE = Symbol("fmgen.shape");

export interface ObjectTypeMember {
  /** Printed property key (see `propertyKey`). */
  key: string;
  optional?: boolean;
  type: Value;
  /** JSDoc text, one block; `\n` separates its lines. */
  docs?: string;
}

export interface ObjectLiteralEntry {
  /** Printed property key, possibly computed (see `literalKey`). */
  key: string;
  value: Value;
}

type Shape =
  | { kind: "objectType"; members: readonly ObjectTypeMember[] }
  | { kind: "objectLiteral"; entries: readonly ObjectLiteralEntry[] }
  | { kind: "call"; callee: string; typeArguments: readonly string[]; args: readonly Value[] }
  | { kind: "satisfies"; value: Value; type: string };

export type ShapedWriter = WriterFunction & { readonly [SHAPE]: Shape };

/** A type or an initializer: text that fits on one line, or a shaped writer. */
export type Value = string | ShapedWriter;

/** A shape is a ts-morph `WriterFunction` too, so that it can stand in a structure; it writes what `printValue` prints. */
function shaped(shape: Shape): ShapedWriter {
  const value: ShapedWriter = Object.assign(((writer) => writer.write(printValue(value, ""))) as WriterFunction, { [SHAPE]: shape });
  return value;
}

/** `{ key: type; ... }`, one member a line (empty: `{}`). */
export function objectType(members: readonly ObjectTypeMember[]): ShapedWriter {
  return shaped({ kind: "objectType", members });
}

/** `{ key: value, ... }`, one entry a line (empty: `{}`). */
export function objectLiteral(entries: readonly ObjectLiteralEntry[]): ShapedWriter {
  return shaped({ kind: "objectLiteral", entries });
}

/** `callee<T>(arg, ...)`; a last object-literal argument hugs the parentheses, as prettier prints it. */
export function call(callee: string, typeArguments: readonly string[], args: readonly Value[]): ShapedWriter {
  return shaped({ kind: "call", callee, typeArguments, args });
}

/** `value satisfies type`. */
export function satisfies(value: Value, type: string): ShapedWriter {
  return shaped({ kind: "satisfies", value, type });
}

function typeArgumentsText(typeArguments: readonly string[]): string {
  return typeArguments.length ? `<${typeArguments.join(", ")}>` : "";
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

function printValue(value: Value, indent: string): string {
  if (typeof value === "string") {
    if (value.includes("\n")) throw new Error(`a one-line value spans lines: ${JSON.stringify(value.slice(0, 80))}`);
    return value;
  }
  const shape = value[SHAPE];
  const inner = `${indent}  `;
  switch (shape.kind) {
    case "objectType": {
      if (!shape.members.length) return "{}";
      const lines = shape.members.map((m) => {
        const docs = m.docs !== undefined ? `${docComment(m.docs, inner)}\n` : "";
        return `${docs}${inner}${m.key}${m.optional ? "?" : ""}: ${printValue(m.type, inner)};`;
      });
      return `{\n${lines.join("\n")}\n${indent}}`;
    }
    case "objectLiteral": {
      if (!shape.entries.length) return "{}";
      const lines = shape.entries.map((e) => `${inner}${e.key}: ${printValue(e.value, inner)},`);
      return `{\n${lines.join("\n")}\n${indent}}`;
    }
    case "call":
      return `${shape.callee}${typeArgumentsText(shape.typeArguments)}(${shape.args.map((a) => printValue(a, indent)).join(", ")})`;
    case "satisfies":
      return `${printValue(shape.value, indent)} satisfies ${shape.type}`;
  }
}

function printDocs(docs: readonly (OptionalKind<JSDocStructure> | string)[] | undefined): string {
  let out = "";
  for (const doc of docs ?? []) {
    if (typeof doc !== "string") throw new Error("printSourceFile takes JSDoc as strings");
    out += `${docComment(doc, "")}\n`;
  }
  return out;
}

function printImport(s: ImportDeclarationStructure): string {
  if (!Array.isArray(s.namedImports) || s.defaultImport !== undefined || s.namespaceImport !== undefined || s.isTypeOnly) {
    throw new Error("printSourceFile prints named imports only");
  }
  const names = s.namedImports.map((n) => {
    if (typeof n !== "object" || n.alias !== undefined) throw new Error("printSourceFile prints plain named imports only");
    return `${n.isTypeOnly ? "type " : ""}${n.name}`;
  });
  const from = ` from ${JSON.stringify(s.moduleSpecifier)};`;
  const oneLine = `import { ${names.join(", ")} }${from}`;
  // Prettier's rule for a named import: one line when it fits, else one name a line.
  if (textWidth(oneLine) <= PRINT_WIDTH) return oneLine;
  return `import {\n${names.map((n) => `  ${n},\n`).join("")}}${from}`;
}

function printExport(s: ExportDeclarationStructure): string {
  if (Array.isArray(s.namedExports) && s.namedExports.length === 0 && s.moduleSpecifier === undefined && !s.isTypeOnly) return "export {};";
  if (s.namedExports !== undefined || s.namespaceExport !== undefined || s.isTypeOnly || s.moduleSpecifier === undefined) {
    throw new Error("printSourceFile prints `export * from` and `export {}` only");
  }
  return `export * from ${JSON.stringify(s.moduleSpecifier)};`;
}

function printTypeAlias(s: TypeAliasDeclarationStructure): string {
  if (s.typeParameters?.length || s.hasDeclareKeyword || s.isDefaultExport) throw new Error(`type ${s.name}: unsupported modifiers`);
  return `${printDocs(s.docs)}${s.isExported ? "export " : ""}type ${s.name} = ${printValue(s.type as Value, "")};`;
}

function printVariableStatement(s: VariableStatementStructure): string {
  const declaration = s.declarations[0];
  if (s.declarations.length !== 1 || !declaration || declaration.initializer === undefined || declaration.type !== undefined) {
    throw new Error("printSourceFile prints one initialized declaration per variable statement");
  }
  if (s.declarationKind !== undefined && s.declarationKind !== "const") throw new Error("printSourceFile prints const declarations only");
  return `${printDocs(s.docs)}${s.isExported ? "export " : ""}const ${declaration.name} = ${printValue(declaration.initializer as Value, "")};`;
}

function printStatement(statement: string | WriterFunction | StatementStructures): string {
  if (typeof statement === "string" || typeof statement === "function") throw new Error("printSourceFile prints statement structures only");
  switch (statement.kind) {
    case StructureKind.ImportDeclaration:
      return printImport(statement);
    case StructureKind.ExportDeclaration:
      return printExport(statement);
    case StructureKind.TypeAlias:
      return printTypeAlias(statement);
    case StructureKind.VariableStatement:
      return printVariableStatement(statement);
    default:
      throw new Error(`printSourceFile cannot print a ${StructureKind[statement.kind]} structure`);
  }
}

/** Imports, and re-exports, follow one another without a blank line. */
function isGrouped(statement: string | WriterFunction | StatementStructures | undefined, kind: StructureKind): boolean {
  return typeof statement === "object" && statement.kind === kind && (kind === StructureKind.ExportDeclaration || kind === StructureKind.ImportDeclaration);
}

/** A printed file, statement by statement, so that the formatter can reformat one statement on its own. */
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

/** Prints each statement of a file. Throws on a structure outside the subset the emitters build. */
export function printFile(file: SourceFileStructure): PrintedFile {
  const statements = file.statements;
  if (!Array.isArray(statements)) throw new Error("printSourceFile needs an array of statements");
  return {
    header: typeof file.leadingTrivia === "string" ? file.leadingTrivia : "",
    statements: statements.map((statement, i) => ({
      text: printStatement(statement),
      blankLineBefore: i > 0 && !(typeof statement === "object" && isGrouped(statement, statement.kind) && isGrouped(statements[i - 1], statement.kind)),
    })),
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

/** Prints a file in one go: `joinPrinted(printFile(file))`. */
export function printSourceFile(file: SourceFileStructure): string {
  return joinPrinted(printFile(file));
}
