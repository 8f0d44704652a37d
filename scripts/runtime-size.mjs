// Reports the size of fmgen/runtime's own code, bundled, minified and gzipped, with undici, zod and Node's
// built-ins left out (they are dependencies, not our code). Exits 1 over budget.
import { build } from "esbuild";
import { gzipSync } from "node:zlib";

// 10,240 B until the runtime hardening (criteria branding, own-key names, linear numeric scanner, answer size
// bound, answer shape checks, secret redaction) took it from 10,235 B to 11,442 B; ~300 B of headroom above that.
const BUDGET = 11_740;
const result = await build({
  entryPoints: [new URL("../src/runtime/index.ts", import.meta.url).pathname],
  bundle: true,
  minify: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: ["undici", "zod", "node:*"],
  write: false,
  metafile: true,
});
const code = result.outputFiles[0].contents;
const gzipped = gzipSync(code, { level: 9 }).byteLength;
const inputs = Object.keys(result.metafile.inputs).filter((p) => !p.includes("node_modules"));
console.log(`runtime: ${inputs.length} files, ${code.byteLength} B minified, ${gzipped} B gzipped (budget ${BUDGET} B)`);
if (gzipped > BUDGET) {
  console.error(`over budget by ${gzipped - BUDGET} B`);
  process.exitCode = 1;
}
