// Runs one example end to end, as a user would: the emulator on the example's layouts, tables and seed data,
// `fmgen pull` from it (layouts through the Data API, tables with --odata; either must leave the committed
// descriptions as they are), `fmgen generate` from its config, the TypeScript app compiled (tsc -b), then run against the
// emulator.
// Usage: node examples/run.mjs <contacts|invoices|odata>
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const name = process.argv[2] ?? "contacts";
const dir = `${root}examples/${name}`;
if (!existsSync(`${dir}/app.ts`)) throw new Error(`no example named "${name}" (examples/${name}/app.ts)`);
const bin = `${root}dist/cli/bin.js`;
const { username, password } = (await import(`${dir}/seed.json`, { with: { type: "json" } })).default.accounts[0];
// The credentials travel in the environment only, as fmgen.config.json's auth names them.
const env = { ...process.env, FM_USERNAME: username, FM_PASSWORD: password };

const step = (text) => console.log(`\n== ${text}`);
const fmgen = (...args) => execFileSync(process.execPath, [bin, ...args], { cwd: dir, stdio: "inherit", env });

const config = JSON.parse(readFileSync(`${dir}/fmgen.config.json`, "utf8"));
// The emulator hosts what the example has: layouts, table descriptions, or both. An example with a scripts module (its
// FileMaker scripts as JavaScript handlers) has the emulator run them.
const serveArgs = [
  ...(existsSync(`${dir}/layouts`) ? ["--layouts", "layouts"] : []),
  ...(existsSync(`${dir}/tables`) ? ["--tables", "tables"] : []),
  "--data",
  "seed.json",
  ...(existsSync(`${dir}/scripts.mjs`) ? ["--scripts", "scripts.mjs"] : []),
];
step(`fmgen serve ${serveArgs.join(" ")}`);
const server = spawn(process.execPath, [bin, "serve", ...serveArgs], { cwd: dir, stdio: ["ignore", "pipe", "inherit"] });
try {
  const url = await firstLine(server);
  console.log(`emulator at ${url}`);

  if (config.layouts) {
    step(`fmgen pull --server ${url}`);
    fmgen("pull", "--server", url);
  }
  if (config.tables) {
    step(`fmgen pull --odata --server ${url}`);
    fmgen("pull", "--odata", "--server", url);
  }

  step("fmgen generate");
  fmgen("generate");

  // tsc -b: an app unchanged since the last check (`npm run typecheck` checks the examples too) is not checked again;
  // a fresh clone's, or an edited one's, is, and its errors are shown (again on every run until they are fixed).
  step(`tsc -b examples/${name}/tsconfig.json`);
  execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, "-b", `${dir}/tsconfig.json`], { stdio: "inherit" });

  step(`node examples/.build/${name}/app.js`);
  execFileSync(process.execPath, [`${root}examples/.build/${name}/app.js`], {
    stdio: "inherit",
    env: { ...env, FM_SERVER: url },
  });
} finally {
  server.kill();
}

function firstLine(child) {
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`fmgen serve exited with code ${code} before printing its URL`)));
  });
}
