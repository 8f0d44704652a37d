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
// Issue 33: with TypeScript in the app's node_modules, generate asks it for the tsconfig's effective options (defaults,
// extends from packages), so the setups only defaults break (classic resolution, an ES5 target) are refused too.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const LAYOUTS = join(ROOT, "examples/contacts/layouts");
const APP = `import { createClient } from "@fmgen/runtime";
import { Contact, Contacts } from "./generated/index.js";

export const contacts = createClient({ server: "https://fm.example.com", database: Contacts, auth: { username: "u", password: "p" } }).layout(Contact);
`;

interface Setup {
  name: string;
  type: "commonjs" | "module" | undefined;
  /** `null` leaves the option out of the tsconfig (writeTsconfig sets target es2022 and skipLibCheck true otherwise). */
  compilerOptions: Record<string, string | boolean | null>;
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
  // Issue 33: what only the defaults break. "module": "esnext" or "es2022" alone resolves "classic" (TS2792).
  { name: "ESM, esnext", type: "module", compilerOptions: { module: "esnext" } },
  { name: "ESM, es2022", type: "module", compilerOptions: { module: "es2022" } },
  { name: "ESM, es2015", type: "module", compilerOptions: { module: "es2015" } },
  // No target is ES5 in TypeScript 5.9: the runtime's declarations' private # fields need ES2015 (TS18028)...
  { name: "CJS, esnext + bundler, no target", type: "commonjs", compilerOptions: { module: "esnext", moduleResolution: "bundler", target: null, skipLibCheck: null } },
  { name: "ESM, preserve, es5", type: "module", compilerOptions: { module: "preserve", target: "es5", skipLibCheck: false } },
  // ...unless the declarations go unchecked; and ES2015 is the lowest target that compiles them.
  { name: "ESM, esnext + bundler, no target, skipLibCheck", type: "module", compilerOptions: { module: "esnext", moduleResolution: "bundler", target: null } },
  { name: "ESM, esnext + bundler, es2015", type: "module", compilerOptions: { module: "esnext", moduleResolution: "bundler", target: "es2015", skipLibCheck: false } },
  { name: "ESM, esnext + bundler, es2022", type: "module", compilerOptions: { module: "esnext", moduleResolution: "bundler", target: "es2022", skipLibCheck: false } },
  { name: "ESM, nodenext, no target", type: "module", compilerOptions: { module: "nodenext", target: null, skipLibCheck: false } },
  // node18, like node16, cannot require() an ES module.
  { name: "no type, node18", type: undefined, compilerOptions: { module: "node18" } },
  { name: "ESM, node18", type: "module", compilerOptions: { module: "node18" } },
  // Options TypeScript itself refuses: nothing compiles.
  { name: "ESM, esnext + node16", type: "module", compilerOptions: { module: "esnext", moduleResolution: "node16" } },
];

/** An app as `npm install` leaves it: @fmgen/runtime, Node's types and (unless `typescript: false`) TypeScript. */
async function appProject(setup: Setup, { typescript = true } = {}): Promise<string> {
  const dir = await tempDir("app-kind");
  await writeFile(join(dir, "package.json"), JSON.stringify({ name: "app", version: "1.0.0", ...(setup.type ? { type: setup.type } : {}) }));
  await mkdir(join(dir, "node_modules/@fmgen"), { recursive: true });
  await mkdir(join(dir, "node_modules/@types"), { recursive: true });
  await symlink(join(ROOT, "packages/runtime"), join(dir, "node_modules/@fmgen/runtime"), "dir");
  await symlink(join(ROOT, "node_modules/@types/node"), join(dir, "node_modules/@types/node"), "dir");
  if (typescript) await symlink(join(ROOT, "node_modules/typescript"), join(dir, "node_modules/typescript"), "dir");
  await writeFile(join(dir, "app.ts"), APP);
  return dir;
}

