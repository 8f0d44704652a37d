import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseWireNumber } from "../../src/emulator/hosted-file/stored-value.js";
import { classifyWireValue } from "../../src/pull/infer.js";
import { createClient, defineLayout, escapeFindValue } from "../../src/runtime/index.js";
import { DECODERS, DecodeError, INVALID } from "../../src/runtime/data-api/codecs.js";
import { isNumericText } from "../../src/runtime/core/numeric-text.js";
import { recordDecoder } from "../../src/runtime/data-api/record-decoder.js";

// Numeric text (old servers send numbers as strings) is recognised by one linear scanner shared by the runtime,
// `fmgen pull` and the emulator, in place of a regex that backtracks quadratically. The scanner must accept
// exactly the regex's language; and inputs that took the regex tens of seconds must take the scanner no time.

/** The regexes the scanner replaces: the emulator's (no whitespace), the runtime's and pull's (whitespace around). */
const OLD_BARE = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const OLD_SPACED = /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i;
/** The trimming regex escapeFindValue used. */
const oldEscape = (text: string) => text.replace(/[\\=!<>≤≥./?@#*"~{}]/g, (c) => `\\${c}`).replace(/^\s+|\s+$/g, (run) => run.replace(/./gsu, (c) => `\\${c}`));

/** Every whitespace `\s` knows, and look-alikes it does not (digits of other scripts, a zero-width space). */
const SPACES = [" ", "\t", "\n", "\r", "\v", "\f", "\u00a0", "\u1680", "\u2000", "\u2028", "\u2029", "\u202f", "\u3000", "\ufeff", "\u200b", "\u0085"];
const numericIsh = fc.string({ unit: fc.constantFrom("0", "1", "5", "9", ".", ".", "e", "E", "+", "-", "x", "٣", ...SPACES), maxLength: 14 });
const digits = fc.string({ unit: fc.constantFrom("0", "3", "9"), maxLength: 4 });
/** Numbers and near-misses: each part present, absent or slightly wrong. */
const nearNumber = fc
  .tuple(fc.constantFrom("", "", "+", "-", "+-"), digits, fc.constantFrom("", "", ".", ".."), digits, fc.constantFrom("", "", "e", "E", "e+", "E-", "e+-", "x"), digits, fc.constantFrom("", "", "", ".", "e", " ", "\u00a0"))
  .map((parts) => parts.join(""));
const anyText = fc.oneof(nearNumber, numericIsh, fc.string({ maxLength: 10 }), fc.string({ unit: "grapheme", maxLength: 6 }));

describe("isNumericText accepts exactly what the regexes accepted", () => {
  it("property: bare, like the emulator's regex", () => {
    let accepted = 0;
    fc.assert(
      fc.property(anyText, (text) => {
        if (OLD_BARE.test(text)) accepted++;
        return isNumericText(text) === OLD_BARE.test(text);
      }),
      { numRuns: 20_000 },
    );
    // Not vacuous: many of the strings are numbers.
    expect(accepted).toBeGreaterThan(500);
  });

  it("property: trimmed first, like the runtime's and pull's regex with whitespace around", () => {
    fc.assert(fc.property(anyText, (text) => isNumericText(text.trim()) === OLD_SPACED.test(text)), { numRuns: 20_000 });
  });

  it.each(["0", "-1", "+1", "1.", ".5", "-.5e-3", "1E+10", "007", "1.5e3", "9".repeat(400)])("accepts %j", (text) => {
    expect(isNumericText(text)).toBe(true);
  });

  it.each(["", ".", "+", "-", "e5", "1e", "1e+", "1.2.3", "1..2", "--1", "+-1", "1 ", " 1", "1_000", "0x10", "Infinity", "NaN", "١", "1e5.5", ".e1"])("refuses %j", (text) => {
    expect(isNumericText(text)).toBe(false);
  });

  it("the runtime's decoder, pull's classifier and the emulator agree with it", () => {
    for (const text of [" 12.5 ", "\t-3e2\n", "1.2.3", "  ", "x1"]) {
      const numeric = OLD_SPACED.test(text);
      expect(DECODERS.number(text) === INVALID).toBe(!numeric);
      expect(classifyWireValue(text) === "numericText").toBe(numeric);
      expect(parseWireNumber(text) === null).toBe(!numeric);
    }
    expect(DECODERS.number(" 12.5 ")).toBe(12.5);
    expect(parseWireNumber("\t-3e2\n")).toBe(-300);
  });
});

describe("escapeFindValue without the trimming regex", () => {
  it("property: the same escaping as before", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "é", "*", "\\", "=", ".", "😀", ...SPACES), maxLength: 12 });
    fc.assert(fc.property(fc.oneof(text, fc.string({ maxLength: 10 })), (t) => escapeFindValue(t) === oldEscape(t)), { numRuns: 20_000 });
  });
});

// No clock is read: a quadratic algorithm fails these by the test's timeout (the old regexes took tens of seconds
// on such inputs; a linear scan takes well under a millisecond).
describe("bounded on hostile input", () => {
  const Numbers = defineLayout({ layout: "N", fields: { n: { type: "number" } } });
  const hostile = ["1".repeat(200_000) + "x", `${" ".repeat(100_000)}1${" ".repeat(100_000)}x`, `${"1".repeat(200_000)}.`.repeat(2), `1${"0".repeat(200_000)}e`];

  it("a 200,000-character malformed number is refused by the record decoder", () => {
    for (const interpret of [false, true]) {
      const decode = recordDecoder(Numbers, { validate: true, interpret });
      for (const n of hostile) expect(() => decode({ recordId: "1", modId: "0", fieldData: { n }, portalData: {} })).toThrow(DecodeError);
    }
    // Numeric, but no double holds it (Number() would make it Infinity): refused, never rounded (an exact field reads such).
    expect(DECODERS.number(`${"1".repeat(200_000)}`)).toBe(INVALID);
  }, 2_000);

  it("and by pull's classifier and the emulator", () => {
    for (const n of hostile) {
      expect(classifyWireValue(n)).toBe("text");
      expect(parseWireNumber(n)).toBeNull();
    }
  }, 2_000);

  it("escapeFindValue on 200,000 characters of inner whitespace", () => {
    expect(escapeFindValue(`a${" ".repeat(200_000)}b`)).toBe(`a${" ".repeat(200_000)}b`);
    expect(escapeFindValue(`${"\t".repeat(100_000)}a${" ".repeat(100_000)}`)).toBe(`${"\\\t".repeat(100_000)}a${"\\ ".repeat(100_000)}`);
  }, 2_000);

  it("a server URL whose path is 200,000 slashes and a name", () => {
    const fm = createClient({ server: `http://127.0.0.1:1${"/".repeat(200_000)}x`, database: "D", auth: { token: "t" } });
    expect(fm).toBeDefined();
  }, 2_000);
});
