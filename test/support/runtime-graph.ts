import { build } from "esbuild";
import { fileURLToPath } from "node:url";

/**
 * The runtime's files (`client.ts`, ...) an entry of src/runtime bundles, as an app's bundler would (undici, zod and
 * Node's modules left out); with `staticOnly`, without what it loads on first use (its dynamic imports).
 */
export async function runtimeGraph(entry: string, platform: "node" | "neutral", { staticOnly = false } = {}): Promise<string[]> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(`../../src/runtime/${entry}`, import.meta.url))],
    bundle: true,
    write: false,
    metafile: true,
    format: "esm",
    platform,
    external: ["undici", "zod", "node:*"],
    logLevel: "silent",
    plugins: staticOnly ? [{ name: "static-only", setup: (b) => b.onResolve({ filter: /^\./ }, (args) => (args.kind === "dynamic-import" ? { path: args.path, external: true } : undefined)) }] : [],
  });
  return Object.keys(result.metafile.inputs).map((path) => path.split("/").pop()!);
}
