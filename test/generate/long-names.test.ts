import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import ts from "typescript";
import { generate, writeGeneratedFiles, type GeneratedFile } from "../../src/generate/index.js";
import { defaultTypeName, MAX_DERIVED_NAME, parseLayoutDescription, type LayoutDescription } from "../../src/layout/index.js";
import { typeCheckDir } from "./typecheck.js";

/** A layout name of exactly `length` characters: words, so that every character of it reaches the type name. */
function longName(prefix: string, length: number): string {
  let name = prefix;
  for (let i = 0; name.length < length; i++) name += ` Word${i}`;
  return name.slice(0, length);
}

function describeLayout(layout: string, extra: { fields?: { name: string; type: "text" | "number" }[]; portals?: object[] } = {}): LayoutDescription {
  return parseLayoutDescription(
    { database: "Reports", layout, table: "Reports", fields: extra.fields ?? [{ name: "id", type: "number" }, { name: "Title", type: "text" }], portals: extra.portals ?? [] },
    `${layout.slice(0, 20)}.layout.json`,
  );
}

const PREFIX = longName("Quarterly", 250);
const LONG_240 = longName("Annual", 240);
const LONG_300_A = `${PREFIX}${longName(" Alpha", 50)}`;
const LONG_300_B = `${PREFIX}${longName(" Bravo", 50)}`;

/** Module file names: at most MAX_DERIVED_NAME characters before `.ts`. */
const MAX_FILE_NAME = MAX_DERIVED_NAME + ".ts".length;

function identifiers(text: string): string[] {
  const scanner = ts.createScanner(ts.ScriptTarget.ES2022, true, ts.LanguageVariant.Standard, text);
  const out: string[] = [];
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) if (kind === ts.SyntaxKind.Identifier) out.push(scanner.getTokenText());
  return out;
}

describe("names far longer than a file system or a reader takes", () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  async function writeAndCheck(files: readonly GeneratedFile[]): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), "fmgen-long-"));
    dirs.push(dir);
    await writeFile(join(dir, "package.json"), JSON.stringify({ type: "module" }));
    const report = await writeGeneratedFiles(dir, files);
    expect(report.written).toEqual(files.map((f) => f.path).sort());
    expect((await readdir(dir)).filter((n) => n.endsWith(".ts")).sort()).toEqual(files.map((f) => f.path).sort());
    for (const file of files) expect(await readFile(join(dir, file.path), "utf8")).toBe(file.contents);
    return dir;
  }

  it("bounds the default type name, keeping the start and a hash of the whole name", () => {
    expect(defaultTypeName(LONG_240)).toHaveLength(MAX_DERIVED_NAME);
    expect(defaultTypeName(LONG_240)).toMatch(/^AnnualWord0Word1\w+_[0-9a-f]{6}$/);
    expect(defaultTypeName(LONG_300_A)).not.toBe(defaultTypeName(LONG_300_B));
    expect(defaultTypeName(LONG_300_A).slice(0, -7)).toBe(defaultTypeName(LONG_300_B).slice(0, -7));
    expect(defaultTypeName("Contacts Web")).toBe("ContactsWeb");
  });

  it("generates a 240-character layout and two 300-character layouts sharing 250 characters: bounded, distinct, deterministic file names, written and compiling", async () => {
    const layouts = [LONG_240, LONG_300_A, LONG_300_B].map((name) => describeLayout(name));
    const files = await generate(layouts, { schemas: true });
    const modules = files.filter((f) => f.path !== "index.ts" && f.path !== "schemas.ts");
    // Three layout modules and the database's.
    expect(modules).toHaveLength(4);
    for (const file of modules) expect(file.path.length, file.path).toBeLessThanOrEqual(MAX_FILE_NAME);
    expect(new Set(files.map((f) => f.path.toLowerCase())).size).toBe(6);
    // The barrel imports exactly the modules written.
    const index = files.find((f) => f.path === "index.ts")!.contents;
    expect([...index.matchAll(/from "\.\/(.+)\.js";/g)].map((m) => `${m[1]}.ts`)).toEqual(modules.map((f) => f.path));
    // The full layout names still travel in the definitions.
    for (const name of [LONG_240, LONG_300_A, LONG_300_B]) expect(files.some((f) => f.contents.includes(`"${name}"`))).toBe(true);
    expect(await generate([...layouts].reverse(), { schemas: true })).toEqual(files);

    const dir = await writeAndCheck(files);
    expect(typeCheckDir(dir)).toEqual([]);
  }, 60_000);

  it("generates compiling code of a size proportional to the names for a 10,000-character layout, portal and field name", async () => {
    const huge = longName("Huge", 10_000);
    const layout = describeLayout(huge, {
      fields: [
        { name: "id", type: "number" },
        { name: huge, type: "text" },
      ],
      portals: [{ name: huge, table: "Lines", fields: [{ name: `Lines::${huge}`, type: "number" }] }],
    });
    const files = await generate([layout]);
    const module = files.find((f) => f.path !== "index.ts")!;
    expect(module.path.length).toBeLessThanOrEqual(MAX_FILE_NAME);
    // Identifiers are bounded (a layout's part and a portal's part, each at most MAX_DERIVED_NAME, plus a suffix);
    // the full names are in string literals and JSDoc only, a few times each.
    expect(Math.max(...identifiers(module.contents).map((id) => id.length))).toBeLessThanOrEqual(2 * MAX_DERIVED_NAME + "PortalInput".length);
    expect(module.contents.length).toBeLessThan(20 * huge.length);

    const dir = await writeAndCheck(files);
    expect(typeCheckDir(dir)).toEqual([]);
  }, 60_000);
});
