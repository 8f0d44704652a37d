import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

// The message tests' compiler (messages, unknown-field-messages, odata-messages, odata-unknown-field-messages): a probe
// file, held in memory, compiled with the project's flags (tsconfig.json), so that what is checked is what a user's
// editor shows. Each mistake of a probe is one `export const <name> = ...;` line, which names its diagnostics.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** One diagnostic of a probe: the `export const` its line declares (`line N` for any other line), and its text. */
export interface ProbeDiagnostic {
  name: string;
  text: string;
}

/** The semantic diagnostics of `source`, compiled as the file `file` (a name relative to the repository's root). */
export function probeDiagnostics(file: string, source: string): ProbeDiagnostic[] {
  const path = join(ROOT, file);
  const config = ts.readConfigFile(join(ROOT, "tsconfig.json"), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) => (name === path ? ts.createSourceFile(name, source, language) : getSourceFile(name, language, ...rest));
  host.fileExists = ((exists) => (name: string) => name === path || exists(name))(host.fileExists.bind(host));
  const program = ts.createProgram([path], options, host);
  const lines = source.split("\n");
  return program.getSemanticDiagnostics(program.getSourceFile(path)).map((d) => {
    const { line } = d.file!.getLineAndCharacterOfPosition(d.start!);
    return { name: /export const (\w+)/.exec(lines[line]!)?.[1] ?? `line ${line + 1}`, text: ts.flattenDiagnosticMessageText(d.messageText, "\n") };
  });
}
