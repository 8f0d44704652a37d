import { readFile } from "node:fs/promises";

/** A JSON file that cannot be used; the message names the file and the JSON path of each problem. */
export class JsonFileError extends Error {
  constructor(
    readonly file: string,
    readonly problems: readonly { path: string; message: string }[],
  ) {
    super(`${file}: ${problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)).join("; ")}`);
    this.name = new.target.name;
  }
}

export type JsonFileErrorClass = new (file: string, problems: readonly { path: string; message: string }[]) => JsonFileError;

/** Reads and parses a JSON file; unreadable files and syntax errors (with line and column) become `ErrorClass`. */
export async function readJsonFile(file: string, ErrorClass: JsonFileErrorClass): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new ErrorClass(file, [{ path: "", message: `cannot read: ${(error as Error).message}` }]);
  }
  return parseJsonText(text, file, ErrorClass);
}

/** Parses the text of a JSON file; a syntax error becomes `ErrorClass`, with its line and column. */
export function parseJsonText(text: string, file: string, ErrorClass: JsonFileErrorClass): unknown {
  try {
    return parseJson(text);
  } catch (error) {
    throw new ErrorClass(file, [{ path: "", message: (error as Error).message }]);
  }
}

/**
 * `JSON.parse`, whose syntax errors always say where: a SyntaxError `invalid JSON at line L, column C: <the engine's
 * message>`. The position is the engine's when its message holds one (`position N`); Node 20's V8 leaves it out of
 * some ("Unexpected end of JSON input", "Unexpected token '}', ... is not valid JSON"), so it is found by
 * {@link jsonErrorOffset} then. Every JSON file fmgen reads for a user (config, descriptions, seeds, `--faults`,
 * `fmgen.pulled.json`) is parsed here.
 */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    const offset = position ? Number(position[1]) : jsonErrorOffset(text);
    const before = text.slice(0, offset < 0 ? text.length : offset);
    const line = before.split("\n").length;
    throw new SyntaxError(`invalid JSON at line ${line}, column ${before.length - before.lastIndexOf("\n")}: ${message}`);
  }
}

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);
const ESCAPES = new Set(['"', "\\", "/", "b", "f", "n", "r", "t"]);
const HEX = /^[0-9a-fA-F]$/;

/**
 * The offset of the first character `JSON.parse` refuses in `text` (`text.length` when the text ends too soon), or -1
 * when it has no syntax error. A scan without recursion (a file of deeply nested arrays cannot overflow the stack).
 */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const closers: string[] = [];
  const space = () => {
    while (i < text.length && WHITESPACE.has(text[i]!)) i++;
  };
  /** A string from its opening quote; false (i at the character refused) when it is not one. */
  const string = (): boolean => {
    if (text[i] !== '"') return false;
    for (i++; i < text.length; i++) {
      const c = text[i]!;
      if (c === '"') {
        i++;
        return true;
      }
      if (c < " ") return false;
      if (c === "\\") {
        i++;
        if (text[i] === "u") {
          for (let k = 0; k < 4; k++) if (!HEX.test(text[++i] ?? "")) return false;
        } else if (i >= text.length || !ESCAPES.has(text[i]!)) return false;
      }
    }
    return false;
  };
  const digits = (): boolean => {
    const start = i;
    while (text[i]! >= "0" && text[i]! <= "9") i++;
    return i > start;
  };
  /** A number, true, false, null or string; false (i at the character refused) when it is none. */
  const scalar = (): boolean => {
    const c = text[i];
    if (c === '"') return string();
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) {
      if (text[i] === "-") i++;
      if (text[i] === "0") i++;
      else if (!digits()) return false;
      if (text[i] === ".") {
        i++;
        if (!digits()) return false;
      }
      if (text[i] === "e" || text[i] === "E") {
        i++;
        if (text[i] === "+" || text[i] === "-") i++;
        if (!digits()) return false;
      }
      return true;
    }
    for (const word of ["true", "false", "null"]) {
      if (c !== word[0]) continue;
      for (const letter of word) {
        if (text[i] !== letter) return false;
        i++;
      }
      return true;
    }
    return false;
  };
  /** A member's key and colon, after `{` or `,`. */
  const key = (): boolean => {
    space();
    if (!string()) return false;
    space();
    if (text[i] !== ":") return false;
    i++;
    return true;
  };
  for (;;) {
    // A value.
    space();
    const open = text[i];
    if (open === "[" || open === "{") {
      i++;
      space();
      const close = open === "[" ? "]" : "}";
      if (text[i] === close) i++;
      else {
        closers.push(close);
        if (close === "}" && !key()) return i;
        continue;
      }
    } else if (!scalar()) return i;
    // After a value: a comma and the next, the end of its container, or the end of the text.
    for (;;) {
      space();
      const close = closers.at(-1);
      if (close === undefined) return i < text.length ? i : -1;
      if (text[i] === ",") {
        i++;
        if (close === "}" && !key()) return i;
        break;
      }
      if (text[i] !== close) return i;
      closers.pop();
      i++;
    }
  }
}

/** `["fields", 3, "type"]` -> `fields[3].type`; keys that are not identifiers are quoted. */
export function formatJsonPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else if (typeof key === "string" && /^[A-Za-z_$][\w$]*$/.test(key)) out += out ? `.${key}` : key;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

/** A schema's complaint as a description file's problem: the JSON path in the file's terms and the message. */
export function describeIssue(issue: { path: readonly PropertyKey[]; message: string }): { path: string; message: string } {
  return { path: formatJsonPath(issue.path), message: issue.message };
}
