// Reports the size of @fmgen/runtime's own code per entry, bundled, minified and gzipped, with undici, zod and
// Node's built-ins left out (they are dependencies or the platform, not our code). Exits 1 when an entry is over
// its budget.
import { build } from "esbuild";
import { gzipSync } from "node:zlib";

// Each budget is the entry's size when it was set plus about 3 % headroom, so that a change that grows the
// runtime says so in its commit (by raising the budget) rather than passing unnoticed.
// History: one entry, 10,240 B until the runtime hardening took it to 11,442 B (budget 11,740 B). Split per entry
// with the fetch transport (issue 14), and re-set once the metadata reader left the app's entries for its own:
// node 11,322 B, fetch 11,364 B, schema 1,379 B (the schema builder and the codecs its ISO checks use), metadata
// 1,886 B. Issue 15 (the whole Data API) raised node and fetch, each feature measured alone on the node entry: sign-ins
// and token stores +564 B, scripts on calls, duplicate and entry modes +681 B, portals and response layouts +933 B,
// dateFormat +255 B, client-level calls (runScript, setGlobals, productInfo, databases, scripts and folders) +752 B;
// a size pass then took 422 B back and error names that survive minification cost 101 B: node 14,400 B, fetch
// 14,425 B, budgets re-set to 14,800 B (headroom about 2.7 %). Metadata no longer carries FileMaker's error classes
// (protocol-errors.ts): 1,873 B.
const ENTRIES = [
  // What `import "@fmgen/runtime"` loads on Node: the undici transport.
  { name: "node (index.ts)", file: "../src/runtime/index.ts", platform: "node", budget: 14_800 },
  // What Workers, Deno, Bun and browsers load: the fetch transport, no node: module.
  { name: "fetch (fetch.ts)", file: "../src/runtime/fetch.ts", platform: "neutral", budget: 14_800 },
  // What `<Name>Schema` exports load, on Node (zod itself excluded).
  { name: "schema (schema-node.ts)", file: "../src/runtime/schema-node.ts", platform: "node", budget: 1_450 },
  // What fmgen pull loads for layout metadata and undecoded records.
  { name: "metadata (metadata.ts)", file: "../src/runtime/metadata.ts", platform: "neutral", budget: 1_950 },
  // What `@fmgen/runtime/file-token-store` loads (Node only; no entry imports it): 726 B when set (issue 15), +5 %.
  { name: "file-token-store (file-token-store.ts)", file: "../src/runtime/file-token-store.ts", platform: "node", budget: 760 },
];

let over = false;
for (const entry of ENTRIES) {
  const result = await build({
    entryPoints: [new URL(entry.file, import.meta.url).pathname],
    bundle: true,
    minify: true,
    format: "esm",
    platform: entry.platform,
    target: "es2022",
    external: ["undici", "zod", "node:*"],
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const code = result.outputFiles[0].contents;
  const gzipped = gzipSync(code, { level: 9 }).byteLength;
  const inputs = Object.keys(result.metafile.inputs).filter((p) => !p.includes("node_modules"));
  const headroom = entry.budget - gzipped;
  console.log(`${entry.name}: ${inputs.length} files, ${code.byteLength} B minified, ${gzipped} B gzipped (budget ${entry.budget} B, headroom ${headroom} B)`);
  if (headroom < 0) {
    console.error(`${entry.name} is over budget by ${-headroom} B`);
    over = true;
  }
}
if (over) process.exitCode = 1;
