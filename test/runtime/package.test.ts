import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { build, transform } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRuntimeEmulator, type Emulator } from "../support/runtime-emulator.js";
import { DATABASE, PASSWORD, USERNAME } from "../support/runtime-layouts.js";

// The packages as they are published (docs/getting-started.md, "Install it in your app"; docs/deploying.md):
// @fmgen/runtime depends on undici only, ships no generator code and no source maps, resolves to the fetch entry
// wherever there is no Node, and loads zod only when a <Name>Schema is used. These read the built packages (npm test
// builds first); nothing here needs the network.

/** How wrangler bundles a Worker: esbuild's neutral platform with the Workers' export conditions. */
const WORKERS = { platform: "neutral" as const, conditions: ["workerd", "worker", "browser"] };

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const RUNTIME = join(ROOT, "packages/runtime");
const run = promisify(execFile);

interface PackedFile {
  path: string;
}

const packs = new Map<string, Promise<string[]>>();

/** The files `npm pack` would put in the package's tarball (its prepack build skipped: npm test has built it). */
function packedFiles(dir: string): Promise<string[]> {
  let files = packs.get(dir);
  if (!files) {
    files = run("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: dir }).then(({ stdout }) => {
      const [pack] = JSON.parse(stdout) as [{ files: PackedFile[] }];
      return pack.files.map((f) => f.path).sort();
    });
    packs.set(dir, files);
  }
  return files;
}

const manifest = (dir: string) => JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Record<string, unknown>;

describe("@fmgen/runtime's package.json", () => {
  it("depends on undici only; zod is an optional peer dependency", () => {
    const pkg = manifest(RUNTIME);
    expect(Object.keys(pkg.dependencies as object)).toEqual(["undici"]);
    expect(Object.keys(pkg.peerDependencies as object)).toEqual(["zod"]);
    expect(pkg.peerDependenciesMeta).toEqual({ zod: { optional: true } });
    expect(pkg.optionalDependencies).toBeUndefined();
  });

  it("is what fmgen depends on, at the workspace's version", () => {
    const fmgen = manifest(ROOT);
    expect((fmgen.dependencies as Record<string, string>)["@fmgen/runtime"]).toBe(manifest(RUNTIME).version);
    expect(fmgen.workspaces).toEqual(["packages/runtime"]);
  });
});

describe("what npm pack publishes", () => {
  // npm runs these in a package it installs (prepare too, for a folder or git dependency) and npm 11 warns about
  // each one not allowed by the app; a package that is already built has none to run. prepack (the build before
  // packing) runs only where the package is packed.
  it.each([
    ["fmgen", ROOT],
    ["@fmgen/runtime", RUNTIME],
  ])("%s: no script that runs at install (preinstall, install, postinstall, prepare)", (_name, dir) => {
    const scripts = (manifest(dir).scripts ?? {}) as Record<string, string>;
    expect(Object.keys(scripts).filter((name) => ["preinstall", "install", "postinstall", "prepare"].includes(name))).toEqual([]);
    expect(Object.keys(scripts)).toContain("prepack");
  });

  it("fmgen: carries its own zod (bundleDependencies), so an app's production install (--omit=dev) has none", async () => {
    // A zod installed for fmgen (a devDependency) at the app's top level would satisfy @fmgen/runtime's optional
    // peer dependency on zod; npm then flags it devOptional and keeps it in `npm ci --omit=dev`. Bundled, it sits
    // in fmgen's own node_modules, which @fmgen/runtime does not resolve from, and leaves with fmgen.
    expect(manifest(ROOT).bundleDependencies).toEqual(["zod"]);
    expect(await packedFiles(ROOT)).toContain("node_modules/zod/package.json");
  });

  it("@fmgen/runtime: its built runtime, README and LICENSE; no generator code, no source maps", async () => {
    const files = await packedFiles(RUNTIME);
    expect(files).toEqual(expect.arrayContaining(["LICENSE", "README.md", "package.json", "dist/index.js", "dist/index.d.ts", "dist/fetch.js", "dist/schema.js", "dist/schema-node.js", "dist/odata/index.js", "dist/odata/fetch.js"]));
    const sources = new Set(readdirSync(join(ROOT, "src/runtime"), { recursive: true, encoding: "utf8" }).map((f) => f.replace(/\.ts$/, "")));
    for (const file of files.filter((f) => f.startsWith("dist/"))) {
      // Every file is the build of a runtime source; nothing from src/generate, src/pull, src/cli, src/emulator.
      expect(sources, file).toContain(file.slice("dist/".length).replace(/\.(d\.ts|js)$/, ""));
    }
    expect(files.filter((f) => !f.startsWith("dist/"))).toEqual(["LICENSE", "README.md", "package.json"]);
    for (const file of files.filter((f) => f.endsWith(".js"))) {
      const text = readFileSync(join(RUNTIME, file), "utf8");
      expect(text, file).not.toMatch(/from "(ts-morph|prettier|yargs|typescript)"|sourceMappingURL/);
    }
  });

  it("fmgen: a LICENSE, and no source maps pointing at sources it does not ship", async () => {
    const files = await packedFiles(ROOT);
    expect(files).toContain("LICENSE");
    expect(files).toContain("dist/cli/bin.js");
    expect(files.filter((f) => f.endsWith(".map"))).toEqual([]);
    expect(files.filter((f) => f.startsWith("src/"))).toEqual([]);
  });
});

