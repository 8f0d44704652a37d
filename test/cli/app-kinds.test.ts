import { cp, mkdir, readdir, symlink, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { memoryIo, tempDir } from "../pull/helpers.js";

// Issue 22: an app as `npm init -y` leaves it ("type": "commonjs") got dozens of errors inside generated/.
// Each setup below is a real project in a temp folder: its package.json and tsconfig.json, @fmgen/runtime in its
// node_modules (a link to packages/runtime with its built dist), the contacts example generated through the CLI,
// and an app file importing the generated client. tsc (the TypeScript API, reading the project's own tsconfig)
// decides what compiles; `fmgen generate` must refuse exactly the setups tsc rejects, and say what to change.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const LAYOUTS = join(ROOT, "examples/contacts/layouts");
const APP = `import { createClient } from "@fmgen/runtime";
import { Contact, Contacts } from "./generated/index.js";

export const contacts = createClient({ server: "https://fm.example.com", database: Contacts, auth: { username: "u", password: "p" } }).layout(Contact);
`;

interface Setup {
  name: string;
  type: "commonjs" | "module" | undefined;
  compilerOptions: Record<string, string>;
}

const SETUPS: Setup[] = [
  { name: "CJS, nodenext", type: "commonjs", compilerOptions: { module: "nodenext" } },
  { name: "no type, node20", type: undefined, compilerOptions: { module: "node20" } },
  { name: "CJS, esnext + bundler", type: "commonjs", compilerOptions: { module: "esnext", moduleResolution: "bundler" } },
  { name: "no type, preserve", type: undefined, compilerOptions: { module: "preserve" } },
  { name: "ESM, node16", type: "module", compilerOptions: { module: "node16" } },
  { name: "ESM, nodenext", type: "module", compilerOptions: { module: "nodenext" } },
  { name: "CJS, node16", type: "commonjs", compilerOptions: { module: "node16" } },
  { name: "no type, node16", type: undefined, compilerOptions: { module: "node16" } },
  { name: "CJS, commonjs + node10", type: "commonjs", compilerOptions: { module: "commonjs", moduleResolution: "node10" } },
  { name: "CJS, commonjs", type: "commonjs", compilerOptions: { module: "commonjs" } },
  { name: "ESM, esnext + node", type: "module", compilerOptions: { module: "esnext", moduleResolution: "node" } },
];

async function appProject(setup: Setup): Promise<string> {
  const dir = await tempDir("app-kind");
  await writeFile(join(dir, "package.json"), JSON.stringify({ name: "app", version: "1.0.0", ...(setup.type ? { type: setup.type } : {}) }));
  await mkdir(join(dir, "node_modules/@fmgen"), { recursive: true });
  await mkdir(join(dir, "node_modules/@types"), { recursive: true });
  await symlink(join(ROOT, "packages/runtime"), join(dir, "node_modules/@fmgen/runtime"), "dir");
  await symlink(join(ROOT, "node_modules/@types/node"), join(dir, "node_modules/@types/node"), "dir");
  await writeFile(join(dir, "app.ts"), APP);
  return dir;
}

async function writeTsconfig(dir: string, compilerOptions: Record<string, string>): Promise<void> {
  // Comments and a trailing comma, as `tsc --init` writes them.
  const options = Object.entries({ target: "es2022", strict: true, skipLibCheck: true, noEmit: true, ...compilerOptions })
    .map(([k, v]) => `    ${JSON.stringify(k)}: ${JSON.stringify(v)}, // ${k}`)
    .join("\n");
  await writeFile(join(dir, "tsconfig.json"), `{\n  /* the app */\n  "compilerOptions": {\n${options}\n  },\n}\n`);
}

function compile(dir: string): string[] {
  const file = join(dir, "tsconfig.json");
  const { config } = ts.readConfigFile(file, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, dir, undefined, file);
  const program = ts.createProgram(parsed.fileNames, parsed.options);
  return [...parsed.errors, ...ts.getPreEmitDiagnostics(program)].map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

/** As the CLI prints a path: relative to where it runs. */
function shown(dir: string, file: string): string {
  return relative(process.cwd(), join(dir, file));
}

async function generate(dir: string): Promise<{ code: number; err: string }> {
  const io = memoryIo();
  const code = await run(["generate", "--layouts", LAYOUTS, "--out", join(dir, "generated")], io);
  return { code, err: io.err.join("\n") };
}

describe("fmgen generate in the app's module setup", () => {
  it("refuses exactly the setups whose compile fails, and the others compile the generated client", async () => {
    const verdicts: string[] = [];
    const expected: string[] = [];
    for (const setup of SETUPS) {
      const dir = await appProject(setup);
      // Generated before the tsconfig exists (nothing to judge), so the refused setups can be compiled too.
      expect((await generate(dir)).code).toBe(0);
      await writeTsconfig(dir, setup.compilerOptions);
      const { code, err } = await generate(dir);
      const errors = compile(dir);
      verdicts.push(`${setup.name}: ${code === 0 ? "generated" : "refused"}`);
      expected.push(`${setup.name}: ${errors.length === 0 ? "generated" : "refused"}`);
      if (code !== 0) expect(err).toMatch(/^fmgen generate: the generated modules would not compile here: .*tsconfig\.json/);
    }
    expect(verdicts).toEqual(expected);
    // What the investigation measured with TypeScript 5.9: the first six compile, the last five do not.
    expect(verdicts.filter((v) => v.endsWith("refused")).length).toBe(5);
  }, 120_000);

  it("names the file and the change, and the change it names makes the app compile", async () => {
    const cjs = await appProject({ name: "npm init -y", type: "commonjs", compilerOptions: {} });
    await writeTsconfig(cjs, { module: "commonjs" });
    const refused = await generate(cjs);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(`${shown(cjs, "tsconfig.json")} sets "module": "commonjs"`);
    expect(refused.err).toContain(`Set "module": "nodenext" in ${shown(cjs, "tsconfig.json")}`);
    await writeTsconfig(cjs, { module: "nodenext" });
    expect((await generate(cjs)).code).toBe(0);
    expect(compile(cjs)).toEqual([]);

    const node16 = await appProject({ name: "node16", type: undefined, compilerOptions: {} });
    await writeTsconfig(node16, { module: "node16" });
    const said = await generate(node16);
    expect(said.code).toBe(1);
    expect(said.err).toContain(`Set "type": "module" in ${shown(node16, "package.json")}`);
    await writeFile(join(node16, "package.json"), JSON.stringify({ name: "app", version: "1.0.0", type: "module" }));
    expect((await generate(node16)).code).toBe(0);
    expect(compile(node16)).toEqual([]);
  }, 60_000);

  it("follows a relative extends, and never refuses on what it cannot read (a package's tsconfig)", async () => {
    const based = await appProject({ name: "extends", type: "commonjs", compilerOptions: {} });
    await writeFile(join(based, "tsconfig.base.json"), JSON.stringify({ compilerOptions: { module: "commonjs", strict: true, noEmit: true } }));
    await writeFile(join(based, "tsconfig.json"), JSON.stringify({ extends: "./tsconfig.base.json", compilerOptions: { skipLibCheck: true } }));
    const refused = await generate(based);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(`${shown(based, "tsconfig.json")} sets "module": "commonjs"`);

    const shared = await appProject({ name: "shared config", type: "commonjs", compilerOptions: {} });
    await mkdir(join(shared, "node_modules/@acme/tsconfig"), { recursive: true });
    await writeFile(join(shared, "node_modules/@acme/tsconfig/tsconfig.json"), JSON.stringify({ compilerOptions: { module: "nodenext", strict: true, noEmit: true } }));
    await writeFile(join(shared, "tsconfig.json"), JSON.stringify({ extends: "@acme/tsconfig/tsconfig.json", compilerOptions: { skipLibCheck: true } }));
    expect((await generate(shared)).code).toBe(0);
    expect(compile(shared)).toEqual([]);
  }, 60_000);
});

describe("an app without zod (issue 33)", () => {
  it("compiles the generated modules with skipLibCheck false; only --schemas (the runtime's schema declarations import zod) needs zod", async () => {
    // node_modules as `npm install @fmgen/runtime` leaves it: the package copied (a link would resolve zod from this
    // repository's node_modules), undici, Node's types; no zod anywhere above the app.
    const dir = await tempDir("no-zod");
    await writeFile(join(dir, "package.json"), JSON.stringify({ name: "app", version: "1.0.0", type: "module" }));
    await mkdir(join(dir, "node_modules/@fmgen/runtime"), { recursive: true });
    await mkdir(join(dir, "node_modules/@types"), { recursive: true });
    await cp(join(ROOT, "packages/runtime/package.json"), join(dir, "node_modules/@fmgen/runtime/package.json"));
    await cp(join(ROOT, "packages/runtime/dist"), join(dir, "node_modules/@fmgen/runtime/dist"), { recursive: true });
    await symlink(join(ROOT, "node_modules/undici"), join(dir, "node_modules/undici"), "dir");
    await symlink(join(ROOT, "node_modules/@types/node"), join(dir, "node_modules/@types/node"), "dir");
    await writeFile(join(dir, "app.ts"), APP);
    await writeFile(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { module: "nodenext", target: "es2022", strict: true, skipLibCheck: false, noEmit: true } }));
    expect(ts.resolveModuleName("zod", join(dir, "app.ts"), { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext }, ts.sys).resolvedModule).toBeUndefined();

    expect((await generate(dir)).code).toBe(0);
    expect((await readdir(join(dir, "generated"))).sort()).toEqual(["contact.ts", "contacts.ts", "index.ts", "invoice.ts"]);
    expect(compile(dir)).toEqual([]);

    // With schemas.ts the same app fails, inside the runtime's declarations: what the default avoids.
    const io = memoryIo();
    expect(await run(["generate", "--layouts", LAYOUTS, "--out", join(dir, "generated"), "--schemas"], io)).toBe(0);
    expect(compile(dir)).toEqual([expect.stringMatching(/^Cannot find module 'zod'/)]);
  }, 60_000);
});
