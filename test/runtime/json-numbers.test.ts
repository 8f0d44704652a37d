import { describe, expect, it } from "vitest";
import { NumberToken, parseJson, stringifyJson } from "../../src/runtime/core/json-numbers.js";
import { doubleHolds, MAX_DIGITS, parseDecimal, plainDecimal } from "../../src/runtime/core/decimal-text.js";

const UUID_NUMBER = "12345678901234567890123456789012345678901234567890123456789";
const plain = (text: string, grammar: "json" | "lenient" = "json") => {
  const d = parseDecimal(text, grammar);
  return typeof d === "object" ? plainDecimal(d) : `problem: ${d}`;
};

describe("parseJson", () => {
  it("keeps a number token a double cannot hold as its text, and leaves every other value as JSON.parse reads it", () => {
    const text = `{"a":${UUID_NUMBER},"b":1.5,"c":"x\\"${UUID_NUMBER}","d":[9007199254740993,9007199254740992,1e400,-0,0.1,1234567890123456]}`;
    const value = parseJson(text) as { a: NumberToken; b: number; c: string; d: unknown[] };
    expect(value.a).toBeInstanceOf(NumberToken);
    expect(value.a.text).toBe(UUID_NUMBER);
    expect(value.b).toBe(1.5);
    expect(value.c).toBe(`x"${UUID_NUMBER}`);
    expect(value.d.map((v) => (v instanceof NumberToken ? `token ${v.text}` : v))).toEqual(["token 9007199254740993", 9007199254740992, "token 1e400", -0, 0.1, 1234567890123456]);
  });

  it("reads an answer with no long number exactly as JSON.parse does (no token made)", () => {
    const text = JSON.stringify({ response: { data: [{ fieldData: { n: 12.25, s: "1234567890123456789", e: 1e-7 } }] }, messages: [{ code: "0" }] });
    expect(parseJson(text)).toEqual(JSON.parse(text));
  });

  it("finds a long token wherever it stands, and reads a positive exponent past a double's range as Infinity", () => {
    // Every offset of a 16-digit run relative to the 16-character stride the scan looks at.
    for (let pad = 0; pad < 20; pad++) {
      const value = parseJson(`{"${"x".repeat(pad)}":9007199254740993}`) as Record<string, unknown>;
      expect(value["x".repeat(pad)], `pad ${pad}`).toBeInstanceOf(NumberToken);
    }
    expect((parseJson("[1e-400]") as NumberToken[])[0]!.text).toBe("1e-400");
    expect((parseJson("[1E-400]") as NumberToken[])[0]!.text).toBe("1E-400");
    expect(parseJson("[1e400]")).toEqual([Infinity]);
    expect(parseJson('["re-enter", 1e-5, 123456789012345]')).toEqual(["re-enter", 1e-5, 123456789012345]);
  });

  it("refuses what JSON.parse refuses, marked tokens included", () => {
    for (const text of ['{"a":1-2}', '{"a":00012345678901234567}', '{"a":.12345678901234567}', '{"a":12345678901234567.}', "[1e]", "[12345678901234567"]) {
      expect(() => parseJson(text), text).toThrow(SyntaxError);
    }
  });

  it("does not take a server's string for a number, whatever it holds", () => {
    const value = parseJson(`["\\u0000fmgen-number-00:1", ${UUID_NUMBER}]`) as unknown[];
    expect(value[0]).toBe("\u0000fmgen-number-00:1");
    expect(value[1]).toBeInstanceOf(NumberToken);
  });

  it("reads a 60,000-digit token and a string of backslashes in one pass", () => {
    const huge = "1" + "0".repeat(60_000);
    const value = parseJson(`[${huge}, "${"\\\\".repeat(30_000)}", ${huge}]`) as unknown[];
    expect((value[0] as NumberToken).text).toHaveLength(60_001);
    expect((value[1] as string).length).toBe(30_000);
    expect(value[2]).toBeInstanceOf(NumberToken);
  });
});

