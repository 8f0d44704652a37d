import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

// The fetch entry's whole module graph is free of Node: bundled by esbuild for `platform: "neutral"` (no Node
// built-ins known, nothing marked external), it resolves, and it holds no `node:` import and no undici. The Node
// entry, bundled the same way, does not resolve: the check can fail.

const entry = (name: string) => fileURLToPath(new URL(`../../src/runtime/${name}`, import.meta.url));

async function neutralBundle(file: string) {
  return build({ entryPoints: [file], bundle: true, platform: "neutral", format: "esm", write: false, metafile: true, logLevel: "silent" });
}

describe("an esbuild bundle for platform neutral", () => {
  it("of the fetch entry resolves, with no node: import and no undici in it", async () => {
    const result = await neutralBundle(entry("fetch.ts"));
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs).toContain("src/runtime/data-api/fetch-transport.ts");
    expect(inputs.filter((f) => !f.startsWith("src/runtime/"))).toEqual([]);
    expect(inputs).not.toContain("src/runtime/data-api/undici-transport.ts");
    const code = result.outputFiles[0]!.text;
    expect(code).not.toMatch(/["']node:|["']undici["']|\bBuffer\b|\brequire\(/);
    expect(code).toContain("createClient");
  });

  it("of the Node entry fails on its node: imports", async () => {
    const error = (await neutralBundle(entry("index.ts")).catch((e: unknown) => e)) as { errors?: { text: string }[] };
    const texts = (error.errors ?? []).map((e) => e.text).join("\n");
    expect(texts).toMatch(/Could not resolve "node:fs"/);
  });
});
