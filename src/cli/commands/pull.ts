import type { CommandModule } from "yargs";
import type { PullReport, SourceChoice } from "../../pull/index.js";
import { DEFAULT_SAMPLE } from "../../pull/sample-count.js";
import type { CliIo } from "../io.js";

interface PullArgs {
  layout?: string[];
  name?: string;
  config?: string;
  server?: string;
  database?: string;
  dir?: string;
  env?: string;
  source: SourceChoice;
  sample: number;
  check: boolean;
  json: boolean;
  list: boolean;
  odata: boolean;
}

/**
 * `fmgen pull [layout...]`: writes `<Name>.layout.json` for each layout from the live server and prints what
 * changed. Without names it pulls the layouts of the description files the config's `layouts` entries hold.
 * `--check` writes nothing and exits 1 when a description differs from the server. `--odata` pulls table descriptions
 * (`<Name>.table.json`) from the OData API's `$metadata` instead: the names are tables, and without any it pulls every
 * table occurrence the server lists.
 */
export function pullCommand(io: CliIo, setExitCode: (code: number) => void, usageError: (message: string) => Error): CommandModule<object, PullArgs> {
  return {
    command: "pull [layout..]",
    describe: "Write layout descriptions from the live layouts (or, with --odata, table descriptions from $metadata) and report what changed",
    builder: (y) =>
      y
        .positional("layout", { type: "string", array: true, describe: "Layout names (default: the layouts of the existing description files); with --odata, table names (default: every table)" })
        .option("odata", { type: "boolean", default: false, describe: "Pull table descriptions (<Name>.table.json) from the OData API's $metadata instead of layouts" })
        .option("name", { type: "string", describe: "TypeScript name of the one layout (or --odata table) named (default: the PascalCase of its name, \"Contacts Web\" -> ContactsWeb)" })
        .option("config", { type: "string", describe: "Config file (default: ./fmgen.config.json when there is one)" })
        .option("server", { type: "string", describe: "Server URL (replaces the config's server)" })
        .option("database", { type: "string", describe: "Hosted file name (replaces the config's database)" })
        .option("dir", { type: "string", describe: "Folder for new description files (default: the config's first layouts folder; with --odata, its first tables folder, else tables)" })
        // Also --env-file, which Node (20 to 26) reads itself wherever it stands: a missing file then ends the process
        // with Node's own "node: <file>: not found" (exit 9) before fmgen starts. --env is fmgen's alone.
        .option("env", { type: "string", alias: "env-file", describe: "File of environment variables for the credentials (default: .env beside the config)" })
        .option("source", { choices: ["auto", "metadata", "sample"] as const, default: "auto" as const, describe: "Read the metadata endpoint, sample records, or metadata when the server has it" })
        .option("sample", { type: "number", default: DEFAULT_SAMPLE, describe: "Records sampled per layout when there is no metadata endpoint" })
        .option("check", { type: "boolean", default: false, describe: "Write nothing; exit 1 when a description differs from the server" })
        .option("json", { type: "boolean", default: false, describe: "Print the report as JSON" })
        .option("list", { type: "boolean", default: false, describe: "List the server's layouts and exit" }) as never,
    handler: async (args) => {
      // Loaded when the command runs: fmgen's other commands do not load the pull (test/cli/lazy-commands.test.ts).
      const pulling = await import("../../pull/index.js");
      const { layoutReport, listServerLayouts, listServerTables, pull, pullTables, PullSettingsError, reportJson, tableReport } = pulling;
      const cwd = process.cwd();
      const request = { cwd, config: args.config, server: args.server, database: args.database, dir: args.dir, envFile: args.env };
      try {
        if (args.odata) {
          if (args.source !== "auto" || args.sample !== DEFAULT_SAMPLE) throw new PullSettingsError("--source and --sample choose how layouts are read; --odata reads $metadata, so leave them out");
          if (args.list) {
            const listed = await listServerTables(request);
            if (args.json) io.stdout(JSON.stringify(listed, null, 2));
            else for (const table of listed.tables) io.stdout(table.id !== undefined ? `${table.name}\t(${table.id})` : table.name);
            setExitCode(0);
            return;
          }
          const result = await pullTables({ ...request, tables: args.layout, name: args.name, check: args.check });
          if (args.json) io.stdout(reportJson(result));
          else printReport(io, tableReport(result), pulling);
          setExitCode(args.check ? (result.drift ? 1 : 0) : result.failed ? 1 : 0);
          return;
        }
        if (args.list) {
          const listed = await listServerLayouts(request);
          if (args.json) io.stdout(JSON.stringify(listed, null, 2));
          else for (const layout of listed.layouts) io.stdout(layout.table !== undefined ? `${layout.name}\t(table ${layout.table})` : layout.name);
          setExitCode(0);
          return;
        }
        const result = await pull({
          ...request,
          layouts: args.layout,
          name: args.name,
          source: args.source,
          sample: args.sample,
          check: args.check,
          onProgress: io.progress && (({ layout, index, total }) => io.progress!(`fmgen pull: ${index + 1}/${total} ${layout}`)),
        });
        io.progress?.("");
        if (args.json) io.stdout(reportJson(result));
        else printReport(io, layoutReport(result), pulling);
        setExitCode(args.check ? (result.drift ? 1 : 0) : result.failed ? 1 : 0);
      } catch (error) {
        io.progress?.("");
        throw error instanceof PullSettingsError ? usageError(error.message) : error;
      }
    },
  };
}

/** The report's lines on stdout, its closing line on stderr when something failed or drifts. */
function printReport(io: CliIo, report: PullReport, { reportLines, closingLine }: typeof import("../../pull/index.js")): void {
  for (const line of reportLines(report)) io.stdout(line);
  const closing = closingLine(report);
  (closing.toStderr ? io.stderr : io.stdout)(closing.line);
}
