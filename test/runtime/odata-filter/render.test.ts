import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defineTable } from "../../../src/runtime/odata/definition.js";
import { fieldRefs } from "../../../src/runtime/odata/field-refs.js";
import { decimalText, f, renderFilter, type Filter } from "../../../src/runtime/odata/filter.js";
import { queryString, queryValue } from "../../../src/runtime/odata/query-text.js";

// `f` rendered against a table's spec, one test per class of input (issue 24 item 4): each literal in its field's
// form, every string escaped, numbers as plain digits, names quoted or by id, the query encoded as wire contract 2.8
// says. What the server reads of it is proved against the emulator in emulator.test.ts.

const T = defineTable()({
  database: "Db",
  table: "Things",
  fields: {
    Name: { type: "text", id: "FMFID:1" },
    N: { type: "number", id: "FMFID:2" },
    D: { type: "date", id: "FMFID:3" },
    Tm: { type: "time", id: "FMFID:4" },
    Ts: { type: "timestamp", id: "FMFID:5" },
    Photo: { type: "container", id: "FMFID:6" },
    'Say "hi"': { type: "text", id: "FMFID:7" },
    'No "id"': { type: "text" },
    "First Name": { type: "text" },
    ["__proto__"]: { type: "text" },
  },
});
const byName = fieldRefs(T, false);
const render = (filter: Filter<any>) => renderFilter(filter, byName);

describe("literals take their field's form", () => {
  it("text is quoted, its quotes doubled; nothing in it can end the literal", () => {
    expect(render(f.eq("Name", "O'Brien"))).toBe(`"Name" eq 'O''Brien'`);
    expect(render(f.eq("Name", "x' or 'a' eq 'a"))).toBe(`"Name" eq 'x'' or ''a'' eq ''a'`);
    expect(render(f.eq("Name", "''"))).toBe(`"Name" eq ''''''`);
    expect(render(f.eq("Name", ""))).toBe(`"Name" eq ''`);
    expect(render(f.contains("Name", ") or (1 eq 1"))).toBe(`contains("Name",') or (1 eq 1')`);
  });

  it("control characters, astral and combining characters, `%&#+` stay inside the literal as they are", () => {
    const odd = "a\u0000\t\n\r\u001f\u007f😀e\u0301%&#+;=?/\\\"";
    expect(render(f.eq("Name", odd))).toBe(`"Name" eq '${odd}'`);
  });

  it("a lone surrogate is refused where the filter is made, naming the call and the field", () => {
    expect(() => f.eq("Name", "a\uD800b")).toThrow('f.eq("Name", …): the string holds a lone surrogate (U+D800 at index 1), which no URL can carry');
    expect(() => f.contains("Name", "\uDC00")).toThrow(/f\.contains\("Name", …\): .*U\+DC00 at index 0/);
    expect(() => f.raw("Name eq '\uD83D'")).toThrow(/f\.raw\(…\): .*lone surrogate/);
    expect(() => f.eq("Na\uD800me", "x")).toThrow(/f\.eq\(…\): .*lone surrogate/);
    // A pair is a character, not a lone half.
    expect(render(f.eq("Name", "\uD83D\uDE00"))).toBe(`"Name" eq '😀'`);
  });

  it("numbers are plain decimal digits: no exponent, no -0", () => {
    expect(render(f.eq("N", 42))).toBe(`"N" eq 42`);
    expect(render(f.lt("N", -1.5))).toBe(`"N" lt -1.5`);
    expect(render(f.eq("N", 1e21))).toBe(`"N" eq 1000000000000000000000`);
    expect(render(f.eq("N", -1.25e22))).toBe(`"N" eq -12500000000000000000000`);
    expect(render(f.eq("N", 1e-7))).toBe(`"N" eq 0.0000001`);
    expect(render(f.eq("N", -1.5e-9))).toBe(`"N" eq -0.0000000015`);
    expect(render(f.eq("N", -0))).toBe(`"N" eq 0`);
    expect(decimalText(5e-324)).toBe(`0.${"0".repeat(323)}5`);
    expect(decimalText(Number.MAX_VALUE)).toMatch(/^179769313486231570{292}$/);
  });

  it("every double's digits read back as the same double", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        const text = decimalText(n);
        expect(text).toMatch(/^-?[0-9]+(\.[0-9]+)?$/);
        expect(Number(text)).toBe(n === 0 ? 0 : n);
      }),
      { numRuns: 2000 },
    );
  });

  it("NaN, Infinity, bigints and objects are refused where the filter is made", () => {
    expect(() => f.eq("N", Number.NaN)).toThrow('f.eq("N", …) takes a string, a finite number or null, not NaN');
    expect(() => f.gt("N", Number.POSITIVE_INFINITY)).toThrow('f.gt("N", …) takes a string or a finite number (null: use f.isNull or f.eq), not Infinity');
    expect(() => f.eq("N", 1n as never)).toThrow(/not a bigint/);
    expect(() => f.eq("N", { $ne: 1 } as never)).toThrow(/not an object/);
    expect(() => f.eq("N", undefined as never)).toThrow(/not undefined/);
    expect(() => f.contains("Name", 3 as never)).toThrow('f.contains("Name", …) takes a string, not 3');
  });

  it("null is emptiness: eq and ne take it, an order refuses it", () => {
    expect(render(f.eq("N", null))).toBe(`"N" eq null`);
    expect(render(f.ne("D", null))).toBe(`"D" ne null`);
    expect(render(f.isNull("Photo"))).toBe(`"Photo" eq null`);
    expect(() => f.lt("N", null as never)).toThrow(/f\.lt\("N", …\) takes a string or a finite number/);
    expect(() => f.between("N", 1, null as never)).toThrow(/f\.between\("N", …\)/);
  });

  it("dates and times are bare; a timestamp gets the server's zone", () => {
    expect(render(f.eq("D", "2024-02-29"))).toBe(`"D" eq 2024-02-29`);
    expect(render(f.gte("Tm", "07:30:00"))).toBe(`"Tm" ge 07:30:00`);
    expect(render(f.lt("Tm", "23:59:59.250"))).toBe(`"Tm" lt 23:59:59.250`);
    expect(render(f.gt("Ts", "2026-09-27T00:00:00"))).toBe(`"Ts" gt 2026-09-27T00:00:00Z`);
    expect(render(f.between("D", "0001-01-01", "4000-12-31"))).toBe(`"D" ge 0001-01-01 and "D" le 4000-12-31`);
  });

  it("a date, time or timestamp the server's grammar would not read is refused, naming the field", () => {
    for (const bad of ["2023-02-29", "2024-04-31", "0000-01-01", "4001-01-01", "2024-1-01", "2024-13-01", "20240101", "2024-01-01 ", "yesterday", ""]) {
      expect(() => render(f.eq("D", bad)), bad).toThrow(`"D" is a date field: compare it with an ISO date "YYYY-MM-DD" (years 0001 to 4000), not ${JSON.stringify(bad)}`);
    }
    for (const bad of ["24:00:00", "7:30:00", "07:60:00", "07:30", "07:30:00.", "07:30:00.1234567890", "07:30:00Z"]) {
      expect(() => render(f.eq("Tm", bad)), bad).toThrow(/"Tm" is a time field: compare it with a time "HH:MM:SS"/);
    }
    for (const bad of ["2026-09-27T00:00:00Z", "2026-09-27T00:00:00+02:00", "2026-09-27 00:00:00", "2026-02-30T00:00:00", "2026-09-27T24:00:00", "2026-09-27"]) {
      expect(() => render(f.eq("Ts", bad)), bad).toThrow(/"Ts" is a timestamp field: compare it with an ISO timestamp "YYYY-MM-DDTHH:MM:SS" \(local, no zone/);
    }
  });

  it("a value of another type than the field's is refused when rendered", () => {
    expect(() => render(f.eq("N" as string, "5"))).toThrow(`"N" is a number field: compare it with a number, not "5"`);
    expect(() => render(f.eq("Name" as string, 5))).toThrow(`"Name" is a text field: compare it with a string, not 5`);
    expect(() => render(f.eq("Photo" as string, "x"))).toThrow(/"Photo" is a container field: compare it with null \(f\.isNull\)/);
    expect(() => render(f.contains("N" as string, "5"))).toThrow(`f.contains("N", …) needs a text field; "N" is a number field`);
  });
});

