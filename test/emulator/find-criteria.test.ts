import { describe, expect, it } from "vitest";
import type { FieldType } from "../../src/layout/schema.js";
import { type FindCriterionErrorCode, FindCriterionError, compileCriterion } from "../../src/emulator/hosted-file/find/criteria.js";
import { compareCodePoints } from "../../src/emulator/hosted-file/find/code-point-order.js";
import { tokenizeCriterion } from "../../src/emulator/hosted-file/find/tokens.js";
import {
  type StoredScalar,
  daysFromCivil,
  parseWireDate,
  parseWireTime,
  parseWireTimestamp,
} from "../../src/emulator/hosted-file/stored-value.js";

const today = daysFromCivil(2024, 3, 15)!;
const context = { today };

const date = (text: string): number => parseWireDate(text)!;
const time = (text: string): number => parseWireTime(text)!;
const ts = (text: string): number => parseWireTimestamp(text)!;

type Case = readonly [criterion: string, type: FieldType, value: StoredScalar, expected: boolean];
type ErrorCase = readonly [criterion: string, type: FieldType, code: FindCriterionErrorCode];

function check(cases: readonly Case[]): void {
  it.each(cases)("%j on %s %j -> %s", (criterion, type, value, expected) => {
    expect(compileCriterion(criterion, type, context)(value)).toBe(expected);
  });
}

function checkErrors(cases: readonly ErrorCase[]): void {
  it.each(cases)("%j on %s throws %s", (criterion, type, code) => {
    let error: unknown;
    try {
      compileCriterion(criterion, type, context);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FindCriterionError);
    expect((error as FindCriterionError).code).toBe(code);
  });
}

describe("tokenizer", () => {
  it("marks escaped characters literal and pairs quotes", () => {
    expect(tokenizeCriterion('\\*a"b*"\\')).toEqual([
      { char: "*", kind: "literal" },
      { char: "a", kind: "bare" },
      { char: '"', kind: "open" },
      { char: "b", kind: "literal" },
      { char: "*", kind: "literal" },
      { char: '"', kind: "close" },
      { char: "\\", kind: "literal" },
    ]);
  });
  it("leaves an unpaired quote bare and splits by code point", () => {
    expect(tokenizeCriterion('"😀')).toEqual([
      { char: '"', kind: "bare" },
      { char: "😀", kind: "bare" },
    ]);
  });
});

describe("code point order", () => {
  it.each([
    ["a", "b", -1],
    ["b", "a", 1],
    ["ab", "ab", 0],
    ["ab", "abc", -1],
    ["😀", "\uFFFD", 1], // UTF-16 unit order would say -1
    ["\uFFFD", "😀", -1],
    ["\uD7FF", "😀", -1],
  ] as const)("%j vs %j", (a, b, sign) => {
    expect(Math.sign(compareCodePoints(a, b))).toBe(sign);
  });
});

describe("empty criterion matches everything", () => {
  check([
    ["", "text", "", true],
    ["", "text", "abc", true],
    ["   ", "text", "abc", true],
    ["", "number", null, true],
    [" ", "number", 3, true],
    ["", "date", null, true],
    ["", "timestamp", 12, true],
  ]);
});

describe("= and == alone: empty; * alone: not empty", () => {
  check([
    ["=", "text", "", true],
    ["=", "text", "a", false],
    [" = ", "text", "", true],
    ["==", "text", "", true],
    ["==", "text", "x", false],
    ["=", "number", null, true],
    ["=", "number", 0, false],
    ["==", "date", null, true],
    ["==", "date", 0, false],
    ["=", "time", null, true],
    ["=", "container", "", true],
    ["=", "container", "a.png", false],
    ['=""', "text", "", true],
    ['=""', "text", "a", false],
    ['==""', "text", "", true],
    ['==""', "text", "a", false],
    ["*", "text", "a", true],
    ["*", "text", " ", true],
    ["*", "text", "", false],
    [" * ", "text", "", false],
    ["*", "number", 0, true],
    ["*", "number", null, false],
    ["*", "timestamp", 0, true],
    ["*", "timestamp", null, false],
    ["*", "container", "photo.jpg", true],
    ["*", "container", "", false],
  ]);
});

