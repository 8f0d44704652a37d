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
// (protocol-errors.ts): 1,873 B. Then what most apps never call left the entries, loaded on first use (a dynamic
// import, which this script counts apart, per module): the client-level calls (-680 B), upload (-607 B) and portal
// writes (-159 B); a second size pass took 134 B back: node 12,846 B, fetch 12,870 B, budgets 13,250 B (about 3 %).
// The 11,700 B that issue 15 asked to hold is not held: its scripts, portals, response layouts, entry modes, date
// formats, sign-ins and token stores are options of the calls and the client every app makes.
// Issue 21 (hardening round 3) raised node and fetch from 12,848 / 12,872 B, each fix measured on
// its own branch: a token store's key proves the credential (PBKDF2 over WebCrypto) and a failing store never loses a
// token +195 B; script calls never re-sent, paging that must move forward, "." and ".." refused in every path segment,
// credentials refused in the server URL +360 B; redaction only where secrets appear, never inside other words +133 B;
// a store refused by name where WebCrypto is missing +76 B: node 13,627 B, fetch 13,644 B.
// Budgets re-set to 13,950 B (about 3 %); metadata (1,941 B: record ids and path segments checked) to 2,000 B,
// layout-list (486 B: folders walked without recursion) to 500 B, database-calls (1,121 B: runScript refuses a layout
// of another database) to 1,160 B. Container downloads (issue 22: `download` on the layout client and the client, the
// module itself loaded on first use) +90 B: node 13,717 B, fetch 13,721 B, budgets 14,150 B (about 3 %).
// Issue 24: the Data API's transports now send through the carriers OData's client uses (one copy of the bounded undici
// dispatch and of the bounded fetch read, where there were two), which lower-case and join headers for both: node
// 13,752 -> 14,018 B, fetch 13,756 -> 13,938 B, within the budgets.
// Issue 31 (classes 3-5), each fix measured in turn on the node / fetch entries: redaction by an indexOf scan of each
// secret's forms (one regular expression of them all threw on a secret of 32 K characters) +135 / +133 B; a token
// that cannot be sent (or refused 431) replaced by one login, sendable-token.ts shared with OData +142 / +150 B; one
// paging loop for both APIs (page-stream.ts, which took the Data API's stream and its check) +120 / +118 B:
// node 14,017 -> 14,414 B, fetch 13,952 -> 14,353 B, budgets re-set to 14,850 B (about 3 %).
// The runtime split into core/, data-api/ and odata/ (the entries unchanged, 0 B); FileMakerError over the error base
// both APIs share (core/server-error.ts) +12 / +15 B: node 14,426 B, fetch 14,368 B.
// Issue 33 item 5: createClient checks its options by name (core/options-check.ts: the entry, the option, what it wants,
// the type it got, the hint at an unset environment variable), where a forgotten --env-file threw a TypeError from
// inside: +392 / +400 B: node 14,820 B, fetch 14,768 B, budgets re-set to 15,260 B (about 3 %).
// Issue 35 (numbers, exactly): envelopes read by parseJson, exact fields' codecs and write checks, decimal text
// (core/json-numbers.ts, core/decimal-text.ts, about 1,600 B of it): node 14,831 -> 16,573 B, fetch 14,780 -> 16,506 B,
// budgets re-set to 17,070 / 17,000 B (about 3 %); schema (exact fields checked as decimal text) 1,371 -> 2,310 B,
// budget 2,380 B; webviewer 16,200 -> 17,951 B, budget 18,490 B.
const ENTRIES = [
  // What `import "@fmgen/runtime"` loads on Node: the undici transport.
// Issue 35 at merge: Infinity refused with why, long tokens restored by a walk rather than a reviver, the key made on
// first use (workerd refuses random values at load): node 17,076 B, fetch 17,022 B, schema 2,412 B, webviewer 18,463 B,
// odata 15,819 / 15,741 B; budgets re-set about 3 % above. Before issue 35 node was 14,831 B: the 2,245 B it added are
// the two core modules (decimal-text.ts, json-numbers.ts, about 1,600 B) and the exact codecs and checks.
  { name: "node (index.ts)", file: "../src/runtime/index.ts", platform: "node", budget: 17_590 },
  // What Workers, Deno, Bun and browsers load: the fetch transport, no node: module.
  { name: "fetch (fetch.ts)", file: "../src/runtime/fetch.ts", platform: "neutral", budget: 17_530 },
  // What `<Name>Schema` exports load, on Node (zod itself excluded).
  { name: "schema (schema-node.ts)", file: "../src/runtime/schema-node.ts", platform: "node", budget: 2_480 },
  // What fmgen pull loads for layout metadata and undecoded records; and, since `$metadata` is read over the OData
  // client's carrier (odataMetadata: the answer whatever its status, its body as UTF-8 text), for tables: 1,981 ->
  // 2,142 B, budget re-set to 2,210 B (about 3 %). Issue 33 item 5: layoutMetadata, wireRecords and odataMetadata check
  // their layout, options, signal, offset and limit by name (core/call-options.ts) +181 B: 2,323 B, budget 2,390 B.
  { name: "metadata (metadata.ts)", file: "../src/runtime/metadata.ts", platform: "neutral", budget: 2_390 },
  // What `@fmgen/runtime/file-token-store` loads (Node only; no entry imports it): 726 B when set (issue 15), +5 %.
  // Issue 21 items 3-4 (a lock with bounded waits and an ownership-checked takeover; the file, the lock and the folder
  // checked before use, refused with the path and the reason) took it from 726 B to 2,220 B: budget 2,330 B (+5 %).
  // Issue 33 item 5: its options checked by name +67 B: 2,322 B, budget 2,440 B (+5 %).
  { name: "file-token-store (file-token-store.ts)", file: "../src/runtime/file-token-store.ts", platform: "node", budget: 2_440 },
  // What `@fmgen/runtime/redis-token-store` loads (any runtime: no node: module, no Redis client; no entry imports it):
  // 975 B when set (issue 22: timeouts, onError, both clients' PX), +5 %.
  // Issue 33 item 5: its options checked by name +29 B: 1,008 B, budget 1,060 B (+5 %).
  { name: "redis-token-store (redis-token-store.ts)", file: "../src/runtime/redis-token-store.ts", platform: "neutral", budget: 1_060 },
  // What `import "@fmgen/runtime/odata"` loads on Node (the undici carrier) and elsewhere (the fetch carrier): issue 24's
  // core (the caller, sign-ins, bounds and retries, errors, value codecs, the table calls, f and defineTable), before the
  // batch, script, schema, webhook and container calls are wired in: 10,886 B node, 10,424 B fetch; the
  // plain-http warning (insecure, moved out of the Data API client to be shared) +321 B: 11,207 B node, 10,748 B fetch,
  // budgets +3 %. Wiring those calls in (deferred-calls.ts: the members that load each module on first use, the modules
  // themselves budgeted in DEFERRED; and BatchReadBackError, exported) +269 / +281 B: 11,476 B node, 11,029 B fetch,
  // budgets re-set to 11,820 / 11,360 B (about 3 %). Then f's hardening (issue 24 item 4: numbers as plain digits,
  // calendar-checked dates and times, lone surrogates and unbalanced f.raw refused by name, field ids checked; filter.ts
  // alone 1,289 -> 2,430 B) and one pair of carriers shared with the Data API's transports (their streamed `open`, for
  // container downloads, now loaded on first use: open-answer.ts): 12,224 B node, 12,115 B fetch. Item 6 (the speed
  // targets), each fix measured alone: Accept with odata.metadata=none +19 / +20 B; decodeRow's per-table Map of members
  // and the date, time and timestamp checks by character codes +443 / +436 B (a 100-row page decoded in ~160 µs instead
  // of ~245 µs); the batch reader's slices 0 B on the entries (+4 B on odata/batch.ts): 12,671 B node, 12,581 B fetch; one drain of a stream shared with the Data API -27 / -23 B: 12,644 B node, 12,558 B fetch; the
  // "not available in this build" stand-ins of the parallel build removed (every entry wires every call) -142 / -144 B:
  // 12,502 B node, 12,414 B fetch,
  // budgets +3 %. Issue 31, each fix measured in turn (node / fetch): redaction that never throws +116 / +126 B; the
  // Claris token checked by sendable-token.ts +34 / +27 B; list and related one page, all() through the Data API's
  // paging loop and its checks (page-stream.ts, $count on each page) +245 / +246 B: 12,547 -> 12,942 B node,
  // 12,452 -> 12,851 B fetch, budgets re-set to 13,330 / 13,240 B (about 3 %).
// ODataError over the error base shared with the Data API (core/server-error.ts) +20 / +24 B: 12,959 B node, 12,872 B fetch.
// The caller's `send` (an answer whatever its status) and each client's caller kept for @fmgen/runtime/metadata's
// odataMetadata (odata/client-callers.ts) +52 / +50 B: 13,011 B node, 12,922 B fetch.
// Issue 33 item 5: createODataClient checks its options by name (core/options-check.ts, shared with createClient)
// +287 / +296 B: 13,298 B node, 13,218 B fetch, budgets re-set to 13,700 / 13,610 B (about 3 %).
// Issue 35, exact numbers: answers read by core/json-numbers.ts (long tokens kept) and exact fields by core/decimal-text.ts (~1,450 B of the two), the codecs, filters and keys of exact fields: 13,326 -> 15,307 B node, 13,247 -> 15,227 B fetch, budgets re-set to 15,770 / 15,680 B (about 3 %).
  // What `@fmgen/runtime/webviewer` loads in a Web Viewer's page: the Data API client over the bridge to
  // window.FileMaker (data-api/step-request.ts, webviewer/bridge.ts); no undici, no node: module, no OData code (its
  // bundle's inputs say so). 16,180 B when set (issue 34), the fetch entry's client plus the step's request mapping
  // and the bridge, less the fetch carrier: budget +5 %. Its download.ts loads the call bounds and answer helpers the
  // fetch carrier would have loaded: 2,279 B when set, its own budget +5 %.
  { name: "webviewer (webviewer.ts)", file: "../src/runtime/webviewer.ts", platform: "browser", budget: 19_020, deferred: { "data-api/download.ts": 2_400 } },
  { name: "odata node (odata/index.ts)", file: "../src/runtime/odata/index.ts", platform: "node", budget: 16_290 },
  { name: "odata fetch (odata/fetch.ts)", file: "../src/runtime/odata/fetch.ts", platform: "neutral", budget: 16_210 },
];

