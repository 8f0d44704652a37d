import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// docs/getting-started.md, "Install it in your app": it imports only undici and zod (and Node's own modules), never
// generator, layout, emulator or CLI code, so that generated code and apps pull in nothing else. (That the fetch
// entry's graph has no node: module and no undici is fetch-entry.test.ts's.)

const RUNTIME = fileURLToPath(new URL("../../src/runtime/", import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(m|c)?tsx?$/.test(entry.name) ? [path] : [];
  });
}

/**
 * Every module specifier of a file: static imports and re-exports (type-only too), side-effect imports, import(),
 * require(). Read by TypeScript's own scanner, so that an import written in a comment (a TSDoc @example:
 * `import { createClient } from "@fmgen/runtime"`) is not taken for one.
 */
function specifiers(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName);
}

/** Why a specifier is not allowed in a runtime file, or undefined when it is. */
function disallowed(file: string, specifier: string): string | undefined {
  if (specifier.startsWith(".")) {
    const target = resolve(dirname(file), specifier);
    const inside = relative(RUNTIME, target);
    if (inside.startsWith("..") || inside.split(sep).includes("..")) return `reaches outside src/runtime (${inside})`;
    return undefined;
  }
  if (specifier === "undici" || specifier === "zod" || specifier.startsWith("node:")) return undefined;
  return "is a package other than undici and zod";
}

describe("the runtime's imports", () => {
  const files = sourceFiles(RUNTIME);

  it("finds the runtime's files and their imports (the scan itself works)", () => {
    expect(files.map((f) => relative(RUNTIME, f))).toEqual(expect.arrayContaining(["index.ts", "data-api/client.ts", "data-api/session.ts", "data-api/transport.ts", "data-api/layout-client.ts", "data-api/codecs.ts", "core/carrier.ts"]));
    const all = files.flatMap((f) => specifiers(readFileSync(f, "utf8")));
    expect(all).toEqual(expect.arrayContaining(["undici", "zod", "./errors.js"]));
  });

  it("reads imports as code, not as comments: a specifier in a doc comment's example is not one", () => {
    const source = '/**\n * @example\n * import { x } from "@fmgen/runtime";\n */\n// import "lodash";\nimport type { A } from "./a.js";\nexport { b } from "./b.js";\nimport "./c.js";\nconst d = await import("./d.js");\n';
    expect(specifiers(source).sort()).toEqual(["./a.js", "./b.js", "./c.js", "./d.js"]);
  });

  it.each(sourceFiles(RUNTIME).map((f) => [relative(RUNTIME, f), f]))("%s imports only relative runtime files, undici, zod and node:*", (_name, file) => {
    const problems = specifiers(readFileSync(file, "utf8"))
      .map((s) => [s, disallowed(file, s)] as const)
      .filter(([, why]) => why !== undefined)
      .map(([s, why]) => `"${s}" ${why}`);
    expect(problems).toEqual([]);
  });

  it("zod, an optional peer dependency, is imported as a value by schema.ts alone (elsewhere as a type, or loaded on first use)", () => {
    const valueImports = (source: string) => [...source.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s*["']zod["']/gm)].length;
    const importers = files.filter((f) => valueImports(readFileSync(f, "utf8")) > 0).map((f) => relative(RUNTIME, f));
    expect(importers).toEqual(["schema.ts"]);
    expect(valueImports('import type { z } from "zod";\nexport type { ZodType } from "zod";')).toBe(0);
    expect(valueImports('import { z } from "zod";')).toBe(1);
  });

  it("the checker rejects what it must", () => {
    const file = join(RUNTIME, "index.ts");
    const bad = [
      'import { startEmulator } from "../emulator/index.js";',
      'import type { LayoutDescription } from "../layout/description.js";',
      'export { generate } from "../generate/index.js";',
      'const cli = await import("../cli/run.js");',
      'import "prettier";',
      'import { Project } from "ts-morph";',
      'import fs from "fs";',
      'const y = require("yargs");',
    ].join("\n");
    const problems = specifiers(bad).filter((s) => disallowed(file, s) !== undefined);
    expect(problems.sort()).toEqual(["../cli/run.js", "../emulator/index.js", "../generate/index.js", "../layout/description.js", "fs", "prettier", "ts-morph", "yargs"]);
    expect(specifiers('import { a } from "./a.js";\nimport type { B } from "undici";\nexport * from "./c.js";').every((s) => disallowed(file, s) === undefined)).toBe(true);
  });
});
