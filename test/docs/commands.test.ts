/**
 * Every command in the documentation is exercised (issue 25, item 4): each ```sh (or bash, shell) block of README.md
 * and docs/*.md is either
 * - run by a test: marked by an HTML comment on the lines just above it, `<!-- commands: run by <path> -->`, naming
 *   a test or script of the repository that reads this very file (its text names the markdown file's path): the
 *   getting-started flow (test/cli/readme-flow.test.ts), the install block (scripts/footprint.mjs); or
 * - checked here, line by line (comments and `#` lines left out, `&&` and `;` splitting a line into commands):
 *   - `npx fmgen <command> ...` (or `fmgen ...`) parses against the CLI's own yargs definitions (src/cli/run.ts's
 *     cliCommands, strict: the command exists, every flag exists for it and takes its value, its checks pass);
 *   - `npm run <script>` (and `npm test`) names a script of package.json; `npm install`, `npm ci`, `npm pack` are
 *     allowed;
 *   - a `node <file>` names a file of the repository (or takes only flags: `node --env-file=.env app.js` runs the
 *     reader's app);
 *   - anything else must start with one of ALLOWED.
 * A line that is none of these fails, with its file and line.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import yargs from "yargs";
import { describe, expect, it } from "vitest";
import { cliCommands } from "../../src/cli/run.js";
import { memoryIo } from "../pull/helpers.js";
import { markdownFiles, parseMarkdown } from "./markdown.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Commands the documentation may show that are neither fmgen's nor npm's: the reader's own tools. */
const ALLOWED = ["cd", "cp", "mkdir", "deno", "bun", "apt-get", "npx tsc", "npx vitest"];
const SHELL_LANGS = new Set(["sh", "bash", "shell"]);
const SCRIPTS = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;

/** A shell line's words: spaces separate them; single and double quotes group them (and are removed). */
function words(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

/** A shell line without its comment: a `#` that starts a word, outside quotes. */
function withoutComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "#" && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i);
  }
  return line;
}

