/**
 * Text of TypeScript tokens the emitters write: string literals, property keys, JSDoc text. Every function
 * here returns what prettier (with the pinned options of `format.ts`) would print for the same token, so that
 * printed files need no formatting pass.
 */

/** The pinned prettier `printWidth`; `print.ts` breaks imports by it and `format.ts` measures lines by it. */
export const PRINT_WIDTH = 120;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Characters written as escapes in string literals and comments: C0 and C1 controls, DEL, the line and
 * paragraph separators, the byte order mark, the bidirectional controls and marks (so that no name can hide
 * code, as in "Trojan Source": U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C), and lone surrogates
 * (which UTF-8 cannot carry). Everything else, emoji included, is written as itself.
 */
const ESCAPED =
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const SHORT_ESCAPES: Record<string, string> = { "\b": "\\b", "\t": "\\t", "\n": "\\n", "\v": "\\v", "\f": "\\f", "\r": "\\r" };

/**
 * A string literal for `value`. Double quotes unless the value holds more double quotes than single quotes
 * (prettier's rule), backslashes and the enclosing quote escaped, invisible characters escaped.
 */
export function stringLiteral(value: string): string {
  let doubles = 0;
  let singles = 0;
  for (const c of value) {
    if (c === '"') doubles++;
    else if (c === "'") singles++;
  }
  const quote = doubles > singles ? "'" : '"';
  const body = value
    .replace(/\\/g, "\\\\")
    .replaceAll(quote, `\\${quote}`)
    .replace(ESCAPED, escapeCharacter);
  return `${quote}${body}${quote}`;
}

function escapeCharacter(c: string): string {
  return SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/**
 * Text to write inside a generated comment, any kind (a JSDoc line, the `//` header): every character a string
 * literal escapes is written as the same escape, line terminators included, so that nothing ends a `//` comment
 * early or reorders what an editor shows; and `*\/` is broken, so that nothing ends a block comment. Every path
 * that writes a comment goes through here; applying it twice changes nothing.
 */
export function commentText(text: string): string {
  return text.replace(ESCAPED, escapeCharacter).replaceAll("*/", "*\\/");
}

/** A key in a type literal: bare when it is an ASCII identifier, else a string literal. */
export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : stringLiteral(name);
}

/**
 * A key in an object literal. `__proto__` is computed (`["__proto__"]`): written bare or quoted, it would set
 * the object's prototype instead of creating a property.
 */
export function literalKey(name: string): string {
  return name === "__proto__" ? `[${stringLiteral(name)}]` : propertyKey(name);
}

/**
 * JSDoc text: line breaks normalized to `\n`, trailing spaces and blank edges trimmed, control characters
 * dropped, and each line made safe by `commentText` (`*\/` broken, bidirectional controls escaped). Returns ""
 * for nothing to say.
 */
export function docText(text: string): string {
  return text
    .replace(/\r\n?|[\u2028\u2029]/g, "\n")
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "")
    .replace(/\t/g, "  ")
    .split("\n")
    .map((line) => commentText(line.trimEnd()))
    .join("\n")
    .replace(/^\n+|\n+$/g, "");
}

/**
 * An upper bound of prettier's width of a line: one column per ASCII character, two per other UTF-16 code
 * unit (prettier counts wide characters and emoji as two columns, combining marks as none).
 */
export function textWidth(line: string): number {
  let width = line.length;
  for (let i = 0; i < line.length; i++) if (line.charCodeAt(i) > 0x7f) width++;
  return width;
}

/** JavaScript reserved words and strict-mode restricted names: not usable as a `const` name. */
export const RESERVED_WORDS: ReadonlySet<string> = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in " +
    "instanceof new null return super switch this throw true try typeof var void while with implements interface let package private " +
    "protected public static yield await arguments eval undefined NaN Infinity"
  ).split(" "),
);
