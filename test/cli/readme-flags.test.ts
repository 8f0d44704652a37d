import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { memoryIo } from "../pull/helpers.js";

// Every flag a command's --help lists is in docs/cli.md, the CLI's guide (issue 22: `fmgen serve --help` knew
// --scripts and --api-key, the README's flag list did not; issue 25 moved the flags from README.md to docs/cli.md).
// The flags come from the CLI's own yargs definitions, through --help, so a flag added to a command without a line
// in the guide fails here. A boolean flag that defaults to true may be written there as its negation (`--no-metadata`).

const GUIDE = readFileSync(new URL("../../docs/cli.md", import.meta.url), "utf8");
/** Flags every command has, documented once for the CLI as a whole. */
const GLOBAL = new Set(["--help", "--version"]);

async function helpOf(command: string): Promise<string> {
  const io = memoryIo();
  const logs: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => logs.push(args.join(" "));
  try {
    expect(await run([command, "--help"], io)).toBe(0);
  } finally {
    console.log = log;
  }
  return [...logs, ...io.out].join("\n");
}

/** The flags in the options column of a --help text: `  --name` or `  -n, --name` at a line's start. */
function flagsOf(help: string): { flag: string; defaultTrue: boolean }[] {
  const lines = help.split("\n");
  const flags: { flag: string; defaultTrue: boolean }[] = [];
  lines.forEach((line, i) => {
    const m = /^ {2}(?:-\w, )?(--[a-z][a-z0-9-]*)/.exec(line);
    if (!m) return;
    // The option's description runs until the next option line; its [default: true] may be on a later line.
    let end = i + 1;
    while (end < lines.length && !/^ {2}-/.test(lines[end]!) && lines[end]!.trim() !== "") end++;
    flags.push({ flag: m[1]!, defaultTrue: /\[boolean\] \[default: true\]/.test(lines.slice(i, end).join(" ")) });
  });
  return flags;
}

/** The guide's inline code spans (fenced example blocks left out): where its prose and tables name flags. */
const SPANS = [...GUIDE.replace(/^ *```[^\n]*\n[\s\S]*?^ *```$/gm, "").matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

/** Named in an inline code span (`--flag <value>`, `npx fmgen --flag`), not only in an example block. */
function inGuide(flag: string): boolean {
  const named = new RegExp(`${flag}(?![a-z0-9-])`);
  return SPANS.some((span) => named.test(span));
}

describe("docs/cli.md lists every flag of every command's --help", () => {
  it.each(["init", "pull", "generate", "serve", "webviewer-script"])("fmgen %s", async (command) => {
    const flags = flagsOf(await helpOf(command));
    expect(flags.length).toBeGreaterThan(2);
    const missing = flags
      .filter(({ flag }) => !GLOBAL.has(flag))
      .filter(({ flag, defaultTrue }) => !inGuide(flag) && !(defaultTrue && inGuide(flag.replace(/^--/, "--no-"))))
      .map(({ flag }) => flag);
    expect(missing, `flags of fmgen ${command} --help that docs/cli.md does not name`).toEqual([]);
  });

  it("and the CLI's own --version", () => {
    expect(inGuide("--version")).toBe(true);
  });
});