describe("escapes", () => {
  check([
    // \* is a literal star, not "not empty" and not a wildcard
    ["\\*", "text", "a*b", true],
    ["\\*", "text", "ab", false],
    ["\\*", "text", "", false],
    ["==a\\*", "text", "a*", true],
    ["==a\\*", "text", "abc", false],
    ["==a*", "text", "abc", true],
    ["=jo\\*", "text", "john", false],
    ["=jo\\*", "text", "say jo*", true],
    ["=jo*", "text", "john", true],
    // \= is a literal equals sign
    ["\\=", "text", "", false],
    ["\\=", "text", "a=b", true],
    ["\\=", "text", "ab", false],
    ["\\=\\=abc", "text", "abcdef", true],
    ["==abc", "text", "abcdef", false],
    // \\ is a literal backslash; a trailing lone backslash too
    ["\\\\", "text", "C:\\dir", true],
    ["\\\\", "text", "C:/dir", false],
    ["\\", "text", "x\\y", true],
    ["\\", "text", "xy", false],
    ["==a\\", "text", "a\\", true],
    ["==a\\", "text", "a", false],
    ["==a\\\\", "text", "a\\", true],
    // escaped comparison / range / wildcard characters are text
    ["\\<b", "text", "a", false],
    ["<b", "text", "a", true],
    ["\\<b", "text", "x<b", true],
    ["1\\.\\.3", "text", "2", false],
    ["1..3", "text", "2", true],
    ["\\@", "text", "me@example", true],
    ["\\@", "text", "me", false],
    ["==\\@", "text", "x", false],
    ["==\\@", "text", "@", true],
    ["\\#", "text", "#1", true],
    ["\\#", "text", "1", false],
    ["==\\#", "text", "1", false],
    // escaped unsupported operators are literal characters
    ["\\!", "text", "wow!", true],
    ["\\!", "text", "wow", false],
    ["\\~", "text", "a~b", true],
    ["\\?", "text", "why?", true],
    ["\\?", "text", "why", false],
    // escaped quotes are not phrase delimiters
    ['\\"a b\\"', "text", "b a", true],
    ['"a b"', "text", "b a", false],
    ['"say \\"hi\\""', "text", 'I say "hi" now', true],
    ['"say \\"hi\\""', "text", "I say hi now", false],
    // escaped letters are ordinary letters
    ["\\jo", "text", "John", true],
    // escaped whitespace is content, not trimmed
    ["\\ ", "text", "a b", true],
    ["\\ ", "text", "ab", false],
    ["==\\ ", "text", " ", true],
    ["==\\ ", "text", "", false],
    // numbers are read after unescaping
    ["\\5", "number", 5, true],
    ["<\\5", "number", 4, true],
  ]);
  checkErrors([["\\=", "number", "502"]]);
});

describe("unsupported operators ! ~ ?", () => {
  checkErrors([
    ["!", "text", "1708"],
    ["a!", "text", "1708"],
    ["~smith", "text", "1708"],
    ["=a?", "text", "1708"],
    ["?", "date", "1708"],
    ["?", "number", "1708"],
    ["!", "container", "1708"],
  ]);
  it("names the operator", () => {
    expect(() => compileCriterion("~smith", "text", context)).toThrow("operator ~ is not supported by the emulator");
    expect(() => compileCriterion("!", "text", context)).toThrow("operator ! is not supported by the emulator");
  });
  check([
    ['"wow!"', "text", "Wow! great", true],
    ['"why?"', "text", "why not", false],
  ]);
});

describe("FindCriterionError", () => {
  it("is an Error with a code and name", () => {
    const error = new FindCriterionError("500", "bad date");
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("FindCriterionError");
    expect(error.code).toBe("500");
    expect(error.message).toBe("bad date");
  });
});

