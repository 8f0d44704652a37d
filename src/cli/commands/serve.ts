import type { CommandModule } from "yargs";
import type { Account, ApiKey } from "../../emulator/index.js";
import type { CliIo } from "../io.js";

interface ServeArgs {
  layouts: string[];
  tables: string[];
  data?: string;
  dataDir?: string;
  reset: boolean;
  exportOnExit?: string;
  account: string[];
  apiKey: string[];
  host: string;
  allowedHost: string[];
  port: number;
  serverStatuses: boolean;
  metadata: boolean;
  faults?: string;
  scripts?: string;
  inspector: boolean;
  requestLogSize: number;
}

/**
 * `fmgen serve`: the emulator, until the process is asked to stop. Its first stdout line is its base URL (scripts
 * read it); the next lines name the Data API's and OData's base URLs, those under each API key's path prefix, and
 * the inspector's page (docs/inspector.md) unless --no-inspector.
 */
export function serveCommand(io: CliIo, setExitCode: (code: number) => void): CommandModule<object, ServeArgs> {
  return {
    command: "serve",
    describe: "Run the local Data API and OData emulator on the given layout and table descriptions",
    builder: (y) =>
      y
        .option("layouts", { type: "string", array: true, default: [] as string[], describe: "Description files or folders of *.layout.json" })
        .option("tables", {
          type: "string",
          array: true,
          default: [] as string[],
          describe: "Table description files or folders of *.table.json: hosted tables (OData) even when no layout shows them",
        })
        .option("data", { type: "string", describe: "Seed data JSON file (accounts and records)" })
        .option("data-dir", {
          type: "string",
          describe: "A folder the hosted files persist in: what clients write survives a restart (the first start fills it from --data; later starts read it)",
        })
        .option("reset", { type: "boolean", default: false, describe: "With --data-dir: start over from the descriptions and --data" })
        .option("export-on-exit", {
          type: "string",
          describe: "A file the hosted data is written to when serve is stopped (SIGINT, SIGTERM), as a seed file --data reads back: records with their ids, containers, schema changes, accounts",
        })
        .option("account", { type: "string", array: true, default: [] as string[], describe: "user:password, with the fmrest and fmodata privileges (repeatable)" })
        .option("api-key", {
          type: "string",
          array: true,
          default: [] as string[],
          describe: "KEY or KEY@/prefix: Authorization: Bearer KEY needs no login, under /prefix/fmi/data/... and /prefix/fmi/odata/v4/... when given (as a proxy such as OttoFMS; repeatable)",
        })
        .option("host", { type: "string", default: "127.0.0.1", describe: "Address to bind" })
        .option("allowed-host", {
          type: "string",
          array: true,
          default: [] as string[],
          describe: "A host name (or IP address), no port, that requests may name in Host besides localhost, 127.0.0.1, [::1] and --host; any other Host gets 421 (repeatable)",
        })
        .option("port", { type: "number", default: 0, describe: "Port (0 picks a free one)" })
        .option("server-statuses", { type: "boolean", default: false, describe: "Answer HTTP 500 for FileMaker errors, as FileMaker Server does" })
        .option("metadata", { type: "boolean", default: true, describe: "Serve the layout metadata endpoints (--no-metadata: answer them 404 / 1630, as a server without them)" }) 
        .option("scripts", {
          type: "string",
          describe:
            "A JavaScript module (.mjs) whose default export maps script names to handlers, and whose calculations export gives calculation fields (docs/emulator.md, Scripts, Calculations)",
        })
        .option("inspector", { type: "boolean", default: true, describe: "Serve the inspector at /fmgen/ (and the export at /fmgen/export) and keep its request log (--no-inspector: none of them)" })
        .option("request-log-size", { type: "number", default: 500, describe: "How many requests the inspector's log keeps, the oldest dropped first" })
        .option("faults", {
          type: "string",
          describe: 'Inject faults, as JSON: {"rate":0.2,"seed":1,"kinds":["drop","html","truncate","revoke","restart","capacity812","capacity956"],"rates":{"drop":0.05},"latencyMs":{"min":0,"max":2},"afterRate":0.5}',
        })
        .check((args) => (args.layouts.length > 0 || args.tables.length > 0 ? true : "fmgen serve needs --layouts, --tables or both"))
        .check((args) => (args.reset && args.dataDir === undefined ? "--reset starts a --data-dir over: give --data-dir too" : true))
        .check((args) => (args.exportOnExit === "" ? "--export-on-exit needs a file name" : true)) as never,
    handler: async (args) => {
      // Loaded when the command runs: fmgen's other commands do not load the emulator (test/cli/lazy-commands.test.ts).
      const { parseFaultOptions, startEmulator } = await import("../../emulator/index.js");
      const accounts = args.account.map(parseAccount);
      const apiKeys = args.apiKey.map(parseApiKey);
      const emulator = await startEmulator({
        layouts: args.layouts,
        tables: args.tables,
        accounts,
        apiKeys,
        host: args.host,
        allowedHosts: args.allowedHost,
        port: args.port,
        serverStatuses: args.serverStatuses,
        metadata: args.metadata,
        ...(args.data ? { data: args.data } : {}),
        ...(args.dataDir !== undefined ? { dataDir: args.dataDir, reset: args.reset } : {}),
        ...(args.exportOnExit !== undefined ? { exportOnExit: args.exportOnExit } : {}),
        ...(args.faults !== undefined ? { faults: parseFaultOptions(args.faults) } : {}),
        ...(args.scripts !== undefined ? { scripts: args.scripts } : {}),
        inspector: args.inspector ? { logSize: args.requestLogSize } : false,
      });
      // Listened for before the URL is printed: a stop asked for as soon as the URL is read is a graceful one (the export is written).
      const stopped = io.stopSignal();
      io.stdout(emulator.url);
      for (const line of baseUrlLines(emulator.url, apiKeys)) io.stdout(line);
      if (args.dataDir !== undefined) io.stdout(`Data:     ${args.dataDir} (kept across restarts; --reset starts over)`);
      if (args.exportOnExit !== undefined) io.stdout(`Export:   ${args.exportOnExit} (written when stopped)`);
      if (args.inspector) io.stdout(`Inspector: ${emulator.url}/fmgen/`);
      await stopped;
      // A failed export rejects, naming the file: the command exits 1 (the emulator has stopped either way).
      await emulator.close();
      setExitCode(0);
    },
  };
}

