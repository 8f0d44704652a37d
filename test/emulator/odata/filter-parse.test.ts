import { describe, expect, it } from "vitest";
import type { FilterNode } from "../../../src/emulator/odata/filter-ast.js";
import { ODataError } from "../../../src/emulator/odata/odata-error.js";
import { MAX_FILTER_DEPTH, MAX_FILTER_LENGTH, parseFilter } from "../../../src/emulator/odata/filter-parser.js";
import { errorOf } from "./filter-support.js";

/** A compact, fully parenthesised rendering of the tree: precedence shows as grouping. */
function show(node: FilterNode): string {
  switch (node.kind) {
    case "literal":
      return "value" in node.literal ? `${node.literal.kind}:${String(node.literal.value)}` : "null";
    case "field":
      return (
        (node.navigation === undefined ? "" : `${node.navigation}/`) +
        (node.field.by === "name" ? node.field.name : node.field.id)
      );
    case "not":
      return `(not ${show(node.operand)})`;
    case "negate":
      return `(- ${show(node.operand)})`;
    case "logical":
      return `(${node.operands.map(show).join(` ${node.op} `)})`;
    case "compare":
    case "arithmetic":
      return `(${show(node.left)} ${node.op} ${show(node.right)})`;
    case "call":
      return `${node.name}(${node.args.map(show).join(",")})`;
    case "cast":
      return `cast(${show(node.operand)},${node.target})`;
  }
}

const parsed = (text: string) => show(parseFilter(text));
const parseError = (text: string) => errorOf(() => parseFilter(text));
const syntax = (at: string) => `400 -1002 Error: syntax error in URL at: '${at}'`;
const failure = (at: string) => `400 -1002 Error: parse failure in URL at: '${at}'`;

describe("$filter operators and precedence", () => {
  it.each([
    ["a eq 1", "(a eq number:1)"],
    ["a ne 1", "(a ne number:1)"],
    ["a gt 1", "(a gt number:1)"],
    ["a ge 1", "(a ge number:1)"],
    ["a lt 1", "(a lt number:1)"],
    ["a le 1", "(a le number:1)"],
    ["a eq 1 and b eq 2", "((a eq number:1) and (b eq number:2))"],
    ["a eq 1 or b eq 2 or c eq 3", "((a eq number:1) or (b eq number:2) or (c eq number:3))"],
    ["a eq 1 or b eq 2 and c eq 3", "((a eq number:1) or ((b eq number:2) and (c eq number:3)))"],
    ["(a eq 1 or b eq 2) and c eq 3", "(((a eq number:1) or (b eq number:2)) and (c eq number:3))"],
    ["not a eq 1 and b eq 2", "((not (a eq number:1)) and (b eq number:2))"],
    ["not not a eq 1", "(not (not (a eq number:1)))"],
    ["a add 2 mul 3 gt 1", "((a add (number:2 mul number:3)) gt number:1)"],
    ["a sub 2 sub 3 eq 0", "(((a sub number:2) sub number:3) eq number:0)"],
    ["a div 2 mod 3 lt b add 1", "(((a div number:2) mod number:3) lt (b add number:1))"],
    ["(a add 2) mul 3 eq 9", "(((a add number:2) mul number:3) eq number:9)"],
    ["- a eq -1", "((- a) eq number:-1)"],
    ["-(a) lt 0", "((- a) lt number:0)"],
    ["  a  eq  1  ", "(a eq number:1)"],
    ["contains(a,'x')", "contains(a,string:x)"],
    ["not(a eq 1)", "(not (a eq number:1))"],
    ["(a eq 1)or(b eq 2)and(c eq 3)", "((a eq number:1) or ((b eq number:2) and (c eq number:3)))"],
    ["a add(1) eq(2)", "((a add number:1) eq number:2)"],
  ])("%s", (text, want) => {
    expect(parsed(text)).toBe(want);
  });

  it("refuses in, has, any, all and chained comparisons as -1002", () => {
    expect(parseError("Name in ('a','b')")).toBe(syntax(" in "));
    expect(parseError("Name has 'a'")).toBe(syntax(" has "));
    expect(parseError("Orders/any(o:o/Total gt 1)")).toBe(syntax("any"));
    expect(parseError("Orders/all(o:o/Total gt 1)")).toBe(syntax("all"));
    expect(parseError("a eq 1 eq 2")).toBe(syntax(" eq "));
    expect(parseError("a+eq+1")).toBe(syntax("+"));
    expect(parseError("a eq 1 xor b eq 2")).toBe(syntax(" xor "));
    expect(parseError("a in('a')")).toBe(syntax(" in"));
    expect(parseError("and(a eq 1)")).toBe(failure("and"));
  });
});

