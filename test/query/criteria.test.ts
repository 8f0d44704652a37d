import { describe, expect, it } from "vitest";
import type { FieldKind } from "../../src/runtime/index.js";
import { decimal, encodeFindRequest, fieldCriterion } from "../../src/runtime/data-api/find-criteria.js";
import { HELPERS_BY_KIND, q } from "../../src/runtime/index.js";
import { Item } from "./items.js";

// What each helper sends, per field kind: given a value or criterion, want the criterion string on the wire.
// No server here; find-table.test.ts checks what the emulator finds with each of them.

const send = (type: FieldKind, value: unknown) => fieldCriterion({ type }, "F", value, "L");

describe("the criterion each helper sends", () => {
  it.each([
    // plain values and q.eq: equals exactly, escaped; null and "" find empty fields
    ["text", "Ada", "==Ada"],
    ["text", "a*b", "==a\\*b"],
    ["text", " x ", "==\\ x\\ "],
    ["text", "", "="],
    ["text", null, "="],
    ["text", q.eq("==x"), "==\\=\\=x"],
    ["text", q.eq(null), "="],
    ["container", "photo.png", "==photo\\.png"],
    ["number", 5, "==5"],
    ["number", -3.5, "==-3.5"],
    ["number", 1e21, "==1000000000000000000000"],
    ["number", 1.5e-7, "==0.00000015"],
    ["number", q.eq(10), "==10"],
    ["number", null, "="],
    ["date", "2024-02-29", "02/29/2024"],
    ["date", q.eq("2024-02-29"), "02/29/2024"],
    ["time", "12:30:00", "12:30:00"],
    ["timestamp", "2024-01-15T09:00:00", "01/15/2024 09:00:00"],
    // comparisons take the field's TypeScript value and send its wire form
    ["number", q.lt(5), "<5"],
    ["number", q.lte(0.5), "<=0.5"],
    ["number", q.gt(-1), ">-1"],
    ["number", q.gte(1e-7), ">=0.0000001"],
    ["number", q.between(1, 5), "1...5"],
    ["number", q.between(-5, -1), "-5...-1"],
    ["date", q.lt("2024-01-01"), "<01/01/2024"],
    ["date", q.gte("1990-01-01"), ">=01/01/1990"],
    ["date", q.between("2024-01-01", "2024-02-29"), "01/01/2024...02/29/2024"],
    ["time", q.gt("09:00:00"), ">09:00:00"],
    ["time", q.between("08:00:00", "17:00:00"), "08:00:00...17:00:00"],
    ["timestamp", q.lte("2024-01-15T09:00:00"), "<=01/15/2024 09:00:00"],
    ["timestamp", q.between("2024-03-15T00:00:00", "2024-03-16T07:59:59"), "03/15/2024 00:00:00...03/16/2024 07:59:59"],
    // text helpers escape their text
    ["text", q.words("john smith"), "john smith"],
    ["text", q.words("  a*b  @c "), "a\\*b  \\@c"],
    ["text", q.beginsWith("john"), "==john*"],
    ["text", q.beginsWith(" a*"), "==\\ a\\**"],
    ["text", q.endsWith("*b"), "==*\\*b"],
    ["text", q.endsWith("end "), "==*end\\ "],
    ["text", q.contains("@"), "==*\\@*"],
    ["text", q.contains(" "), "==*\\ *"],
    ["text", q.contains('"hi" \\ ...'), '==*\\"hi\\" \\\\ \\.\\.\\.*'],
    // every kind: empty, not empty, raw find syntax as written
    ["text", q.empty(), "="],
    ["number", q.notEmpty(), "*"],
    ["container", q.notEmpty(), "*"],
    ["date", q.empty(), "="],
    ["text", q.raw("a...m"), "a...m"],
    ["text", q.raw("=="), "=="],
    ["number", q.raw("1...3"), "1...3"],
  ] as const)("%s field, %j -> %j", (type, value, wire) => {
    expect(send(type, value)).toBe(wire);
  });
});

