import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const GOLDEN_TSCONFIG = fileURLToPath(new URL("../golden/tsconfig.json", import.meta.url));

/** Parsed libs and runtime sources, shared by the checks of one test run. */
const parsed = new Map<string, ts.SourceFile | undefined>();

/**
 * The compiler's complaints about the generated `.ts` files in `dir` (which holds a `package.json` of type
 * module, as an app would), under the options the goldens are checked with (`test/golden/tsconfig.json`:
 * strict, exactOptionalPropertyTypes, noUnusedLocals, ..., `@fmgen/runtime` mapped to the runtime's source).
 * Only the files in `dir` are checked; the runtime is checked by its own tests and the golden type-check.
 */
export function typeCheckDir(dir: string): string[] {
  const config = ts.readConfigFile(GOLDEN_TSCONFIG, ts.sys.readFile);
  if (config.error) throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, "\n"));
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, join(GOLDEN_TSCONFIG, ".."));
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language, ...rest) => {
    if (fileName.startsWith(dir)) return read(fileName, language, ...rest);
    if (!parsed.has(fileName)) parsed.set(fileName, read(fileName, language, ...rest));
    return parsed.get(fileName);
  };
  const files = readdirSync(dir)
    .filter((name) => name.endsWith(".ts"))
    .map((name) => join(dir, name));
  const program = ts.createProgram(files, options, host);
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...files.flatMap((file) => {
      const source = program.getSourceFile(file)!;
      return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    }),
  ];
  return diagnostics.map((d) => `${d.file ? `${d.file.fileName.slice(dir.length + 1)}: ` : ""}${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
}
