import { readFileSync } from "node:fs";
import yargs, { type CommandModule } from "yargs";
import { generateCommand } from "./commands/generate.js";
import { initCommand } from "./commands/init.js";
import { pullCommand } from "./commands/pull.js";
import { serveCommand } from "./commands/serve.js";
import { webviewerScriptCommand } from "./commands/webviewer-script.js";
import { processIo, type CliIo } from "./io.js";

/** Runs the fmgen CLI with the given arguments; resolves to the exit code. */
export async function run(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  if (argv.includes("--version")) {
    io.stdout(fmgenVersion());
    return 0;
  }
  let exitCode = 0;
  const parser = yargs([...argv])
    .scriptName("fmgen")
    .usage("$0 <command> [options]")
    .command(cliCommands(io, (code) => (exitCode = code)) as CommandModule[])
    .demandCommand(1, "name a command: fmgen init, fmgen pull, fmgen generate, fmgen serve, fmgen webviewer-script")
    .strict()
    .help()
    .version(false)
    // Answered before parsing (see above); declared so that --help lists it.
    .option("version", { type: "boolean", describe: "Print fmgen's version and exit" })
    .exitProcess(false)
    .fail((message, error) => {
      // A command's `.check` that answers a message reaches here with that message as `error` too (a string).
      throw error instanceof Error ? error : new UsageError(message);
    });
  try {
    await parser.parseAsync();
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`${error.message}\nRun "fmgen --help" for usage.`);
      return 2;
    }
    io.stderr(`fmgen: ${(error as Error).message}`);
    return 1;
  }
  return exitCode;
}

class UsageError extends Error {}

/**
 * The CLI's commands, as yargs command modules (their options and checks are the CLI's definition: `run` parses with
 * them, and test/docs/commands.test.ts parses the documentation's `npx fmgen` lines against them).
 */
export function cliCommands(io: CliIo, setExitCode: (code: number) => void): readonly CommandModule<object, never>[] {
  const usageError = (message: string) => new UsageError(message);
  return [initCommand(io, setExitCode, usageError), pullCommand(io, setExitCode, usageError), serveCommand(io, setExitCode), generateCommand(io, setExitCode, usageError), webviewerScriptCommand(io, setExitCode)] as never;
}

/** fmgen's version, from its package.json (two folders up from src/cli and from dist/cli alike). */
export function fmgenVersion(): string {
  return (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;
}
