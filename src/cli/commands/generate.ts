import { relative } from "node:path";
import type { CommandModule } from "yargs";
import type { GenerateSettings, WriteReport } from "../../generate/index.js";
import { IMPORT_EXTENSIONS, type ImportExtension } from "../../project/index.js";
import type { CliIo } from "../io.js";

interface GenerateArgs {
  layouts?: string[];
  tables?: string[];
  out?: string;
  config?: string;
  "import-extension"?: ImportExtension;
  schemas?: boolean;
  check: boolean;
  watch: boolean;
}

/**
 * `fmgen generate`: writes `<outDir>/<name>.ts` per layout and per database, `<outDir>/<name>.table.ts` per table and
 * `<outDir>/index.ts`, and `<outDir>/schemas.ts` with `--schemas` (or `"schemas": true`). `--check` writes nothing,
 * prints a unified diff of what is stale and exits 1; `--watch` regenerates on every change until stopped.
 */
export function generateCommand(io: CliIo, setExitCode: (code: number) => void, usageError: (message: string) => Error): CommandModule<object, GenerateArgs> {
  return {
    command: "generate",
    describe: "Generate typed layout and table modules from layout and table descriptions",
    builder: (y) =>
      y
        .option("layouts", { type: "string", array: true, describe: "Description files, folders of *.layout.json, or globs (replaces the config's layouts)" })
        .option("tables", { type: "string", array: true, describe: "Table descriptions (OData): files, folders of *.table.json, or globs (replaces the config's tables)" })
        .option("out", { type: "string", describe: "Output folder (replaces the config's outDir)" })
        .option("config", { type: "string", describe: "Config file (default: ./fmgen.config.json when there is one)" })
        .option("import-extension", {
          type: "string",
          choices: IMPORT_EXTENSIONS,
          describe: 'How index.ts imports the other modules: ".js" (default; module nodenext) or ".ts" (Deno, no flag needed); replaces the config\'s options.importExtension',
        })
        .option("schemas", {
          type: "boolean",
          describe: "Also write schemas.ts, every layout's <Name>Schema (needs zod installed); --no-schemas: not; replaces the config's options.schemas (default: not)",
        })
        .option("check", { type: "boolean", default: false, describe: "Write nothing; print a diff and exit 1 when the output is stale" })
        .option("watch", { type: "boolean", default: false, describe: "Regenerate whenever a description changes, until stopped" }) as never,
    handler: async (args) => {
      if (args.check && args.watch) throw usageError("--check and --watch cannot be combined");
      // Loaded when the command runs: fmgen's other commands do not load the generator (test/cli/lazy-commands.test.ts).
      const { generateAndCheck, generateAndWrite, checkAppSetup, resolveGenerateSettings, schemasFileNote, SettingsError, watchAndGenerate } = await import("../../generate/index.js");
      const describeReport = (report: WriteReport, settings: GenerateSettings, show: (path: string) => string) => reportLine(report, settings, show, schemasFileNote);
      const cwd = process.cwd();
      const loadSettings = async () => {
        try {
          return await resolveGenerateSettings({ cwd, config: args.config, layouts: args.layouts, tables: args.tables, out: args.out, importExtension: args["import-extension"], schemas: args.schemas });
        } catch (error) {
          throw error instanceof SettingsError ? usageError(error.message) : error;
        }
      };
      const show = (path: string) => relative(cwd, path) || ".";
      // The app's tsconfig and package.json, judged once before anything is written (see app-setup.ts).
      const setupRefused = async (settings: GenerateSettings): Promise<boolean> => {
        const verdict = await checkAppSetup(settings.outDir, show);
        if (verdict.refusal !== undefined) {
          io.stderr(`fmgen generate: the generated modules would not compile here: ${verdict.refusal}`);
          setExitCode(1);
          return true;
        }
        for (const note of verdict.notes) io.stderr(`fmgen generate: note: ${note}`);
        return false;
      };

      if (args.watch) {
        const first = await loadSettings();
        if (await setupRefused(first)) return;
        io.stdout(`fmgen generate: watching; writing to ${show(first.outDir)} (stop with Ctrl-C)`);
        await watchAndGenerate(loadSettings, {
          stop: io.stopSignal(),
          fallbackDirs: [cwd],
          onResult: (result) => {
            if ("error" in result) io.stderr(`fmgen generate: ${(result.error as Error).message}`);
            else io.stdout(describeReport(result.report, result.settings, show));
          },
        });
        setExitCode(0);
        return;
      }

      const settings = await loadSettings();
      if (await setupRefused(settings)) return;
      if (args.check) {
        const drift = await generateAndCheck(settings, cwd);
        if (drift.length === 0) {
          io.stdout(`fmgen generate --check: ${show(settings.outDir)} is up to date`);
          setExitCode(0);
          return;
        }
        for (const file of drift) io.stdout(file.diff.replace(/\n$/, ""));
        const what = drift.map((f) => `${f.path} (${f.kind})`).join(", ");
        const note = schemasFileNote(settings, drift.filter((f) => f.kind === "stale").map((f) => f.path));
        io.stderr(`fmgen generate --check: ${show(settings.outDir)} is stale: ${what}. ${note !== undefined ? `(${note}.) ` : ""}Run "fmgen generate" and commit the result.`);
        setExitCode(1);
        return;
      }
      io.stdout(describeReport(await generateAndWrite(settings), settings, show));
      setExitCode(0);
    },
  };
}

function reportLine(report: WriteReport, settings: GenerateSettings, show: (path: string) => string, schemasFileNote: (settings: GenerateSettings, deleted: readonly string[]) => string | undefined): string {
  const changes = [...report.written.map((p) => `wrote ${p}`), ...report.deleted.map((p) => `deleted ${p}`)];
  const total = report.written.length + report.unchanged.length;
  if (changes.length === 0) return `fmgen generate: ${show(settings.outDir)} is up to date (${total} files)`;
  const note = schemasFileNote(settings, report.deleted);
  return `fmgen generate: ${show(settings.outDir)}: ${changes.join(", ")} (${total} files)${note !== undefined ? `; ${note}` : ""}`;
}
