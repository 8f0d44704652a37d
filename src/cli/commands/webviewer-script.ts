import type { CommandModule } from "yargs";
import { bridgeScriptText, bridgeSnippet, bridgeSteps, DEFAULT_BRIDGE_NAME, snippetCoverage } from "../../webviewer-script/index.js";
import type { CliIo } from "../io.js";

interface WebViewerScriptArgs {
  name: string;
  format: "text" | "xml";
}

/**
 * `fmgen webviewer-script`: prints the FileMaker script a page in a web viewer calls through
 * `@fmgen/runtime/webviewer` (docs/webviewer.md). `text`: the steps as the Script Workspace shows them, numbered,
 * to type in; `xml`: FileMaker's clipboard XML of the same steps, for a clipboard tool to paste.
 */
export function webviewerScriptCommand(io: CliIo, setExitCode: (code: number) => void): CommandModule<object, WebViewerScriptArgs> {
  const covered = snippetCoverage(bridgeSteps()).covered.join(", ");
  return {
    command: "webviewer-script",
    describe: "Print the FileMaker bridge script that answers a page in a web viewer (@fmgen/runtime/webviewer)",
    builder: (y) =>
      y
        .option("name", {
          type: "string",
          default: DEFAULT_BRIDGE_NAME,
          describe: "The script's name in FileMaker (the page's createWebViewerClient({ script }) names the same)",
        })
        .option("format", {
          choices: ["text", "xml"] as const,
          default: "text" as const,
          describe:
            `text: the steps as the Script Workspace shows them, numbered, to type in; xml: FileMaker's clipboard XML (fmxmlsnippet) of the same steps, ` +
            `for a clipboard tool to paste. The XML covers ${covered}, each in the shape published captures of FileMaker's clipboard show (Claris documents no grammar for it; docs/webviewer.md)`,
        })
        .check((args) => (args.name.trim() !== "" ? true : "--name must name the script (not empty)")) as never,
    handler: (args) => {
      const steps = bridgeSteps(args.name);
      io.stdout(args.format === "xml" ? bridgeSnippet(steps) : bridgeScriptText(steps));
      setExitCode(0);
    },
  };
}