describe("$filter literals", () => {
  it.each([
    ["a eq 'it''s'", "(a eq string:it's)"],
    ["a eq ''", "(a eq string:)"],
    ["a eq 'x eq 1 and ('", "(a eq string:x eq 1 and ()"],
    ["a eq 12", "(a eq number:12)"],
    ["a eq -12.5", "(a eq number:-12.5)"],
    ["a eq 1.5e3", "(a eq number:1500)"],
    ["a eq 2E-2", "(a eq number:0.02)"],
    ["a eq null", "(a eq null)"],
    ["a eq true", "(a eq boolean:true)"],
    ["a eq false", "(a eq boolean:false)"],
    ["a eq 2020-01-01", `(a eq date:${Date.UTC(2020, 0, 1)})`],
    ["a eq 2024-02-29", `(a eq date:${Date.UTC(2024, 1, 29)})`],
    ["a eq 2026-09-27T00:00:00Z", `(a eq dateTimeOffset:${Date.UTC(2026, 8, 27)})`],
    ["a eq 2026-09-27T10:30Z", `(a eq dateTimeOffset:${Date.UTC(2026, 8, 27, 10, 30)})`],
    ["a eq 2026-09-27T02:00:00.5+02:00", `(a eq dateTimeOffset:${Date.UTC(2026, 8, 27, 0, 0, 0, 500)})`],
    ["a eq 2026-09-27T00:00:00-05:30", `(a eq dateTimeOffset:${Date.UTC(2026, 8, 27, 5, 30)})`],
    ["a eq 13:45:00", `(a eq timeOfDay:${(13 * 3600 + 45 * 60) * 1000})`],
    ["a eq 13:45", `(a eq timeOfDay:${(13 * 3600 + 45 * 60) * 1000})`],
  ])("%s", (text, want) => {
    expect(parsed(text)).toBe(want);
  });

  it("refuses a timestamp without a zone at its T (OOGI)", () => {
    expect(parseError("Updated ge 2026-09-27T00:00:00")).toBe(syntax("T00"));
  });

  it.each([
    ["a eq 'open", syntax("'open")],
    ["a eq 2020-13-01", syntax("2020-13-01")],
    ["a eq 2023-02-29", syntax("2023-02-29")],
    ["a eq 24:00:00", syntax("24:00:00")],
    ["a eq .5", syntax(".")],
    ["a eq 1e999", syntax("1e999")],
    ['"open eq 1', syntax('"open eq 1')],
  ])("refuses the malformed literal %s", (text, want) => {
    expect(parseError(text)).toBe(want);
  });
});