describe("==x: whole field (text)", () => {
  check([
    ["==john", "text", "John", true],
    ["==john", "text", "John Smith", false],
    ["==john", "text", "Johnny", false],
    ["==JOHN SMITH", "text", "john smith", true],
    ["== john ", "text", "john", true],
    ["==jo*", "text", "John Smith", true],
    ["==*smith", "text", "John Smith", true],
    ["==*smith", "text", "Smithers", false],
    ["==a*b", "text", "a\nb", true],
    ["==*", "text", "", true],
    ["==j@hn", "text", "john", true],
    ["==j@hn", "text", "jhn", false],
    ["==j@hn", "text", "joohn", false],
    ["==a@b", "text", "a b", true],
    ["==a#", "text", "a1", true],
    ["==a#", "text", "ab", false],
    ["==a#", "text", "a12", false],
    ["==a#", "text", "a٣", false], // # is 0-9 only, not other Unicode digits
    ["==a.b*", "text", "axbc", false],
    ["==a.b*", "text", "a.bc", true],
    ["==a(*", "text", "a(b", true],
    ["==a(b", "text", "a(b", true],
    ["==a+", "text", "aa", false],
    ['=="a*b"', "text", "a*b", true],
    ['=="a*b"', "text", "axxb", false],
    ["==@", "text", "😀", true],
    ["==@@", "text", "😀", false],
    ["==a@b", "text", "a😀b", true],
    ["==straße", "text", "STRASSE", false],
    ["==ÄRGER", "text", "ärger", true],
  ]);
});

describe("=x: whole word (text)", () => {
  check([
    ["=jo", "text", "Jo Smith", true],
    ["=jo", "text", "John", false],
    ["=JOHN", "text", "mary-john", true],
    ["=jo*", "text", "Johnson", true],
    ["=j*n", "text", "jo-ann", false],
    ["=*son", "text", "Johnson", true],
    ["=*son", "text", "sonata", false],
    ["=*", "text", "a", true],
    ["=*", "text", "!!!", false],
    ["=*@", "text", "a", true],
    ["=j@n", "text", "jon", true],
    ["=j@n", "text", "john", false],
    ["=a#", "text", "x a1 y", true],
    ["=a#", "text", "a12", false],
    ["=a@b", "text", "a😀b", false],
    ["=john smith", "text", "Smith, John", true],
    ["=john smith", "text", "John Smithers", false],
    ['="new york"', "text", "New York City", true],
    ['="new york"', "text", "New Yorker", false],
    ["=o'brien", "text", "Pat O'Brien", true],
    ["=brien", "text", "O'Brien", false],
    ["=café", "text", "Le CAFÉ", true],
    ["=-", "text", "a-b", true],
    ["=-", "text", "ab", false],
    ["=jo", "text", "", false],
  ]);
});

describe("plain text: word prefix", () => {
  check([
    ["jo", "text", "John Smith", true],
    ["smi", "text", "John Smith", true],
    ["ohn", "text", "John", false],
    ["mith", "text", "Smith", false],
    ["jo sm", "text", "Smith, John", true],
    ["jo xx", "text", "John Smith", false],
    ["JOHN", "text", "john", true],
    ["john", "text", "", false],
    ["  jo  ", "text", "John", true],
    ["jo-sm", "text", "smith jones", true],
    ["a - b", "text", "a b", true],
    ["john", "text", "jo hn", false],
    ["john smith", "text", "John", false],
    // wildcards stay inside one field word, anchored at its start
    ["j*n", "text", "Johnson", true],
    ["j*n", "text", "Jack Nolan", false],
    ["*son", "text", "Johnson", true],
    ["*son", "text", "sonata", true],
    ["*son", "text", "Jon", false],
    ["*son", "text", "Jon son", true],
    ["**", "text", "a", true],
    ["**", "text", "!!!", false],
    ["*", "text", "!!!", true],
    ["j@n", "text", "Jane", true],
    ["j@n", "text", "Jn", false],
    ["j@n", "text", "j-n", false],
    ["#5", "text", "A-15", true],
    ["#5", "text", "A5", false],
    ["b#", "text", "b7 flat", true],
    ["b#", "text", "bb", false],
    ["b#", "text", "b٣", false],
    // apostrophes and underscores are word characters
    ["o'b", "text", "O'Brien", true],
    ["brien", "text", "O'Brien", false],
    ["don", "text", "don't", true],
    ["t", "text", "don't", false],
    ["bar", "text", "foo_bar", false],
    ["foo_b", "text", "foo_bar", true],
    // digits are word characters, dots are not
    ["2", "text", "v1.2", true],
    ["12", "text", "v1.2", false],
  ]);
});

