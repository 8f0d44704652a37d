/**
 * What test/docs/links.test.ts and test/docs/commands.test.ts read of the documentation: which markdown files it is,
 * their lines outside fenced code blocks, their fenced blocks, and GitHub's heading anchors.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** README.md and every .md file under docs/ (subfolders included), relative to the repository root, sorted. */
export function markdownFiles(root: string): string[] {
  const walk = (dir: string): string[] =>
    existsSync(join(root, dir))
      ? readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
          const path = `${dir}/${entry.name}`;
          return entry.isDirectory() ? walk(path) : entry.name.endsWith(".md") ? [path] : [];
        })
      : [];
  return ["README.md", ...walk("docs").sort()];
}

/** A fenced code block: its language, its 1-based opening line, its lines (list indentation removed). */
export interface Fence {
  readonly lang: string;
  readonly line: number;
  readonly body: readonly { readonly text: string; readonly line: number }[];
  /** The HTML comments (`<!-- ... -->`, one line each) just above the opening fence, blank lines between allowed; nearest last. */
  readonly above: readonly string[];
}

const FENCE = /^( *)(```+|~~~+)\s*([\w-]*)/;

/** The markdown's lines split into prose (outside fences, with their 1-based numbers) and fenced blocks. */
export function parseMarkdown(markdown: string): { prose: { text: string; line: number }[]; fences: Fence[] } {
  const lines = markdown.split("\n");
  const prose: { text: string; line: number }[] = [];
  const fences: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) {
      prose.push({ text: lines[i]!, line: i + 1 });
      continue;
    }
    const [, indent, marker, lang] = open;
    const closing = new RegExp(`^ *${marker![0] === "`" ? "`" : "~"}{${marker!.length},}\\s*$`);
    let end = i + 1;
    while (end < lines.length && !closing.test(lines[end]!)) end++;
    const above: string[] = [];
    for (let j = i - 1; j >= 0; j--) {
      const line = lines[j]!.trim();
      if (line === "") continue;
      if (!/^<!--.*-->$/.test(line)) break;
      above.unshift(line);
    }
    fences.push({
      lang: lang!.toLowerCase(),
      line: i + 1,
      body: lines.slice(i + 1, end).map((text, k) => ({ text: text.slice(Math.min(indent!.length, text.length - text.trimStart().length)), line: i + 2 + k })),
      above,
    });
    i = end;
  }
  return { prose, fences };
}

/**
 * The anchors GitHub gives a markdown file's headings: the heading's text (links reduced to their text, HTML tags
 * dropped, inline code kept as its content: "`<Name>Schema`" reads "<Name>Schema", so its anchor holds "nameschema"), lowercased, every character that is not a letter, a digit, a space, '-' or '_' dropped, spaces
 * turned to '-'; a repeated anchor gets -1, -2, ... in order. Also the ids of HTML anchors (`<a id="x">`, `name="x"`).
 */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of parseMarkdown(markdown).prose) {
    for (const m of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]!);
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (!heading) continue;
    const slug = heading[1]!
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
      .split(/(`[^`]*`)/)
      .map((piece, i) => (i % 2 === 1 ? piece : piece.replace(/<[^>]+>/g, "")))
      .join("")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M} _-]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}
