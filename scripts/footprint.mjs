// What the runtime costs an app, measured the way a user gets it: both packages packed (`npm pack`), installed
// into fresh apps as the README says (`npm install @fmgen/runtime`, `npm install -D fmgen`; here from the
// tarballs, while their own dependencies such as undici come from the registry), then:
//   - node_modules of an app with only @fmgen/runtime (budget < 12 MB), and of one with fmgen as devDependency too;
//   - the time `import("@fmgen/runtime")` adds to a bare `node` start (budget < 0.15 s; medians of RUNS runs,
//     interleaved with bare starts), and the RSS after it; the same with the contacts example's generated modules
//     imported too (zod must not load); and to a first answer (login + list against a stub on loopback), beside
//     Node's own fetch doing the same requests.
// Results: stdout and test/bench/results/footprint.md. Exits 1 over a budget. Needs the registry: not in `npm test`.
//   npm run footprint [-- --baseline <fmgen tarball> [--baseline-label <text>]]
// (a tarball of an older fmgen, whose runtime was `fmgen/runtime`, measured the same way beside the new packages)
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { createServer } from "node:http";
import { cpSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { transformSync } from "esbuild";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const RESULTS = join(ROOT, "test/bench/results/footprint.md");
const RUNS = Number(process.env.FOOTPRINT_RUNS ?? 21);
const NODE_MODULES_BUDGET = 12e6;
const IMPORT_BUDGET_MS = 150;
const baselineIndex = process.argv.indexOf("--baseline");
const baseline = baselineIndex > 0 ? process.argv[baselineIndex + 1] : undefined;
const labelIndex = process.argv.indexOf("--baseline-label");

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
  // 1. Both packages as npm pack makes them (built first; the tarballs hold what a publish would).
  console.log("building and packing both packages ...");
  execFileSync("npm", ["run", "build", "--silent"], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
  const tarballs = join(work, "tarballs");
  mkdirSync(tarballs);
  const pack = (dir) => JSON.parse(npm(["pack", "--json", "--ignore-scripts", "--pack-destination", tarballs], dir))[0];
  const runtimePack = pack(join(ROOT, "packages/runtime"));
  const fmgenPack = pack(ROOT);
  const runtimeTgz = join(tarballs, runtimePack.filename);
  const fmgenTgz = join(tarballs, fmgenPack.filename);

  // 2. An app with only the runtime: `npm install @fmgen/runtime`.
  console.log("installing @fmgen/runtime into a fresh app ...");
  const app = freshApp(join(work, "runtime-only"));
  npm(["install", runtimeTgz], app);
  const installed = folderSize(join(app, "node_modules"));
  const packages = packageSizes(join(app, "node_modules"));
  // The contacts example's generated modules, compiled as the app's build would.
  mkdirSync(join(app, "generated"));
  for (const file of readdirSync(join(ROOT, "examples/contacts/generated"))) {
    const { code } = transformSync(readFileSync(join(ROOT, "examples/contacts/generated", file), "utf8"), { loader: "ts", format: "esm" });
    writeFileSync(join(app, "generated", file.replace(/\.ts$/, ".js")), code);
  }

  // 3. The whole setup: the runtime a dependency, fmgen a devDependency (`npm install -D fmgen`).
  console.log("installing fmgen as a devDependency into a second app ...");
  const devApp = freshApp(join(work, "with-fmgen"));
  npm(["install", runtimeTgz], devApp);
  npm(["install", "-D", fmgenTgz], devApp);
  const devInstalled = folderSize(join(devApp, "node_modules"));
  const devManifest = JSON.parse(readFileSync(join(devApp, "package.json"), "utf8"));
  const fmgenBin = spawnSync(process.execPath, [join(devApp, "node_modules/fmgen/dist/cli/bin.js"), "--version"], { encoding: "utf8" }).stdout.trim();

  // 4. Import time and RSS over a bare node start, in the runtime-only app.
  console.log(`timing imports (${RUNS} runs each, interleaved) ...`);
  const zodProbe = `let zod = "not installed"; try { import.meta.resolve("zod"); zod = "installed"; } catch {}`;
  const stub = await startStub();
  const base = `${stub.url}/fmi/data/vLatest/databases/Contacts`;
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
  const importOk = importOver < IMPORT_BUDGET_MS;
  failed = !sizeOk || !importOk;
  const row = (r) => `| ${r.name} | ${ms(r.ms)} | ${ms(r.ms - bare.ms)} | ${mb(r.rss)} | ${mb(r.rss - bare.rss)} |`;
  lines.push(
    "# Footprint of @fmgen/runtime in an app",
    "",
    `Measured by \`npm run footprint\` (scripts/footprint.mjs): Node ${process.version}, npm ${npm(["--version"], ROOT).trim()}, ${process.platform}/${process.arch}. Both packages packed with \`npm pack\` (@fmgen/runtime ${runtimePack.version}: ${runtimePack.entryCount} files, ${mb(runtimePack.unpackedSize)} unpacked; fmgen ${fmgenPack.version}: ${fmgenPack.entryCount} files, ${mb(fmgenPack.unpackedSize)} unpacked) and installed into fresh apps from the tarballs as the README says; their dependencies come from the registry. Sizes are the bytes of every file under node_modules.`,
    "",
    "## node_modules",
    "",
    "| app | node_modules | files | budget |",
    "|---|---|---|---|",
    `| \`npm install @fmgen/runtime\` | ${mb(installed.bytes)} | ${installed.files} | < ${mb(NODE_MODULES_BUDGET)}: ${sizeOk ? "met" : "**over**"} |`,
    `| and \`npm install -D fmgen\` (the generator, pull, the emulator) | ${mb(devInstalled.bytes)} | ${devInstalled.files} | - |`,
    ...(old ? [`| baseline: \`npm install\` ${old.label}, its runtime inside | ${mb(old.installed.bytes)} | ${old.installed.files} | - |`] : []),
    "",
    `The runtime-only app's packages: ${packages.map((p) => `${p.name} ${mb(p.bytes)}`).join(", ")}. With fmgen the app's package.json reads dependencies ${JSON.stringify(devManifest.dependencies)}, devDependencies ${JSON.stringify(devManifest.devDependencies)}; \`fmgen --version\` there prints ${fmgenBin}.`,
    "",
    `## Import time and memory (medians of ${RUNS} runs, each run a fresh \`node --input-type=module -e\` in the runtime-only app)`,
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
    `Budget: importing @fmgen/runtime adds < ${IMPORT_BUDGET_MS} ms to a bare start: ${ms(importOver)}, ${importOk ? "met" : "**over**"}. The third row imports generated modules that export \`<Name>Schema\` in an app without zod (an optional peer dependency): it runs, because zod is loaded only when a schema is used. On Node, undici (the transport's dispatcher) is loaded at the first request, not at import: the fourth row pays for it; the fifth is what Node's own fetch costs for the same requests.`,
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
