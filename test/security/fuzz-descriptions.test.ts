import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { generate, writeGeneratedFiles } from "../../src/generate/index.js";
import { loadLayouts } from "../../src/layout/load.js";
import { EXAMPLE_LAYOUTS } from "../support/runtime-layouts.js";

// Fuzzing description files through the whole generator: load -> validate -> generate -> write. Every input
// either generates or fails with an Error that has a message; a failure leaves the output folder untouched.

const root = await mkdtemp(join(tmpdir(), "fmgen-fuzz-desc-"));
afterAll(() => rm(root, { recursive: true, force: true }));
const valid = JSON.parse(await readFile(join(EXAMPLE_LAYOUTS, "Contact.layout.json"), "utf8")) as Record<string, unknown>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** Every path (keys and indexes) into a JSON value. */
function paths(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [prefix];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...prefix, i])));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]));
  return out;
}

function mutate(base: Json, pick: number, op: "set" | "delete" | "rename" | "text", value: Json, key: string): Json {
  const copy = structuredClone(base);
  const all = paths(copy).filter((p) => p.length > 0);
  const path = all[pick % all.length]!;
  let parent: Json = copy;
  for (const step of path.slice(0, -1)) parent = parent[step];
  const last = path[path.length - 1]!;
  if (op === "set") parent[last] = value;
  else if (op === "text") parent[last] = typeof parent[last] === "string" ? key : parent[last];
  else if (op === "delete") {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else if (!Array.isArray(parent)) {
    const v = parent[last as string];
    delete parent[last];
    (parent as Record<string, unknown>)[key] = v;
  } else (parent as unknown[])[last as number] = key;
  return copy;
}

const mutation = fc.record({
  pick: fc.nat(),
  // "text" replaces a string (a name, a layout, a value list entry) with another string: mostly still valid.
  op: fc.constantFrom("set" as const, "delete" as const, "rename" as const, "text" as const, "text" as const, "text" as const),
  value: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.string({ unit: "grapheme", maxLength: 12 }), fc.constantFrom("", "constructor", "__proto__", "a\u0000b", "*/ x /*", "`${x}`", "First Name")),
  key: fc.oneof(fc.string({ unit: "grapheme", minLength: 1, maxLength: 8 }), fc.constantFrom("__proto__", "constructor", "name", "type")),
});

let run = 0;
describe("fuzzed description files", () => {
  it("generate cleanly or fail with a message, writing nothing partial", async () => {
    let generated = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 3 }), fc.nat(4), async (mutations, second) => {
        const dir = join(root, `case-${run++}`);
        const input = join(dir, "in");
        const out = join(dir, "out");
        await import("node:fs/promises").then((fs) => fs.mkdir(input, { recursive: true }));
        let description: Json = valid as Json;
        for (const m of mutations) description = mutate(description, m.pick, m.op, m.value, m.key);
        await writeFile(join(input, "A.layout.json"), JSON.stringify(description));
        // Sometimes a second file with the same layout name, to provoke clashes.
        if (second === 0) await writeFile(join(input, "B.layout.json"), JSON.stringify(mutate(description, 0, "set", "Other", "x")));
        let files;
        try {
          files = await generate(await loadLayouts([input]));
        } catch (error) {
          expect(error).toBeInstanceOf(Error);
          expect((error as Error).message.length).toBeGreaterThan(0);
          await expect(readdir(out)).rejects.toThrow(); // nothing written
          refused++;
          return;
        }
        await writeGeneratedFiles(out, files);
        const written = (await readdir(out)).sort();
        expect(written).toEqual(files.map((f) => f.path).sort());
        for (const f of files) expect(await readFile(join(out, f.path), "utf8")).toBe(f.contents);
        generated++;
      }),
      { numRuns: 60, seed: 20261121 },
    );
    console.info(`[fuzz] descriptions: ${generated} generated, ${refused} refused cleanly`);
    expect(generated + refused).toBe(60);
    expect(refused).toBeGreaterThan(0);
  }, 60_000);
});
