import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tokenizeCriterion } from "../../src/emulator/hosted-file/find/tokens.js";
import { escapeFindValue, q } from "../../src/runtime/index.js";
import { startItems } from "./items.js";

// docs/finding.md, "Plain values: "equals exactly"": a plain value in a query means "equals exactly" and is
// escaped, so no user value can change the meaning of a query. Checked against the emulator over loopback HTTP, for
// thousands of random texts made of every find operator, whitespace, letters that fold in unusual ways and random
// Unicode.
//
// "Equals" is FileMaker's text equality: case-insensitive. Precisely, the emulator's (and these tests'): two
// texts are equal when they are equal after String.prototype.toLowerCase() with final sigma (ς) folded to σ.
// Nothing else is folded: no accents, no Unicode normalization, no whitespace trimming or collapsing.
// beginsWith / endsWith / contains use the same folding on the whole field.

const OPERATORS = ["\\", "=", "!", "<", ">", "≤", "≥", ".", "/", "?", "@", "#", "*", '"', "~", "{", "}"];
const WHITESPACE = [" ", "\t", "\n", "\r", "\u00a0", "\u2003", "\u3000", "\u2028", "\ufeff"];
const OTHERS = ["a", "A", "b", "B", "z", "0", "1", "5", "-", "_", "'", ",", "é", "É", "ß", "Σ", "σ", "ς", "İ", "ı", "日", "👍", "\u0301", "(", ")", "[", "]", "^", "$", "|", "+", "&", ";", ":"];

const unit = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...OPERATORS) },
  { weight: 2, arbitrary: fc.constantFrom(...WHITESPACE) },
  { weight: 3, arbitrary: fc.constantFrom(...OTHERS) },
  // Any code point but NUL (which FileMaker does not store) and half surrogates (not text).
  { weight: 1, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }).filter((c) => c !== "\u0000") },
);
const text = fc.string({ unit, minLength: 0, maxLength: 10 });
const nonEmpty = fc.string({ unit, minLength: 1, maxLength: 10 });

const fold = (s: string) => s.toLowerCase().replaceAll("ς", "σ");

/** The seeded texts: record i + 1 holds CORPUS[i]. Some empty, some duplicates, some equal but for case. */
const CORPUS = [...fc.sample(nonEmpty, { numRuns: 2500, seed: 424242 }), "", "ΟΔΟΣ", "οδος", "Straße", "STRASSE", "a*b", "A*B", "axb", "=x", "x"];
const ids = (match: (name: string) => boolean) => CORPUS.flatMap((name, i) => (match(name) ? [i + 1] : []));

let env: Awaited<ReturnType<typeof startItems>>;

beforeAll(async () => {
  env = await startItems(CORPUS.map((Name) => ({ Name })));
});

afterAll(async () => {
  await env.close();
});

async function found(query: Parameters<typeof env.items.find>[0]["query"]): Promise<number[]> {
  const page = await env.items.find({ query, limit: 100_000 });
  return page.data.map((r) => Number(r.recordId)).sort((a, b) => a - b);
}

/** A text of the corpus with the case of some characters changed. */
const recased = fc
  .tuple(fc.constantFrom(...CORPUS), fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }))
  .map(([s, upper]) => Array.from(s, (c, i) => (upper[i % 10] ? c.toUpperCase() : c.toLowerCase())).join(""));

/** A piece of a corpus text (whole code points), not empty. */
const piece = fc
  .tuple(fc.constantFrom(...CORPUS), fc.nat(), fc.nat())
  .map(([s, a, b]) => {
    const points = Array.from(s);
    const [from, to] = [a % (points.length + 1), b % (points.length + 1)].sort((x, y) => x - y);
    return points.slice(from, to).join("");
  })
  .filter((s) => s !== "");

describe("escapeFindValue", () => {
  it("escapes the backslash first, then every operator, and whitespace at either end", () => {
    expect(escapeFindValue("\\")).toBe("\\\\");
    expect(escapeFindValue("\\*")).toBe("\\\\\\*");
    for (const op of OPERATORS) expect(escapeFindValue(`a${op}b`)).toBe(`a\\${op}b`);
    expect(escapeFindValue(" a b\t")).toBe("\\ a b\\\t");
    expect(escapeFindValue("plain text, ok")).toBe("plain text, ok");
  });

  it("property: the escaped text reads back as the text, and no character of it is an operator", () => {
    fc.assert(
      fc.property(text, (s) => {
        const tokens = tokenizeCriterion(escapeFindValue(s));
        const points = Array.from(s);
        expect(tokens.map((t) => t.char)).toEqual(points);
        for (const [i, t] of tokens.entries()) {
          const atEnd = /^\s+$/.test(points.slice(0, i + 1).join("")) || /^\s+$/.test(points.slice(i).join(""));
          if (OPERATORS.includes(t.char) || (atEnd && /\s/.test(t.char))) expect(t.kind, `${JSON.stringify(s)} at ${i}`).toBe("literal");
          else expect(t.kind).toBe("bare");
        }
      }),
      { numRuns: 10_000, seed: 7 },
    );
  });
});

describe(`a plain value finds exactly the records equal to it (${CORPUS.length} random texts seeded)`, () => {
  it("the first 500 seeded texts each find exactly the records that hold it, ignoring case", async () => {
    for (const name of CORPUS.slice(0, 500)) expect(await found([{ Name: name }]), JSON.stringify(name)).toEqual(ids((n) => fold(n) === fold(name)));
  });

  it("property: any text, its case changed or not, seeded or not", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.constantFrom(...CORPUS), recased, text), async (value) => {
        expect(await found([{ Name: value }]), JSON.stringify(value)).toEqual(ids((n) => fold(n) === fold(value)));
      }),
      { numRuns: 700, seed: 11 },
    );
  });

  it("q.eq is the plain value", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.constantFrom(...CORPUS), text), async (value) => {
        expect(await found([{ Name: q.eq(value) }])).toEqual(ids((n) => fold(n) === fold(value)));
      }),
      { numRuns: 150, seed: 12 },
    );
  });

  it("omit with a plain value removes exactly the equal records", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CORPUS), fc.constantFrom(...CORPUS), async (keep, drop) => {
        const expected = ids((n) => fold(n) === fold(keep) && fold(n) !== fold(drop));
        expect(await found([{ Name: keep }, { Name: drop, omit: true }])).toEqual(expected);
      }),
      { numRuns: 150, seed: 13 },
    );
  });
});

describe("text helpers escape every operator too", () => {
  it.each([
    ["beginsWith", (n: string, p: string) => fold(n).startsWith(fold(p))],
    ["endsWith", (n: string, p: string) => fold(n).endsWith(fold(p))],
    ["contains", (n: string, p: string) => fold(n).includes(fold(p))],
  ] as const)("property: q.%s(piece of a seeded text) finds exactly the records it describes", async (helper, holds) => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(piece, nonEmpty), async (p) => {
        expect(await found([{ Name: q[helper](p) }]), JSON.stringify(p)).toEqual(ids((n) => holds(n, p)));
      }),
      { numRuns: 300, seed: 21 },
    );
  });
});
