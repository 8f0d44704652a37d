/**
 * The code blocks of the documentation (README.md, docs/*.md), extracted and type-checked as modules under the
 * project's tsconfig.json (strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess...), against the generated
 * example modules. test/docs/snippets.test.ts runs it; the conventions a block may rely on are described there.
 */
import { readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";

/** A ```ts / ```typescript block (checked as TypeScript) or a ```js / ```javascript block (checked as JavaScript). */
export interface Snippet {
  /** The markdown file, as given to `extractSnippets`. */
  readonly file: string;
  /** The 1-based line of the opening fence. */
  readonly line: number;
  readonly lang: "ts" | "js";
  /** The block's code, its list indentation removed. */
  readonly code: string;
  /** `<!-- snippet: skip (reason) -->`: deliberately not compiled, and why. */
  readonly skip?: string;
  /** `<!-- snippet: dir <folder> -->`: the folder, relative to the repository root, its file stands in. */
  readonly dir?: string;
}

const FENCE = /^( *)```([\w-]*)\s*$/;
const DIRECTIVE = /^\s*<!--\s*snippet:\s*([\s\S]*?)\s*-->\s*$/;
const LANGS: Readonly<Record<string, "ts" | "js">> = { ts: "ts", typescript: "ts", js: "js", javascript: "js" };

/**
 * Every TypeScript and JavaScript block of a markdown text, with the directives on the lines just above its fence
 * (blank lines between are allowed). Other blocks (sh, json, none) are not code to compile and are left out. A
 * directive that is not understood, a skip without its reason, or a directive followed by no code block throws,
 * naming the file and line: nothing is skipped silently.
 */
export function extractSnippets(markdown: string, file: string): Snippet[] {
  const lines = markdown.split("\n");
  const snippets: Snippet[] = [];
  let pending: { line: number; skip?: string; dir?: string } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    const directive = DIRECTIVE.exec(text);
    if (directive) {
      pending = { ...pending, ...parseDirective(directive[1]!, `${file}:${i + 1}`), line: i + 1 };
      continue;
    }
    const fence = FENCE.exec(text);
    if (!fence) {
      if (pending && text.trim() !== "") throw new Error(`${file}:${pending.line}: a snippet directive must stand just before a code block`);
      continue;
    }
    const indent = fence[1]!.length;
    const close = lines.findIndex((l, j) => j > i && /^ *```\s*$/.test(l));
    if (close < 0) throw new Error(`${file}:${i + 1}: code block never closed`);
    const lang = LANGS[fence[2]!.toLowerCase()];
    if (lang) {
      const code = lines
        .slice(i + 1, close)
        .map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)))
        .join("\n");
      snippets.push({
        file,
        line: i + 1,
        lang,
        code,
        ...(pending?.skip !== undefined ? { skip: pending.skip } : {}),
        ...(pending?.dir !== undefined ? { dir: pending.dir } : {}),
      });
    } else if (pending) {
      throw new Error(`${file}:${pending.line}: a snippet directive before a \`\`\`${fence[2]} block, which is never compiled`);
    }
    pending = undefined;
    i = close;
  }
  if (pending) throw new Error(`${file}:${pending.line}: a snippet directive must stand just before a code block`);
  return snippets;
}

function parseDirective(text: string, where: string): { skip?: string; dir?: string } {
  const skip = /^skip\s*\((.+)\)$/s.exec(text);
  if (skip) return { skip: skip[1]!.trim() };
  if (/^skip\b/.test(text)) throw new Error(`${where}: "skip" needs its reason: <!-- snippet: skip (why this block is not compiled) -->`);
  const dir = /^dir\s+(\S+)$/.exec(text);
  if (dir) return { dir: dir[1]! };
  throw new Error(`${where}: unknown snippet directive "${text}" (known: skip (reason), dir <folder>)`);
}

/** One compiler message, placed in the markdown: `README.md:381: TS2769: No overload matches this call...`. */
export interface SnippetError {
  readonly where: string;
  readonly message: string;
}

