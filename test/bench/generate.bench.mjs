#!/usr/bin/env node
// Benchmark of `fmgen generate` (`npm run bench:generate`, which builds first). Not a test: it measures and
// reports, and exits 1 only when a budget is missed or an output is wrong.
//
// 1. Generation: writes 500 layout descriptions of 60 fields each (every field type, repetitions, value lists,
//    one portal in five layouts) into a temp dir, then runs `node dist/cli/bin.js generate --layouts <dir>
//    --out <dir>` in its own process, three times, and reports the wall time of each (process start, module
//    loading, reading and validating 500 files, planning, emitting, printing, formatting and writing 502
//    files). Budget: 5 s. It also times `generate()` in this process, stage by stage.
// 2. Type-checking: generates one layout of 1,000 fields, writes it beside a usage file (get, create, edit,
//    find, sort, upload) and type-checks both with the TypeScript compiler API against the built runtime's
//    declarations (packages/runtime/dist), as an app would. Budget: 3 s. The program must have no diagnostics.
//
// Results go to stdout and to test/bench/results/generate.md.

import { execFile } from "node:child_process";
import { mkdtemp, mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { benchDescription, machineTable } from "./support.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const RESULTS_FILE = join(ROOT, "test/bench/results/generate.md");
const LAYOUTS = 500;
const FIELDS = 60;
const HUGE_FIELDS = 1000;
const GENERATE_BUDGET_MS = 5000;
const TYPECHECK_BUDGET_MS = 3000;
const RUNS = 3;

const { generate, emitFiles, formatPrinted, needsPrettier } = await import(join(ROOT, "dist/generate/index.js"));
const { parseLayoutDescription } = await import(join(ROOT, "dist/layout/index.js"));
const ts = (await import("typescript")).default;

const machine = machineTable();

const dir = await mkdtemp(join(tmpdir(), "fmgen-bench-"));
const lines = [];
let failed = false;
try {
  // ------------------------------------------------------------------ 1. generation
  const layoutsDir = join(dir, "layouts");
  await mkdir(layoutsDir);
  const descriptions = Array.from({ length: LAYOUTS }, (_, i) => benchDescription(i, FIELDS));
  await Promise.all(descriptions.map((d, i) => writeFile(join(layoutsDir, `bench-${i}.layout.json`), JSON.stringify(d))));

  const walls = [];
  for (let run = 0; run < RUNS; run++) {
    const out = join(dir, `out-${run}`);
    const started = performance.now();
    await promisify(execFile)(process.execPath, [join(ROOT, "dist/cli/bin.js"), "generate", "--layouts", layoutsDir, "--out", out]);
    walls.push(performance.now() - started);
    const written = await readdir(out);
    // A module per layout, one for their database ("Bench") and the index.
    if (written.length !== LAYOUTS + 2) throw new Error(`expected ${LAYOUTS + 2} files, got ${written.length}`);
  }

  // In-process, stage by stage (the loaded descriptions are reused).
  const loaded = descriptions.map((d, i) => parseLayoutDescription(d, `bench-${i}.layout.json`));
  await generate(loaded.slice(0, 5)); // warm up: template, module loading
  let t = performance.now();
  const printed = emitFiles(loaded).map((file) => file.printed);
  const planEmitMs = performance.now() - t;
  t = performance.now();
  const formatted = await Promise.all(printed.map(formatPrinted));
  const formatMs = performance.now() - t;
  const statements = printed.flatMap((file) => file.statements);
  const prettierStatements = statements.filter((s) => needsPrettier(s.text)).length;
  const bytes = formatted.reduce((n, text) => n + Buffer.byteLength(text), 0);

  const best = Math.min(...walls);
  const generateOk = best < GENERATE_BUDGET_MS;
  failed ||= !generateOk;
  lines.push(
    `## Generation: ${LAYOUTS} layouts x ${FIELDS} fields`,
    "",
    `\`fmgen generate --layouts <dir> --out <dir>\` in its own process, ${RUNS} runs into empty folders; ${LAYOUTS + 2} files, ${(bytes / 2 ** 20).toFixed(1)} MiB.`,
    "",
    "| run | wall ms |",
    "|---|---|",
    ...walls.map((ms, i) => `| ${i + 1} | ${ms.toFixed(0)} |`),
    "",
    `Budget ${GENERATE_BUDGET_MS} ms: ${generateOk ? "met" : "MISSED"} (best ${best.toFixed(0)} ms).`,
    "",
    "In-process stages over the same descriptions (already loaded):",
    "",
    "| stage | ms |",
    "|---|---|",
    `| plan + emit (statements printed in prettier's layout) | ${planEmitMs.toFixed(0)} |`,
    `| format (prettier ran on ${prettierStatements} of ${statements.length} statements) | ${formatMs.toFixed(0)} |`,
    "",
  );

  // ------------------------------------------------------------------ 2. type-checking a 1,000-field layout
  const app = join(dir, "app");
  await mkdir(join(app, "generated"), { recursive: true });
  const huge = parseLayoutDescription({ ...benchDescription(0, HUGE_FIELDS), layout: "Huge", name: "Huge", portals: benchDescription(0, 0).portals }, "huge.layout.json");
  for (const file of await generate([huge])) await writeFile(join(app, "generated", file.path), file.contents);
  const usage = `import { createClient } from "@fmgen/runtime";
import { Huge, type HugeInput, type HugeQuery, type HugeSort } from "./generated/index.js";

const fm = createClient({ server: "https://fms.example.com", database: "Bench", auth: { username: "u", password: "p" } });
const huge = fm.layout(Huge);

export async function use(blob: Blob): Promise<string> {
  const record = await huge.get(1);
  const name: string = record.fieldData["Field 6"];
  const amount: number | null = record.fieldData["field_1"];
  const input: HugeInput = { "Field 6": "x", field_1: 2, "Field 999": null, field_997: [1, undefined, 3] };
  const { recordId } = await huge.create({ fieldData: input, portalData: { Lines: [{ "Lines::Amount": 1 }] } });
  await huge.edit(recordId, { fieldData: { field_2: "2024-01-02" }, modId: record.modId });
  const query: HugeQuery = { "Field 6": "x", omit: false };
  const sort: HugeSort[] = [{ fieldName: "field_998", sortOrder: "descend" }];
  const found = await huge.find({ query: [query, { field_4: "12:00:00" }], sort, limit: 10 });
  await huge.upload(recordId, "field_5", blob);
  // @ts-expect-error: not a field of the layout
  await huge.create({ fieldData: { Nope: 1 } });
  return \`\${name} \${amount} \${found.dataInfo.foundCount}\`;
}
`;
  await writeFile(join(app, "usage.ts"), usage);
  const options = {
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
    paths: { "@fmgen/runtime": [join(ROOT, "packages/runtime/dist/index.d.ts")], "@fmgen/runtime/schema": [join(ROOT, "packages/runtime/dist/schema.d.ts")] },
  };
  await writeFile(join(app, "package.json"), JSON.stringify({ type: "module" }));
  t = performance.now();
  const program = ts.createProgram([join(app, "usage.ts")], options);
  const diagnostics = ts.getPreEmitDiagnostics(program);
  const typecheckMs = performance.now() - t;
  const messages = diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  const checkOk = typecheckMs < TYPECHECK_BUDGET_MS && diagnostics.length === 0;
  failed ||= !checkOk;
  const moduleLines = (await import("node:fs")).readFileSync(join(app, "generated", "huge.ts"), "utf8").split("\n").length;
  lines.push(
    `## Type-checking one ${HUGE_FIELDS}-field layout and a usage file`,
    "",
    `TypeScript ${ts.version} compiler API, \`createProgram\` + \`getPreEmitDiagnostics\` (strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess, skipLibCheck) over the usage file, the generated module (${moduleLines} lines) and the runtime's declarations in dist/.`,
    "",
    "| what | value |",
    "|---|---|",
    `| type-check wall ms | ${typecheckMs.toFixed(0)} |`,
    `| diagnostics | ${diagnostics.length} |`,
    "",
    `Budget ${TYPECHECK_BUDGET_MS} ms with no diagnostics: ${checkOk ? "met" : "MISSED"}.`,
    ...messages.map((m) => `- ${m}`),
    "",
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}

const report = ["# fmgen generate benchmark", "", `Run ${new Date().toISOString()} with \`npm run bench:generate\` (test/bench/generate.bench.mjs).`, "", ...machine, "", ...lines].join("\n");
console.log(report);
await writeFile(RESULTS_FILE, report);
process.exitCode = failed ? 1 : 0;