describe("$filter names", () => {
  it.each([
    ["Name eq 'x'", "(Name eq string:x)"],
    ["\"First Name\" eq 'x'", "(First Name eq string:x)"],
    ['"a~b?c" eq 1', "(a~b?c eq number:1)"],
    ["A.B eq 'x'", "(A.B eq string:x)"],
    ["Orders/Total gt 1", "(Orders/Total gt number:1)"],
    ['Orders/"Total" gt 1', "(Orders/Total gt number:1)"],
    ["Orders/FMFID:42 gt 1", "(Orders/FMFID:42 gt number:1)"],
    ["FMFID:4296032405 eq 'x'", "(FMFID:4296032405 eq string:x)"],
    ["\"id\" eq 'x'", "(id eq string:x)"],
    ['"ID" eq 1', "(ID eq number:1)"],
    ["Id eq 1", "(Id eq number:1)"],
    ['"and" eq 1', "(and eq number:1)"],
    ["_x1 eq 1", "(_x1 eq number:1)"],
    ["Émile eq 1", "(Émile eq number:1)"],
  ])("%s", (text, want) => {
    expect(parsed(text)).toBe(want);
  });

  it("refuses a bare lowercase id at the operator after it (RPT), a bare ID at itself (2.6)", () => {
    expect(parseError("id eq 'x'")).toBe(syntax(" eq "));
    expect(parseError("id")).toBe(syntax(""));
    expect(parseError("ID eq 1")).toBe(failure("ID"));
  });

  it("refuses operator words, $-names, empty quotes and deep paths where a name belongs", () => {
    expect(parseError("and eq 1")).toBe(failure("and"));
    expect(parseError("a eq or")).toBe(failure("or"));
    expect(parseError("$it eq 1")).toBe(failure("$it"));
    expect(parseError('"" eq 1')).toBe(failure('""'));
    expect(parseError("Orders/Lines/Qty eq 1")).toBe(syntax("/"));
    expect(parseError("FMFID:1/Total eq 1")).toBe(syntax("/"));
    expect(parseError("Orders/ eq 1")).toBe(failure("eq"));
  });
});

describe("$filter functions", () => {
  it.each([
    ["contains(Name,'a')", "contains(Name,string:a)"],
    ["endswith(Name,'a')", "endswith(Name,string:a)"],
    ["startswith(Name,'a')", "startswith(Name,string:a)"],
    ["length(Name) eq 3", "(length(Name) eq number:3)"],
    ["indexof(Name,'n') eq 1", "(indexof(Name,string:n) eq number:1)"],
    ["substring(Name,1) eq 'nn'", "(substring(Name,number:1) eq string:nn)"],
    ["substring(Name,1,1) eq 'n'", "(substring(Name,number:1,number:1) eq string:n)"],
    ["tolower(Name) eq 'ann'", "(tolower(Name) eq string:ann)"],
    ["toupper(Name) eq 'ANN'", "(toupper(Name) eq string:ANN)"],
    ["trim(Name) eq 'Ann'", "(trim(Name) eq string:Ann)"],
    ["concat(Name,'x') eq 'Annx'", "(concat(Name,string:x) eq string:Annx)"],
    ["year(d) eq 1", "(year(d) eq number:1)"],
    ["month(d) eq 1", "(month(d) eq number:1)"],
    ["day(d) eq 1", "(day(d) eq number:1)"],
    ["hour(t) eq 1", "(hour(t) eq number:1)"],
    ["minute(t) eq 1", "(minute(t) eq number:1)"],
    ["second(t) eq 1", "(second(t) eq number:1)"],
    ["date(t) eq 2020-01-01", `(date(t) eq date:${Date.UTC(2020, 0, 1)})`],
    ["time(t) eq 10:00", "(time(t) eq timeOfDay:36000000)"],
    ["totaloffsetminutes(t) eq 0", "(totaloffsetminutes(t) eq number:0)"],
    ["totalseconds(t) eq 0", "(totalseconds(t) eq number:0)"],
    ["t lt now()", "(t lt now())"],
    ["t gt mindatetime() and t lt maxdatetime()", "((t gt mindatetime()) and (t lt maxdatetime()))"],
    ["round(a) eq 1", "(round(a) eq number:1)"],
    ["floor(a) eq 1", "(floor(a) eq number:1)"],
    ["ceiling(a) eq 1", "(ceiling(a) eq number:1)"],
    ["cast(a, Edm.String) eq '1'", "(cast(a,Edm.String) eq string:1)"],
    ["cast(a,Edm.Decimal) eq 1", "(cast(a,Edm.Decimal) eq number:1)"],
    ["contains(tolower(concat(a,b)),'x')", "contains(tolower(concat(a,b)),string:x)"],
  ])("%s", (text, want) => {
    expect(parsed(text)).toBe(want);
  });

  it("checks arity: too few fails at the early ')', too many at the extra ','", () => {
    expect(parseError("contains(Name)")).toBe(failure(")"));
    expect(parseError("substring(Name)")).toBe(failure(")"));
    expect(parseError("substring(Name,1,2,3) eq 'x'")).toBe(failure(","));
    expect(parseError("length(Name,'x') eq 1")).toBe(failure(","));
    expect(parseError("length() eq 1")).toBe(failure(")"));
    expect(parseError("now(1) eq 1")).toBe(syntax("1"));
    expect(parseError("contains(Name,'x'")).toBe(failure(""));
    expect(parseError("cast(a) eq 1")).toBe(failure(")"));
    expect(parseError("cast(a, Edm.Int32) eq 1")).toBe(failure("Edm.Int32"));
    expect(parseError("cast(a, Edm.Binary) eq 1")).toBe(failure("Edm.Binary"));
  });

  it.each([
    "fractionalseconds(t) eq 0",
    "isof(a, Edm.String)",
    "geo.distance(a, b) lt 1",
    "matchesPattern(a,'x')",
    "nosuch(a) eq 1",
  ])("refuses the unsupported function in %s at its name", (text) => {
    expect(parseError(text)).toBe(syntax(text.slice(0, text.indexOf("("))));
  });

  it("treats a name not written straight before '(' as a field", () => {
    expect(parseError("length (Name) eq 1")).toBe(syntax(" ("));
  });
});

