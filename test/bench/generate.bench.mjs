#!/usr/bin/env node
// Benchmark of `fmgen generate` (`npm run bench:generate`, which builds first). Not a test: it measures and
// reports, and exits 1 only when a budget is missed or an output is wrong.
//
// 1. Generation: writes 500 layout descriptions of 60 fields each (every field type, repetitions, value lists,
//    one portal in five layouts) into a temp dir, then runs `node dist/cli/bin.js generate --layouts <dir>
//    --out <dir>` in its own process, three times, and reports the wall time of each (process start, module
//    loading, reading and validating 500 files, planning, emitting, printing, formatting and writing 503
//    files: the layouts', the database's, index.ts and schemas.ts). Budget: 5 s. It also times `generate()` in this process, stage by stage.
//    Then the same with 200 table descriptions of 60 fields beside the layouts (`--tables <dir>`: OData table
//    modules, each related to the next, one in ten named as a layout so that it yields), 703 files, same budget;
//    the two side by side.
// 2. Type-checking: generates one layout of 1,000 fields, writes it beside a usage file (get, create, edit,
//    find, sort, upload) and type-checks both with the TypeScript compiler API against the built runtime's
//    declarations (packages/runtime/dist), as an app would. Budget: 3 s. The program must have no diagnostics.
//
// Results go to stdout and to test/bench/results/generate.md.

import { execFile } from "node:child_process";
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { benchDescription, machineTable } from "./support.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const RESULTS_FILE = join(ROOT, "test/bench/results/generate.md");
const LAYOUTS = 500;
const TABLES = 200;
const FIELDS = 60;
const HUGE_FIELDS = 1000;
const GENERATE_BUDGET_MS = 5000;
const TYPECHECK_BUDGET_MS = 3000;
const RUNS = 3;

const { generate, emitFiles, formatPrinted, needsPrettier } = await import(join(ROOT, "dist/generate/index.js"));
const { parseLayoutDescription } = await import(join(ROOT, "dist/layout/index.js"));
const { parseTableDescription } = await import(join(ROOT, "dist/table/index.js"));

/**
 * Table description `i` of `count`: every field type, notNull, auto-enter, read-only calculations, globals, lengths,
 * repetitions, FileMaker ids and descriptions; a relation to the next table. One in ten is named as layout `i` is
 * ("Bench Layout i"), so that its module yields (`BenchLayout0Table`).
 */
