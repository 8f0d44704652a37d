/**
 * docs/getting-started.md walked the way a new user walks it (issue 33): in a fresh folder outside the repository, an
 * `npm init -y` app gets fmgen's two packages packed from this checkout, TypeScript and Node's types installed as the
 * guide says, then the guide's own commands, read from the page: the blocks marked
 * `<!-- commands: run by test/cli/getting-started.test.ts -->`, the install block (which scripts/footprint.mjs runs
 * too), the tsconfig.json, the `.env` and the app of "How it fits together". Each setup the tsconfig table calls
 * working is walked to the end: the app, compiled, runs against `npx fmgen serve` and leaves its record there.
 *
 * The snippet test (test/docs/snippets.test.ts) compiles the app inside this repository's own setup; only a fresh
 * folder finds what a new user meets: a `"type": "commonjs"` package.json, no TypeScript, no @types/node, no zod.
 *
 * What the test changes, and why:
 * - `npm pack` runs with `--ignore-scripts`: its prepack build deletes dist/, which the integration tests running
 *   beside this one load. So this test needs `npm run build` first, as the rest of the integration project does.
 * - The install block's pack folder (/tmp/fmgen-packages) is one of the test's own; the clone `../fmgen` is a link to
 *   this checkout beside each app.
 * - npm runs with `--prefer-offline` (npm_config_prefer_offline, not a changed command): its cache is warm.
 * - The installs run once, in one app whose node_modules each setup copies (each `npm install` line is run there,
 *   and skipped in the setups).
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseMarkdown, type Fence } from "../docs/markdown.js";
import { startUrlPrintingProcess, type UrlPrintingProcess } from "../support/url-printing-process.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** The guide this test walks (its blocks are marked as run by this test: test/docs/commands.test.ts). */
const GUIDE = "docs/getting-started.md";
/** The pack folder the guide's install block names; the test packs into a folder of its own instead. */
const INSTALL_BLOCK_DIR = "/tmp/fmgen-packages";
const RUN_BY_THIS_TEST = "<!-- commands: run by test/cli/getting-started.test.ts -->";
const MAKE_IT_AN_ES_MODULE = "npm pkg set type=module";
const STEP_TIMEOUT_MS = 120_000;
const execFileAsync = promisify(execFile);

/** A reader's shell: none of the npm_* variables of an `npm run` that started vitest, npm's cache preferred. */
const READER_ENV: NodeJS.ProcessEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) && key !== "NODE_OPTIONS")),
  npm_config_prefer_offline: "true",
  npm_config_audit: "false",
  npm_config_fund: "false",
  npm_config_update_notifier: "false",
};

// ---- The guide, read ----

const guide = readFileSync(join(ROOT, GUIDE), "utf8");
const { fences } = parseMarkdown(guide);
const lines = guide.split("\n");

/** The fences of the `## heading` section, and its text. */
function section(heading: string): { fences: Fence[]; text: string } {
  const start = lines.indexOf(`## ${heading}`);
  if (start < 0) throw new Error(`${GUIDE}: no "## ${heading}" section`);
  const next = lines.findIndex((line, i) => i > start && line.startsWith("## "));
  const end = next < 0 ? lines.length : next;
  return { fences: fences.filter((f) => f.line > start && f.line <= end), text: lines.slice(start, end).join("\n") };
}