/** The lines after the base URL: where each API is served, at the root and under each API key's path prefix. */
function baseUrlLines(url: string, apiKeys: readonly ApiKey[]): string[] {
  const prefixes = [...new Set(apiKeys.flatMap((k) => (k.pathPrefix === undefined || k.pathPrefix === "/" ? [] : [k.pathPrefix])))];
  return [
    `Data API: ${url}/fmi/data/vLatest`,
    `OData:    ${url}/fmi/odata/v4`,
    ...prefixes.flatMap((p) => [`Data API (API keys under ${p}): ${url}${p}/fmi/data/vLatest`, `OData (API keys under ${p}):    ${url}${p}/fmi/odata/v4`]),
  ];
}

/** `KEY` or `KEY@/prefix` (the prefix starts at the first "@/"). */
function parseApiKey(text: string): ApiKey {
  const at = text.indexOf("@/");
  const key = at === -1 ? text : text.slice(0, at);
  if (key === "") throw new Error(`--api-key must be KEY or KEY@/prefix, got "${text}"`);
  return at === -1 ? { key } : { key, pathPrefix: text.slice(at + 1) };
}

function parseAccount(text: string): Account {
  const colon = text.indexOf(":");
  if (colon <= 0) throw new Error(`--account must be user:password, got "${text}"`);
  return { username: text.slice(0, colon), password: text.slice(colon + 1) };
}