describe("unicode", () => {
  check([
    ["ärg", "text", "ÄRGER", true],
    ["ÄRGER", "text", "ärger", true],
    ["straße", "text", "Straße", true],
    ["москва", "text", "Город МОСКВА", true],
    ["осква", "text", "Москва", false],
    ["東京", "text", "東京 タワー", true],
    ["ΟΔΟΣ", "text", "οδος", true],
    ["ΟΔΟΣ", "text", "ΟΔΟΣΤΡΩΤΗΡΑΣ", true],
    ["οδοσ", "text", "ΟΔΟΣ", true],
    // combining marks belong to the word
    ["cafe\u0301", "text", "Cafe\u0301 noir", true],
    ["noir", "text", "cafe\u0301noir", false],
    // emoji separate words; astral letters do not
    ["smile", "text", "😀smile", true],
    ["bc", "text", "𝒜bc", false],
    ["𝒜b", "text", "x 𝒜bc", true],
    ["😀", "text", "I 😀 it", true],
    ["😀", "text", "I ☺ it", false],
    ["j@n", "text", "jÖnsson", true],
    // text comparisons use code points, not UTF-16 units
    [">\uFFFD", "text", "😀", true],
    ["<\uFFFD", "text", "😀", false],
    ["<é", "text", "z", true],
  ]);
});

describe('"phrase"', () => {
  check([
    ['"john smith"', "text", "Mr John Smith Jr", true],
    ['"john smith"', "text", "Smith John", false],
    ['"ohn sm"', "text", "John Smith", true],
    ['"a*b"', "text", "xa*by", true],
    ['"a*b"', "text", "axxb", false],
    ['"john" sm', "text", "John Smith", true],
    ['"john" sm', "text", "John Jones", false],
    ['"john" sm', "text", "Smith", false],
    ['"-"', "text", "a-b", true],
    ['"-"', "text", "ab", false],
    ['"<5"', "text", "a<5", true],
    ['"<5"', "text", "4", false],
    ['"a...b"', "text", "xa...by", true],
    ['"a...b"', "text", "a", false],
    ['"ÄR"', "text", "warm", false],
    ['"ÄR"', "text", "BÄR", true],
    // an unpaired quote is punctuation, not the start of a phrase
    ['5" pipe', "text", "pipe 5", true],
  ]);
});

describe("no word characters: substring", () => {
  check([
    ["-", "text", "a-b", true],
    ["-", "text", "ab", false],
    ["\\!\\!\\!", "text", "Wow!!!", true],
    ["\\!\\!\\!", "text", "Wow!", false],
    ["\\@\\@", "text", "a@@b", true],
    ["\\@\\@", "text", "a@b", false],
    ["- -", "text", "a - - b", true],
    ["- -", "text", "a--b", false],
    ["+", "text", "", false],
    ["<", "text", "a<b", true],
    [">=", "text", "a>=b", true],
    [">=", "text", "anything", false],
    ["...", "text", "wait...", true],
    ["...", "text", "wait", false],
  ]);
});

