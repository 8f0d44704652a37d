import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Layout metadata and undecoded records are for tools (fmgen pull), not apps: they live in the
// `@fmgen/runtime/metadata` entry, outside the module graph of what an app imports.

const source = (path: string) => fileURLToPath(new URL(`../../src/runtime/${path}`, import.meta.url));

async function inputsOf(entry: string, platform: "node" | "neutral"): Promise<string[]> {
  const result = await build({ entryPoints: [source(entry)], bundle: true, write: false, metafile: true, format: "esm", platform, external: ["undici", "zod", "node:*"], logLevel: "silent" });
  return Object.keys(result.metafile.inputs).map((p) => p.split("/").pop()!);
}

describe("@fmgen/runtime/metadata", () => {
  it.each([
    ["index.ts", "node"],
    ["fetch.ts", "neutral"],
  ] as const)("is not in the module graph of the app's entry %s", async (entry, platform) => {
    const inputs = await inputsOf(entry, platform);
    expect(inputs).toContain("client.ts");
    expect(inputs).toContain("layout-list.ts");
    expect(inputs).not.toContain("metadata.ts");
  });

  it("is its own entry, reaching the client's session", async () => {
    const inputs = await inputsOf("metadata.ts", "neutral");
    expect(inputs).toEqual(expect.arrayContaining(["metadata.ts", "client-sessions.ts"]));
    expect(inputs).not.toContain("client.ts");
  });
});
