import { describe, expect, it } from "vitest";
import { generate, IdentifierClashError, layoutModuleTemplate } from "../../src/generate/index.js";
import { loadLayouts, type LayoutDescription } from "../../src/layout/index.js";
import { GOLDEN_SETS, goldenPath } from "../golden/golden-sets.js";
import { layout } from "./helpers.js";

async function allGoldenLayouts(): Promise<LayoutDescription[]> {
  return loadLayouts(Object.values(GOLDEN_SETS).flatMap((set) => set.layouts).map(goldenPath));
}

/** A fixed permutation, so the test is reproducible. */
function shuffled<T>(items: readonly T[], seed = 7): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe("generate()", () => {
  it("returns files as data: a module per layout, one per database and index.ts, in path order; schemas.ts only when asked", async () => {
    const layouts = await loadLayouts([goldenPath("../../examples/contacts/layouts")]);
    // schemas.ts imports @fmgen/runtime/schema, whose declarations import zod (an optional peer): only on request.
    expect((await generate(layouts)).map((f) => f.path)).toEqual(["contact.ts", "contacts.ts", "index.ts", "invoice.ts"]);
    expect((await generate(layouts, { schemas: false })).map((f) => f.path)).toEqual(["contact.ts", "contacts.ts", "index.ts", "invoice.ts"]);
    const withSchemas = await generate(layouts, { schemas: true });
    expect(withSchemas.map((f) => f.path)).toEqual(["contact.ts", "contacts.ts", "index.ts", "invoice.ts", "schemas.ts"]);
    // The other modules are the same bytes either way: toggling the option touches schemas.ts alone.
    expect(withSchemas.filter((f) => f.path !== "schemas.ts")).toEqual(await generate(layouts));
    for (const file of await generate(layouts)) expect(file.contents, file.path).not.toMatch(/recordSchema|@fmgen\/runtime\/schema|zod/);
  });

  it("is deterministic: two runs, one over a shuffled list of layouts, give identical bytes", async () => {
    const layouts = await allGoldenLayouts();
    const first = await generate(layouts);
    const second = await generate(shuffled(layouts));
    expect(second).toEqual(first);
    expect(shuffled(layouts).map((l) => l.layout)).not.toEqual(layouts.map((l) => l.layout));
  });

  it("starts every file with the header and writes LF line endings, no timestamp, no version", async () => {
    const header = layoutModuleTemplate().header;
    for (const file of await generate(await allGoldenLayouts())) {
      expect(file.contents.startsWith(`${header}\n`), file.path).toBe(true);
      expect(file.contents, file.path).not.toMatch(/\r/);
      expect(file.contents.endsWith("\n") && !file.contents.endsWith("\n\n"), file.path).toBe(true);
      expect(file.contents, file.path).not.toMatch(/\b20\d\d-\d\d-\d\dT\d\d:\d\d|\b0\.1\.0\b|version/i);
    }
  });

  it("keeps fields and portals in description order", async () => {
    const names = ["zeta", "alpha", "Mu", "beta"];
    const files = await generate([layout({ name: "Order", fields: names.map((name) => ({ name, type: "text" as const })) })]);
    const file = files.find((f) => f.path === "order.ts");
    const at = file!.contents.indexOf("export interface OrderFields {");
    expect(at).toBeGreaterThan(0);
    const fieldsType = file!.contents.slice(at);
    const positions = names.map((n) => fieldsType.indexOf(`  ${n}: string;`));
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it("emits validate: false in every definition when options.validateRecords is false, and nothing by default", async () => {
    const description = layout({ name: "Plain", fields: [{ name: "a", type: "text" }] });
    const moduleOf = (files: { path: string; contents: string }[]) => files.find((f) => f.path === "plain.ts")!.contents;
    expect(moduleOf(await generate([description], { validateRecords: false }))).toMatch(/ {2}fields: \{\n {4}a: \{ type: "text" \},\n {2}\},\n {2}validate: false,\n\}\);/);
    expect(moduleOf(await generate([description]))).not.toContain("validate:");
  });

  it("writes index.ts's and schemas.ts's relative imports with importExtension (.js by default), and only those: the other modules are the same", async () => {
    const layouts = await allGoldenLayouts();
    const [byDefault, js, ts] = await Promise.all([generate(layouts, { schemas: true }), generate(layouts, { schemas: true, importExtension: ".js" }), generate(layouts, { schemas: true, importExtension: ".ts" })]);
    expect(js).toEqual(byDefault);
    const index = (files: { path: string; contents: string }[]) => files.find((f) => f.path === "index.ts")!.contents;
    const specifiers = (text: string) => [...text.matchAll(/ from "(\.[^"]*)"/g)].map((m) => m[1]!);
    expect(specifiers(index(byDefault)).length).toBeGreaterThan(2);
    expect(specifiers(index(byDefault)).every((s) => s.endsWith(".js"))).toBe(true);
    expect(specifiers(index(ts))).toEqual(specifiers(index(byDefault)).map((s) => s.replace(/\.js$/, ".ts")));
    const schemas = (files: { path: string; contents: string }[]) => files.find((f) => f.path === "schemas.ts")!.contents;
    expect(specifiers(schemas(byDefault)).length).toBeGreaterThan(2);
    expect(specifiers(schemas(ts))).toEqual(specifiers(schemas(byDefault)).map((s) => s.replace(/\.js$/, ".ts")));
    const others = (files: { path: string }[]) => files.filter((f) => f.path !== "index.ts" && f.path !== "schemas.ts");
    expect(others(ts)).toEqual(others(byDefault));
    for (const file of ts) expect(specifiers(file.contents).every((s) => s.endsWith(".ts")), file.path).toBe(true);
  });

  it("reports identifier clashes instead of generating", async () => {
    await expect(generate([layout({ layout: "A", name: "X", fields: [] }, "a.json"), layout({ layout: "B", name: "X", fields: [] }, "b.json")])).rejects.toThrow(IdentifierClashError);
  });

  it("generates only an `export {}` barrel for no layouts at all", async () => {
    expect((await generate([])).map((f) => f.path)).toEqual(["index.ts"]);
  });

  it("generates the same bytes whatever the fields' validate says: it tells the server (and the emulator) when to validate, not the types", async () => {
    const plain = await loadLayouts([goldenPath("../../examples/contacts/layouts")]);
    const withValidate = (when: "always" | "dataEntry") =>
      plain.map(({ source, ...d }) =>
        layout(
          {
            ...d,
            fields: d.fields.map((f) => ({ ...f, validate: when })),
            portals: d.portals.map((portal) => ({ ...portal, fields: portal.fields.map((f) => ({ ...f, validate: when })) })),
          },
          source,
        ),
      );
    const expected = await generate(plain);
    expect(await generate(withValidate("always"))).toEqual(expected);
    expect(await generate(withValidate("dataEntry"))).toEqual(expected);
  });
});
