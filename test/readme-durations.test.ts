import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// The documentation states how long `npm test` takes in one figure (issue 22: the top said about 5 minutes, the
// Development table about 6). Since issue 25 the figure is in README.md (the landing page) and docs/development.md
// (the Development guide): every "about N minutes" said of `npm test` (the npm command named last before it in its
// paragraph or table row), in either file, is that one figure; measured figures ("5 min 8 s today") round to it.

const FILES = ["README.md", "docs/development.md"];

/** Paragraphs and table rows of a file. */
const blocksOf = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), "utf8").split(/\n\s*\n|\n(?=\|)/);

/** Each "about N minutes" said of npm test, and each measured time, by file. */
function figures(file: string): { about: number[]; measured: number[] } {
  const about: number[] = [];
  const measured: number[] = [];
  for (const block of blocksOf(file)) {
    // A figure belongs to the npm command named last before it in its paragraph or row.
    const saidOfNpmTest = (index: number) => [...block.slice(0, index).matchAll(/`npm [^`]*`/g)].at(-1)?.[0] === "`npm test`";
    for (const m of block.matchAll(/about (\d+(?:\.\d+)?) minutes?\b(?! of)/g)) if (saidOfNpmTest(m.index)) about.push(Number(m[1]));
    for (const m of block.matchAll(/(\d+) min (\d+) s/g)) if (saidOfNpmTest(m.index)) measured.push(Number(m[1]) + Number(m[2]) / 60);
  }
  return { about, measured };
}

describe("README.md and docs/development.md: one figure for how long npm test takes", () => {
  it("each file states it, every 'about N minutes' said of npm test is the same N, and a measured time rounds to it", () => {
    const byFile = FILES.map((file) => ({ file, ...figures(file) }));
    for (const { file, about } of byFile) expect(about.length, `${file} says how long npm test takes`).toBeGreaterThan(0);
    const about = new Set(byFile.flatMap((f) => f.about));
    expect([...about]).toHaveLength(1);
    const [figure] = [...about];
    for (const minutes of byFile.flatMap((f) => f.measured)) expect(Math.round(minutes)).toBe(figure);
  });
});