describe("fmgen/runtime, removed", () => {
  it("is not an export of fmgen (it was never released): apps import @fmgen/runtime", async () => {
    const code = 'try { await import("fmgen/runtime"); console.log("imported"); } catch (e) { console.log(e.code); }';
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", code], { cwd: ROOT });
    expect(stdout.trim()).toBe("ERR_PACKAGE_PATH_NOT_EXPORTED");
  });
});

describe("@fmgen/runtime's exports, as bundlers and runtimes resolve them", () => {
  /** The package's files an esbuild bundle of `source` (resolved from the repository, as an app would) takes in. */
  async function resolved(source: string, options: { platform: "node" | "neutral" | "browser"; conditions?: string[] }): Promise<{ files: string[]; code: string }> {
    const result = await build({
      stdin: { contents: source, resolveDir: ROOT, sourcefile: "app.js" },
      bundle: true,
      write: false,
      metafile: true,
      format: "esm",
      logLevel: "silent",
      external: ["zod", "undici", "node:*"],
      // As an app resolves it: through node_modules, not the repository's tsconfig paths (which name the sources).
      tsconfigRaw: "{}",
      ...options,
    });
    const files = Object.keys(result.metafile.inputs).filter((f) => f.includes("packages/runtime/dist/"));
    return { files: files.map((f) => f.slice(f.indexOf("dist/"))), code: result.outputFiles[0]!.text };
  }

  const fetchRuntimes: [string, { platform: "neutral" | "browser"; conditions?: string[] }][] = [
    ["Cloudflare Workers (wrangler)", WORKERS],
    ["Deno", { platform: "neutral", conditions: ["deno"] }],
    ["Bun", { platform: "neutral", conditions: ["bun"] }],
    ["a browser bundle", { platform: "browser" }],
    ["anything else (the default condition)", { platform: "neutral" }],
  ];
  it.each(fetchRuntimes)("%s: the fetch entry, with no node: module and no undici", async (_where, options) => {
    const { files, code } = await resolved(`export { createClient } from "@fmgen/runtime";`, options);
    expect(files).toContain("dist/fetch.js");
    expect(files).not.toContain("dist/index.js");
    expect(files.filter((f) => f.includes("undici"))).toEqual([]);
    expect(code).not.toMatch(/["']node:|["']undici["']/);
  });

  it("the redis-token-store subpath: its one file, with no node: module and no Redis client, for any runtime", async () => {
    const source = `export { redisTokenStore } from "@fmgen/runtime/redis-token-store";`;
    for (const [, options] of [...fetchRuntimes, ["Node", { platform: "node" as const }] as const]) {
      const { files, code } = await resolved(source, options);
      expect(files).toEqual(["dist/redis-token-store.js"]);
      expect(code).not.toMatch(/["']node:|["'](?:io)?redis["']/);
    }
  });

  it("Node: the undici entry", async () => {
    const { files, code } = await resolved(`export { createClient } from "@fmgen/runtime";`, { platform: "node" });
    expect(files).toContain("dist/index.js");
    expect(files).toContain("dist/data-api/undici-transport.js");
    expect(files).not.toContain("dist/fetch.js");
    expect(code).toMatch(/import\("undici"\)/);
  });

  it("the schema entry: zod loaded on first use on Node, imported for bundlers without Node", async () => {
    expect((await resolved(`export { recordSchema } from "@fmgen/runtime/schema";`, { platform: "node" })).files).toContain("dist/schema-node.js");
    const worker = await resolved(`export { recordSchema } from "@fmgen/runtime/schema";`, WORKERS);
    expect(worker.files).toContain("dist/schema.js");
    expect(worker.code).not.toMatch(/["']node:/);
  });
});

describe("an app with @fmgen/runtime and no zod, on Node", () => {
  let emu: Emulator;
  let app: string;

  beforeAll(async () => {
    emu = await startRuntimeEmulator();
    // node_modules as `npm install @fmgen/runtime` leaves it (the package and undici; zod is an optional peer),
    // in a folder with no node_modules above it.
    app = mkdtempSync(join(tmpdir(), "fmgen-no-zod-"));
    const runtime = join(app, "node_modules/@fmgen/runtime");
    mkdirSync(runtime, { recursive: true });
    cpSync(join(RUNTIME, "package.json"), join(runtime, "package.json"));
    cpSync(join(RUNTIME, "dist"), join(runtime, "dist"), { recursive: true });
    symlinkSync(join(ROOT, "node_modules/undici"), join(app, "node_modules/undici"), "dir");
    writeFileSync(join(app, "package.json"), JSON.stringify({ type: "module" }));
    // The contacts example's generated modules, compiled as the app's build would.
    mkdirSync(join(app, "generated"));
    const generated = join(ROOT, "examples/contacts/generated");
    for (const file of readdirSync(generated)) {
      const { code } = await transform(readFileSync(join(generated, file), "utf8"), { loader: "ts", format: "esm" });
      writeFileSync(join(app, "generated", file.replace(/\.ts$/, ".js")), code);
    }
    writeFileSync(
      join(app, "app.js"),
      `import { createRequire } from "node:module";
import { createClient } from "@fmgen/runtime";
import { Contact } from "./generated/index.js";
import { ContactSchema } from "./generated/schemas.js";
let zod = "resolvable";
try { import.meta.resolve("zod"); } catch { zod = "not installed"; }
// undici is loaded at the first request, not at import.
const undiciLoaded = () => Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes("/undici/"));
const undiciAtImport = undiciLoaded();
const fm = createClient({ server: process.argv[2], database: ${JSON.stringify(DATABASE)}, auth: { username: ${JSON.stringify(USERNAME)}, password: ${JSON.stringify(PASSWORD)} } });
const page = await fm.layout(Contact).list({ limit: 2 });
await fm.close();
let schema;
try { schema = ContactSchema.safeParse(page.data[0]).success; } catch (error) { schema = error.message; }
// The app's own zod and the schema mix: one module instance.
let composed = null;
if (zod === "resolvable") {
  const { z } = await import("zod");
  composed = ContactSchema instanceof z.ZodType && z.array(ContactSchema).safeParse(page.data).success && !z.array(ContactSchema).safeParse([{}]).success;
}
console.log(JSON.stringify({ zod, undiciAtImport, undiciAfterRequest: undiciLoaded(), records: page.data.length, schema, composed }));
`,
    );
  });

  afterAll(async () => {
    await emu.close();
    rmSync(app, { recursive: true, force: true });
  });

  const runApp = async () => JSON.parse((await run(process.execPath, [join(app, "app.js"), emu.url], { cwd: app })).stdout) as Record<string, unknown>;

  it("imports generated modules and reads records; only using a schema asks for zod", async () => {
    expect(await runApp()).toEqual({
      zod: "not installed",
      undiciAtImport: false,
      undiciAfterRequest: true,
      records: 2,
      schema: 'a <Name>Schema needs zod, an optional peer dependency of @fmgen/runtime: install it ("npm install zod")',
      composed: null,
    });
  });

  it("bundles for Workers without zod when it uses no schema; a bundle that imports schemas.ts asks for zod", async () => {
    // A bundler resolves every import it meets, used or not: the generated modules the app imports (index.ts) must
    // not reach @fmgen/runtime/schema, whose bundler entry imports zod. The schemas are in schemas.ts alone.
    const bundle = (source: string) =>
      build({
        stdin: { contents: source, resolveDir: app, sourcefile: "worker.ts", loader: "ts" },
        bundle: true,
        write: false,
        metafile: true,
        format: "esm",
        ...WORKERS,
        logLevel: "silent",
        tsconfigRaw: "{}",
      });
    const worker = `import { createClient } from "@fmgen/runtime";
import { Contact } from "./generated/index.js";
export default { fetch: async () => Response.json(await createClient({ server: "https://fms.example.com", database: "Contacts", auth: { username: "u", password: "p" } }).layout(Contact).list({ limit: 1 })) };`;
    const result = await bundle(worker);
    // Paths relative to the app (esbuild gives them relative to the working directory).
    const inputs = Object.keys(result.metafile.inputs).map((f) => f.slice(f.indexOf("fmgen-no-zod-")).replace(/^[^/]*\//, ""));
    expect(inputs).toContain("generated/contact.js");
    expect(inputs.filter((f) => /schema|zod/.test(f))).toEqual([]);
    await expect(bundle(`${worker}\nexport { ContactSchema } from "./generated/schemas.js";`)).rejects.toThrow(/Could not resolve "zod"/);
  });

  it("with zod installed, the same schema checks a record, and composes with the app's own zod", async () => {
    symlinkSync(join(ROOT, "node_modules/zod"), join(app, "node_modules/zod"), "dir");
    try {
      expect(await runApp()).toEqual({ zod: "resolvable", undiciAtImport: false, undiciAfterRequest: true, records: 2, schema: true, composed: true });
    } finally {
      rmSync(join(app, "node_modules/zod"));
    }
  });
});
