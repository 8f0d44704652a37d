import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import type * as TypeScript from "typescript";
import { readIfExists } from "../project/index.js";

/**
 * Whether the app around the output folder can compile what generate writes. The modules import `@fmgen/runtime`,
 * an ES module package found through its package.json "exports", whose declarations hold private `#` fields.
 * Measured with TypeScript 5.9:
 * - moduleResolution "node10" / "node" / "classic" cannot see "exports": every import of @fmgen/runtime fails,
 *   whatever the package's "type". "module": "commonjs" implies "node10"; "es2015" / "es2020" / "es2022" / "esnext"
 *   (and "amd", "umd", "system") without a "moduleResolution" imply "classic" (TS2792);
 * - a "target" below "es2015" (what no "target" means in TypeScript 5.x) cannot read the `#` fields of the runtime's
 *   declarations (TS18028), unless "skipLibCheck" leaves them unchecked; "es2015" is the lowest that compiles them;
 * - "module": "node16" or "node18" in a CommonJS package (no "type", or "commonjs") compiles the modules to require()
 *   of an ES module, which they refuse (TS1479); "nodenext" and "node20" accept it (Node >= 20.19 can), though an app
 *   file there cannot use top-level await (TS1309): said in a note;
 * - "nodenext", "node20", "esnext"/"preserve" with "bundler", and any ESM package compile.
 * When TypeScript can be loaded from the tsconfig's folder (fmgen does not depend on it), it reads the tsconfig: the
 * effective options, defaults and `extends` from packages included, and the options it refuses itself (TS5110...).
 * Without it, only the "module" and "moduleResolution" written in the nearest tsconfig.json and the relative files it
 * extends are judged, and an unset or unreadable option never refuses.
 */
export interface AppSetupVerdict {
  /** Why the generated modules would not compile here, naming the file and the change; undefined when they would. */
  refusal?: string;
  /** What to know without refusing (top-level await in a CommonJS package; what was not checked). */
  notes: string[];
}

/** The options judged, from TypeScript itself or from the files as written. */
interface Judged {
  /** Lower-case names, as tsconfig.json spells them ("esnext", "node16", "bundler", "es5"). */
  module?: string | undefined;
  resolution?: string | undefined;
  target?: string | undefined;
  /** Which of module, moduleResolution and target the tsconfig chain sets (the others are TypeScript's defaults). */
  written: { module: boolean; moduleResolution: boolean; target: boolean };
  /** What the nearest tsconfig.json sets itself: the others it inherits through "extends". */
  own: Record<string, unknown>;
  skipLibCheck: boolean;
  /** TypeScript's own refusals of the options ("message (TS5110)"). */
  refused: string[];
  /** "5.9" when TypeScript judged; undefined for the textual judgement. */
  typescript?: string | undefined;
}

const READS_EXPORTS = new Set(["node16", "nodenext", "bundler"]);
/** The targets below the lowest that compiles the runtime's declarations ("es2015"). */
const BELOW_ES2015 = new Set(["es3", "es5"]);
/** The module kinds that refuse require() of an ES module from a CommonJS package. */
const NO_REQUIRE_ESM = new Set(["node16", "node18"]);
/** The module kinds that compile the modules in a CommonJS package, where top-level await fails. */
const REQUIRE_ESM = new Set(["node20", "nodenext"]);

/** `unsupportedSetup`'s refusal alone. */
export async function unsupportedSetup(outDir: string, show: (path: string) => string): Promise<string | undefined> {
  return (await checkAppSetup(outDir, show)).refusal;
}

