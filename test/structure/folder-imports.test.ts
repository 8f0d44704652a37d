import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const SCRIPT = fileURLToPath(new URL("../../scripts/folder-imports.mjs", import.meta.url));

interface Report {
  folders: string[];
  matrix: Record<string, Record<string, number>>;
  folderCycles: string[][];
  fileCycles: string[][];
}

async function report(args: string[]): Promise<{ code: number; report: Report }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [SCRIPT, "--json", ...args]);
    return { code: 0, report: JSON.parse(stdout) as Report };
  } catch (error) {
    const { code, stdout } = error as { code: number; stdout: string };
    return { code, report: JSON.parse(stdout) as Report };
  }
}

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

describe("imports between the folders of src/ go one way (scripts/folder-imports.mjs)", () => {
  it("has no cycle between folders, nor between files", async () => {
    const { code, report: r } = await report([]);
    expect(r.folderCycles).toEqual([]);
    expect(r.fileCycles).toEqual([]);
    expect(code).toBe(0);
  });

  it("keeps the layers: project imports no folder, the runtime imports none, pull and generate do not import each other", async () => {
    const { report: r } = await report([]);
    const imports = (from: string) => Object.entries(r.matrix[from] ?? {}).filter(([, n]) => n > 0).map(([to]) => to);
    expect(imports("project")).toEqual([]);
    expect(imports("runtime")).toEqual([]);
    expect(imports("layout")).toEqual(["project"]);
    expect(r.matrix.pull?.generate).toBe(0);
    expect(r.matrix.generate?.pull).toBe(0);
    expect(r.matrix.cli?.pull).toBeGreaterThan(0);
  });

  it("keeps the emulator's house (--within emulator): the hosted file imports neither API nor the shell, the shell imports neither, the APIs not each other", async () => {
    const { code, report: r } = await report(["--within", "emulator"]);
    expect(r.folderCycles).toEqual([]);
    expect(r.fileCycles).toEqual([]);
    expect(code).toBe(0);
    const imports = (from: string) => Object.entries(r.matrix[from] ?? {}).filter(([, n]) => n > 0).map(([to]) => to);
    expect(r.folders).toEqual(expect.arrayContaining(["(emulator)", "data-api", "hosted-file", "http", "odata"]));
    expect(imports("hosted-file")).toEqual([]);
    expect(imports("http")).toEqual([]);
    expect(imports("data-api").filter((to) => to !== "hosted-file" && to !== "http")).toEqual([]);
    // The two APIs stand side by side over the hosted file: neither imports the other.
    expect(imports("odata").filter((to) => to !== "hosted-file" && to !== "http")).toEqual([]);
  });

  it("keeps the runtime's house (--within runtime): core/ imports neither API, data-api/ and odata/ never import each other", async () => {
    const { code, report: r } = await report(["--within", "runtime"]);
    expect(r.folderCycles).toEqual([]);
    expect(r.fileCycles).toEqual([]);
    expect(code).toBe(0);
    const imports = (from: string) => Object.entries(r.matrix[from] ?? {}).filter(([, n]) => n > 0).map(([to]) => to);
    expect(r.folders).toEqual(["(runtime)", "core", "data-api", "odata", "webviewer"]);
    // The shared core knows neither API, nor the entries that wire them.
    expect(imports("core")).toEqual([]);
    // The two APIs stand side by side over the core: neither imports the other, nor an entry.
    expect(imports("data-api")).toEqual(["core"]);
    expect(imports("odata")).toEqual(["core"]);
    // The Web Viewer's bridge to window.FileMaker knows no API's wire either: the webviewer entry wires it under the Data API.
    expect(imports("webviewer")).toEqual(["core"]);
    // The entries (index.ts, fetch.ts, schema.ts, metadata.ts, the token stores) wire the Data API over the core.
    expect(imports("(runtime)")).toEqual(expect.arrayContaining(["core", "data-api"]));
  });

  it("fails on a cycle, between folders or between files", async () => {
    const src = await mkdtemp(join(tmpdir(), "fmgen-imports-"));
    dirs.push(src);
    await mkdir(join(src, "a"));
    await mkdir(join(src, "b"));
    await writeFile(join(src, "a", "x.ts"), 'import { y } from "../b/y.js";\nexport const x = y;\n');
    await writeFile(join(src, "b", "y.ts"), 'import type { z } from "./z.js";\nexport const y = 1;\n// import { x } from "../a/x.js"; a comment is no import\n');
    await writeFile(join(src, "b", "z.ts"), 'export type { y } from "./y.js";\nexport type z = 1;\n');
    const acyclicFolders = await report(["--src", src]);
    expect(acyclicFolders.report.folderCycles).toEqual([]);
    expect(acyclicFolders.report.fileCycles).toEqual([["b/y.ts", "b/z.ts"]]);
    expect(acyclicFolders.code).toBe(1);

    await writeFile(join(src, "b", "z.ts"), 'import { x } from "../a/x.js";\nexport type z = typeof x;\n');
    const cyclic = await report(["--src", src]);
    expect(cyclic.report.matrix).toEqual({ a: { a: 0, b: 1 }, b: { a: 1, b: 0 } });
    expect(cyclic.report.folderCycles).toEqual([["a", "b"]]);
    expect(cyclic.code).toBe(1);
  });

  it("--within a folder: its sub-folders are the units, its own files one more, and a cycle between them fails", async () => {
    const src = await mkdtemp(join(tmpdir(), "fmgen-imports-"));
    dirs.push(src);
    await mkdir(join(src, "app", "low"), { recursive: true });
    await mkdir(join(src, "app", "high"));
    await mkdir(join(src, "other"));
    await writeFile(join(src, "other", "o.ts"), "export const o = 1;\n");
    await writeFile(join(src, "app", "low", "l.ts"), 'import { o } from "../../other/o.js";\nexport const l = o;\n');
    await writeFile(join(src, "app", "high", "h.ts"), 'import { l } from "../low/l.js";\nexport const h = l;\n');
    await writeFile(join(src, "app", "index.ts"), 'export { h } from "./high/h.js";\n');
    const oneWay = await report(["--src", src, "--within", "app"]);
    expect(oneWay.report.folders).toEqual(["(app)", "high", "low"]);
    expect(oneWay.report.matrix).toEqual({ "(app)": { "(app)": 0, high: 1, low: 0 }, high: { "(app)": 0, high: 0, low: 1 }, low: { "(app)": 0, high: 0, low: 0 } });
    expect(oneWay.code).toBe(0);

    await writeFile(join(src, "app", "low", "l.ts"), 'import type { h } from "../high/h.js";\nexport const l = 1;\nexport type k = typeof h;\n');
    const cyclic = await report(["--src", src, "--within", "app"]);
    expect(cyclic.report.folderCycles).toEqual([["high", "low"]]);
    expect(cyclic.code).toBe(1);
  });
});
