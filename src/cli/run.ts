import yargs from "yargs";
import { generateCommand } from "./commands/generate.js";
import { initCommand } from "./commands/init.js";
import { pullCommand } from "./commands/pull.js";
import { serveCommand } from "./commands/serve.js";
import { processIo, type CliIo } from "./io.js";

/** Runs the fmgen CLI with the given arguments; resolves to the exit code. */
export async function run(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  let exitCode = 0;
  const parser = yargs([...argv])
    .scriptName("fmgen")
    .usage("$0 <command> [options]")
    .command(initCommand(io, (code) => (exitCode = code), (message) => new UsageError(message)))
    .command(pullCommand(io, (code) => (exitCode = code), (message) => new UsageError(message)))
    .command(serveCommand(io, (code) => (exitCode = code)))
    .command(generateCommand(io, (code) => (exitCode = code), (message) => new UsageError(message)))
    .demandCommand(1, "name a command: fmgen init, fmgen pull, fmgen generate, fmgen serve")
    .strict()
    .help()
    .version(false)
    .exitProcess(false)
    .fail((message, error) => {
      throw error ?? new UsageError(message);
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
