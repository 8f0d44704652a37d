import { describe, expect, it } from "vitest";
import { compareNumbers, ExactNumber, numberText, sameNumber, storedNumberOf, wireNumber } from "../../../src/emulator/hosted-file/exact-number.js";
import { NumberToken, stringifyJson } from "../../../src/runtime/core/json-numbers.js";

const LONG = "123456789012345678901234567890";
const stored = (text: string) => {
  const value = storedNumberOf(text);
  if (typeof value === "string") throw new Error(value);
  return value;
};

describe("stored numbers", () => {
  it("keeps a value a double holds as that double, and any other as its canonical text", () => {
    expect(stored("1.50")).toBe(1.5);
    expect(stored("-0")).toBe(0);
    expect(Object.is(stored("-0"), 0)).toBe(true);
    expect(stored(LONG)).toBeInstanceOf(ExactNumber);
    expect(numberText(stored(`${LONG}.2500`))).toBe(`${LONG}.25`);
    expect(numberText(stored("1e-7"))).toBe("0.0000001");
    expect(numberText(stored("1e21"))).toBe("1000000000000000000000");
    expect(storedNumberOf("abc")).toBe("it is not a number");
  });

  it("compares exactly, doubles and decimals alike", () => {
    const values = ["-1e30", "-9007199254740993", "-1", "0", "0.30000000000000001", "0.30000000000000004", "9007199254740992", "9007199254740993", LONG, `${LONG}.1`].map(stored);
    for (let i = 0; i < values.length; i++) {
      for (let j = 0; j < values.length; j++) expect(Math.sign(compareNumbers(values[i]!, values[j]!)), `${i} ${j}`).toBe(Math.sign(i - j));
    }
    expect(sameNumber(stored(`${LONG}.0`), stored(LONG))).toBe(true);
  });

  it("writes an exact value as its bare token", () => {
    expect(stringifyJson({ n: wireNumber(stored(LONG)), d: wireNumber(stored("2.5")), e: stored(LONG) })).toBe(`{"n":${LONG},"d":2.5,"e":${LONG}}`);
    expect(wireNumber(stored(LONG))).toBeInstanceOf(NumberToken);
  });
});
