// What the runtime costs an app, measured the way a user gets it: the getting-started guide's install block
// (docs/getting-started.md, "Install it in your app", its first sh block) run as written, with its own folders: in the clone (this repository) `npm pack` of both packages,
// then in a fresh app the runtime's tarball and fmgen's as a devDependency (their own dependencies, such as undici,
// come from the registry). It fails when a command of the block fails, or when npm warns about a package's install
// scripts. Then:
//   - node_modules of an app with only @fmgen/runtime (the block without its devDependency install; budget < 12 MB),
//     of the app with fmgen as devDependency too, and of that app's production install (`npm ci --omit=dev`: no zod,
//     budget < 12 MB); `fmgen generate` run in that app on the contacts example's descriptions;
//   - a Cloudflare Workers bundle (esbuild, conditions workerd) of an app that imports the generated index.ts and
//     uses no schema, in the app without zod: it must build, without zod;
//   - the time `import("@fmgen/runtime")` adds to a bare `node` start (budget < 0.15 s; medians of RUNS runs,
//     interleaved with bare starts), and the RSS after it; the same with the contacts example's generated modules
//     imported too (zod must not load); and to a first answer (login + list against a stub on loopback), beside
//     Node's own fetch doing the same requests.
// Results: stdout and test/bench/results/footprint.md. Exits 1 over a budget. Needs the registry: not in `npm test`.
//   npm run footprint [-- --baseline <fmgen tarball> [--baseline-label <text>]]
// (a tarball of an older fmgen, whose runtime was `fmgen/runtime`, measured the same way beside the new packages)
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { createServer } from "node:http";
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build, transformSync } from "esbuild";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const RESULTS = join(ROOT, "test/bench/results/footprint.md");
const RUNS = Number(process.env.FOOTPRINT_RUNS ?? 21);
const NODE_MODULES_BUDGET = 12e6;
const IMPORT_BUDGET_MS = 150;
const baselineIndex = process.argv.indexOf("--baseline");
const baseline = baselineIndex > 0 ? process.argv[baselineIndex + 1] : undefined;
const labelIndex = process.argv.indexOf("--baseline-label");

const INSTALL_BLOCK_DIR = "/tmp/fmgen-packages";

/** The guide whose install block this script runs (its sh block is marked as run by this script: test/docs/commands.test.ts). */
const GUIDE = "docs/getting-started.md";

/**
 * The guide's install block: its commands in order, each with the folder it runs in ("clone" after `cd fmgen`,
 * "app" after `cd ../my-app`), comments removed.
 */
function installBlock() {
  const guide = readFileSync(join(ROOT, GUIDE), "utf8");
  const start = guide.indexOf("\n## Install it in your app\n");
  if (start < 0) throw new Error(`${GUIDE}: no "## Install it in your app" section`);
  const block = /```sh\n([\s\S]*?)```/.exec(guide.slice(start))?.[1];
  if (!block) throw new Error(`${GUIDE}: no \`\`\`sh block in "## Install it in your app"`);
  const steps = [];
  let where;
  for (const raw of block.split("\n")) {
    const line = raw.replace(/\s+#.*$/, "").trim();
    if (!line) continue;
    if (line === "cd fmgen") where = "clone";
    else if (line === "cd ../my-app") where = "app";
    else if (!where) throw new Error(`${GUIDE}, install block: "${line}" comes before "cd fmgen" or "cd ../my-app"`);
    else steps.push({ where, command: line });
  }
  if (!steps.some((s) => s.where === "clone") || !steps.some((s) => s.where === "app")) throw new Error(`${GUIDE}, install block: expected commands after \`cd fmgen\` and after \`cd ../my-app\``);
  return steps;
}

/** Runs one command of the block in `cwd` with sh, its pack folder replaced by `packages`; fails on an install-scripts warning. */
function runStep(command, cwd, packages) {
  const line = command.replaceAll(INSTALL_BLOCK_DIR, packages);
  const result = spawnSync("sh", ["-c", line], { cwd, encoding: "utf8", env: { ...process.env, npm_config_audit: "false", npm_config_fund: "false" } });
  if (result.status !== 0) throw new Error(`install block: \`${command}\` failed in ${cwd} (exit ${result.status}):\n${result.stderr}`);
  if (/install-scripts/.test(result.stderr)) throw new Error(`install block: \`${command}\` warned about install scripts:\n${result.stderr}`);
  return result.stdout;
}

const npm = (args, cwd) => execFileSync("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
const ms = (value) => `${value.toFixed(0)} ms`;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Apparent size (bytes of every file, symlinks not followed) and file count of a folder. */
function folderSize(dir) {
  let bytes = 0;
  let files = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = folderSize(path);
      bytes += inner.bytes;
      files += inner.files;
    } else {
      bytes += lstatSync(path).size;
      files++;
    }
  }
  return { bytes, files };
}