const codeOf = (fence: Fence) => fence.body.map((l) => l.text).join("\n");
/** A shell block's commands: comments and blank lines left out. */
const commandsOf = (fence: Fence) => fence.body.map((l) => l.text.replace(/(^|\s+)#.*$/, "").trim()).filter(Boolean);
const runByThisTest = (fence: Fence) => fence.lang === "sh" && fence.above.at(-1) === RUN_BY_THIS_TEST;

function only<T>(items: T[], what: string): T {
  if (items.length !== 1) throw new Error(`${GUIDE}: expected one ${what}, found ${items.length}`);
  return items[0]!;
}

/** The install block: its commands, each with where it runs (after `cd fmgen`: the clone; after `cd ../my-app`: the app). */
function installBlock(): { where: "clone" | "app"; command: string }[] {
  const block = section("Install it in your app").fences.find((f) => f.lang === "sh");
  if (!block) throw new Error(`${GUIDE}: no sh block in "Install it in your app"`);
  let where: "clone" | "app" | undefined;
  const steps: { where: "clone" | "app"; command: string }[] = [];
  for (const command of commandsOf(block)) {
    if (command === "cd fmgen") where = "clone";
    else if (command === "cd ../my-app") where = "app";
    else if (!where) throw new Error(`${GUIDE}, install block: "${command}" comes before "cd fmgen" or "cd ../my-app"`);
    else steps.push({ where, command });
  }
  return steps;
}

const tsconfigSection = section("tsconfig: the module setting");
const firstApp = section("A first app against the emulator");
const [setupBlock, runBlock] = firstApp.fences.filter(runByThisTest);
const bundlerBlock = only(tsconfigSection.fences.filter(runByThisTest), `block in "tsconfig: the module setting" marked ${RUN_BY_THIS_TEST}`);
const NODENEXT_TSCONFIG = codeOf(only(firstApp.fences.filter((f) => f.lang === "json"), 'json block (tsconfig.json) in "A first app against the emulator"'));
const BUNDLER_TSCONFIG = codeOf(only(tsconfigSection.fences.filter((f) => f.lang === "json" && codeOf(f).includes('"bundler"')), "bundler tsconfig.json"));
const DOT_ENV = codeOf(only(firstApp.fences.filter((f) => f.lang === "ini"), 'ini block (.env) in "A first app against the emulator"'));
const APP = codeOf(only(section("How it fits together").fences.filter((f) => f.lang === "ts" && codeOf(f).includes("await fm.close();")), "app (ts block with `await fm.close();`)"));
/** The rows of the tsconfig table that say a setup works: their first cell. */
const WORKING_SETUPS = tsconfigSection.text
  .split("\n")
  .map((row) => /^\| (.+?) \| yes\b/.exec(row)?.[1])
  .filter((cell) => cell !== undefined);
const COMMONJS_ROW = only(
  tsconfigSection.text.split("\n").filter((row) => row.startsWith("| the same in a CommonJS package")),
  "CommonJS row of the tsconfig table",
);
const DOT_ENV_URL = "http://127.0.0.1:PORT";

/** The CommonJS row's way with top-level await: everything after the app's imports in `async function main() { ... }`, then `main();`. */
function inAsyncMain(app: string): string {
  const appLines = app.split("\n");
  const body = appLines.findIndex((line) => !line.startsWith("import ") && line.trim() !== "");
  const indented = appLines.slice(body).map((line) => (line ? `  ${line}` : line));
  return [...appLines.slice(0, body), "async function main() {", ...indented, "}", "main();", ""].join("\n");
}

// ---- The walk ----

let work: string;
/** The app with every install of the guide done, whose package.json, lockfile and node_modules each setup copies. */
let installed: string;
/** The `npm install` lines already run in `installed`. */
const installsDone = new Set<string>();

/** Runs one of the guide's commands in `cwd` as a reader's shell would; fails naming the command and what it printed. */
async function sh(command: string, cwd: string): Promise<string> {
  try {
    const { stdout, stderr } = await execFileAsync("sh", ["-c", command], { cwd, env: READER_ENV, timeout: STEP_TIMEOUT_MS, maxBuffer: 64 * 2 ** 20 });
    return `${stdout}${stderr}`;
  } catch (error) {
    const e = error as { code?: number | string; stdout?: string; stderr?: string };
    throw new Error(`${GUIDE}: \`${command}\` failed (exit ${e.code}) in a fresh app:\n${e.stdout ?? ""}${e.stderr ?? ""}`);
  }
}

const isInstall = (command: string) => /^npm (install|i) /.test(command);

beforeAll(async () => {
  for (const built of ["dist/cli/bin.js", "packages/runtime/dist/index.js"]) {
    if (!existsSync(join(ROOT, built))) throw new Error(`${built} is missing: run \`npm run build\` first (this test packs the built packages)`);
  }
  work = mkdtempSync(join(tmpdir(), "fmgen-guide-walk-"));
  symlinkSync(ROOT, join(work, "fmgen"));
  const packages = join(work, "packages");
  const steps = installBlock();
  expect(steps.filter((s) => s.where === "clone").map((s) => s.command.split(" ").slice(0, 2).join(" "))).toEqual(["mkdir -p", "npm pack"]);
  for (const { command } of steps.filter((s) => s.where === "clone")) {
    const line = command.replaceAll(INSTALL_BLOCK_DIR, packages);
    await sh(line.startsWith("npm pack ") ? `${line} --ignore-scripts` : line, ROOT);
  }
  expect(readdirSync(packages).sort()).toEqual(["fmgen-0.1.0.tgz", "fmgen-runtime-0.1.0.tgz"]);

  installed = join(work, "installed");
  mkdirSync(installed);
  await sh("npm init -y", installed);
  for (const { command } of steps.filter((s) => s.where === "app")) await sh(command.replaceAll(INSTALL_BLOCK_DIR, packages), installed);
  for (const command of [...commandsOf(setupBlock!), ...commandsOf(bundlerBlock)].filter(isInstall)) {
    await sh(command, installed);
    installsDone.add(command);
  }
}, 240_000);

afterAll(async () => {
  // Four copies of node_modules: retried, as a just-stopped emulator's process may still be going away.
  if (work) await rm(work, { recursive: true, force: true, maxRetries: 3 });
}, 60_000);

interface Walk {
  /** The app's folder, beside `fmgen` (the clone's link), as the guide's `../fmgen` wants it. */
  name: string;
  tsconfig: string;
  app: string;
  /** Whether the walk makes the package an ES module, as step 2 says (the CommonJS and bundler setups do not). */
  esModule: boolean;
  /** What compiles and runs the app: step 4's block, or the bundler's. */
  run: Fence;
}

/** Walks the first app of the guide in a fresh copy of the installed app; resolves with the records the emulator holds then. */
async function walk({ name, tsconfig, app, esModule, run }: Walk): Promise<{ packageType: unknown; records: { fieldData: Record<string, unknown> }[] }> {
  const dir = join(work, name);
  mkdirSync(dir);
  for (const file of ["package.json", "package-lock.json", "node_modules"]) cpSync(join(installed, file), join(dir, file), { recursive: true, verbatimSymlinks: true });
  writeFileSync(join(dir, "tsconfig.json"), `${tsconfig}\n`);
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "src/app.ts"), app);
  mkdirSync(join(dir, "photos"));
  writeFileSync(join(dir, "photos/ada.png"), Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"));

  let emulator: UrlPrintingProcess | undefined;
  try {
    for (const command of commandsOf(setupBlock!)) {
      if (installsDone.has(command)) continue;
      if (command === MAKE_IT_AN_ES_MODULE && !esModule) continue;
      if (command.startsWith("npx fmgen serve ")) emulator = await startUrlPrintingProcess(command, { cwd: dir, env: READER_ENV });
      else await sh(command, dir);
    }
    if (!emulator) throw new Error(`${GUIDE}: step 2 starts no emulator (\`npx fmgen serve\`)`);
    expect(DOT_ENV).toContain(`FM_SERVER=${DOT_ENV_URL}`);
    writeFileSync(join(dir, ".env"), `${DOT_ENV.replace(DOT_ENV_URL, new URL(emulator.url).origin)}\n`);
    for (const command of commandsOf(run)) {
      if (!installsDone.has(command)) await sh(command, dir);
    }
    const packageType = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { type?: unknown }).type;
    return { packageType, records: await recordsOf(emulator.url, dotEnv()) };
  } finally {
    await emulator?.stop();
  }
}