describe("$filter structure errors", () => {
  it.each([
    ["", failure("")],
    ["a eq", failure("")],
    ["(a eq 1", failure("")],
    ["a eq 1)", syntax(")")],
    ["()", failure(")")],
    ["a eq 1 and", failure("")],
    ["a eq ,", failure(",")],
    ["a a", syntax(" a")],
    ["a eq 1 2", syntax(" 2")],
  ])("%j", (text, want) => {
    expect(parseError(text)).toBe(want);
  });

  it("quotes at most 100 characters of the offending text", () => {
    const message = parseError(`a eq '${"x".repeat(5000)}`);
    expect(message).toBe(syntax(`'${"x".repeat(99)}`));
  });

  it("errors are ODataError objects with a body for the HTTP layer", () => {
    try {
      parseFilter("a in b");
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ODataError);
      expect((e as ODataError).toJSON()).toEqual({
        error: { code: "-1002", message: "Error: syntax error in URL at: ' in '" },
      });
    }
  });

  it(`limits nesting to ${MAX_FILTER_DEPTH} levels`, () => {
    const nest = (n: number, open: string, close = "") => `${open.repeat(n)}a eq 1${close.repeat(n)}`;
    expect(parseError(nest(MAX_FILTER_DEPTH - 1, "(", ")"))).toBe("none");
    expect(parseError(nest(MAX_FILTER_DEPTH + 1, "(", ")"))).toBe(failure("("));
    // `not` adds a tree level over its comparison (depth 2): 98 of them make a 100-deep tree.
    expect(parseError(nest(MAX_FILTER_DEPTH - 2, "not "))).toBe("none");
    expect(parseError(nest(MAX_FILTER_DEPTH - 1, "not "))).toBe(failure("not"));
    expect(parseError(nest(MAX_FILTER_DEPTH + 1, "not "))).toBe(failure("not"));
    expect(parseError(`${"- ".repeat(MAX_FILTER_DEPTH + 1)}a eq 1`)).toBe(failure("-"));
    expect(parseError(`${"tolower(".repeat(MAX_FILTER_DEPTH + 1)}a${")".repeat(MAX_FILTER_DEPTH + 1)} eq 'a'`)).toBe(
      failure("tolower"),
    );
    // An arithmetic chain is not recursion but its tree is as deep: limited too, so no later stage recurses deeper.
    expect(parseError(`a${" add 1".repeat(MAX_FILTER_DEPTH + 1)} eq 1`)).toBe(failure("add"));
    // Flat and/or chains have no depth: a 500-term `or` parses.
    expect(parseError(Array.from({ length: 500 }, (_, i) => `a eq ${i}`).join(" or "))).toBe("none");
  });

  it(`limits the text to ${MAX_FILTER_LENGTH} characters`, () => {
    const fits = `a eq '${"x".repeat(MAX_FILTER_LENGTH - 7)}'`;
    expect(fits.length).toBe(MAX_FILTER_LENGTH);
    expect(parseError(fits)).toBe("none");
    expect(parseError(`${fits} `)).toBe(failure(" "));
  });
});
