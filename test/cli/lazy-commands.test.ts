import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Each command loads its implementation when it runs (an `await import(...)` in its handler): what `fmgen serve`
// starts with is its own modules, not the generator's or the pull's, and `fmgen generate` does not load the emulator.
// Checked on the sources: the modules src/cli/run.ts reaches through static value imports (`import type` and
// `import()` aside) hold none of the commands' implementation folders.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SRC = join(ROOT, "src");

/** The src/ files `file` imports statically for their values, as absolute .ts paths. */
function staticImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const found: string[] = [];
  // `import {...} from "x"`, `import x from "x"`, `import "x"`, `export {...} from "x"`; not `import type`/`export type`.
  for (const m of text.matchAll(/^(?:import|export)\s+(?!type\s)(?:[^"';]*?\s+from\s+)?"(\.[^"]+)"/gm)) {
    found.push(resolve(dirname(file), m[1]!.replace(/\.js$/, ".ts")));
  }
  return found;
}

function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...staticImports(file));
  }
  return seen;
}

describe("the CLI's start", () => {
  const loaded = [...reachable(join(SRC, "cli/run.ts"))].map((f) => relative(SRC, f));

  it("loads no command's implementation before the command runs", () => {
    expect(loaded).toContain("cli/commands/serve.ts");
    expect(loaded.filter((f) => /^(generate|pull|emulator)\//.test(f) && f !== "pull/sample-count.ts")).toEqual([]);
  });

  it("reads imports as the walk above expects (a value import is followed, a type import is not)", () => {
    expect(loaded).toContain("cli/io.ts");
    expect(staticImports(join(SRC, "cli/commands/pull.ts")).map((f) => relative(SRC, f))).toEqual(["pull/sample-count.ts"]);
  });
});