// What the entries load on first use (a dynamic import), each bundled alone: the size when set, plus about 5 %.
const DEFERRED = {
  // fm.layouts() and fm.scripts(): 468 B when set; 486 B with folders walked without recursion (issue 21).
  "data-api/layout-list.ts": 500,
  // fm.runScript, setGlobals, productInfo and databases: 1,083 B when set; 1,121 B with issue 21's checks.
  "data-api/database-calls.ts": 1_160,
  // layout.upload (the multipart body): 993 B when set.
  "data-api/upload.ts": 1_040,
  // create and edit with portalData or deleteRelated: 488 B when set.
  "data-api/portal-writes.ts": 510,
  // layout.download and fm.download (the cookie exchange, the bounded body): 2,119 B when set (issue 22), +3 %. It took node 13,627 -> 13,717 B and fetch 13,644 -> 13,721 B (the transports expose their fetch and settings; the two calls).
  "data-api/download.ts": 2_180,
  // A carrier's `open` (an answer's body as a stream: OData's container downloads; the Data API's go through the
  // transport's fetch): 1,191 B when set (issue 24, when the Data API's transports came to share OData's carriers), +5 %.
  "core/open-answer.ts": 1_250,
  // @fmgen/runtime/odata's calls most apps never make (issue 24; src/runtime/odata/deferred-calls.ts), measured on the
  // odata entries: od.batch (the multipart writer and reader, the read back of new rows, the step errors): 3,643 B when set;
  // 3,750 B before the 100-step changeset's speed work, 4,031 B after it (+281 B: a part's headers read on first use,
  // one UTF-8 decode for an ASCII answer, Content-Lengths counted without encoding, one random draw per batch), which
  // took the framing of a 100-step changeset from ~193 to ~84 us (writing 74 -> 34 us, reading 119 -> 50 us).
  // Issue 35: exact values' part Content-Type, the read back asking for Edm.Decimal strings: 4,142 -> 4,261 B, +3 %.
  "odata/batch.ts": 4_390,
  // od.runScript: 823 B when set.
  "odata/scripts.ts": 865,
  // od.schema.* (DDL): 1,042 B when set; 1,110 B once names with a slash (or "." / "..") are refused: budget +5 %.
  "odata/schema.ts": 1_165,
  // od.webhooks.*: 1,670 B when set. Issue 35: an invoked payload's long numbers as their text, 1,682 -> 1,756 B, +3 %.
  "odata/webhooks.ts": 1_810,
  // table.upload and table.download (the media sniffing, Content-Disposition both ways, the streamed body): 1,676 B when set; 1,766 B once a container named with a slash goes by its FMFID: budget +5 %.
  "odata/containers.ts": 1_855,
};

