// Installs the third-party Data API clients of test/peer-clients/ (their own package.json and lockfile, never
// part of the main install) with `npm ci --ignore-scripts`, but only when test/peer-clients/node_modules is
// missing or was installed from another lockfile: a stamp file in node_modules records the lockfile's hash,
// and a lockfile newer than the stamp (or with another hash) installs again. Repeated `npm test` runs skip it.
// --ignore-scripts: fms-api-client depends on snyk, whose postinstall downloads a binary; no client needs a
// lifecycle script to run.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const DIR = fileURLToPath(new URL("../test/peer-clients/", import.meta.url));
const LOCKFILE = join(DIR, "package-lock.json");
const NODE_MODULES = join(DIR, "node_modules");
const STAMP = join(NODE_MODULES, ".fmgen-peer-clients-installed");

const lockHash = createHash("sha256").update(readFileSync(LOCKFILE)).digest("hex");

function upToDate() {
  if (!existsSync(STAMP)) return false;
  if (statSync(STAMP).mtimeMs < statSync(LOCKFILE).mtimeMs) return false;
  return readFileSync(STAMP, "utf8").trim() === lockHash;
}

if (upToDate()) {
  console.log("peer clients: test/peer-clients/node_modules is up to date");
} else {
  console.log("peer clients: npm ci --ignore-scripts in test/peer-clients");
  // Under `npm test`, npm_execpath is the npm that runs us: use the same one. Elsewhere, npm from PATH.
  const npmCli = process.env.npm_execpath;
  const [command, args] = npmCli && /npm-cli\.[cm]?js$/.test(npmCli) ? [process.execPath, [npmCli]] : [process.platform === "win32" ? "npm.cmd" : "npm", []];
  const result = spawnSync(command, [...args, "ci", "--ignore-scripts", "--no-audit", "--no-fund"], {
    cwd: DIR,
    stdio: "inherit",
    shell: process.platform === "win32" && command === "npm.cmd",
    timeout: 15 * 60_000,
  });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    console.error(`peer clients: npm ci failed (exit ${result.status ?? result.signal})`);
    process.exit(1);
  }
  writeFileSync(STAMP, `${lockHash}\n`);
}