async function writeTsconfig(dir: string, compilerOptions: Setup["compilerOptions"]): Promise<void> {
  // Comments and a trailing comma, as `tsc --init` writes them.
  const options = Object.entries({ target: "es2022", strict: true, skipLibCheck: true, noEmit: true, ...compilerOptions })
    .filter(([, v]) => v !== null)
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

async function generate(dir: string): Promise<{ code: number; err: string; out: string }> {
  const io = memoryIo();
  const code = await run(["generate", "--layouts", LAYOUTS, "--out", join(dir, "generated")], io);
  return { code, err: io.err.join("\n"), out: io.out.join("\n") };
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
    // What the investigations measured with TypeScript 5.9: of issue 22's eleven, the first six compile, the last
    // five do not; of issue 33's, the bare "module"s, no target or es5 with checked declarations, node18 in CommonJS
    // and the options TypeScript refuses do not.
    expect(verdicts.filter((v) => v.endsWith("refused"))).toEqual([
      "CJS, node16: refused",
      "no type, node16: refused",
      "CJS, commonjs + node10: refused",
      "CJS, commonjs: refused",
      "ESM, esnext + node: refused",
      "ESM, esnext: refused",
      "ESM, es2022: refused",
      "ESM, es2015: refused",
      "CJS, esnext + bundler, no target: refused",
      "ESM, preserve, es5: refused",
      "no type, node18: refused",
      "ESM, esnext + node16: refused",
    ]);
  }, 240_000);

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

  it("follows a relative extends and a package's tsconfig", async () => {
    const based = await appProject({ name: "extends", type: "commonjs", compilerOptions: {} });
    await writeFile(join(based, "tsconfig.base.json"), JSON.stringify({ compilerOptions: { module: "commonjs", strict: true, noEmit: true } }));
    await writeFile(join(based, "tsconfig.json"), JSON.stringify({ extends: "./tsconfig.base.json", compilerOptions: { skipLibCheck: true } }));
    const refused = await generate(based);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(`${shown(based, "tsconfig.json")} sets (through its extends) "module": "commonjs"`);

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

describe("fmgen generate judges the effective options when the app has TypeScript (issue 33)", () => {
  it("names the file and the change for each default that breaks, and the change it names makes the app compile", async () => {
    const classic = await appProject({ name: "esnext", type: "module", compilerOptions: {} });
    await writeTsconfig(classic, { module: "esnext" });
    const refused = await generate(classic);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(`${shown(classic, "tsconfig.json")} sets "module": "esnext" and no "moduleResolution", which TypeScript then takes as "classic"`);
    expect(refused.err).toContain(`Set "moduleResolution": "bundler" in ${shown(classic, "tsconfig.json")}`);
    await writeTsconfig(classic, { module: "esnext", moduleResolution: "bundler" });
    expect((await generate(classic)).code).toBe(0);
    expect(compile(classic)).toEqual([]);

    const es5 = await appProject({ name: "no target", type: "module", compilerOptions: {} });
    await writeTsconfig(es5, { module: "esnext", moduleResolution: "bundler", target: null, skipLibCheck: null });
    const old = await generate(es5);
    expect(old.code).toBe(1);
    expect(old.err).toContain(`${shown(es5, "tsconfig.json")} sets no "target", which TypeScript ${ts.versionMajorMinor} takes as "es5"`);
    expect(old.err).toMatch(/private # fields.*"es2015" or later \(TS18028\)/);
    expect(old.err).toContain(`Set "target": "es2022" in ${shown(es5, "tsconfig.json")}`);
    await writeTsconfig(es5, { module: "esnext", moduleResolution: "bundler", target: "es2022", skipLibCheck: null });
    expect((await generate(es5)).code).toBe(0);
    expect(compile(es5)).toEqual([]);

    const node18 = await appProject({ name: "node18", type: undefined, compilerOptions: {} });
    await writeTsconfig(node18, { module: "node18" });
    const said = await generate(node18);
    expect(said.code).toBe(1);
    expect(said.err).toContain(`${shown(node18, "tsconfig.json")} sets "module": "node18" and ${shown(node18, "package.json")} makes`);

    const mismatch = await appProject({ name: "mismatch", type: "module", compilerOptions: {} });
    await writeTsconfig(mismatch, { module: "esnext", moduleResolution: "node16" });
    const bad = await generate(mismatch);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain(`TypeScript refuses the options of ${shown(mismatch, "tsconfig.json")}: Option 'module' must be set to 'Node16' when option 'moduleResolution' is set to 'Node16'. (TS5110)`);
    // A tsconfig TypeScript cannot parse is refused as tsc refuses it; an include that finds nothing yet is not.
    await writeFile(join(mismatch, "tsconfig.json"), '{ "compilerOptions": { "module": "nodenext" }');
    expect((await generate(mismatch)).err).toContain(`TypeScript refuses the options of ${shown(mismatch, "tsconfig.json")}: '}' expected. (TS1005)`);
    await writeFile(join(mismatch, "tsconfig.json"), JSON.stringify({ include: ["src"], compilerOptions: { module: "nodenext" } }));
    expect(await generate(mismatch)).toMatchObject({ code: 0, err: "" });
  }, 120_000);

  it("follows extends into packages (a shared config), which the textual judgement cannot read", async () => {
    // As @tsconfig packages ship theirs: a package in node_modules whose tsconfig.json sets "module" and no resolution.
    const sharedConfig = async (dir: string) => {
      await mkdir(join(dir, "node_modules/@acme/tsconfig"), { recursive: true });
      await writeFile(join(dir, "node_modules/@acme/tsconfig/package.json"), JSON.stringify({ name: "@acme/tsconfig", version: "1.0.0" }));
      await writeFile(join(dir, "node_modules/@acme/tsconfig/tsconfig.json"), JSON.stringify({ compilerOptions: { module: "es2022", target: "es2022", strict: true, noEmit: true } }));
      await writeFile(join(dir, "tsconfig.json"), JSON.stringify({ extends: "@acme/tsconfig/tsconfig.json", compilerOptions: { skipLibCheck: true } }));
    };
    const withTs = await appProject({ name: "shared, es2022", type: "module", compilerOptions: {} });
    await sharedConfig(withTs);
    const refused = await generate(withTs);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(`${shown(withTs, "tsconfig.json")} sets (through its extends) "module": "es2022" and no "moduleResolution"`);
    expect(compile(withTs).some((e) => e.includes("@fmgen/runtime"))).toBe(true);

    // Without TypeScript installed, only what is written in the tsconfig and its relative extends is judged: said so.
    const withoutTs = await appProject({ name: "shared, no TypeScript", type: "module", compilerOptions: {} }, { typescript: false });
    await sharedConfig(withoutTs);
    const textual = await generate(withoutTs);
    expect(textual.code).toBe(0);
    expect(textual.err).toContain(
      `fmgen generate: note: TypeScript is not installed where ${shown(withoutTs, "tsconfig.json")} is, so only the "module" and "moduleResolution" written in it and in the relative files it extends were checked`,
    );
  }, 60_000);

  it("notes, without refusing, that a CommonJS package under nodenext cannot hold top-level await", async () => {
    const cjs = await appProject({ name: "npm init -y", type: "commonjs", compilerOptions: {} });
    await writeTsconfig(cjs, { module: "nodenext" });
    const noted = await generate(cjs);
    expect(noted.code).toBe(0);
    expect(noted.err).toContain(
      `fmgen generate: note: ${shown(cjs, "package.json")} makes ${shown(cjs, "generated")} CommonJS ("type": "commonjs") under "module": "nodenext": the generated modules compile, but an app file with top-level await fails (TS1309); "npm pkg set type=module" makes the package ESM`,
    );
    // What the note says: top-level await in the app fails until the package is ESM.
    await writeFile(join(cjs, "main.ts"), 'import { contacts } from "./app.js";\nawait contacts.list({ limit: 1 });\n');
    expect(compile(cjs)).toEqual([expect.stringContaining("cannot use 'await' at the top level")]);
    await writeFile(join(cjs, "package.json"), JSON.stringify({ name: "app", version: "1.0.0", type: "module" }));
    const quiet = await generate(cjs);
    expect(quiet.err).toBe("");
    expect(compile(cjs)).toEqual([]);
  }, 60_000);
});