function dotEnv(): Record<string, string> {
  return Object.fromEntries(DOT_ENV.split("\n").map((line) => line.split("=", 2) as [string, string]));
}

/** Every record of the contacts example's "Contacts Web" layout, read over the wire with the `.env`'s account. */
async function recordsOf(url: string, env: Record<string, string>): Promise<{ fieldData: Record<string, unknown> }[]> {
  const base = `${new URL(url).origin}/fmi/data/vLatest/databases/${encodeURIComponent(env.FM_DATABASE!)}`;
  const basic = Buffer.from(`${env.FM_USERNAME}:${env.FM_PASSWORD}`).toString("base64");
  const login = await fetch(`${base}/sessions`, { method: "POST", headers: { Authorization: `Basic ${basic}`, "Content-Type": "application/json" }, body: "{}" });
  const { token } = ((await login.json()) as { response: { token: string } }).response;
  const answer = await fetch(`${base}/layouts/Contacts%20Web/records`, { headers: { Authorization: `Bearer ${token}` } });
  return ((await answer.json()) as { response: { data?: { fieldData: Record<string, unknown> }[] } }).response.data ?? [];
}

/** What the app leaves in the emulator: the contact it created, edited and gave a photo. */
const ADA = { fieldData: { "First Name": "Ada", Birthday: "12/10/1815", Status: "Active", Photo: expect.stringMatching(/^http:/) } };