describe("text comparisons (whole field, case-insensitive)", () => {
  check([
    ["<b", "text", "apple", true],
    ["<b", "text", "b", false],
    ["<b", "text", "zebra apple", false],
    ["<b", "text", "", false],
    ["<=b", "text", "B", true],
    ["<=b", "text", "ba", false],
    [">b", "text", "Banana", true],
    [">b", "text", "b", false],
    [">=B", "text", "b", true],
    [">=B", "text", "a", false],
    ["≤b", "text", "b", true],
    ["≤b", "text", "c", false],
    ["≥b", "text", "a", false],
    ["≥b", "text", "B", true],
    ["< b", "text", "a", true],
    [">10", "text", "9", true],
    [">=a", "text", "", false],
    ["<=\"a b\"", "text", "a a", true],
    ["<=\"a b\"", "text", "a c", false],
  ]);
});

describe("text ranges", () => {
  check([
    ["a...c", "text", "b", true],
    ["a...c", "text", "C", true],
    ["a...c", "text", "A", true],
    ["a...c", "text", "cat", false],
    ["b...c", "text", "a", false],
    ["a...c", "text", "", false],
    ["a..c", "text", "b", true],
    ["a....c", "text", "b", true],
    [" a ... c ", "text", "b", true],
    ["b...", "text", "zed", true],
    ["b...", "text", "a", false],
    ["...b", "text", "a", true],
    ["...b", "text", "c", false],
    ["...b", "text", "", false],
    ["A...C", "text", "bob", true],
  ]);
});

describe("numbers", () => {
  check([
    ["5", "number", 5, true],
    ["5", "number", 6, false],
    ["5", "number", 50, false],
    ["5", "number", null, false],
    [" 5 ", "number", 5, true],
    ["5.0", "number", 5, true],
    ["-2", "number", -2, true],
    ["+2", "number", 2, true],
    [".5", "number", 0.5, true],
    ["1e3", "number", 1000, true],
    ["==5", "number", 5, true],
    ["==5", "number", 50, false],
    ["==5", "number", null, false],
    ["=5", "number", 5, true],
    ["=5", "number", 4, false],
    ['"5"', "number", 5, true],
    ["<5", "number", 4.9, true],
    ["<5", "number", 5, false],
    ["<5", "number", null, false],
    ["<10", "number", 9, true],
    ["<=5", "number", 5, true],
    ["<=5", "number", 5.01, false],
    [">5", "number", 5, false],
    [">5", "number", 10, true],
    [">10", "number", 9, false],
    [">=5", "number", 5, true],
    [">=5", "number", 4, false],
    ["≤5", "number", 6, false],
    ["≤5", "number", 5, true],
    ["≥5", "number", 5, true],
    ["≥5", "number", 4, false],
    ["1...5", "number", 1, true],
    ["1...5", "number", 5, true],
    ["1...5", "number", 3, true],
    ["1...5", "number", 5.5, false],
    ["1...5", "number", 0, false],
    ["1...5", "number", null, false],
    ["1..5", "number", 3, true],
    ["1.....5", "number", 3, true],
    ["-5...-1", "number", -3, true],
    ["-5...-1", "number", 0, false],
    ["1.5...2.5", "number", 2, true],
    ["1.5...2.5", "number", 1, false],
    ["1.5..2.5", "number", 2.5, true],
    ["...5", "number", -100, true],
    ["...5", "number", 6, false],
    ["5...", "number", 4, false],
    ["5...", "number", 500, true],
  ]);
  checkErrors([
    ["abc", "number", "502"],
    ["5x", "number", "502"],
    ["1,000", "number", "502"],
    ["5 6", "number", "502"],
    ["<abc", "number", "502"],
    ["<", "number", "502"],
    ["=abc", "number", "502"],
    ["==abc", "number", "502"],
    ["1...x", "number", "502"],
    ["x...1", "number", "502"],
    ["...", "number", "502"],
    ["j*", "number", "502"],
    ['"five"', "number", "502"],
  ]);
});

