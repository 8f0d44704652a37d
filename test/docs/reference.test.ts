/**
 * docs/reference/, the API reference, is what `npm run docs` (TypeDoc over typedoc.json, with typedoc-plugin-markdown)
 * writes from the TSDoc the sources carry. This test runs that TypeDoc once, through its API, and fails when:
 * - a public export of an entry (function, class, interface, type alias, constant) or a member a user calls or sets
 *   (a client's methods, an options property) has no comment: scripts/typedoc-required-docs.mjs warns of each (in
 *   place of TypeDoc's `validation.notDocumented`, which also wants every property of an anonymous type); any other
 *   warning of TypeDoc's (a `{@link}` to nothing...) fails it too, as it fails `npm run docs`;
 * - the committed docs/reference/ is not what `npm run docs` writes now (a comment changed, not regenerated);
 * - a relative link of the generated markdown names a file or a heading that is not there (GitHub's heading ids).
 * One conversion (no type check: tsc does that), about 4 to 6 s on a shared 2-core machine; the three checks share it.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Application, LogLevel, TSConfigReader, TypeDocReader } from "typedoc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const COMMITTED = join(ROOT, "docs/reference");

/** Every file under `dir`, as paths relative to it, sorted. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/** The ids GitHub gives a markdown file's headings: text lowercased, punctuation dropped, spaces as `-`, repeats `-1`, `-2`... */
function headingIds(markdown: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1]!
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/\\(.)/g, "$1")
      .replace(/[`*]/g, "");
    const base = text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    ids.add(count === 0 ? base : `${base}-${count}`);
  }
  return ids;
}

describe("the API reference (docs/reference/)", () => {
  const out = mkdtempSync(join(tmpdir(), "fmgen-reference-"));
  const warnings: string[] = [];

  beforeAll(async () => {
    const app = await Application.bootstrapWithPlugins({ options: join(ROOT, "typedoc.json"), out, logLevel: "Warn" }, [new TypeDocReader(), new TSConfigReader()]);
    const log = app.logger.log.bind(app.logger);
    app.logger.log = (message, level) => {
      if (level >= LogLevel.Warn) warnings.push(message.replace(/\x1b\[[0-9;]*m/g, ""));
      else log(message, level);
    };
    const project = await app.convert();
    if (!project) throw new Error(`TypeDoc could not convert the entries of typedoc.json:\n${warnings.join("\n")}`);
    app.validate(project);
    await app.generateOutputs(project);
  }, 60_000);

  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("documents every public export, and TypeDoc has nothing else to warn of", () => {
    expect(warnings).toEqual([]);
  });

  it("is committed as `npm run docs` writes it now", () => {
    const written = filesUnder(out);
    expect(filesUnder(COMMITTED), "the files of docs/reference/: run `npm run docs`").toEqual(written);
    for (const file of written) {
      expect(readFileSync(join(COMMITTED, file), "utf8"), `docs/reference/${file}: run \`npm run docs\``).toBe(readFileSync(join(out, file), "utf8"));
    }
  });

  it("links only to files and headings that are there", () => {
    // The ids as GitHub makes them, or the check below would pass links GitHub breaks (or fail links it follows).
    expect([...headingIds("# A b\n## A b\n### `c()`\n#### \\[d\\]?\n```ts\n# not a heading\n```\n##### e_f")]).toEqual(["a-b", "a-b-1", "c", "d", "e_f"]);
    const broken: string[] = [];
    /** Each file's heading ids, read once; null for a file that is not there. */
    const ids = new Map<string, Set<string> | null>();
    const idsOf = (path: string): Set<string> | null => {
      if (!ids.has(path)) ids.set(path, existsSync(path) ? (path.endsWith(".md") ? headingIds(readFileSync(path, "utf8")) : new Set()) : null);
      return ids.get(path)!;
    };
    for (const file of filesUnder(COMMITTED).filter((f) => f.endsWith(".md"))) {
      const path = join(COMMITTED, file);
      for (const [, target] of readFileSync(path, "utf8").matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target!)) continue;
        const [to, anchor] = target!.split("#") as [string, string | undefined];
        const headings = idsOf(to === "" ? path : resolve(dirname(path), decodeURIComponent(to)));
        if (!headings) broken.push(`docs/reference/${file}: ${target}: no such file`);
        else if (anchor !== undefined && !headings.has(anchor)) broken.push(`docs/reference/${file}: ${target}: no such heading`);
      }
    }
    expect(broken).toEqual([]);
  });
});