/** Each top-level package of node_modules (scopes opened) with its size, largest first. */
function packageSizes(nodeModules) {
  const out = [];
  for (const entry of readdirSync(nodeModules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
    const names = entry.name.startsWith("@") ? readdirSync(join(nodeModules, entry.name)).map((n) => `${entry.name}/${n}`) : [entry.name];
    for (const name of names) out.push({ name, ...folderSize(join(nodeModules, name)) });
  }
  return out.sort((a, b) => b.bytes - a.bytes);
}

/** A fresh app (ES modules) in `dir`. */
function freshApp(dir) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "footprint-app", private: true, type: "module" }, null, 2)}\n`);
  return dir;
}

/** Wall time of `node --input-type=module -e <code>` in `cwd`, and the RSS it prints, over RUNS interleaved runs. */
async function timeImports(cwd, cases) {
  const samples = cases.map(() => ({ ms: [], rss: [] }));
  for (let run = 0; run < RUNS; run++) {
    for (const [i, { code }] of cases.entries()) {
      const started = process.hrtime.bigint();
      // Asynchronous: the stub server below answers in this process meanwhile.
      const stdout = await new Promise((resolve, reject) =>
        execFile(process.execPath, ["--input-type=module", "-e", `${code}\nprocess.stdout.write(String(process.memoryUsage().rss));`], { cwd, encoding: "utf8" }, (error, out, err) =>
          error ? reject(new Error(`node -e failed in ${cwd}: ${err}`)) : resolve(out),
        ),
      );
      samples[i].ms.push(Number(process.hrtime.bigint() - started) / 1e6);
      samples[i].rss.push(Number(stdout.trim().split("\n").at(-1)));
    }
  }
  return cases.map((c, i) => ({ name: c.name, ms: median(samples[i].ms), rss: median(samples[i].rss) }));
}

/** A stand-in Data API on loopback: a login, an empty page of "Contacts Web", a logout. */
async function startStub() {
  const answer = (response) => JSON.stringify({ response, messages: [{ code: "0", message: "OK" }] });
  const page = { data: [], dataInfo: { database: "Contacts", layout: "Contacts Web", table: "Contacts", totalRecordCount: 0, foundCount: 0, returnedCount: 0 } };
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(req.method === "POST" ? answer({ token: "t" }) : req.method === "DELETE" ? answer({}) : answer(page));
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

const work = mkdtempSync(join(tmpdir(), "fmgen-footprint-"));
const lines = [];
let failed = false;
try {
  // 1. The guide's install block, in the clone: both packages packed (prepack builds each first).
  console.log("running the getting-started install block: packing both packages ...");
  const steps = installBlock();
  const tarballs = join(work, "tarballs");
  mkdirSync(tarballs);
  for (const step of steps.filter((s) => s.where === "clone")) runStep(step.command, ROOT, tarballs);
  const packed = readdirSync(tarballs);
  const manifestOf = (tgz) => JSON.parse(execFileSync("tar", ["-xzOf", join(tarballs, tgz), "package/package.json"], { encoding: "utf8" }));
  const packInfo = (tgz) => {
    const listing = execFileSync("tar", ["-tvzf", join(tarballs, tgz)], { encoding: "utf8" }).trim().split("\n");
    return { filename: tgz, version: manifestOf(tgz).version, entryCount: listing.length, unpackedSize: listing.reduce((sum, l) => sum + Number(l.trim().split(/\s+/)[2]), 0) };
  };
  const runtimeFile = packed.find((f) => f.startsWith("fmgen-runtime-"));
  const fmgenFile = packed.find((f) => /^fmgen-\d/.test(f));
  if (!runtimeFile || !fmgenFile) throw new Error(`install block: expected both tarballs, npm pack wrote ${packed.join(", ")}`);
  const runtimePack = packInfo(runtimeFile);
  const fmgenPack = packInfo(fmgenFile);
  for (const [name, m] of [["@fmgen/runtime", manifestOf(runtimeFile)], ["fmgen", manifestOf(fmgenFile)]]) {
    const scripts = Object.keys(m.scripts ?? {}).filter((k) => ["preinstall", "install", "postinstall", "prepare"].includes(k));
    if (scripts.length) throw new Error(`the packed ${name} has install scripts: ${scripts.join(", ")}`);
  }

  // 2. An app with only the runtime: the block's app commands but the devDependency install.
  console.log("installing @fmgen/runtime into a fresh app ...");
  const appSteps = steps.filter((s) => s.where === "app");
  const app = freshApp(join(work, "runtime-only"));
  for (const step of appSteps.filter((s) => !/\s(-D|--save-dev)\b/.test(s.command))) runStep(step.command, app, tarballs);
  const installed = folderSize(join(app, "node_modules"));
  const packages = packageSizes(join(app, "node_modules"));
  // The contacts example's generated modules, compiled as the app's build would (and as written, for the bundle).
  mkdirSync(join(app, "generated"));
  mkdirSync(join(app, "src/generated"), { recursive: true });
  for (const file of readdirSync(join(ROOT, "examples/contacts/generated"))) {
    const source = readFileSync(join(ROOT, "examples/contacts/generated", file), "utf8");
    writeFileSync(join(app, "generated", file.replace(/\.ts$/, ".js")), transformSync(source, { loader: "ts", format: "esm" }).code);
    writeFileSync(join(app, "src/generated", file), source);
  }

  // A Workers bundle of an app that uses no schema, with no zod installed: it must build, and hold no zod.
  console.log("bundling a worker (conditions workerd) ...");
  const worker = await build({
    stdin: {
      contents: 'import { createClient } from "@fmgen/runtime";\nimport { Contact } from "./generated/index.js";\nexport default { fetch: async () => Response.json(await createClient({ server: "https://fms.example.com", database: "Contacts", auth: { username: "u", password: "p" } }).layout(Contact).list({ limit: 1 })) };',
      resolveDir: join(app, "src"),
      sourcefile: "worker.ts",
      loader: "ts",
    },
    bundle: true,
    minify: true,
    write: false,
    metafile: true,
    format: "esm",
    platform: "neutral",
    conditions: ["workerd", "worker", "browser"],
    logLevel: "silent",
    tsconfigRaw: "{}",
  });
  const workerBytes = worker.outputFiles[0].contents.length;
  const workerZod = Object.keys(worker.metafile.inputs).filter((f) => f.includes("node_modules/zod"));
  if (workerZod.length) throw new Error(`the worker bundle holds zod: ${workerZod.join(", ")}`);

  // 3. The whole block: the runtime a dependency, fmgen a devDependency; then its production install.
  console.log("running the block's app commands in a second app ...");
  const devApp = freshApp(join(work, "with-fmgen"));
  for (const step of appSteps) runStep(step.command, devApp, tarballs);
  const devInstalled = folderSize(join(devApp, "node_modules"));
  const devManifest = JSON.parse(readFileSync(join(devApp, "package.json"), "utf8"));
  const fmgenBin = join(devApp, "node_modules/fmgen/dist/cli/bin.js");
  const fmgenVersion = spawnSync(process.execPath, [fmgenBin, "--version"], { encoding: "utf8" }).stdout.trim();
  cpSync(join(ROOT, "examples/contacts/layouts"), join(devApp, "layouts"), { recursive: true });
  const generateRun = spawnSync(process.execPath, [fmgenBin, "generate", "--layouts", "layouts", "--out", "generated"], { cwd: devApp, encoding: "utf8" });
  if (generateRun.status !== 0) throw new Error(`fmgen generate failed in the app: ${generateRun.stderr}`);
  const generatedFiles = readdirSync(join(devApp, "generated")).sort();
  const zodWhere = (dir) => ["node_modules/zod", "node_modules/fmgen/node_modules/zod"].filter((p) => existsSync(join(dir, p)));
  const devZod = zodWhere(devApp);
  console.log("npm ci --omit=dev in that app ...");
  rmSync(join(devApp, "node_modules"), { recursive: true, force: true });
  npm(["ci", "--omit=dev"], devApp);
  const prodInstalled = folderSize(join(devApp, "node_modules"));
  const prodPackages = packageSizes(join(devApp, "node_modules"));
  const prodZod = zodWhere(devApp);

  // 4. Import time and RSS over a bare node start, in the runtime-only app.
  console.log(`timing imports (${RUNS} runs each, interleaved) ...`);
  const zodProbe = `let zod = "not installed"; try { import.meta.resolve("zod"); zod = "installed"; } catch {}`;
  const stub = await startStub();
  const base = `${stub.url}/fmi/data/vLatest/databases/Contacts`;
  const loadBefore = loadavg()[0];
  const [bare, runtime, generated, firstAnswer, fetchAnswer] = await timeImports(app, [
    { name: "bare node", code: "" },
    { name: 'import("@fmgen/runtime")', code: 'await import("@fmgen/runtime");' },
    {
      name: "@fmgen/runtime + the contacts example's generated modules + createClient",
      code: `${zodProbe} const { createClient } = await import("@fmgen/runtime"); const g = await import("./generated/index.js"); createClient({ server: "https://fms.example.com", database: "Contacts", auth: { username: "u", password: "p" } }).layout(g.Contact); if (zod !== "not installed") throw new Error("zod is installed");`,
    },
    {
      name: "and a first answer: login + list({ limit: 1 }) + close(), from a stub on loopback",
      code: `const { createClient } = await import("@fmgen/runtime"); const g = await import("./generated/index.js"); const fm = createClient({ server: ${JSON.stringify(stub.url)}, database: "Contacts", auth: { username: "u", password: "p" } }); await fm.layout(g.Contact).list({ limit: 1 }); await fm.close();`,
    },
    {
      name: "for comparison: the same login + list + logout with Node's global fetch, nothing imported",
      code: `const json = { "content-type": "application/json" }; const { response } = await (await fetch(${JSON.stringify(`${base}/sessions`)}, { method: "POST", headers: { ...json, authorization: "Basic dTpw" }, body: "{}" })).json(); const auth = { authorization: "Bearer " + response.token }; await (await fetch(${JSON.stringify(`${base}/layouts/Contacts%20Web/records?_limit=1`)}, { headers: auth })).json(); await (await fetch(${JSON.stringify(`${base}/sessions/`)} + response.token, { method: "DELETE" })).json();`,
    },
  ]);
  await stub.close();
  const loadAfter = loadavg()[0];
  let old;
  if (baseline) {
    console.log(`installing the baseline ${baseline} into a third app ...`);
    const oldApp = freshApp(join(work, "baseline"));
    npm(["install", baseline], oldApp);
    const [oldBare, oldRuntime] = await timeImports(oldApp, [
      { name: "bare node", code: "" },
      { name: 'import("fmgen/runtime")', code: 'await import("fmgen/runtime");' },
    ]);
    const version = JSON.parse(readFileSync(join(oldApp, "node_modules/fmgen/package.json"), "utf8")).version;
    old = { installed: folderSize(join(oldApp, "node_modules")), bare: oldBare, runtime: oldRuntime, label: labelIndex > 0 ? process.argv[labelIndex + 1] : `fmgen ${version}` };
  }

  const importOver = runtime.ms - bare.ms;
  const sizeOk = installed.bytes < NODE_MODULES_BUDGET;
  const prodOk = prodInstalled.bytes < NODE_MODULES_BUDGET && prodZod.length === 0;
  const importOk = importOver < IMPORT_BUDGET_MS;
  failed = !sizeOk || !prodOk || !importOk;
  const appSteps1 = appSteps.filter((s) => !/\s(-D|--save-dev)\b/.test(s.command)).map((s) => `\`${s.command}\``).join(", ");
  const row = (r) => `| ${r.name} | ${ms(r.ms)} | ${ms(r.ms - bare.ms)} | ${mb(r.rss)} | ${mb(r.rss - bare.rss)} |`;
  lines.push(
    "# Footprint of @fmgen/runtime in an app",
    "",
    `Measured by \`npm run footprint\` (scripts/footprint.mjs): Node ${process.version}, npm ${npm(["--version"], ROOT).trim()}, ${process.platform}/${process.arch}. The getting-started guide's install block (docs/getting-started.md, "Install it in your app") run as written, with its own folders: ${steps.map((s) => `\`${s.command}\``).join(", ")}. The tarballs: @fmgen/runtime ${runtimePack.version}, ${runtimePack.entryCount} entries, ${mb(runtimePack.unpackedSize)} unpacked; fmgen ${fmgenPack.version}, ${fmgenPack.entryCount} entries, ${mb(fmgenPack.unpackedSize)} unpacked (zod inside, bundled); neither has an install script, and npm warned about none. Their dependencies come from the registry. Sizes are the bytes of every file under node_modules.`,
    "",
    "## node_modules",
    "",
    "| app | node_modules | files | budget |",
    "|---|---|---|---|",
    `| the runtime only (${appSteps1}) | ${mb(installed.bytes)} | ${installed.files} | < ${mb(NODE_MODULES_BUDGET)}: ${sizeOk ? "met" : "**over**"} |`,
    `| and fmgen as devDependency (the whole block: the generator, pull, the emulator) | ${mb(devInstalled.bytes)} | ${devInstalled.files} | - |`,
    `| that app's production install, \`npm ci --omit=dev\` | ${mb(prodInstalled.bytes)} | ${prodInstalled.files} | < ${mb(NODE_MODULES_BUDGET)} and no zod: ${prodOk ? "met" : "**not met**"} |`,
    ...(old ? [`| baseline: \`npm install\` ${old.label}, its runtime inside | ${mb(old.installed.bytes)} | ${old.installed.files} | - |`] : []),
    "",
    `The runtime-only app's packages: ${packages.map((p) => `${p.name} ${mb(p.bytes)}`).join(", ")}. With fmgen the app's package.json reads dependencies ${JSON.stringify(devManifest.dependencies)}, devDependencies ${JSON.stringify(devManifest.devDependencies)}; zod is at ${devZod.join(", ") || "nowhere"} (fmgen's own, bundled: @fmgen/runtime does not resolve it, so npm does not count it as the runtime's optional peer); \`fmgen --version\` there prints ${fmgenVersion}, and \`fmgen generate\` on the contacts example's descriptions writes ${generatedFiles.join(", ")}. Its production install's packages: ${prodPackages.map((p) => `${p.name} ${mb(p.bytes)}`).join(", ")}; zod ${prodZod.length ? `**at ${prodZod.join(", ")}**` : "absent"}.`,
    "",
    `A Cloudflare Workers bundle (esbuild, conditions workerd, minified) of a worker that imports @fmgen/runtime and the contacts example's generated \`index.ts\` and uses no schema, in the runtime-only app (no zod installed): it builds, ${(workerBytes / 1e3).toFixed(1)} kB, without zod. The \`<Name>Schema\` exports are in the generated \`schemas.ts\`, which \`index.ts\` does not re-export; a worker that imports it needs zod installed.`,
    "",
    `## Import time and memory (medians of ${RUNS} runs, each run a fresh \`node --input-type=module -e\` in the runtime-only app)`,
    "",
    `The machine's load average (1 minute) was ${loadBefore.toFixed(1)} before these runs and ${loadAfter.toFixed(1)} after, on ${cpus().length} cores: wall times grow with it (a bare start takes about 80 ms on an idle 2-core machine), so compare each row with the bare start of the same run.`,
    "",
    "| what | wall time | over bare node | RSS after | over bare node |",
    "|---|---|---|---|---|",
    `| bare node | ${ms(bare.ms)} | - | ${mb(bare.rss)} | - |`,
    row(runtime),
    row(generated),
    row(firstAnswer),
    row(fetchAnswer),
    ...(old ? [`| baseline: import("fmgen/runtime") from ${old.label} | ${ms(old.runtime.ms)} | ${ms(old.runtime.ms - old.bare.ms)} | ${mb(old.runtime.rss)} | ${mb(old.runtime.rss - old.bare.rss)} |`] : []),
    "",
    `Budget: importing @fmgen/runtime adds < ${IMPORT_BUDGET_MS} ms to a bare start: ${ms(importOver)}, ${importOk ? "met" : "**over**"}. The third row imports the generated modules (\`index.ts\`, which does not reach the schemas) in an app without zod (an optional peer dependency): it runs without it. On Node, undici (the transport's dispatcher) is loaded at the first request, not at import: the fourth row pays for it; the fifth is what Node's own fetch costs for the same requests.`,
    "",
  );
  writeFileSync(RESULTS, lines.join("\n"));
  console.log(`\n${lines.join("\n")}\nwritten to ${RESULTS}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (failed) {
  console.error("footprint: over budget");
  process.exitCode = 1;
}
