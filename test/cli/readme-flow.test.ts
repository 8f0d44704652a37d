import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { memoryIo, PULL_PASSWORD, PULL_USER, startExampleEmulator, tempDir, type Emulator } from "../pull/helpers.js";

// The getting-started guide's "How it fits together" (docs/getting-started.md; the README's until issue 25 made the
// README a landing page), followed literally by a new user: its shell commands run as written (the server URL
// pointed at the emulator, .env filled in), then `npx fmgen generate`, then its app snippet type-checks against what
// they generated. The guide's import names must be the ones pull and generate produce.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The guide this test follows (its sh block is marked as run by this test: test/docs/commands.test.ts). */
const GUIDE = "docs/getting-started.md";

async function guideSection(): Promise<{ commands: string[][]; app: string; text: string }> {
  const guide = await readFile(join(ROOT, GUIDE), "utf8");
  const start = guide.indexOf("\n## How it fits together\n");
  if (start < 0) throw new Error(`${GUIDE}: no "## How it fits together" section`);
  const text = guide.slice(start, guide.indexOf("\n## ", start + 1));
  const blocks = [...text.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1]!, body: m[2]!.replace(/^ {3}/gm, "") }));
  const commands = blocks
    .filter((b) => b.lang === "sh")
    .flatMap((b) => b.body.split("\n"))
    .map((line) => words(line.replace(/\s+#.*$/, "").trim()))
    .filter((argv) => argv.length > 0);
  const app = blocks.find((b) => b.lang === "ts")?.body ?? "";
  return { commands, app, text };
}

/** A shell line's words: spaces separate them, double quotes group them. */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

let emu: Emulator;
beforeAll(async () => {
  emu = await startExampleEmulator("contacts");
});
afterAll(() => emu.close());

describe("the getting-started flow, followed literally", () => {
  it("init, pull, generate, and the app snippet compiles against what they wrote", async () => {
    const { commands, app, text } = await guideSection();
    expect(commands.map((c) => c.slice(0, 3).join(" "))).toEqual(["npx fmgen init", "cp .env.example .env", "npx fmgen pull"]);
    expect(text).toContain("`npx fmgen generate`");
    const dir = await tempDir("getting-started");
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      for (const argv of commands) {
        if (argv[0] === "cp") {
          await writeFile(join(dir, ".env"), `FM_USERNAME=${PULL_USER}\nFM_PASSWORD=${PULL_PASSWORD}\n`);
          continue;
        }
        const args = argv.slice(2).map((arg, i, all) => (all[i - 1] === "--server" ? emu.url : arg));
        const io = memoryIo();
        expect(await run(args, io), `${argv.join(" ")}\n${io.err.join("\n")}`).toBe(0);
      }
      const io = memoryIo();
      expect(await run(["generate"], io), io.err.join("\n")).toBe(0);
    } finally {
      process.chdir(cwd);
    }

    await writeFile(join(dir, "app.ts"), app);
    const runtime = join(ROOT, "src/runtime/index.ts");
    const program = ts.createProgram([join(dir, "app.ts")], {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ES2022,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
      strict: true,
      skipLibCheck: true,
      noEmit: true,
      types: ["node"],
      typeRoots: [join(ROOT, "node_modules/@types")],
      paths: { "fmgen/runtime": [runtime], "@fmgen/runtime": [runtime], "@fmgen/runtime/schema": [join(ROOT, "src/runtime/schema.ts")] },
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(diagnostics).toEqual([]);
  }, 60_000);
});