/** Judges the nearest tsconfig.json above `outDir` and the nearest package.json; `show` spells a path for a message. */
export async function checkAppSetup(outDir: string, show: (path: string) => string): Promise<AppSetupVerdict> {
  const out = resolve(outDir);
  const tsconfigFile = await nearestFile(out, "tsconfig.json");
  if (tsconfigFile === undefined) return { notes: [] };
  const tsconfig = show(tsconfigFile.file);
  const ts = loadTypeScript(dirname(tsconfigFile.file));
  const notes: string[] = [];
  let judged: Judged | undefined;
  if (ts !== undefined) judged = byTypeScript(ts, tsconfigFile.file);
  else {
    notes.push(`TypeScript is not installed where ${tsconfig} is, so only the "module" and "moduleResolution" written in it and in the relative files it extends were checked`);
    judged = await asWritten(tsconfigFile.file, tsconfigFile.text);
  }
  if (judged === undefined) return { notes };
  const via = (key: string) => (key in judged.own ? "" : " (through its extends)");
  const said = (key: string, value: string) => `"${key}": "${key in judged.own && typeof judged.own[key] === "string" ? judged.own[key] : value}"`;
  const { module, resolution, target } = judged;
  const typescript = judged.typescript !== undefined ? `TypeScript ${judged.typescript}` : "TypeScript";

  if (resolution !== undefined && !READS_EXPORTS.has(resolution)) {
    const cannot = `which cannot find @fmgen/runtime (an ES module package read through its package.json "exports")`;
    const bundlerModule = module === undefined || module === "preserve" || /^es(next|20\d\d)$/.test(module);
    let what: string;
    let change: string;
    if (judged.written.moduleResolution) {
      what = `sets${via("moduleResolution")} ${said("moduleResolution", resolution)}, ${cannot}`;
      change = `Set "module": "nodenext" in ${tsconfig} (and remove "moduleResolution"), or "module": "esnext" with "moduleResolution": "bundler" when a bundler builds the app.`;
    } else if (module === "commonjs" || module === undefined) {
      what = judged.written.module
        ? `sets${via("module")} ${said("module", "commonjs")} (which resolves like "node10"), ${cannot}`
        : `sets no "module", which ${typescript} takes as "commonjs" (resolving like "node10"), ${cannot}`;
      change = `Set "module": "nodenext" in ${tsconfig}, or "module": "esnext" with "moduleResolution": "bundler" when a bundler builds the app.`;
    } else {
      what = `sets${via("module")} ${said("module", module)} and no "moduleResolution", which TypeScript then takes as "${resolution}": it cannot find @fmgen/runtime (an ES module package read through its package.json "exports")`;
      change = bundlerModule
        ? `Set "moduleResolution": "bundler" in ${tsconfig} when a bundler builds the app, or "module": "nodenext" (with no "moduleResolution") when Node runs it.`
        : `Set "module": "nodenext" in ${tsconfig}, or "module": "esnext" with "moduleResolution": "bundler" when a bundler builds the app.`;
    }
    return { refusal: `${tsconfig} ${what}. ${change}`, notes };
  }

  if (target !== undefined && BELOW_ES2015.has(target) && (target === "es3" || !judged.skipLibCheck)) {
    const what = judged.written.target ? `sets${via("target")} ${said("target", target)}` : `sets no "target", which ${typescript} takes as "${target}"`;
    return {
      refusal:
        `${tsconfig} ${what}: the declarations of @fmgen/runtime use private # fields, which TypeScript reads only for "target": "es2015" or later (TS18028). ` +
        `Set "target": "es2022" in ${tsconfig}.`,
      notes,
    };
  }

  if (module !== undefined && (NO_REQUIRE_ESM.has(module) || REQUIRE_ESM.has(module))) {
    const pkgFile = await nearestFile(out, "package.json");
    const type = pkgFile === undefined ? "unreadable" : packageType(pkgFile.text);
    if (pkgFile !== undefined && type !== "module" && type !== "unreadable") {
      const pkg = show(pkgFile.file);
      const kind = type === undefined ? 'no "type"' : `"type": "${type}"`;
      if (NO_REQUIRE_ESM.has(module)) {
        return {
          refusal:
            `${tsconfig} sets${via("module")} ${said("module", module)} and ${pkg} makes ${show(out)} CommonJS (${kind}): ` +
            `TypeScript then refuses to require() @fmgen/runtime, an ES module. Set "type": "module" in ${pkg}, ` +
            `or "module": "nodenext" in ${tsconfig} (TypeScript 5.8 or later; Node 20.19 or later can require() ES modules).`,
          notes,
        };
      }
      notes.push(
        `${pkg} makes ${show(out)} CommonJS (${kind}) under "module": "${module}": the generated modules compile, but an app file with top-level await fails (TS1309); ` +
          `"npm pkg set type=module" makes the package ESM`,
      );
    }
  }

  if (judged.refused.length) return { refusal: `TypeScript refuses the options of ${tsconfig}: ${judged.refused.join("; ")}`, notes };
  return { notes };
}

/** The app's TypeScript, resolved from `dir` as its own tsc would be; undefined when it has none. */
function loadTypeScript(dir: string): typeof TypeScript | undefined {
  try {
    const ts = createRequire(join(dir, "package.json"))("typescript") as typeof TypeScript;
    return typeof ts.getParsedCommandLineOfConfigFile === "function" ? ts : undefined;
  } catch {
    return undefined;
  }
}

