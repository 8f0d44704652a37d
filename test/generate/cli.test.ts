import { cp, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CliIo } from "../../src/cli/io.js";
import { run } from "../../src/cli/run.js";
import { generate } from "../../src/generate/index.js";
import { loadLayouts } from "../../src/layout/index.js";

const EXAMPLE_LAYOUTS = new URL("../../examples/contacts/layouts/", import.meta.url).pathname;

function memoryIo(stop: Promise<void> = new Promise(() => {})): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (l) => out.push(l), stderr: (l) => err.push(l), stopSignal: () => stop };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "fmgen-cli-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function project(): Promise<{ root: string; layouts: string; out: string }> {
  const root = await mkdtemp(join(dir, "project-"));
  const layouts = join(root, "layouts");
  await cp(EXAMPLE_LAYOUTS, layouts, { recursive: true });
  return { root, layouts, out: join(root, "generated") };
}

describe("fmgen generate", () => {
  it("writes what generate() returns, then --check passes, and fails with a diff after a description changes", async () => {
    const { layouts, out } = await project();
    const io = memoryIo();
    expect(await run(["generate", "--layouts", layouts, "--out", out], io)).toBe(0);
    expect(io.out.join("\n")).toMatch(/wrote contact\.ts, wrote contacts\.ts, wrote index\.ts, wrote invoice\.ts \(4 files\)/);
    for (const file of await generate(await loadLayouts([layouts]))) expect(await readFile(join(out, file.path), "utf8")).toBe(file.contents);

    const check = memoryIo();
    expect(await run(["generate", "--layouts", layouts, "--out", out, "--check"], check)).toBe(0);
    expect(check.out.join("\n")).toMatch(/is up to date/);

    const invoice = join(layouts, "Invoice.layout.json");
    const json = JSON.parse(await readFile(invoice, "utf8")) as { fields: unknown[] };
    json.fields.push({ name: "Due", type: "date" });
    await writeFile(invoice, JSON.stringify(json));
    const stale = memoryIo();
    expect(await run(["generate", "--layouts", layouts, "--out", out, "--check"], stale)).toBe(1);
    const diff = stale.out.join("\n");
    expect(diff).toMatch(/^--- a\/.*generated\/invoice\.ts\n\+\+\+ b\/.*generated\/invoice\.ts\n@@ /m);
    expect(diff).toMatch(/^\+ {4}Due: \{ type: "date" \},$/m);
    expect(stale.err.join("\n")).toMatch(/is stale: invoice\.ts \(changed\)/);

    expect(await run(["generate", "--layouts", layouts, "--out", out], memoryIo())).toBe(0);
    expect(await run(["generate", "--layouts", layouts, "--out", out, "--check"], memoryIo())).toBe(0);
  });

  it("reads fmgen.config.json given with --config, with globs, and lets flags override it", async () => {
    const { root, out } = await project();
    const config = join(root, "fmgen.config.json");
    await writeFile(config, JSON.stringify({ layouts: ["layouts/*.layout.json"], outDir: "generated" }));
    expect(await run(["generate", "--config", config], memoryIo())).toBe(0);
    // contacts.ts: the database's module.
    expect((await readdir(out)).sort()).toEqual(["contact.ts", "contacts.ts", "index.ts", "invoice.ts"]);
    const other = join(root, "other");
    expect(await run(["generate", "--config", config, "--out", other, "--layouts", join(root, "layouts/Contact.layout.json")], memoryIo())).toBe(0);
    expect((await readdir(other)).sort()).toEqual(["contact.ts", "contacts.ts", "index.ts"]);
  });

  it("writes index.ts's and schemas.ts's imports with options.importExtension or --import-extension (the flag wins), .js by default", async () => {
    const { root, out } = await project();
    const indexImports = async () => (await readFile(join(out, "index.ts"), "utf8")).match(/^export \* from ".*";$/gm);
    const config = join(root, "fmgen.config.json");
    await writeFile(config, JSON.stringify({ layouts: ["layouts"], outDir: "generated", options: { schemas: true } }));
    expect(await run(["generate", "--config", config], memoryIo())).toBe(0);
    expect(await indexImports()).toEqual(['export * from "./contact.js";', 'export * from "./contacts.js";', 'export * from "./invoice.js";']);
    await writeFile(config, JSON.stringify({ layouts: ["layouts"], outDir: "generated", options: { importExtension: ".ts", schemas: true } }));
    expect(await run(["generate", "--config", config], memoryIo())).toBe(0);
    expect(await indexImports()).toEqual(['export * from "./contact.ts";', 'export * from "./contacts.ts";', 'export * from "./invoice.ts";']);
    expect(await run(["generate", "--config", config, "--check"], memoryIo())).toBe(0);
    expect(await run(["generate", "--config", config, "--import-extension", ".js"], memoryIo())).toBe(0);
    expect(await indexImports()).toEqual(['export * from "./contact.js";', 'export * from "./contacts.js";', 'export * from "./invoice.js";']);
    // Only the barrel and the schemas module change: the layout modules import nothing relative.
    const io = memoryIo();
    expect(await run(["generate", "--config", config, "--import-extension", ".ts"], io)).toBe(0);
    expect(io.out.join("\n")).toMatch(/: wrote index\.ts, wrote schemas\.ts \(5 files\)/);
    const bad = memoryIo();
    expect(await run(["generate", "--config", config, "--import-extension", "ts"], bad)).toBe(2);
    expect(bad.err.join("\n")).toMatch(/import-extension/);
  });

  it("writes schemas.ts only with options.schemas or --schemas; without, deletes the one an earlier run wrote, and says why", async () => {
    const { root, out } = await project();
    const config = join(root, "fmgen.config.json");
    await writeFile(config, JSON.stringify({ layouts: ["layouts"], outDir: "generated", options: { schemas: true } }));
    const on = memoryIo();
    expect(await run(["generate", "--config", config], on)).toBe(0);
    expect(on.out.join("\n")).toMatch(/wrote invoice\.ts, wrote schemas\.ts \(5 files\)/);
    expect(await readFile(join(out, "schemas.ts"), "utf8")).toMatch(/^export const ContactSchema = /m);
    expect(await run(["generate", "--config", config, "--check"], memoryIo())).toBe(0);

    // The option off (the default): --check calls the earlier schemas.ts stale, generate deletes it.
    await writeFile(config, JSON.stringify({ layouts: ["layouts"], outDir: "generated" }));
    const check = memoryIo();
    expect(await run(["generate", "--config", config, "--check"], check)).toBe(1);
    expect(check.out.join("\n")).toMatch(/^--- a\/.*generated\/schemas\.ts\n\+\+\+ \/dev\/null$/m);
    expect(check.err.join("\n")).toMatch(/is stale: schemas\.ts \(stale\)\. .*"schemas": true/);
    const off = memoryIo();
    expect(await run(["generate", "--config", config], off)).toBe(0);
    expect(off.out.join("\n")).toMatch(/: deleted schemas\.ts \(4 files\); schemas\.ts is written only with "schemas": true in the config's options, or --schemas/);
    expect((await readdir(out)).sort()).toEqual(["contact.ts", "contacts.ts", "index.ts", "invoice.ts"]);

    // The flag wins over the config, both ways.
    expect(await run(["generate", "--config", config, "--schemas"], memoryIo())).toBe(0);
    expect((await readdir(out)).sort()).toContain("schemas.ts");
    await writeFile(config, JSON.stringify({ layouts: ["layouts"], outDir: "generated", options: { schemas: true } }));
    expect(await run(["generate", "--config", config, "--no-schemas"], memoryIo())).toBe(0);
    expect((await readdir(out)).sort()).not.toContain("schemas.ts");

    // A schemas.ts of the user's own (no generated header) is theirs: never deleted.
    await writeFile(join(out, "schemas.ts"), "export const mine = 1;\n");
    await writeFile(config, JSON.stringify({ layouts: ["layouts"], outDir: "generated" }));
    expect(await run(["generate", "--config", config], memoryIo())).toBe(0);
    expect(await run(["generate", "--config", config, "--check"], memoryIo())).toBe(0);
    expect(await readFile(join(out, "schemas.ts"), "utf8")).toBe("export const mine = 1;\n");
  });

  it("deletes the module of a removed layout", async () => {
    const { layouts, out } = await project();
    expect(await run(["generate", "--layouts", layouts, "--out", out], memoryIo())).toBe(0);
    await rm(join(layouts, "Invoice.layout.json"));
    const io = memoryIo();
    expect(await run(["generate", "--layouts", layouts, "--out", out], io)).toBe(0);
    expect(io.out.join("\n")).toMatch(/wrote index\.ts, deleted invoice\.ts/);
    expect((await readdir(out)).sort()).toEqual(["contact.ts", "contacts.ts", "index.ts"]);
  });

  it("is a usage error (exit 2) without layouts and an output folder, or with --check and --watch", async () => {
    const io = memoryIo();
    expect(await run(["generate", "--layouts", EXAMPLE_LAYOUTS], io)).toBe(2);
    expect(io.err.join("\n")).toMatch(/needs --out and --layouts, --tables or both, or a config file/);
    expect(await run(["generate", "--layouts", EXAMPLE_LAYOUTS, "--out", join(dir, "x"), "--check", "--watch"], memoryIo())).toBe(2);
  });

  it("names a bad description file and exits 1, writing nothing", async () => {
    const { layouts, out } = await project();
    await writeFile(join(layouts, "Broken.layout.json"), '{ "database": "x" }');
    const io = memoryIo();
    expect(await run(["generate", "--layouts", layouts, "--out", out], io)).toBe(1);
    expect(io.err.join("\n")).toMatch(/Broken\.layout\.json: /);
    await expect(readdir(out)).rejects.toThrow();
  });

  it("checks the app's setup before --watch starts too: a tsconfig that cannot compile the modules stops it, writing nothing", async () => {
    const { root, layouts, out } = await project();
    await writeFile(join(root, "tsconfig.json"), JSON.stringify({ compilerOptions: { module: "commonjs" } }));
    const io = memoryIo();
    expect(await run(["generate", "--layouts", layouts, "--out", out, "--watch"], io)).toBe(1);
    expect(io.err.join("\n")).toMatch(/^fmgen generate: the generated modules would not compile here: .*tsconfig\.json sets "module": "commonjs"/m);
    await expect(readdir(out)).rejects.toThrow(/ENOENT/);
  });

  it("--watch regenerates when a description changes, reports errors and goes on, and stops on the stop signal", async () => {
    const { layouts, out } = await project();
    let stop!: () => void;
    const io = memoryIo(new Promise<void>((resolve) => (stop = resolve)));
    const done = run(["generate", "--layouts", layouts, "--out", out, "--watch"], io);
    await expect.poll(() => io.out.join("\n"), { timeout: 5000 }).toMatch(/wrote contact\.ts/);

    const invoice = join(layouts, "Invoice.layout.json");
    const json = JSON.parse(await readFile(invoice, "utf8")) as { fields: unknown[] };
    json.fields.push({ name: "Due", type: "date" });
    await writeFile(invoice, JSON.stringify(json));
    await expect.poll(() => io.out.join("\n"), { timeout: 5000 }).toMatch(/: wrote invoice\.ts \(4 files\)/);
    expect(await readFile(join(out, "invoice.ts"), "utf8")).toContain('Due: { type: "date" }');

    await writeFile(invoice, "{ broken");
    await expect.poll(() => io.err.join("\n"), { timeout: 5000 }).toMatch(/Invoice\.layout\.json: invalid JSON/);
    await writeFile(invoice, JSON.stringify({ ...json, fields: json.fields.slice(0, -1) }));
    await expect.poll(() => io.out.filter((l) => l.includes(": wrote invoice.ts")).length, { timeout: 5000 }).toBe(2);

    stop();
    expect(await done).toBe(0);
  });
});
