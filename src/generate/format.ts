import type { Options } from "prettier";
import { joinPrinted, type PrintedFile } from "./print.js";
import { PRINT_WIDTH, textWidth } from "./text.js";

/**
 * The formatting of every generated file, pinned here and never read from the user's prettier config, so
 * that output is the same on every machine.
 */
export const PRETTIER_OPTIONS = {
  parser: "typescript",
  printWidth: PRINT_WIDTH,
  tabWidth: 2,
  useTabs: false,
  semi: true,
  singleQuote: false,
  quoteProps: "preserve",
  trailingComma: "all",
  bracketSpacing: true,
  objectWrap: "preserve",
  arrowParens: "always",
  endOfLine: "lf",
} as const satisfies Options;

/**
 * Whether `text`, as the emitters print it (print.ts), might not be in prettier's layout. They write
 * prettier's layout for every construct as long as each line fits the print width; a longer line
 * (a huge value list, a very long field name) is where prettier makes choices of its own.
 */
export function needsPrettier(text: string): boolean {
  for (const line of text.split("\n")) if (textWidth(line) > PRINT_WIDTH) return true;
  return false;
}

/**
 * Formats a file statement by statement: prettier runs only on the statements `needsPrettier` picks out (a
 * long union of containers, a long value list), which costs about a millisecond each, instead of on the whole
 * file. Prettier lays out top-level statements independently, so the result equals formatting the whole file
 * (the golden tests check it).
 */
export async function formatPrinted(file: PrintedFile): Promise<string> {
  const statements = await Promise.all(
    file.statements.map(async (statement) =>
      needsPrettier(statement.text) ? { ...statement, text: (await prettierFormat(`${statement.text}\n`)).replace(/\n$/, "") } : statement,
    ),
  );
  return joinPrinted({ header: file.header, statements });
}

/** Always runs prettier with the pinned options (tests use it to check the printer). */
export async function prettierFormat(text: string): Promise<string> {
  const prettier = await import("prettier");
  return prettier.format(text, PRETTIER_OPTIONS);
}