describe("what the runtime refuses (whatever the types said)", () => {
  it.each([
    ["text", q.gte("a"), /q\.gte\(\) does not apply to a text field/],
    ["text", q.between("a", "c"), /q\.between\(\) does not apply to a text field/],
    ["container", q.lt("a"), /q\.lt\(\) does not apply to a container field/],
    ["number", q.beginsWith("1"), /q\.beginsWith\(\) does not apply to a number field/],
    ["date", q.words("2024"), /q\.words\(\) does not apply to a date field/],
    ["timestamp", q.contains(":"), /q\.contains\(\) does not apply to a timestamp field/],
    ["date", q.gte(5 as unknown as string), /5 is not a valid date value/],
    ["date", q.gte("03/15/2024"), /"03\/15\/2024" is not a valid date value/],
    ["number", q.gte("1990-01-01" as unknown as number), /"1990-01-01" is not a valid number value/],
    ["number", q.lt(Number.NaN), /NaN is not a valid number value/],
    ["number", q.between(1, "x" as unknown as number), /"x" is not a valid number value/],
    ["time", q.lt("25:00:00"), /not a valid time value/],
    ["number", "5", /"5" is not a valid number value/],
    ["text", 5, /5 is not a valid text value/],
    ["text", q.contains(""), /q\.contains\(\) needs some text/],
    ["text", q.beginsWith(""), /q\.beginsWith\(\) needs some text/],
    ["text", q.endsWith(""), /q\.endsWith\(\) needs some text/],
    ["text", q.words("\t "), /q\.words\(\) needs a word/],
    ["text", q.words(5 as unknown as string), /q\.words\(\) takes a string, got 5/],
    ["text", q.raw(null as unknown as string), /q\.raw\(\) takes a string, got null/],
    ["text", { helper: "regex", args: ["a.*"] }, /object is not a valid text value/],
    ["text", ["a"], /object is not a valid text value/],
  ] as const)("%s field, %j: TypeError", (type, value, message) => {
    expect(() => send(type, value)).toThrow(TypeError);
    expect(() => send(type, value)).toThrow(message);
  });

  it("names the layout and the field", () => {
    expect(() => fieldCriterion({ type: "text" }, "First Name", q.gt("a"), "Contacts Web")).toThrow('find on layout "Contacts Web", field "First Name": q.gt() does not apply to a text field');
  });
});

describe("a request as sent", () => {
  it("renders layout and portal fields and omit; refuses fields the layout lacks", () => {
    expect(encodeFindRequest(Item, { Name: q.beginsWith("a"), "Parts::Weight": q.gt(1), "Maker::Name": "Acme", omit: true })).toEqual({
      Name: "==a*",
      "Parts::Weight": ">1",
      "Maker::Name": "==Acme",
      omit: "true",
    });
    expect(encodeFindRequest(Item, { Name: "x", omit: false, Qty: undefined })).toEqual({ Name: "==x" });
    expect(() => encodeFindRequest(Item, { Nope: "x" })).toThrow('find on layout "Items Web": no field "Nope"');
    expect(() => encodeFindRequest(Item, { toString: "x" })).toThrow('no field "toString"');
  });
});

describe("the helper dictionary", () => {
  it("gives every kind eq, empty, notEmpty and raw; order helpers to number, date, time and timestamp; text helpers to text", () => {
    const names = (kind: FieldKind) => Object.keys(HELPERS_BY_KIND[kind]).sort();
    const base = ["empty", "eq", "notEmpty", "raw"];
    const ordered = [...base, "between", "gt", "gte", "lt", "lte"].sort();
    expect(names("text")).toEqual([...base, "beginsWith", "contains", "endsWith", "words"].sort());
    for (const kind of ["number", "date", "time", "timestamp"] as const) expect(names(kind)).toEqual(ordered);
    expect(names("container")).toEqual(base);
    expect(Object.isFrozen(HELPERS_BY_KIND) && Object.isFrozen(HELPERS_BY_KIND.text) && Object.isFrozen(HELPERS_BY_KIND.date)).toBe(true);
  });

  it("every helper builds a frozen criterion; q itself is frozen", () => {
    const criterion = q.between(1, 2);
    expect(criterion).toEqual({ helper: "between", args: [1, 2] });
    expect(Object.isFrozen(criterion) && Object.isFrozen(criterion.args) && Object.isFrozen(q)).toBe(true);
    expect(Object.keys(q).sort()).toEqual(["beginsWith", "between", "contains", "empty", "endsWith", "eq", "gt", "gte", "lt", "lte", "notEmpty", "raw", "words"]);
  });
});

describe("numbers in plain decimal notation", () => {
  it.each([
    [0, "0"],
    [-0, "0"],
    [5, "5"],
    [-3.5, "-3.5"],
    [1e21, "1000000000000000000000"],
    [1.25e22, "12500000000000000000000"],
    [-1e21, "-1000000000000000000000"],
    [1e-7, "0.0000001"],
    [-1.5e-7, "-0.00000015"],
    [1.2345e-10, "0.00000000012345"],
    [Number.MAX_SAFE_INTEGER, "9007199254740991"],
    [5e-324, `0.${"0".repeat(323)}5`],
  ])("%s -> %s", (n, text) => {
    expect(decimal(n)).toBe(text);
    expect(Number(text)).toBe(n === 0 ? 0 : n);
  });
});