describe("docs/getting-started.md, walked in a fresh npm init -y app", () => {
  it("reads what it walks from the guide: the blocks marked as run by this test, and the table's three working setups", () => {
    expect(commandsOf(setupBlock!)).toContain(MAKE_IT_AN_ES_MODULE);
    expect(commandsOf(setupBlock!).filter((c) => c.startsWith("npx fmgen serve "))).toHaveLength(1);
    expect(commandsOf(runBlock!)).toEqual(["npx tsc", "node --env-file=.env src/app.js"]);
    // A row that says "yes" is a setup this test walks: a new one needs a walk here.
    expect(WORKING_SETUPS).toEqual([
      expect.stringMatching(/^`"module": "nodenext"`.*ESM package/),
      expect.stringMatching(/^the same in a CommonJS package/),
      expect.stringMatching(/^a bundler: `"module": "esnext"`, `"moduleResolution": "bundler"` and a `"target"`/),
    ]);
    expect(COMMONJS_ROW).toContain("`async function main() { ... }` followed by `main();`");
  });

  it("an ES module package, `module: nodenext`: every step as written, and the app runs against the emulator", async () => {
    const { packageType, records } = await walk({ name: "esm", tsconfig: NODENEXT_TSCONFIG, app: APP, esModule: true, run: runBlock! });
    expect(packageType).toBe("module");
    expect(records).toMatchObject([ADA]);
  }, STEP_TIMEOUT_MS);

  it("a CommonJS package as npm init -y writes it, `module: nodenext`: the app's body in async function main(), as the table says", async () => {
    const { packageType, records } = await walk({ name: "commonjs", tsconfig: NODENEXT_TSCONFIG, app: inAsyncMain(APP), esModule: false, run: runBlock! });
    expect(packageType).not.toBe("module");
    expect(records).toMatchObject([ADA]);
  }, STEP_TIMEOUT_MS);

  it("a bundler setup (`module: esnext`, `moduleResolution: bundler`) in a CommonJS package: tsc --noEmit, then esbuild's bundle runs", async () => {
    const { packageType, records } = await walk({ name: "bundler", tsconfig: BUNDLER_TSCONFIG, app: APP, esModule: false, run: bundlerBlock });
    expect(packageType).not.toBe("module");
    expect(records).toMatchObject([ADA]);
  }, STEP_TIMEOUT_MS);
});