/** TypeScript's reading of the tsconfig: its effective options (extends followed, packages too) and its refusals. */
function byTypeScript(ts: typeof TypeScript, file: string): Judged {
  const refused: string[] = [];
  const describe = (d: TypeScript.Diagnostic) => `${ts.flattenDiagnosticMessageText(d.messageText, " ")} (TS${d.code})`;
  const host: TypeScript.ParseConfigFileHost = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => refused.push(describe(d)) };
  const parsed = ts.getParsedCommandLineOfConfigFile(file, undefined, host);
  const own = ownCompilerOptions(ts.readConfigFile(file, ts.sys.readFile).config);
  const typescript = ts.versionMajorMinor;
  if (parsed === undefined) return { written: { module: false, moduleResolution: false, target: false }, own, skipLibCheck: false, refused, typescript };
  const options = parsed.options;
  // "No inputs were found" (TS18003): the generated modules may be what the include is waiting for.
  for (const d of ts.getConfigFileParsingDiagnostics(parsed)) if (d.category === ts.DiagnosticCategory.Error && d.code !== 18003) refused.push(describe(d));
  // The options' own checks (TS5110: a module that contradicts the resolution, ...), without reading any file.
  const probeOptions: TypeScript.CompilerOptions = { ...options, types: [], noLib: true };
  delete probeOptions.lib;
  const probe = ts.createProgram({ rootNames: [], options: probeOptions });
  for (const d of probe.getOptionsDiagnostics()) if (d.category === ts.DiagnosticCategory.Error) refused.push(describe(d));
  const internals = ts as unknown as {
    getEmitModuleKind?: (o: TypeScript.CompilerOptions) => TypeScript.ModuleKind;
    getEmitModuleResolutionKind?: (o: TypeScript.CompilerOptions) => TypeScript.ModuleResolutionKind;
    getEmitScriptTarget?: (o: TypeScript.CompilerOptions) => TypeScript.ScriptTarget;
  };
  const module = internals.getEmitModuleKind?.(options) ?? defaultModule(ts, options);
  const resolution = internals.getEmitModuleResolutionKind?.(options) ?? defaultResolution(ts, { ...options, module });
  const target = internals.getEmitScriptTarget?.(options) ?? defaultTarget(ts, options);
  return {
    module: enumName(ts.ModuleKind, module, ["None", "CommonJS", "AMD", "UMD", "System", "ES2015", "ES2020", "ES2022", "ESNext", "Node16", "Node18", "Node20", "NodeNext", "Preserve"]),
    resolution: enumName(ts.ModuleResolutionKind, resolution, ["Classic", "Node10", "Node16", "NodeNext", "Bundler"]),
    target: enumName(ts.ScriptTarget, target, ["ES3", "ES5", "ES2015", "ES2016", "ES2017", "ES2018", "ES2019", "ES2020", "ES2021", "ES2022", "ES2023", "ES2024", "ESNext"]),
    written: { module: options.module !== undefined, moduleResolution: options.moduleResolution !== undefined, target: options.target !== undefined },
    own,
    skipLibCheck: options.skipLibCheck === true,
    refused,
    typescript,
  };
}

// TypeScript 5.x's defaults, for a TypeScript whose getEmit* helpers are gone (they are not in its public API).
function defaultTarget(ts: typeof TypeScript, o: TypeScript.CompilerOptions): TypeScript.ScriptTarget {
  if (o.target !== undefined) return o.target;
  if (o.module === ts.ModuleKind.NodeNext) return ts.ScriptTarget.ESNext;
  if (o.module !== undefined && o.module >= ts.ModuleKind.Node16 && o.module < ts.ModuleKind.NodeNext) return ts.ScriptTarget.ES2022;
  return ts.ScriptTarget.ES5;
}
function defaultModule(ts: typeof TypeScript, o: TypeScript.CompilerOptions): TypeScript.ModuleKind {
  return o.module ?? (defaultTarget(ts, o) >= ts.ScriptTarget.ES2015 ? ts.ModuleKind.ES2015 : ts.ModuleKind.CommonJS);
}
function defaultResolution(ts: typeof TypeScript, o: TypeScript.CompilerOptions): TypeScript.ModuleResolutionKind {
  if (o.moduleResolution !== undefined) return o.moduleResolution;
  const module = o.module ?? ts.ModuleKind.CommonJS;
  if (module === ts.ModuleKind.CommonJS) return ts.ModuleResolutionKind.Node10;
  if (module === ts.ModuleKind.NodeNext) return ts.ModuleResolutionKind.NodeNext;
  if (module >= ts.ModuleKind.Node16 && module < ts.ModuleKind.NodeNext) return ts.ModuleResolutionKind.Node16;
  if (module === ts.ModuleKind.Preserve) return ts.ModuleResolutionKind.Bundler;
  return ts.ModuleResolutionKind.Classic;
}

/** The first of `names` (the tsconfig spellings, preferred over aliases such as NodeJs and Latest) with that value. */
function enumName(values: object, value: number, names: readonly string[]): string | undefined {
  const name = names.find((n) => (values as Record<string, unknown>)[n] === value);
  return name?.toLowerCase();
}

function ownCompilerOptions(config: unknown): Record<string, unknown> {
  const options = (config as { compilerOptions?: unknown } | undefined)?.compilerOptions;
  return typeof options === "object" && options !== null ? (options as Record<string, unknown>) : {};
}

/** The textual judgement: "module" and "moduleResolution" as the tsconfig and its relative extends write them. */
async function asWritten(file: string, text: string): Promise<Judged | undefined> {
  const options = await compilerOptions(file, 0, text);
  if (options === undefined) return undefined;
  const module = lower(options.module);
  const explicit = lower(options.moduleResolution);
  return {
    module,
    resolution: explicit ?? (module === "commonjs" && options.complete ? "node10" : undefined),
    target: undefined,
    written: { module: module !== undefined, moduleResolution: explicit !== undefined, target: false },
    own: ownCompilerOptions(parseJsonc(text)),
    skipLibCheck: false,
    refused: [],
  };
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