/**
 * Marks external every dynamic import (recording it in `found`: what an entry loads on first use is not what its import
 * loads) and every module in `loaded` (what the entry has loaded already, when measuring what a first use adds).
 */
function leaveOut(found, loaded) {
  return {
    name: "leave-out",
    setup(build) {
      build.onResolve({ filter: /^\./ }, (args) => {
        const path = new URL(args.path.replace(/\.js$/, ".ts"), `file://${args.resolveDir}/`).pathname;
        if (args.kind === "dynamic-import") found.add(path);
        else if (!loaded.has(path)) return undefined;
        return { path: args.path, external: true };
      });
    },
  };
}

async function measure(file, platform, loaded = new Set()) {
  const deferred = new Set();
  const result = await build({
    entryPoints: [file],
    bundle: true,
    minify: true,
    format: "esm",
    platform,
    target: "es2022",
    external: ["undici", "zod", "node:*"],
    write: false,
    metafile: true,
    logLevel: "silent",
    plugins: [leaveOut(deferred, loaded)],
  });
  const code = result.outputFiles[0].contents;
  const inputs = Object.keys(result.metafile.inputs).filter((p) => !p.includes("node_modules"));
  return { minified: code.byteLength, gzipped: gzipSync(code, { level: 9 }).byteLength, files: inputs.length, inputs: new Set(inputs.map((p) => new URL(p, root).pathname)), deferred };
}

const root = new URL("..", import.meta.url);
let over = false;
const report = (name, size, budget) => {
  const headroom = budget - size.gzipped;
  console.log(`${name}: ${size.files} files, ${size.minified} B minified, ${size.gzipped} B gzipped (budget ${budget} B, headroom ${headroom} B)`);
  if (headroom < 0) {
    console.error(`${name} is over budget by ${-headroom} B`);
    over = true;
  }
};
for (const entry of ENTRIES) {
  const size = await measure(new URL(entry.file, import.meta.url).pathname, entry.platform);
  report(entry.name, size, entry.budget);
  // What each first use adds: the module and what it imports that the entry has not loaded.
  for (const path of size.deferred) {
    const name = path.slice(path.lastIndexOf("/src/runtime/") + "/src/runtime/".length);
    const budget = entry.deferred?.[name] ?? DEFERRED[name];
    if (budget === undefined) {
      console.error(`${name} is loaded on first use but has no budget in DEFERRED`);
      over = true;
    } else report(`  + on first use: ${name}`, await measure(path, entry.platform, size.inputs), budget);
  }
}
if (over) process.exitCode = 1;