/** Why `fmgen <argv>` does not parse against the CLI's definitions, or undefined when it does. */
async function fmgenParseError(argv: readonly string[]): Promise<string | undefined> {
  const io = memoryIo();
  const commands = cliCommands(io, () => {}).map((command) => ({ ...command, handler: () => {} }));
  const parser = yargs([...argv])
    .scriptName("fmgen")
    .command(commands)
    .demandCommand(1, "no command")
    .strict()
    .help(false)
    .version(false)
    .option("help", { type: "boolean" })
    .option("version", { type: "boolean" })
    .exitProcess(false)
    .fail((message, error) => {
      throw error instanceof Error ? error : new Error(message);
    });
  try {
    await parser.parseAsync();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Why one command is not accounted for, or undefined when it is. */
async function commandProblem(argv: readonly string[], root: string, scripts: Record<string, string>): Promise<string | undefined> {
  const [first, second, third] = argv;
  if (first === "fmgen" || (first === "npx" && second === "fmgen")) {
    const rest = argv.slice(first === "fmgen" ? 1 : 2);
    const problem = await fmgenParseError(rest);
    return problem && `fmgen ${rest.join(" ")}: ${problem}`;
  }
  if (first === "npm") {
    if (second === "test") return "test" in scripts ? undefined : "package.json has no test script";
    if (second === "run") return third !== undefined && Object.hasOwn(scripts, third) ? undefined : `package.json has no script "${third ?? ""}"`;
    if (second === "install" || second === "ci" || second === "pack") return undefined;
    return `npm ${second ?? ""}: not a command the documentation may show (npm run <script>, npm test, npm install, npm ci, npm pack)`;
  }
  if (first === "node") {
    const file = argv.slice(1).find((word) => !word.startsWith("-"));
    if (file === undefined) return "node without a file";
    if (argv.slice(1).some((word) => word.startsWith("--env-file"))) return undefined;
    return existsSync(join(root, file)) ? undefined : `node ${file}: no such file in the repository`;
  }
  const line = argv.join(" ");
  if (ALLOWED.some((allowed) => line === allowed || line.startsWith(`${allowed} `))) return undefined;
  return `"${first}" is neither an fmgen nor an npm command, nor among the allowed ones (${ALLOWED.join(", ")})`;
}

/** Every command of every shell block of the files that no test runs and that does not check out: `file:line: why`. */
async function unaccountedCommands(root: string, files: readonly string[], scripts: Record<string, string>): Promise<string[]> {
  const problems: string[] = [];
  for (const file of files) {
    for (const fence of parseMarkdown(readFileSync(join(root, file), "utf8")).fences) {
      if (!SHELL_LANGS.has(fence.lang)) continue;
      const directive = fence.above
        .map((line) => /^<!--\s*commands:\s*([\s\S]*?)\s*-->$/.exec(line)?.[1])
        .filter((d) => d !== undefined)
        .at(-1);
      if (directive !== undefined) {
        const runner = /^run by (\S+)$/.exec(directive)?.[1];
        if (runner === undefined) problems.push(`${file}:${fence.line}: unknown commands directive "${directive}" (expected "run by <path>")`);
        else if (!existsSync(join(root, runner))) problems.push(`${file}:${fence.line}: run by ${runner}, which does not exist`);
        else if (!readFileSync(join(root, runner), "utf8").includes(file)) problems.push(`${file}:${fence.line}: run by ${runner}, which does not read ${file}`);
        continue;
      }
      for (const { text, line } of fence.body) {
        for (const command of withoutComment(text).split(/&&|;/)) {
          const argv = words(command.trim());
          if (argv.length === 0) continue;
          const problem = await commandProblem(argv, root, scripts);
          if (problem) problems.push(`${file}:${line}: ${problem}`);
        }
      }
    }
  }
  return problems;
}

/** README.md and every markdown file of docs/ and its subfolders (the generated reference's too, should one hold a command). */
const FILES = markdownFiles(ROOT);

describe("every command in the documentation", () => {
  it("is run by a test that reads its file, or parses as an fmgen command, an npm script or an allowed command", async () => {
    expect(FILES).toContain("docs/cli.md");
    expect((await unaccountedCommands(ROOT, FILES, SCRIPTS)).join("\n")).toBe("");
  });

  it("the blocks marked as run by a test are the ones those tests read", () => {
    const guide = readFileSync(join(ROOT, "docs/getting-started.md"), "utf8");
    expect(guide).toContain("<!-- commands: run by test/cli/readme-flow.test.ts -->");
    expect(guide).toContain("<!-- commands: run by scripts/footprint.mjs -->");
  });
});

describe("the check (this test can fail)", () => {
  const check = async (markdown: string) => {
    const { mkdtempSync, writeFileSync, mkdirSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const root = mkdtempSync(join(tmpdir(), "fmgen-commands-"));
    mkdirSync(join(root, "docs"));
    writeFileSync(join(root, "docs/x.md"), markdown);
    writeFileSync(join(root, "runner.test.ts"), 'const GUIDE = "docs/x.md";');
    writeFileSync(join(root, "other.test.ts"), "reads nothing");
    return unaccountedCommands(root, ["docs/x.md"], { example: "node run.mjs", test: "vitest" });
  };

  it("passes known commands and flags, scripts and allowed commands, and blocks run by a test that reads the file", async () => {
    const md = [
      "```sh",
      'npx fmgen pull "Contacts Web" --name Contact --check   # a comment with --nope in it',
      "npx fmgen serve --layouts layouts --faults '{\"rate\":0.2,\"seed\":1}' --no-metadata --api-key k@/otto",
      "fmgen generate --import-extension .ts",
      "npm install && npm run example   # x",
      "npm test; cd ../app",
      "node --env-file=.env app.js",
      "# a comment line",
      "```",
      "<!-- commands: run by runner.test.ts -->",
      "```sh",
      "anything at all",
      "```",
    ].join("\n");
    expect(await check(md)).toEqual([]);
  });

  it("fails an unknown flag, an unknown command, a bad flag value, a missing script and an unknown tool, by line", async () => {
    const md = [
      "# x",
      "```sh",
      "npx fmgen generate --nope",
      "npx fmgen deploy",
      "npx fmgen generate --import-extension .mjs",
      "npm run exampel",
      "curl https://fms.example.com",
      "npx fmgen serve --port 0",
      "```",
    ].join("\n");
    const problems = await check(md);
    expect(problems).toHaveLength(6);
    expect(problems[0]).toMatch(/^docs\/x\.md:3: fmgen generate --nope: Unknown argument: nope/);
    expect(problems[1]).toMatch(/^docs\/x\.md:4: fmgen deploy: Unknown argument: deploy/);
    expect(problems[2]).toMatch(/^docs\/x\.md:5: .*Invalid values/s);
    expect(problems[3]).toBe('docs/x.md:6: package.json has no script "exampel"');
    expect(problems[4]).toMatch(/^docs\/x\.md:7: "curl" is neither/);
    expect(problems[5]).toMatch(/^docs\/x\.md:8: .*needs --layouts, --tables or both/);
  });

  it("fails a block marked as run by a test that does not read the file, or by one that does not exist", async () => {
    const md = ["<!-- commands: run by other.test.ts -->", "```sh", "x", "```", "<!-- commands: run by gone.test.ts -->", "```sh", "y", "```", "<!-- commands: ran by x -->", "```sh", "z", "```"].join("\n");
    expect(await check(md)).toEqual([
      "docs/x.md:2: run by other.test.ts, which does not read docs/x.md",
      "docs/x.md:6: run by gone.test.ts, which does not exist",
      'docs/x.md:10: unknown commands directive "ran by x" (expected "run by <path>")',
    ]);
  });

  it("an unknown flag in a copy of the real docs/cli.md fails", async () => {
    const cli = readFileSync(join(ROOT, "docs/cli.md"), "utf8");
    expect(cli).toContain("npx fmgen generate --check");
    const problems = await check(cli.replace("npx fmgen generate --check", "npx fmgen generate --chek"));
    expect(problems).toEqual([expect.stringMatching(/^docs\/x\.md:\d+: fmgen generate --chek: Unknown argument: chek/)]);
  });
});