describe("names", () => {
  it("are double-quoted, whatever they hold (spaces, __proto__)", () => {
    expect(render(f.eq("First Name", "Ada"))).toBe(`"First Name" eq 'Ada'`);
    expect(render(f.eq("__proto__", "x"))).toBe(`"__proto__" eq 'x'`);
  });

  it("a name holding a double quote goes by its FMFID, or is refused naming table and field", () => {
    expect(render(f.eq('Say "hi"', "x"))).toBe(`FMFID:7 eq 'x'`);
    expect(() => render(f.eq('No "id"', "x"))).toThrow(`field "No \\"id\\"" of table "Things" holds a double quote: OData can only name it by its FMFID, which its definition lacks`);
  });

  it("with entityIds every field goes by its id; a field without one is refused", () => {
    const ids = fieldRefs(T, true);
    expect(renderFilter(f.and(f.eq("Name", "x"), f.gt("Ts", "2026-01-01T10:00:00")), ids)).toBe(`FMFID:1 eq 'x' and FMFID:5 gt 2026-01-01T10:00:00Z`);
    expect(() => ids.ref("First Name")).toThrow(`field "First Name" of table "Things" has no id (FMFID): entityIds: true addresses every field by its id`);
  });

  it("an id that is not FMFID and digits is refused, not spliced into the query", () => {
    const Bad = defineTable()({ database: "Db", table: "Bad", fields: { A: { type: "text", id: "FMFID:1 or 1 eq 1" } } });
    expect(() => fieldRefs(Bad, true).ref("A")).toThrow(`field "A" of table "Bad" has the id "FMFID:1 or 1 eq 1": a field id is "FMFID:" and digits`);
    expect(() => fieldRefs(Bad, false).ref("A")).toThrow(/a field id is "FMFID:" and digits/);
  });

  it("an unknown field is refused naming the table; an inherited name is no field", () => {
    expect(() => render(f.eq("Nope" as string, 1))).toThrow(`table "Things" has no field "Nope"`);
    expect(() => render(f.eq("constructor" as string, 1))).toThrow(`table "Things" has no field "constructor"`);
    expect(() => f.eq("", 1)).toThrow(`f.eq(…) takes a field name (a non-empty string), not a string`);
  });
});