describe("dates", () => {
  check([
    ["03/15/2024", "date", date("03/15/2024"), true],
    ["3/15/2024", "date", date("03/15/2024"), true],
    ["03/15/2024", "date", date("03/16/2024"), false],
    ["03/15/2024", "date", null, false],
    ["02/29/2024", "date", date("02/29/2024"), true],
    ["==03/15/2024", "date", today, true],
    ["==03/15/2024", "date", today + 1, false],
    ["=//", "date", today, true],
    ["//", "date", today, true],
    ["//", "date", today + 1, false],
    ["//", "date", today - 1, false],
    // a year alone is the whole year, M/YYYY the whole month
    ["2024", "date", date("01/01/2024"), true],
    ["2024", "date", date("12/31/2024"), true],
    ["2024", "date", date("01/01/2025"), false],
    ["2024", "date", date("12/31/2023"), false],
    ["2/2024", "date", date("02/29/2024"), true],
    ["02/2024", "date", date("02/01/2024"), true],
    ["2/2024", "date", date("03/01/2024"), false],
    ["2/2024", "date", date("01/31/2024"), false],
    // comparisons, chronological
    ["<03/15/2024", "date", date("03/14/2024"), true],
    ["<03/15/2024", "date", date("03/15/2024"), false],
    ["<03/15/2024", "date", date("12/31/2023"), true],
    ["<03/15/2024", "date", null, false],
    ["<=3/15/2024", "date", date("03/15/2024"), true],
    ["<=3/15/2024", "date", date("03/16/2024"), false],
    [">//", "date", today + 1, true],
    [">//", "date", today, false],
    [">=//", "date", today, true],
    [">=//", "date", today - 1, false],
    ["≥03/15/2024", "date", today, true],
    ["<2024", "date", date("12/31/2023"), true],
    ["<2024", "date", date("01/01/2024"), false],
    ["<=2024", "date", date("12/31/2024"), true],
    ["<=2024", "date", date("01/01/2025"), false],
    [">2024", "date", date("12/31/2024"), false],
    [">2024", "date", date("01/01/2025"), true],
    [">=2/2024", "date", date("02/01/2024"), true],
    [">=2/2024", "date", date("01/31/2024"), false],
    // ranges
    ["1/1/2024...1/31/2024", "date", date("01/31/2024"), true],
    ["1/1/2024...1/31/2024", "date", date("01/01/2024"), true],
    ["1/1/2024...1/31/2024", "date", date("02/01/2024"), false],
    ["1/1/2024...1/31/2024", "date", date("12/31/2023"), false],
    ["2023...2024", "date", date("12/31/2024"), true],
    ["2023...2024", "date", date("01/01/2023"), true],
    ["2023...2024", "date", date("12/31/2022"), false],
    ["//...", "date", today, true],
    ["//...", "date", today - 1, false],
    ["...//", "date", today - 400, true],
    ["1/1/2024..//", "date", today + 1, false],
  ]);
  checkErrors([
    ["13/01/2024", "date", "500"],
    ["02/30/2023", "date", "500"],
    ["2024-03-15", "date", "500"],
    ["3/15/24", "date", "500"],
    ["13/2024", "date", "500"],
    ["0000", "date", "500"],
    ["yesterday", "date", "500"],
    ["//x", "date", "500"],
    ["<abc", "date", "500"],
    ["1/1/2024...x", "date", "500"],
    ["03/15/2024 10:00:00", "date", "500"],
  ]);
});

describe("times", () => {
  check([
    ["10:30", "time", time("10:30:00"), true],
    ["10:30", "time", time("10:30:01"), false],
    ["10:30:15", "time", time("10:30:15"), true],
    ["9:05:00", "time", time("09:05:00"), true],
    ["10:30", "time", null, false],
    ["==10:30:15", "time", time("10:30:15"), true],
    ["<12:00", "time", time("11:59:59"), true],
    ["<12:00", "time", time("12:00:00"), false],
    ["<=12:00", "time", time("12:00:00"), true],
    [">12:00", "time", time("12:00:00"), false],
    [">12:00", "time", time("12:00:01"), true],
    [">=12:00:00", "time", time("12:00:00"), true],
    [">=12:00:00", "time", time("11:59:59"), false],
    ["9:00...17:00", "time", time("17:00:00"), true],
    ["9:00...17:00", "time", time("09:00:00"), true],
    ["9:00...17:00", "time", time("17:00:01"), false],
    ["9:00...17:00", "time", time("08:59:59"), false],
  ]);
  checkErrors([
    ["25:00", "time", "501"],
    ["10:60", "time", "501"],
    ["noon", "time", "501"],
    ["//", "time", "501"],
    ["2024", "time", "501"],
    ["<x", "time", "501"],
    ["9:00...x", "time", "501"],
  ]);
});

