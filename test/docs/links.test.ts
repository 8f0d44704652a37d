/**
 * Every relative link of README.md and docs/**\/*.md resolves (issue 25, item 4): a markdown link or image
 * (`[x](path)`, `![x](path)`, `[x](path#anchor)`, `[x](#anchor)`, outside code blocks and inline code) names a file or
 * folder of the repository, inside it, and an anchor names a heading of that markdown file by GitHub's rule
 * (test/docs/markdown.ts). Links with a scheme (`https:`, `mailto:`) are not followed. A failure names the file and
 * the line of each broken link, and why.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { headingAnchors, markdownFiles, parseMarkdown } from "./markdown.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The links of a markdown text outside fenced blocks and inline code, with their 1-based lines. */
function linksOf(markdown: string): { target: string; line: number }[] {
  const { prose } = parseMarkdown(markdown);
  // Prose lines only, at their own line numbers (fenced lines blank), inline code blanked on one line or across two.
  const lines: string[] = [];
  for (const { text, line } of prose) lines[line - 1] = text;
  const text = Array.from(lines, (l) => l ?? "").join("\n").replace(/`[^`]*`/g, (code) => code.replace(/[^\n]/g, " "));
  const links: { target: string; line: number }[] = [];
  // A backslash-escaped bracket (`\[asyncIterator\]()`, as TypeDoc writes a symbol's name) is text, not a link.
  for (const m of text.matchAll(/(?<!\\)!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)) {
    links.push({ target: m[1]!, line: text.slice(0, m.index).split("\n").length });
  }
  return links;
}

/** Every broken relative link of the given files under root: `file:line: target: why`. */
function brokenLinks(root: string, files: readonly string[]): string[] {
  const anchorsCache = new Map<string, Set<string>>();
  const anchorsOf = (path: string) => {
    if (!anchorsCache.has(path)) anchorsCache.set(path, headingAnchors(readFileSync(path, "utf8")));
    return anchorsCache.get(path)!;
  };
  const broken: string[] = [];
  for (const file of files) {
    for (const { target, line } of linksOf(readFileSync(join(root, file), "utf8"))) {
      const where = `${file}:${line}: ${target}`;
      if (target === "") broken.push(`${where}: an empty link`);
      if (target === "" || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const hash = target.indexOf("#");
      const pathPart = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
      const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
      const path = pathPart === "" ? join(root, file) : pathPart.startsWith("/") ? join(root, pathPart) : resolve(dirname(join(root, file)), pathPart);
      const inside = relative(root, path);
      if (inside.startsWith("..") || inside.split(sep).includes("node_modules")) {
        broken.push(`${where}: outside the repository`);
        continue;
      }
      if (!existsSync(path)) {
        broken.push(`${where}: no such file (${inside})`);
        continue;
      }
      if (anchor === undefined) continue;
      if (!path.endsWith(".md")) broken.push(`${where}: an anchor into a file that is not markdown`);
      else if (!anchorsOf(path).has(anchor)) broken.push(`${where}: ${inside} has no heading with the anchor #${anchor}`);
    }
  }
  return broken;
}

describe("the documentation's relative links", () => {
  it("every link of README.md and docs/**/*.md names a file of the repository, and each anchor a heading there", () => {
    const files = markdownFiles(ROOT);
    expect(files).toContain("docs/getting-started.md");
    expect(brokenLinks(ROOT, files).join("\n")).toBe("");
  });
});

describe("the check (this test can fail)", () => {
  it("reports a missing file, a missing anchor, a link out of the repository, by file and line; passes good links", () => {
    const root = mkdtempSync(join(tmpdir(), "fmgen-links-"));
    mkdirSync(join(root, "docs/sub"), { recursive: true });
    writeFileSync(join(root, "docs/sub/deep.md"), "# Deep\n## Seed data (`--data`)\n## Twice\n## Twice\n");
    writeFileSync(join(root, "docs/guide.md"), "# Guide\n## What's new, 2.0?\n");
    writeFileSync(
      join(root, "README.md"),
      [
        "# Top",
        "[ok](docs/guide.md) [ok](docs/guide.md#whats-new-20) ![img](docs/sub) [ok](#top) [web](https://example.com/x)",
        "[ok](docs/sub/deep.md#seed-data---data) [ok](docs/sub/deep.md#twice-1) `[code](nowhere.md)`",
        "```md",
        "[in a block](nowhere.md)",
        "```",
        "[gone](docs/missing.md)",
        "[no anchor](docs/guide.md#whats-new) [wrapped",
        "text](#nope)",
        "[out](../../etc/passwd)",
      ].join("\n"),
    );
    writeFileSync(join(root, "docs/sub/index.md"), "[up](../guide.md) [bad](guide.md)\n");
    expect(brokenLinks(root, markdownFiles(root))).toEqual([
      "README.md:7: docs/missing.md: no such file (docs/missing.md)",
      "README.md:8: docs/guide.md#whats-new: docs/guide.md has no heading with the anchor #whats-new",
      "README.md:8: #nope: README.md has no heading with the anchor #nope",
      "README.md:10: ../../etc/passwd: outside the repository",
      "docs/sub/index.md:1: guide.md: no such file (docs/sub/guide.md)",
    ]);
  });

  it("takes a backslash-escaped bracket for text, not a link", () => {
    const dir = mkdtempSync(join(tmpdir(), "links-escaped-"));
    writeFileSync(join(dir, "a.md"), "##### \\[asyncIterator\\]()\n[a \\] b](#nowhere)\n");
    expect(brokenLinks(dir, ["a.md"])).toEqual(["a.md:2: #nowhere: a.md has no heading with the anchor #nowhere"]);
  });

  it("reads a heading's anchor as GitHub does: HTML tags dropped, inline code kept as its text", () => {
    const anchors = headingAnchors("## zod and the `<Name>Schema` exports\n## A <b>bold</b> `f.eq` call\n## Twice\n## Twice\n");
    expect([...anchors]).toEqual(["zod-and-the-nameschema-exports", "a-bold-feq-call", "twice", "twice-1"]);
  });

  it("a broken link in a copy of the real README fails", () => {
    const root = mkdtempSync(join(tmpdir(), "fmgen-links-readme-"));
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    expect(readme).toContain("(docs/README.md)");
    writeFileSync(join(root, "README.md"), readme.replace("(docs/README.md)", "(docs/READNE.md)"));
    mkdirSync(join(root, "docs"));
    writeFileSync(join(root, "docs/README.md"), "# Docs\n");
    expect(brokenLinks(root, ["README.md"]).filter((b) => b.includes("READNE"))).toEqual([
      expect.stringMatching(/^README\.md:\d+: docs\/READNE\.md: no such file/),
    ]);
  });
});
