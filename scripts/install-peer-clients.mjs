// Installs the test folders that have their own package.json and lockfile, never part of the main install:
// test/peer-clients/ (third-party Data API clients) and test/runtimes/ (Deno, Bun, workerd and esbuild), each with
// `npm ci --ignore-scripts`, but only when its node_modules is missing or was installed from another lockfile: a
// stamp file in node_modules records the lockfile's hash, and a lockfile newer than the stamp (or with another hash)
// installs again. Repeated `npm test` runs skip them.
// --ignore-scripts: fms-api-client depends on snyk, whose postinstall downloads a binary; deno, bun and workerd have
// postinstalls that only copy or check the binary their platform package (@deno/*, @oven/bun-*,
// @cloudflare/workerd-*) already holds, which test/runtimes/runtimes.test.ts runs from there. Nothing needs a
// lifecycle script to run.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const FOLDERS = ["test/peer-clients", "test/runtimes"];

for (const folder of FOLDERS) install(folder);

function install(folder) {
  const dir = fileURLToPath(new URL(`../${folder}/`, import.meta.url));
  const lockfile = join(dir, "package-lock.json");
  const stamp = join(dir, "node_modules", ".fmgen-peer-clients-installed");
  const lockHash = createHash("sha256").update(readFileSync(lockfile)).digest("hex");
  const upToDate = existsSync(stamp) && statSync(stamp).mtimeMs >= statSync(lockfile).mtimeMs && readFileSync(stamp, "utf8").trim() === lockHash;
  if (upToDate) {
    console.log(`${folder}: node_modules is up to date`);
    return;
  }
  console.log(`${folder}: npm ci --ignore-scripts`);
  const started = Date.now();
  // Under `npm test`, npm_execpath is the npm that runs us: use the same one. Elsewhere, npm from PATH.
  const npmCli = process.env.npm_execpath;
  const [command, args] = npmCli && /npm-cli\.[cm]?js$/.test(npmCli) ? [process.execPath, [npmCli]] : [process.platform === "win32" ? "npm.cmd" : "npm", []];
  const result = spawnSync(command, [...args, "ci", "--ignore-scripts", "--no-audit", "--no-fund"], {
    cwd: dir,
    stdio: "inherit",
    shell: process.platform === "win32" && command === "npm.cmd",
    timeout: 15 * 60_000,
  });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    console.error(`${folder}: npm ci failed (exit ${result.status ?? result.signal})`);
    process.exit(1);
  }
  writeFileSync(stamp, `${lockHash}\n`);
  console.log(`${folder}: installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
