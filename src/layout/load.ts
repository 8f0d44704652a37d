import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { z } from "zod";
import { defaultTypeName, type LayoutDescription } from "./description.js";
import { JsonFileError, readJsonFile } from "./json-file.js";
import { layoutDescriptionSchema } from "./schema.js";

/** A description file that cannot be used; the message names the file and the JSON path of each problem. */
export class LayoutFileError extends JsonFileError {}

/** Validates an already-parsed description; `source` names it in errors. */
export function parseLayoutDescription(json: unknown, source = "<layout>"): LayoutDescription {
  const result = layoutDescriptionSchema.safeParse(json);
  if (!result.success) throw new LayoutFileError(source, result.error.issues.map(describeIssue));
  const { $schema: _schema, name, portals, ...rest } = result.data;
  return { ...rest, name: name ?? defaultTypeName(rest.layout), portals: portals ?? [], source };
}

/** Reads and validates one `*.layout.json` file. */
export async function loadLayoutFile(file: string): Promise<LayoutDescription> {
  return parseLayoutDescription(await readJsonFile(file, LayoutFileError), file);
}

/** Loads files and folders (every `*.layout.json` inside, sorted by name) in the order given. */
export async function loadLayouts(paths: readonly string[]): Promise<LayoutDescription[]> {
  const files: string[] = [];
  for (const path of paths) files.push(...(await expandLayoutPath(path)));
  return Promise.all(files.map(loadLayoutFile));
}

async function expandLayoutPath(path: string): Promise<string[]> {
  let info;
  try {
    info = await stat(path);
  } catch {
    throw new LayoutFileError(path, [{ path: "", message: "no such file or folder" }]);
  }
  if (!info.isDirectory()) return [path];
  const names = (await readdir(path)).filter((n) => n.endsWith(".layout.json")).sort(compareCodeUnits);
  if (names.length === 0) throw new LayoutFileError(path, [{ path: "", message: "folder holds no *.layout.json file" }]);
  return names.map((n) => join(path, n));
}

function describeIssue(issue: z.core.$ZodIssue): { path: string; message: string } {
  return { path: formatJsonPath(issue.path), message: issue.message };
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

/** Locale-independent ordering, so output never depends on the machine. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
