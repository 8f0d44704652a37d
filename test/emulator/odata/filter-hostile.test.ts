import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ODataError } from "../../../src/emulator/odata/odata-error.js";
import type { FilterMeter } from "../../../src/emulator/odata/filter-lexer.js";
import { MAX_FILTER_LENGTH, parseFilter } from "../../../src/emulator/odata/filter-parser.js";
import { names } from "./filter-support.js";

/** Runs the whole pipeline (parse, check, compile, evaluate on every row); any error but ODataError fails. */
function onlyTypedErrors(filter: string): void {
  try {
    names(filter);
  } catch (e) {
    if (!(e instanceof ODataError)) throw e;
    expect(e.status).toBe(400);
    expect(["-1002", "8309"]).toContain(e.code);
    expect(e.message.length).toBeLessThan(200);
  }
}

const PIECES = [
  "Name",
  "Age",
  "Born",
  "Updated",
  "Alarm",
  "Photo",
  '"First Name"',
  "FMFID:4296032405",
  "Orders/Total",
  "Orders/Status",
  "id",
  "ID",
  "A.B",
  "ROWID",
  "eq",
  "ne",
  "gt",
  "ge",
  "lt",
  "le",
  "and",
  "or",
  "not",
  "add",
  "sub",
  "mul",
  "div",
  "mod",
  "in",
  "has",
  "(",
  ")",
  ",",
  "-",
  "'x'",
  "''",
  "'",
  '"',
  "1",
  "0",
  "-2.5",
  "1e3",
  "null",
  "true",
  "false",
  "2020-01-01",
  "2026-09-27T00:00:00Z",
  "2026-09-27T00:00:00",
  "13:45:00",
  "contains(",
  "substring(",
  "length(",
  "year(",
  "hour(",
  "now()",
  "cast(",
  "Edm.String",
  "Edm.Date",
  "round(",
  "tolower(",
  "concat(",
  "any(",
  "$it",
  "+",
  "%",
  "/",
  "\u0000",
  "😀",
];

describe("$filter on hostile input", () => {
  it("random text raises nothing but the typed error", () => {
    fc.assert(fc.property(fc.string({ maxLength: 200, unit: "binary" }), onlyTypedErrors), { numRuns: 500 });
  });

  it("random token soup raises nothing but the typed error", () => {
    const soup = fc
      .array(fc.constantFrom(...PIECES), { maxLength: 40 })
      .chain((pieces) =>
        fc
          .array(fc.constantFrom(" ", "", "  "), { minLength: pieces.length, maxLength: pieces.length })
          .map((gaps) => pieces.map((p, i) => p + (gaps[i] ?? "")).join("")),
      );
    fc.assert(fc.property(soup, onlyTypedErrors), { numRuns: 2000 });
  });

  it("grammatical filters over the table evaluate or fail typed", () => {
    const field = fc.constantFrom("Name", "Age", "Born", "Updated", "Alarm", '"First Name"', "Orders/Total");
    const literal = fc.constantFrom(
      "'Ann'",
      "7",
      "null",
      "true",
      "2018-01-01",
      "2026-01-01T00:00:00Z",
      "07:30:00",
      "'2018-01-01'",
    );
    const comparison = fc
      .tuple(field, fc.constantFrom("eq", "ne", "gt", "ge", "lt", "le"), literal)
      .map(([f, op, l]) => `${f} ${op} ${l}`);
    const expr: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
      e: fc.oneof(
        { maxDepth: 4, depthIdentifier: "e" },
        comparison,
        fc.tuple(tie("e"), fc.constantFrom("and", "or"), tie("e")).map(([a, op, b]) => `${a} ${op} ${b}`),
        tie("e").map((e) => `not (${e})`),
        tie("e").map((e) => `(${e})`),
      ),
    })).e;
    fc.assert(fc.property(expr, onlyTypedErrors), { numRuns: 500 });
  });

  /** Adversarial families: each text is `n` copies of a unit (capped to the length limit), with a tail. */
  const FAMILIES: [string, (n: number) => string][] = [
    ["open parentheses", (n) => "(".repeat(n)],
    ["nots", (n) => "not ".repeat(n)],
    ["minus signs", (n) => "-".repeat(n)],
    ["calls", (n) => "tolower(".repeat(n)],
    ["an unterminated string", (n) => `Name eq '${"x".repeat(n)}`],
    ["doubled quotes", (n) => `Name eq '${"''".repeat(n)}`],
    ["an unterminated quoted name", (n) => `"${"a".repeat(n)}`],
    ["a long or-chain", (n) => Array.from({ length: n }, () => "Age eq 1").join(" or ")],
    ["a long and-chain with calls", (n) => Array.from({ length: n }, () => "contains(Name,'a')").join(" and ")],
    ["a long dotted name", (n) => `${"a.".repeat(n)}b eq 1`],
    ["blanks", (n) => `${" ".repeat(n)}Age eq 1`],
    ["digits", (n) => `Age eq ${"9".repeat(n)}`],
    ["an addition chain", (n) => `Age${" add 1".repeat(n)} eq 1`],
  ];

  function stepsFor(text: string): number {
    const meter: FilterMeter = { steps: 0 };
    try {
      parseFilter(text, { meter });
    } catch (e) {
      if (!(e instanceof ODataError)) throw e;
    }
    return meter.steps;
  }

  it.each(FAMILIES)("parsing %s takes steps linear in its length", (_, make) => {
    const small = make(25);
    const large = make(250);
    expect(large.length).toBeLessThanOrEqual(MAX_FILTER_LENGTH);
    // The work per character is bounded: at most a few steps each, whatever the input.
    for (const text of [small, large]) expect(stepsFor(text)).toBeLessThanOrEqual(4 * text.length + 10);
    // And 10x the input is at most about 10x the work (less when an error stops it early).
    expect(stepsFor(large)).toBeLessThanOrEqual(12 * stepsFor(small) + 10);
  });

  it("parses the worst cases at the length limit without overflowing the stack", () => {
    for (const [, make] of FAMILIES) {
      let n = 1;
      while (make(n * 2).length <= MAX_FILTER_LENGTH) n *= 2;
      onlyTypedErrors(make(n));
    }
    onlyTypedErrors("(".repeat(MAX_FILTER_LENGTH));
    // The deepest trees that parse also check, compile and evaluate.
    expect(names(`${"not ".repeat(98)}Name eq 'Ann'`)).toEqual(["Ann"]);
    expect(names(`${"not ".repeat(97)}Name eq 'Ann'`)).toEqual(["bob", "Émile", "Zoë😀"]);
    expect(names(`${"tolower(".repeat(98)}Name${")".repeat(98)} eq 'bob'`)).toEqual(["bob"]);
    expect(names(`Age${" add 1".repeat(98)} eq 105`)).toEqual(["bob"]);
    onlyTypedErrors(`${"not ".repeat(MAX_FILTER_LENGTH / 4 - 3)}a eq 1`.slice(0, MAX_FILTER_LENGTH));
  });
});