function benchTable(i, count, fieldCount) {
  const types = ["text", "number", "date", "time", "timestamp", "container"];
  const tableId = 1_065_000 + i;
  const fields = Array.from({ length: fieldCount }, (_, j) => {
    const type = types[j % types.length];
    const field = { name: j % 3 === 0 ? `Field ${j}` : `field_${j}`, type, id: `FMFID:${(j + 1) * 2 ** 32 + tableId}` };
    if (j === 0) Object.assign(field, { type: "number", readOnly: true, notNull: true, autoEnter: "serial" });
    else if (j % 11 === 5 && type !== "container") field.readOnly = true;
    else if (j % 7 === 1 && type !== "container") field.notNull = true;
    if (type === "text" && j % 8 === 2) field.maxLength = 100;
    if (j % 10 === 7 && type !== "container") field.repetitions = 3;
    if (j % 13 === 4 && type === "text") {
      delete field.readOnly;
      field.global = true;
    }
    if (j % 9 === 1) field.description = `Field ${j} of table ${i}.`;
    return field;
  });
  const table = (k) => (k % 10 === 0 ? `Bench Layout ${k}` : `Table${k}`);
  return { database: "Bench", table: table(i), id: `FMTID:${tableId}`, key: "Field 0", fields, relations: [{ name: "Next", table: table((i + 1) % count), many: true }] };
}
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
    await promisify(execFile)(process.execPath, [join(ROOT, "dist/cli/bin.js"), "generate", "--schemas", "--layouts", layoutsDir, "--out", out]);
    walls.push(performance.now() - started);
    const written = await readdir(out);
    // A module per layout, one for their database ("Bench"), the index and schemas.ts (--schemas: the same work as
    // before schemas.ts became optional, so the figures stay comparable).
    if (written.length !== LAYOUTS + 3) throw new Error(`expected ${LAYOUTS + 3} files, got ${written.length}`);
  }

  // In-process, stage by stage (the loaded descriptions are reused).
  const loaded = descriptions.map((d, i) => parseLayoutDescription(d, `bench-${i}.layout.json`));
  await generate(loaded.slice(0, 5)); // warm up: template, module loading
  let t = performance.now();
  const printed = emitFiles(loaded, { schemas: true }).map((file) => file.printed);
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
    `\`fmgen generate --layouts <dir> --out <dir>\` in its own process, ${RUNS} runs into empty folders; ${LAYOUTS + 3} files, ${(bytes / 2 ** 20).toFixed(1)} MiB.`,
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

  // ------------------------------------------------------------------ 1b. generation with tables beside the layouts
  const tablesDir = join(dir, "tables");
  await mkdir(tablesDir);
  const tableDescriptions = Array.from({ length: TABLES }, (_, i) => benchTable(i, TABLES, FIELDS));
  await Promise.all(tableDescriptions.map((d, i) => writeFile(join(tablesDir, `bench-${i}.table.json`), JSON.stringify(d))));
  const tableWalls = [];
  for (let run = 0; run < RUNS; run++) {
    const out = join(dir, `out-tables-${run}`);
    const started = performance.now();
    await promisify(execFile)(process.execPath, [join(ROOT, "dist/cli/bin.js"), "generate", "--schemas", "--layouts", layoutsDir, "--tables", tablesDir, "--out", out]);
    tableWalls.push(performance.now() - started);
    const written = await readdir(out);
    if (written.length !== LAYOUTS + TABLES + 3) throw new Error(`expected ${LAYOUTS + TABLES + 3} files, got ${written.length}`);
    if (written.filter((f) => f.endsWith(".table.ts")).length !== TABLES) throw new Error(`expected ${TABLES} table modules`);
  }
  const loadedTables = tableDescriptions.map((d, i) => parseTableDescription(d, `bench-${i}.table.json`));
  t = performance.now();
  const printedWithTables = emitFiles(loaded, { tables: loadedTables });
  const tablePlanEmitMs = performance.now() - t;
  const tableFiles = printedWithTables.filter((f) => f.path.endsWith(".table.ts")).map((f) => f.printed);
  t = performance.now();
  const formattedTables = await Promise.all(tableFiles.map(formatPrinted));
  const tableFormatMs = performance.now() - t;
  const tableStatements = tableFiles.flatMap((file) => file.statements);
  const tableBytes = formattedTables.reduce((n, text) => n + Buffer.byteLength(text), 0);
  const bestTables = Math.min(...tableWalls);
  const tablesOk = bestTables < GENERATE_BUDGET_MS;
  failed ||= !tablesOk;
  lines.push(
    `## Generation: ${LAYOUTS} layouts and ${TABLES} tables x ${FIELDS} fields`,
    "",
    `\`fmgen generate --layouts <dir> --tables <dir> --out <dir>\`, ${RUNS} runs into empty folders; ${LAYOUTS + TABLES + 3} files (the ${TABLES} table modules ${(tableBytes / 2 ** 20).toFixed(1)} MiB), beside the layouts-only runs above.`,
    "",
    `| run | layouts only (${LAYOUTS + 3} files) wall ms | layouts + tables (${LAYOUTS + TABLES + 3} files) wall ms |`,
    "|---|---|---|",
    ...tableWalls.map((ms, i) => `| ${i + 1} | ${walls[i].toFixed(0)} | ${ms.toFixed(0)} |`),
    "",
    `Budget ${GENERATE_BUDGET_MS} ms: ${tablesOk ? "met" : "MISSED"} (best ${bestTables.toFixed(0)} ms).`,
    "",
    "In-process, the same descriptions (already loaded):",
    "",
    "| stage | ms |",
    "|---|---|",
    `| plan + emit, ${LAYOUTS} layouts and ${TABLES} tables | ${tablePlanEmitMs.toFixed(0)} |`,
    `| format the ${TABLES} table modules (prettier ran on ${tableStatements.filter((s) => needsPrettier(s.text)).length} of ${tableStatements.length} statements) | ${tableFormatMs.toFixed(0)} |`,
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

  // ------------------------------------------------------------------ 3. type-checking a 1,000-field table
  const odataApp = join(dir, "odata-app");
  await mkdir(join(odataApp, "generated"), { recursive: true });
  const hugeTable = parseTableDescription({ ...benchTable(1, 1, HUGE_FIELDS), table: "Huge", relations: [{ name: "Self", table: "Huge", many: false }] }, "huge.table.json");
  for (const file of await generate([], { tables: [hugeTable] })) await writeFile(join(odataApp, "generated", file.path), file.contents);
  const odataUsage = `import { f, type ODataClient } from "@fmgen/runtime/odata";
import { Huge, type HugeInsert, type HugeUpdate } from "./generated/index.js";

declare const od: ODataClient<"Bench">;
const huge = od.table(Huge);

export async function use(blob: Blob): Promise<string> {
  const rows = await huge.list({ select: ["Field 6", "field_1"], filter: f.and(f.eq("Field 6", "x"), f.gt("field_1", 2)), orderBy: [["field_998", "desc"]], top: 10 });
  const name: string = rows.value[0]!["Field 6"];
  const one = await huge.get(1, { expand: { Self: { select: ["field_2"] } } });
  const date: string | null | undefined = one.Self?.field_2;
  const insert: HugeInsert = { field_1: 1, field_8: "x" } as HugeInsert;
  const created = await huge.create(insert);
  const update: HugeUpdate = { field_2: "2024-01-02", field_997: [1, undefined, 3] };
  await huge.update(1, update);
  await huge.upload(1, "field_5", blob);
  // @ts-expect-error: not a field of the table
  await huge.list({ select: ["Nope"] });
  return \`\${name} \${date} \${created["Field 6"]}\`;
}
`;
  await writeFile(join(odataApp, "usage.ts"), odataUsage);
  await writeFile(join(odataApp, "package.json"), JSON.stringify({ type: "module" }));
  const odataOptions = { ...options, paths: { "@fmgen/runtime/odata": [join(ROOT, "packages/runtime/dist/odata/index.d.ts")] } };
  t = performance.now();
  const odataProgram = ts.createProgram([join(odataApp, "usage.ts")], odataOptions);
  const odataDiagnostics = ts.getPreEmitDiagnostics(odataProgram);
  const odataCheckMs = performance.now() - t;
  const odataOk = odataCheckMs < TYPECHECK_BUDGET_MS && odataDiagnostics.length === 0;
  failed ||= !odataOk;
  const tableLines = (await import("node:fs")).readFileSync(join(odataApp, "generated", "huge.table.ts"), "utf8").split("\n").length;
  lines.push(
    `## Type-checking one ${HUGE_FIELDS}-field table and a usage file`,
    "",
    `The same compiler options over an OData usage file (list with select, filter and orderBy, get with expand, create, update, upload), the generated table module (${tableLines} lines) and \`@fmgen/runtime/odata\`'s declarations in dist/.`,
    "",
    "| what | value |",
    "|---|---|",
    `| type-check wall ms | ${odataCheckMs.toFixed(0)} |`,
    `| diagnostics | ${odataDiagnostics.length} |`,
    "",
    `Budget ${TYPECHECK_BUDGET_MS} ms with no diagnostics: ${odataOk ? "met" : "MISSED"}.`,
    ...odataDiagnostics.map((d) => `- ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`),
    "",
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}

// Earlier figures, kept by hand under "## History" in the results file, are carried over to compare with.
const previous = await readFile(RESULTS_FILE, "utf8").catch(() => "");
const history = previous.includes("\n## History") ? previous.slice(previous.indexOf("\n## History") + 1).trimEnd() : "";
const report = ["# fmgen generate benchmark", "", `Run ${new Date().toISOString()} with \`npm run bench:generate\` (test/bench/generate.bench.mjs).`, "", ...machine, "", ...lines, ...(history ? [history, ""] : [])].join("\n");
console.log(report);
await writeFile(RESULTS_FILE, report);
process.exitCode = failed ? 1 : 0;
