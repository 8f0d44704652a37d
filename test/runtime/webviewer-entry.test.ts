import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

// What a Web Viewer's page loads: `@fmgen/runtime/webviewer` bundled by esbuild for `platform: "neutral"` (no Node
// built-ins known, nothing external) resolves, with no node: import, no undici, no carrier of HTTP requests and no
// OData code in it: its calls go through window.FileMaker only.
const entry = fileURLToPath(new URL("../../src/runtime/webviewer.ts", import.meta.url));

describe("the webviewer entry's bundle", () => {
  it("resolves for platform neutral, with no node: import, no undici, no transport over HTTP and no OData code", async () => {
    const result = await build({ entryPoints: [entry], bundle: true, platform: "neutral", format: "esm", write: false, metafile: true, logLevel: "silent" });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs).toContain("src/runtime/data-api/step-request.ts");
    expect(inputs).toContain("src/runtime/webviewer/bridge.ts");
    expect(inputs.filter((f) => !f.startsWith("src/runtime/"))).toEqual([]);
    expect(inputs.filter((f) => f.startsWith("src/runtime/odata/") || /(undici|fetch)-(transport|carrier)\.ts$/.test(f))).toEqual([]);
    const code = result.outputFiles.map((f) => f.text).join("\n");
    expect(code).not.toMatch(/["']node:|["']undici["']|\bBuffer\b|\brequire\(/);
  });
});
