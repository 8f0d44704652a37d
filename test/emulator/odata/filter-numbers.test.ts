import { describe, expect, it } from "vitest";
import { numberText, storedNumberOf, type StoredNumber } from "../../../src/emulator/hosted-file/exact-number.js";
import { averageDecimal, decimalText, storedOf, sumDecimals } from "../../../src/emulator/odata/apply-decimal.js";
import { arithmetic, negate, wholeNumber } from "../../../src/emulator/odata/filter-numbers.js";

// `$filter`'s decimal arithmetic (filter-numbers.ts) and `$apply`'s averages (apply-decimal.ts) on stored numbers,
// doubles and ExactNumbers alike, compared as canonical text.

const n = (text: string): StoredNumber => {
  const v = storedNumberOf(text, "lenient");
  if (typeof v === "string") throw new Error(v);
  return v;
};
const text = (v: StoredNumber | null) => (v === null ? null : numberText(v));
const KEY = "1234567890123456789012345678901234567890123456789012345678";

describe("arithmetic", () => {
  it.each([
    ["add", KEY, "1", "1234567890123456789012345678901234567890123456789012345679"],
    ["sub", KEY, KEY, "0"],
    ["add", "0.1", "0.2", "0.3"],
    ["add", "9007199254740992", "1", "9007199254740993"],
    ["mul", KEY, "-2", "-2469135780246913578024691357802469135780246913578024691356"],
    ["mul", "0.1", "0.1", "0.01"],
    ["mod", KEY, "10", "8"],
    ["mod", `-${KEY}`, "10", "-8"],
    ["mod", "0.3", "0.1", "0"],
    ["mod", "7", "-3", "1"],
    ["div", "1", "4", "0.25"],
  ])("%s %s %s is %s", (op, a, b, expected) => {
    expect(text(arithmetic(op, n(a), n(b)))).toBe(expected);
  });

  it("is empty for a zero divisor and past 10^400, and rounds to 400 significant digits", () => {
    expect(arithmetic("mod", n(KEY), 0)).toBeNull();
    expect(arithmetic("div", n(KEY), 0)).toBeNull();
    expect(arithmetic("mul", n("9e400"), n("10"))).toBeNull();
    const wide = `1${"0".repeat(398)}1`; // 400 digits
    expect(text(arithmetic("add", n(wide), n("0.5")))).toBe(`1${"0".repeat(398)}2`);
  });

  it("negates, rounds half away from zero, floors and ceils exactly", () => {
    expect(text(negate(n(KEY)))).toBe(`-${KEY}`);
    expect(text(negate(n(`-${KEY}`)))).toBe(KEY);
    expect(text(wholeNumber("round", n(`${KEY}.5`)))).toBe("1234567890123456789012345678901234567890123456789012345679");
    expect(text(wholeNumber("round", n(`-${KEY}.5`)))).toBe("-1234567890123456789012345678901234567890123456789012345679");
    expect(text(wholeNumber("round", n(`${KEY}.49`)))).toBe(KEY);
    expect(text(wholeNumber("floor", n(`-${KEY}.1`)))).toBe("-1234567890123456789012345678901234567890123456789012345679");
    expect(text(wholeNumber("ceiling", n(`-${KEY}.1`)))).toBe(`-${KEY}`);
    expect(text(wholeNumber("ceiling", n(`${KEY}.000000000000000000001`)))).toBe("1234567890123456789012345678901234567890123456789012345679");
    expect(text(wholeNumber("round", -2.5))).toBe("-3");
  });
});

describe("averages", () => {
  it("are exact when they end, else as wide as the widest value (at least 16 digits)", () => {
    const exact = (d: ReturnType<typeof sumDecimals>) => text(storedOf(d) ?? null);
    expect(exact(averageDecimal(sumDecimals([n(KEY), n("1")]), 2))).toBe("617283945061728394506172839450617283945061728394506172839.5");
    expect(decimalText(averageDecimal(sumDecimals([1, 2, 2]), 3))).toBe("1.666666666666667");
    expect(decimalText(averageDecimal(sumDecimals([1, 1]), 1024))).toBe("0.001953125");
    expect(exact(averageDecimal(sumDecimals([n(KEY), 0, 0, 0, 0, 0, 0]), 7, 58))).toBe("176366841446208112716049382700176366841446208112716049382.6");
  });
});