describe("stringifyJson", () => {
  it("writes a NumberToken as its bare token, digit for digit, and every other value as JSON.stringify does", () => {
    expect(stringifyJson({ id: new NumberToken(UUID_NUMBER), s: "\u0000", n: [new NumberToken("-0.5")] })).toBe(`{"id":${UUID_NUMBER},"s":"\\u0000","n":[-0.5]}`);
    expect(stringifyJson({ a: 1 })).toBe('{"a":1}');
  });

  it("round-trips with parseJson", () => {
    const text = `{"k":[${UUID_NUMBER},1.5,"${UUID_NUMBER}"]}`;
    expect(stringifyJson(parseJson(text))).toBe(text);
  });
});

describe("decimal text", () => {
  it("writes the canonical form: no exponent, no leading or trailing zeros, no -0", () => {
    expect(plain("1.2300")).toBe("1.23");
    expect(plain("123e-2")).toBe("1.23");
    expect(plain("1E-3")).toBe("0.001");
    expect(plain("1e5")).toBe("100000");
    expect(plain("-0")).toBe("0");
    expect(plain("-0.000120")).toBe("-0.00012");
    expect(plain(UUID_NUMBER)).toBe(UUID_NUMBER);
  });

  it("takes only a JSON number token for writes, and what older servers write in a string when reading", () => {
    for (const text of ["007", ".5", "5.", "+3", "", "-", "1e", "1 ", "0x10", "Infinity", "NaN"]) expect(plain(text), text).toMatch(/^problem: /);
    expect(plain("007", "lenient")).toBe("7");
    expect(plain(".5", "lenient")).toBe("0.5");
    expect(plain("5.", "lenient")).toBe("5");
    expect(plain("+3", "lenient")).toBe("3");
    expect(plain(".", "lenient")).toBe("problem: it has no digits");
  });

  it("bounds digits and range as FileMaker does, in words", () => {
    expect(plain("9".repeat(MAX_DIGITS))).toBe("9".repeat(MAX_DIGITS));
    expect(plain("9".repeat(MAX_DIGITS + 1))).toBe("problem: it has 401 significant digits, more than the 400 FileMaker keeps");
    expect(plain("1e400")).toBe("1" + "0".repeat(400));
    expect(plain("1e401")).toMatch(/beyond FileMaker's range/);
    expect(plain("1e-401")).toMatch(/beyond FileMaker's range/);
    expect(plain("1e999999999999999999999")).toMatch(/beyond FileMaker's range/);
    expect(plain("0." + "0".repeat(60_000) + "1")).toMatch(/beyond FileMaker's range/);
  });

  it("says whether a double holds a token digit for digit", () => {
    expect(doubleHolds("0.1")).toBe(true);
    expect(doubleHolds("0.30000000000000004")).toBe(true);
    expect(doubleHolds("0.30000000000000001")).toBe(false);
    expect(doubleHolds("9007199254740992")).toBe(true);
    expect(doubleHolds("9007199254740993")).toBe(false);
    expect(doubleHolds("1e21")).toBe(true);
    expect(doubleHolds("1e400")).toBe(false);
    expect(doubleHolds("1e-401")).toBe(false);
    expect(doubleHolds("-0")).toBe(true);
  });
});

describe("isNumberToken", () => {
  it("knows a token by its brand, whichever copy of the module made it, and nothing else", async () => {
    const { isNumberToken } = await import("../../src/runtime/core/json-numbers.js");
    expect(isNumberToken(new NumberToken("1"))).toBe(true);
    const foreign = { get [Symbol.for("fmgen.NumberToken")]() { return true; }, text: "2" };
    expect(isNumberToken(foreign)).toBe(true);
    for (const other of [null, 1, "1", { text: "1" }, [], { [Symbol.for("fmgen.NumberToken")]: "yes" }]) expect(isNumberToken(other)).toBe(false);
  });
});
