import { dirname, join, resolve } from "node:path";
import { readIfExists } from "../project/index.js";

/**
 * Whether the app around the output folder can compile what generate writes. The modules import
 * `@fmgen/runtime`, an ES module package found through its package.json "exports". Measured with TypeScript 5.9:
 * - moduleResolution "node10" / "node" / "classic" (what "module": "commonjs" implies) cannot see "exports":
 *   every import of @fmgen/runtime fails, whatever the package's "type";
 * - "module": "node16" in a CommonJS package (no "type", or "commonjs") compiles the modules to require()
 *   of an ES module, which node16 refuses (TS1479); "nodenext" and "node20" accept it (Node >= 20.19 can);
 * - "nodenext", "node20", "esnext"/"preserve" with "bundler", and any ESM package compile.
 * Only values written in the nearest tsconfig.json (and the relative files it extends) are judged: an unset or
 * unreadable option never refuses, since defaults change between TypeScript versions.
 */
export async function unsupportedSetup(outDir: string, show: (path: string) => string): Promise<string | undefined> {
  const tsconfigFile = await nearestFile(resolve(outDir), "tsconfig.json");
  if (tsconfigFile === undefined) return undefined;
  const tsconfig = show(tsconfigFile.file);
  const options = await compilerOptions(tsconfigFile.file, 0, tsconfigFile.text);
  if (options === undefined) return undefined;
  const module = lower(options.module);
  const explicit = lower(options.moduleResolution);
  const resolution = explicit ?? (module === "commonjs" && options.complete ? "node10" : undefined);
  if (resolution === "node10" || resolution === "node" || resolution === "classic") {
    const said = explicit !== undefined ? `"moduleResolution": "${String(options.moduleResolution)}"` : `"module": "${String(options.module)}" (which resolves like "node10")`;
    return (
      `${tsconfig} sets ${said}, which cannot find @fmgen/runtime (an ES module package read through its package.json "exports"). ` +
      `Set "module": "nodenext" in ${tsconfig}${explicit !== undefined ? ' (and remove "moduleResolution")' : ""}, or "module": "esnext" with "moduleResolution": "bundler" when a bundler builds the app.`
    );
  }
  if (module === "node16") {
    const pkgFile = await nearestFile(resolve(outDir), "package.json");
    if (pkgFile === undefined) return undefined;
    const type = packageType(pkgFile.text);
    const pkg = show(pkgFile.file);
    if (type === "module" || type === "unreadable") return undefined;
    return (
      `${tsconfig} sets "module": "node16" and ${pkg} makes ${show(outDir)} CommonJS (${type === undefined ? 'no "type"' : `"type": "${type}"`}): ` +
      `TypeScript then refuses to require() @fmgen/runtime, an ES module. Set "type": "module" in ${pkg}, ` +
      `or "module": "nodenext" in ${tsconfig} (TypeScript 5.8 or later; Node 20.19 or later can require() ES modules).`
    );
  }
  return undefined;
}

/** The nearest file of that name at or above `dir`, with its text (read once). */
async function nearestFile(dir: string, name: string): Promise<{ file: string; text: string } | undefined> {
  for (let at = dir; ; at = dirname(at)) {
    const file = join(at, name);
    const text = await readIfExists(file);
    if (text !== undefined) return { file, text };
    if (dirname(at) === at) return undefined;
  }
}

function packageType(text: string): string | undefined | "unreadable" {
  const json = parseJsonc(text);
  if (json === undefined) return "unreadable";
  const type = (json as { type?: unknown }).type;
  return typeof type === "string" ? type : undefined;
}

interface Options {
  module?: unknown;
  moduleResolution?: unknown;
  /** Every file of the extends chain was read: an option none sets is really unset. */
  complete: boolean;
}

async function compilerOptions(file: string, depth: number, text?: string): Promise<Options | undefined> {
  if (depth > 8) return undefined;
  const json = parseJsonc(text ?? (await readIfExists(file)) ?? "") as { extends?: unknown; compilerOptions?: Record<string, unknown> } | undefined;
  if (json === undefined || typeof json !== "object" || json === null) return undefined;
  const bases = json.extends === undefined ? [] : Array.isArray(json.extends) ? json.extends : [json.extends];
  let merged: Options = { complete: true };
  for (const base of bases) {
    const relativeBase = typeof base === "string" && (base.startsWith("./") || base.startsWith("../"));
    const read = relativeBase ? await compilerOptions(resolve(dirname(file), base.endsWith(".json") ? base : `${base}.json`), depth + 1) : undefined;
    merged = read === undefined ? { ...merged, complete: false } : { ...merged, ...read, complete: merged.complete && read.complete };
  }
  const own = json.compilerOptions ?? {};
  if ("module" in own) merged.module = own.module;
  if ("moduleResolution" in own) merged.moduleResolution = own.moduleResolution;
  return merged;
}

function lower(value: unknown): string | undefined {
  return typeof value === "string" ? value.toLowerCase() : undefined;
}

/** JSON with comments and trailing commas, as tsconfig.json allows; undefined when it still does not parse. */
function parseJsonc(text: string): unknown {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end === -1 ? text.length : end + 1;
      out += " ";
    } else out += c;
  }
  try {
    return JSON.parse(out.replace(/,(\s*[}\]])/g, "$1"));
  } catch {
    return undefined;
  }
}
