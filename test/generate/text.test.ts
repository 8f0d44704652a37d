import { describe, expect, it } from "vitest";
import { docText, literalKey, propertyKey, stringLiteral, textWidth } from "../../src/generate/text.js";

const HOSTILE = ["", "plain", 'q"uote', "it's", `"'"`, `''""`, "\\", "a\\nb", "line\nbreak", "tab\t", "\u0000", "\u2028", "\u2029", "\ufeff", "bidi\u202e", "lone \ud800", "\udc00 lone", "emoji 🎉", "👨‍👩‍👧", "e\u0301", "`${x}`", "</script>", "*/"];

describe("string literals", () => {
  it.each([
    ["plain", '"plain"'],
    ['q"uote', `'q"uote'`],
    ["it's", `"it's"`],
    [`"'"`, `'"\\'"'`],
    ["\\", '"\\\\"'],
    ["line\nbreak", '"line\\nbreak"'],
    ["\u0000", '"\\u0000"'],
    ["\u2028", '"\\u2028"'],
    ["bidi\u202e", '"bidi\\u202e"'],
    ["lone \ud800", '"lone \\ud800"'],
    ["emoji 🎉", '"emoji 🎉"'],
  ])("%j -> %s", (value, literal) => {
    expect(stringLiteral(value)).toBe(literal);
  });

  it.each(HOSTILE)("%j evaluates back to itself and stays on one line", (value) => {
    const literal = stringLiteral(value);
    expect(literal).not.toMatch(/[\n\r\u2028\u2029]/);
    expect(new Function(`return ${literal};`)()).toBe(value);
  });
});

describe("property keys", () => {
  it.each([
    ["id", "id", "id"],
    ["First Name", '"First Name"', '"First Name"'],
    ["class", "class", "class"],
    ["1st", '"1st"', '"1st"'],
    ["123", '"123"', '"123"'],
    ["$_", "$_", "$_"],
    ["__proto__", "__proto__", '["__proto__"]'],
    ["constructor", "constructor", "constructor"],
  ])("%j is %s in a type and %s in an object literal", (name, type, literal) => {
    expect(propertyKey(name)).toBe(type);
    expect(literalKey(name)).toBe(literal);
  });

  it.each(HOSTILE)("an object literal keyed %j has exactly that own key", (name) => {
    const value = new Function(`return { ${literalKey(name)}: 1 };`)() as object;
    expect(Object.keys(value)).toEqual([name]);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });
});

describe("JSDoc text", () => {
  it.each([
    ["one line", "one line"],
    ["ends */ early", "ends *\\/ early"],
    ["a\r\nb\rc\u2028d", "a\nb\nc\nd"],
    ["trailing   \n\n  indented\n\n", "trailing\n\n  indented"],
    ["tab\there\u0000", "tab  here"],
    ["\n\n", ""],
  ])("%j -> %j", (text, doc) => {
    expect(docText(text)).toBe(doc);
  });
});

describe("text width", () => {
  it("counts ASCII as one column and bounds everything else by two per code unit", () => {
    expect(textWidth("abc")).toBe(3);
    expect(textWidth("日本")).toBe(4);
    expect(textWidth("🎉")).toBe(4);
  });
});