describe("structure", () => {
  it("and/or nest in parentheses; not wraps its operand; raw is parenthesized inside others", () => {
    expect(render(f.and(f.eq("N", 1), f.or(f.eq("N", 2), f.not(f.eq("Name", "x")))))).toBe(`"N" eq 1 and ("N" eq 2 or not ("Name" eq 'x'))`);
    expect(render(f.or(f.and(f.eq("N", 1), f.eq("N", 2)), f.raw(`"N" add 1 eq 3 or "N" eq 9`)))).toBe(`("N" eq 1 and "N" eq 2) or ("N" add 1 eq 3 or "N" eq 9)`);
    expect(render(f.raw(`length("Name") gt 3`))).toBe(`length("Name") gt 3`);
    expect(render(f.and(f.eq("N", 1)))).toBe(`"N" eq 1`);
    expect(render(f.not(f.and(f.eq("N", 1), f.eq("N", 2))))).toBe(`not ("N" eq 1 and "N" eq 2)`);
  });

  it("a raw expression must stand alone: quotes closed, parentheses balanced, so that combined it cannot escape", () => {
    expect(() => f.raw(`"Age" gt 1) or ("Age" lt 9`)).toThrow(`f.raw(…): the ")" at index 10 closes nothing: a raw expression must stand alone`);
    expect(() => f.raw(`("Age" gt 1`)).toThrow(`f.raw(…): 1 "(" not closed`);
    expect(() => f.raw(`"Name eq 'x'`)).toThrow(`f.raw(…): the quoted name at index 0 is not closed`);
    expect(() => f.raw(`"Name" eq 'x''`)).toThrow(`f.raw(…): the string literal at index 10 is not closed`);
    // Parentheses and quotes inside literals and quoted names are text.
    expect(render(f.and(f.eq("N", 1), f.raw(`"Name" eq ')(' or "A)(" eq 'it''s ('`)))).toBe(`"N" eq 1 and ("Name" eq ')(' or "A)(" eq 'it''s (')`);
  });

  it("a long value is cut short in an error", () => {
    expect(() => render(f.eq("N" as string, "x".repeat(500)))).toThrow(`"N" is a number field: compare it with a number, not "${"x".repeat(60)}"… (500 characters)`);
  });

  it("refuses what f did not make", () => {
    expect(() => f.and()).toThrow("f.and() needs at least one filter");
    expect(() => f.or(f.eq("N", 1), { node: { kind: "raw", text: "1 eq 1" } } as never)).toThrow("f.or(…) argument 2 must be a filter made by f, not an object");
    expect(() => f.raw("  ")).toThrow("f.raw(…) takes a non-empty string, not a string");
  });
});

describe("the query text (wire contract 2.8)", () => {
  it("percent-encodes as UTF-8, spaces as %20 and `+` as %2B; `:` and `,` stay literal; `~` is %7E", () => {
    expect(queryValue(`"Name" eq 'a+b c'`)).toBe(`%22Name%22%20eq%20'a%2Bb%20c'`);
    expect(queryValue(`'%&#=?/'`)).toBe(`'%25%26%23%3D%3F%2F'`);
    expect(queryValue(`"Ts" gt 2026-09-27T00:00:00Z`)).toBe(`%22Ts%22%20gt%202026-09-27T00:00:00Z`);
    expect(queryValue(`a,b~c`)).toBe(`a,b%7Ec`);
    expect(queryValue(`é😀\u0000\n`)).toBe(`%C3%A9%F0%9F%98%80%00%0A`);
    // The text "%3A" is not a colon: its % is encoded.
    expect(queryValue(`'%3A%2C'`)).toBe(`'%253A%252C'`);
    expect(queryString([["$filter", "x eq 1"], ["$top", undefined], ["$select", `"A","B"`]])).toBe(`$filter=x%20eq%201&$select=%22A%22,%22B%22`);
  });

  it("refuses a lone surrogate with a sentence, not encodeURIComponent's 'URI malformed'", () => {
    expect(() => queryValue("a\uDFFFb")).toThrow(/a query value holds a lone surrogate \(half of a UTF-16 pair\), which no URL can carry/);
  });

  it("decodes back to the text, whatever it holds", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 40 }), (text) => {
        const encoded = queryValue(text);
        expect(encoded).not.toMatch(/[ +&#?]/);
        expect(decodeURIComponent(encoded)).toBe(text);
      }),
      { numRuns: 500 },
    );
  });
});
