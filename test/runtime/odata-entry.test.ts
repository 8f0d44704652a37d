import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

// @fmgen/runtime/odata carries none of the Data API's code, and the Data API none of OData's: each entry bundled by
// esbuild (following dynamic imports too), its module list checked. The fetch entry also bundles for platform
// "neutral" with no `node:` module and no undici. Each check can fail: the Data API's own entry holds the modules the
// OData entries must not.

const entry = (name: string) => fileURLToPath(new URL(`../../src/runtime/${name}`, import.meta.url));

async function inputsOf(file: string, platform: "node" | "neutral") {
  const result = await build({ entryPoints: [file], bundle: true, platform, format: "esm", write: false, metafile: true, logLevel: "silent", external: platform === "node" ? ["undici"] : [] });
  return { inputs: Object.keys(result.metafile.inputs), code: result.outputFiles[0]!.text };
}

// Modules of the Data API: sessions, layouts, records, envelopes, its codecs and FileMaker error classes.
const DATA_API = [
  "src/runtime/data-api/client.ts",
  "src/runtime/data-api/session.ts",
  "src/runtime/data-api/layout-client.ts",
  "src/runtime/data-api/transport.ts",
  "src/runtime/data-api/undici-transport.ts",
  "src/runtime/data-api/fetch-transport.ts",
  "src/runtime/data-api/codecs.ts",
  "src/runtime/data-api/errors.ts",
  "src/runtime/data-api/redact.ts",
  "src/runtime/data-api/record-decoder.ts",
  "src/runtime/data-api/find-request.ts",
  "src/runtime/data-api/iso-dates.ts",
  "src/runtime/data-api/multipart.ts",
];

describe("the OData entries", () => {
  it("hold no Data API module (Node entry)", async () => {
    const { inputs, code } = await inputsOf(entry("odata/index.ts"), "node");
    expect(inputs).toContain("src/runtime/core/undici-carrier.ts");
    expect(inputs.filter((f) => DATA_API.includes(f))).toEqual([]);
    expect(code).toContain("createODataClient");
  });

  it("hold no Data API module, no node: import and no undici (fetch entry, platform neutral)", async () => {
    const { inputs, code } = await inputsOf(entry("odata/fetch.ts"), "neutral");
    expect(inputs).toContain("src/runtime/core/fetch-carrier.ts");
    expect(inputs.filter((f) => DATA_API.includes(f) || !f.startsWith("src/runtime/"))).toEqual([]);
    expect(inputs).not.toContain("src/runtime/core/undici-carrier.ts");
    expect(code).not.toMatch(/["']node:|["']undici["']|\bBuffer\b|\brequire\(/);
  });

  it("are not in the Data API's entries, which hold the modules checked above; the tools' metadata entry holds only the $metadata reader", async () => {
    for (const [file, platform] of [["index.ts", "node"], ["fetch.ts", "neutral"], ["metadata.ts", "neutral"]] as const) {
      const { inputs } = await inputsOf(entry(file), platform === "node" ? "node" : "neutral").catch(() => inputsOf(entry(file), "node"));
      const reader = file === "metadata.ts" ? ["src/runtime/odata/client-callers.ts", "src/runtime/odata/metadata-document.ts"] : [];
      expect(inputs.filter((f) => f.startsWith("src/runtime/odata/")).sort()).toEqual(reader);
      if (file !== "metadata.ts") expect(inputs).toEqual(expect.arrayContaining(["src/runtime/data-api/session.ts", "src/runtime/data-api/codecs.ts", "src/runtime/data-api/errors.ts"]));
    }
  });
});
