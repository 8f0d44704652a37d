import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// The README states how long `npm test` takes in one figure (issue 22: the top said about 5 minutes, the
// Development table about 6). Every "about N minutes" said of `npm test` (the npm command named last before it in
// its paragraph or table row) is that figure; measured figures ("5 min 8 s today") round to it.

const README = readFileSync(new URL("../README.md", import.meta.url), "utf8");

/** Paragraphs and table rows. */
const blocks = README.split(/\n\s*\n|\n(?=\|)/);

describe("README: one figure for how long npm test takes", () => {
  it("every 'about N minutes' said of npm test is the same N, and a measured time rounds to it", () => {
    const about = new Set<number>();
    const measured: number[] = [];
    for (const block of blocks) {
      // A figure belongs to the npm command named last before it in its paragraph or row.
      const saidOfNpmTest = (index: number) => [...block.slice(0, index).matchAll(/`npm [^`]*`/g)].at(-1)?.[0] === "`npm test`";
      for (const m of block.matchAll(/about (\d+(?:\.\d+)?) minutes?\b(?! of)/g)) if (saidOfNpmTest(m.index)) about.add(Number(m[1]));
      for (const m of block.matchAll(/(\d+) min (\d+) s/g)) if (saidOfNpmTest(m.index)) measured.push(Number(m[1]) + Number(m[2]) / 60);
    }
    expect([...about]).toHaveLength(1);
    const [figure] = [...about];
    for (const minutes of measured) expect(Math.round(minutes)).toBe(figure);
  });
});