export interface CompileOptions {
  /** The repository root: tsconfig.json, the examples and src/ are read from it. */
  readonly root: string;
  /** Code every snippet sees (a module whose `declare global` names what the documentation's prose establishes). */
  readonly context: string;
  /** Ambient declarations (a script, not a module): modules the documentation imports that are not installed. */
  readonly ambient: string;
  /** Files whose text the compiler reads from here instead of the disk (absolute paths): for tests of this test. */
  readonly overrides?: ReadonlyMap<string, string>;
}

/** Path mappings added to tsconfig.json's: the CLI package's own entries, as an app that installed fmgen has them. */
const EXTRA_PATHS: Readonly<Record<string, string[]>> = {
  "fmgen/emulator": ["./src/emulator/index.ts"],
  "@fmgen/runtime/file-token-store": ["./src/runtime/file-token-store.ts"],
  "@fmgen/runtime/redis-token-store": ["./src/runtime/redis-token-store.ts"],
};

/**
 * Type-checks every snippet not marked skip in one program: each is a virtual module file (`.mts`, or `.mjs` with
 * checkJs) in examples/contacts (or its `dir`), so `./generated/index.js` is that example's generated code. Answers
 * every compiler message of the snippets and of the context, placed at its markdown line.
 */
export function compileSnippets(snippets: readonly Snippet[], options: CompileOptions): SnippetError[] {
  const { root } = options;
  const config = ts.readConfigFile(join(root, "tsconfig.json"), ts.sys.readFile);
  if (config.error) throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, "\n"));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const compilerOptions: ts.CompilerOptions = {
    ...parsed.options,
    paths: { ...parsed.options.paths, ...EXTRA_PATHS },
    allowJs: true,
    checkJs: true,
    noEmit: true,
  };

  const virtual = new Map<string, string>(options.overrides);
  const where = new Map<string, Snippet>();
  const contextFile = join(root, "examples/contacts/__docs_context__.mts");
  const ambientFile = join(root, "examples/contacts/__docs_ambient__.d.ts");
  virtual.set(contextFile, options.context);
  virtual.set(ambientFile, options.ambient);
  for (const snippet of snippets) {
    if (snippet.skip !== undefined) continue;
    const dir = resolve(root, snippet.dir ?? "examples/contacts");
    const name = `__docs_${snippet.file.replace(/[^\w]/g, "_")}_L${snippet.line}.${snippet.lang === "ts" ? "mts" : "mjs"}`;
    const path = join(dir, name);
    virtual.set(path, snippet.code);
    where.set(path, snippet);
  }

  const host = ts.createCompilerHost(compilerOptions, true);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (path) => virtual.get(resolve(path)) ?? readFile(path);
  host.fileExists = (path) => virtual.has(resolve(path)) || fileExists(path);
  host.getSourceFile = (path, language, onError, shouldCreate) => {
    const text = virtual.get(resolve(path));
    return text !== undefined ? ts.createSourceFile(path, text, language, true) : getSourceFile(path, language, onError, shouldCreate);
  };

  const roots = [ambientFile, contextFile, ...where.keys()];
  const program = ts.createProgram({ rootNames: roots, options: compilerOptions, host });
  const errors: SnippetError[] = [];
  const diagnostics = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
  for (const path of roots) {
    const source = program.getSourceFile(path);
    if (!source) {
      errors.push({ where: path, message: "not part of the program" });
      continue;
    }
    diagnostics.push(...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source));
  }
  for (const d of diagnostics) {
    const message = `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    if (!d.file || d.start === undefined) {
      errors.push({ where: "(program)", message });
      continue;
    }
    const { line } = d.file.getLineAndCharacterOfPosition(d.start);
    const snippet = where.get(resolve(d.file.fileName));
    const at = snippet
      ? `${snippet.file}:${snippet.line + 1 + line}`
      : `${relative(root, d.file.fileName) || d.file.fileName}:${line + 1}${d.file.fileName === contextFile ? " (the snippets' context)" : ""}`;
    errors.push({ where: at, message });
  }
  return errors;
}

/** The snippets of README.md and every docs/*.md of a repository. */
export function documentationSnippets(root: string, files: readonly string[]): Snippet[] {
  return files.flatMap((file) => extractSnippets(readFileSync(join(root, file), "utf8"), file));
}
