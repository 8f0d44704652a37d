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
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    let where = "";
    if (position) {
      const before = text.slice(0, Number(position[1]));
      where = ` at line ${before.split("\n").length}, column ${before.length - before.lastIndexOf("\n")}`;
    }
    throw new ErrorClass(file, [{ path: "", message: `invalid JSON${where}: ${message}` }]);
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
