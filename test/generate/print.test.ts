import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { docComment, emitFiles, importStatement, joinPrinted, needsPrettier, objectLiteral, objectType, prettierFormat, type PrintedFile } from "../../src/generate/index.js";
import { parseDatabaseDescription, type FieldDescription, type LayoutDescription } from "../../src/layout/index.js";
import { GOLDEN_SETS, loadSet } from "../golden/golden-sets.js";
import { layout } from "./helpers.js";

async function goldenFiles(): Promise<{ path: string; printed: PrintedFile }[]> {
  const out = [];
  for (const set of Object.values(GOLDEN_SETS)) {
    const { layouts, databases, tables } = await loadSet(set);
    out.push(...emitFiles(layouts, { databases, tables }));
  }
  return out;
}

describe("printing in prettier's layout (print.ts)", () => {
  it("prints exactly what prettier would for every file without an over-long line", async () => {
    let checked = 0;
    for (const { path, printed: file } of await goldenFiles()) {
      const printed = joinPrinted(file);
      if (needsPrettier(printed)) continue;
      checked++;
      expect(await prettierFormat(printed), path).toBe(printed);
    }
    expect(checked).toBeGreaterThan(3);
  });

  const FIELD_TYPES = ["text", "number", "date", "time", "timestamp", "container"] as const;
  const name = fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom("__proto__", "constructor", "toString", "class", "1st", "a::b", 'q"', "'", "\\", "\n"));
  const fieldArb = fc.record(
    {
      name,
      type: fc.constantFrom(...FIELD_TYPES),
      readOnly: fc.boolean(),
      global: fc.boolean(),
      repetitions: fc.integer({ min: 1, max: 4 }),
      valueList: fc.array(fc.string({ maxLength: 6 }), { maxLength: 3 }),
      description: fc.string({ maxLength: 30 }),
    },
    { requiredKeys: ["name", "type"] },
  );
  const uniqueFields = (fields: Partial<FieldDescription>[]) => {
    const seen = new Set<string>();
    return fields.filter((f) => !seen.has(f.name!) && seen.add(f.name!)).map((f) => (f.type === "container" ? { ...f, valueList: undefined } : f));
  };

  it("prints prettier's layout for generated descriptions (property test)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fieldArb, { maxLength: 8 }),
        fc.array(fc.record({ name, fields: fc.array(fieldArb, { maxLength: 3 }) }), { maxLength: 3 }),
        fc.string({ maxLength: 40 }),
        fc.array(name, { maxLength: 12 }),
        async (fields, portals, description, scripts) => {
          let description_: LayoutDescription;
          try {
            description_ = layout({
              layout: "Generated",
              description,
              fields: uniqueFields(fields) as FieldDescription[],
              portals: portals
                .filter((p, i) => portals.findIndex((q) => q.name === p.name) === i)
                .map((p) => ({ name: p.name, table: "T", fields: uniqueFields(p.fields.map((f) => ({ ...f, name: `T::${f.name}` }))) as FieldDescription[] })),
            });
          } catch {
            return; // not a valid description
          }
          // The database module too: its globals are the generated fields that are global, its scripts any names.
          const databases = [parseDatabaseDescription({ database: description_.database, scripts: scripts.map((s) => ({ name: s })) })];
          for (const { path, printed: file } of emitFiles([description_], { databases })) {
            const printed = joinPrinted(file);
            if (needsPrettier(printed)) continue;
            expect(await prettierFormat(printed), path).toBe(printed);
          }
        },
      ),
      { numRuns: 60, seed: 42 },
    );
  }, 60_000);

  it.each([
    ["an empty object", `const e = ${objectLiteral([], "")};`, "const e = {};"],
    ["an object one entry a line, trailing commas", `const x = ${objectLiteral([["a", "1"], ['"b c"', objectLiteral([["d", "2"]], "  ")]], "")};`, 'const x = {\n  a: 1,\n  "b c": {\n    d: 2,\n  },\n};'],
    ["an interface with JSDoc", `interface X ${objectType([{ key: "a", type: "string", docs: "One.\n\nTwo." }, { key: "b", type: "number" }], "")}`, "interface X {\n  /**\n   * One.\n   *\n   * Two.\n   */\n  a: string;\n  b: number;\n}"],
    ["a one-line JSDoc with its end broken", `${docComment("a */ b", "")}\nconst y = 1;`, "/** a *\\/ b */\nconst y = 1;"],
    ["a short import", importStatement(["a", "type B"], "x"), 'import { a, type B } from "x";'],
    ["a long import, one name a line", importStatement(Array.from({ length: 12 }, (_, i) => `name${i}Long`), "@fmgen/runtime"), undefined],
  ])("prints %s as prettier does", async (_what, text, expected) => {
    if (expected !== undefined) expect(text).toBe(expected);
    expect(await prettierFormat(`${text}\n`)).toBe(`${text}\n`);
  });
});