describe("timestamps", () => {
  check([
    ["03/15/2024 10:30:00", "timestamp", ts("03/15/2024 10:30:00"), true],
    ["03/15/2024 10:30:00", "timestamp", ts("03/15/2024 10:30:01"), false],
    ["03/15/2024 10:30", "timestamp", ts("03/15/2024 10:30:00"), true],
    ["03/15/2024 10:30:00", "timestamp", null, false],
    // a date alone is the whole day
    ["03/15/2024", "timestamp", ts("03/15/2024 00:00:00"), true],
    ["03/15/2024", "timestamp", ts("03/15/2024 23:59:59"), true],
    ["03/15/2024", "timestamp", ts("03/16/2024 00:00:00"), false],
    ["03/15/2024", "timestamp", ts("03/14/2024 23:59:59"), false],
    ["//", "timestamp", ts("03/15/2024 12:00:00"), true],
    ["//", "timestamp", ts("03/16/2024 00:00:00"), false],
    ["3/2024", "timestamp", ts("03/31/2024 23:59:59"), true],
    ["3/2024", "timestamp", ts("04/01/2024 00:00:00"), false],
    ["2024", "timestamp", ts("12/31/2024 23:59:59"), true],
    ["2024", "timestamp", ts("01/01/2025 00:00:00"), false],
    ["<=03/15/2024", "timestamp", ts("03/15/2024 23:59:59"), true],
    ["<=03/15/2024", "timestamp", ts("03/16/2024 00:00:00"), false],
    [">03/15/2024", "timestamp", ts("03/15/2024 23:59:59"), false],
    [">03/15/2024", "timestamp", ts("03/16/2024 00:00:00"), true],
    ["<03/15/2024", "timestamp", ts("03/14/2024 23:59:59"), true],
    ["<03/15/2024", "timestamp", ts("03/15/2024 00:00:00"), false],
    [">=03/15/2024", "timestamp", ts("03/15/2024 00:00:00"), true],
    [">=03/15/2024", "timestamp", ts("03/14/2024 23:59:59"), false],
    [">03/15/2024 10:00:00", "timestamp", ts("03/15/2024 10:00:01"), true],
    [">03/15/2024 10:00:00", "timestamp", ts("03/15/2024 10:00:00"), false],
    ["03/15/2024 9:00:00...03/15/2024 17:00:00", "timestamp", ts("03/15/2024 12:00:00"), true],
    ["03/15/2024 9:00:00...03/15/2024 17:00:00", "timestamp", ts("03/15/2024 17:00:01"), false],
    ["03/15/2024...03/16/2024", "timestamp", ts("03/16/2024 23:00:00"), true],
    ["03/15/2024...03/16/2024", "timestamp", ts("03/17/2024 00:00:00"), false],
  ]);
  checkErrors([
    ["10:30:00", "timestamp", "500"],
    ["03/15/2024 25:00:00", "timestamp", "500"],
    ["garbage", "timestamp", "500"],
    ["<x", "timestamp", "500"],
  ]);
});

describe("containers match their file name as text", () => {
  check([
    ["photo", "container", "Photo.JPG", true],
    ["jpg", "container", "photo.jpg", true],
    ["hoto", "container", "photo.jpg", false],
    ["==photo.jpg", "container", "PHOTO.JPG", true],
    ["==photo.jpg", "container", "photo.jpeg", false],
    ["==*.jpg", "container", "a.jpg", true],
    ["photo", "container", "", false],
  ]);
});
