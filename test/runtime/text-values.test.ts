import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FileMakerClient, LayoutClient } from "../../src/runtime/index.js";
import { connect, startRuntimeEmulator, type Emulator } from "../support/runtime-emulator.js";
import { Types } from "../support/runtime-layouts.js";

// Text round trips (unicode, control characters, every find-operator character) and docs/finding.md's promise
// that a plain value in a query means "equals exactly" and is escaped: a find by each such text returns
// exactly the record holding it. FileMaker compares text case-insensitively, so no two texts here are
// equal once case-folded.

const OPERATOR_CHARS = ["=", "!", "<", ">", "≤", "≥", ".", "/", "?", "@", "#", "*", '"', "~", "{", "}", "\\"];

const TEXTS: readonly string[] = [
  // Unicode
  "👩‍💻 emoji 🎉🇯🇵",
  "שלום עולם",
  "مرحبا بالعالم",
  "mixed עברית and English",
  "e\u0301 n\u0303 combining",
  "ǅungla Σίσυφος ΟΔΟΣ",
  "日本語のテキスト",
  "\u200bzero width",
  // Control characters (NUL-free) inside the text
  "tab\tinside",
  "line\nbreak",
  "crlf\r\nline",
  "bell\u0007and\u001bescape",
  // Every find-operator character alone, doubled, and in the operator forms FileMaker knows
  ...OPERATOR_CHARS,
  "==",
  "...",
  "//",
  "\\\\",
  '""',
  "{}",
  "a*b",
  "**",
  "==x",
  "=x",
  "!dup",
  "<5",
  ">5",
  ">=5",
  "<=5",
  "≥5",
  "≤5",
  "1...3",
  "a...",
  "...z",
  "x//y",
  "@@",
  "##",
  '"q"',
  '"unpaired',
  "~relaxed",
  "{1}",
  "trailing backslash\\",
  "\\*escaped star",
  "a.b.c",
  "wörd@#*",
  "all: = == ! < > ≤ ≥ . ... / // ? @ # * \" ~ { } \\",
  "1",
  "-",
  "+",
];

let emu: Emulator;
let fm: FileMakerClient;
let types: LayoutClient<typeof Types>;
const ids = new Map<string, string>();

beforeAll(async () => {
  emu = await startRuntimeEmulator();
  fm = connect(emu.url);
  types = fm.layout(Types);
  expect(new Set(TEXTS.map((t) => t.toLowerCase())).size).toBe(TEXTS.length);
  for (const text of TEXTS) ids.set(text, (await types.create({ fieldData: { Text: text } })).recordId);
  // Decoys: texts that a mis-escaped criterion would match (prefixes, words, wildcard expansions).
  for (const decoy of ["ab", "axb", "a-b", "x", "5", "6", "4", "2", "q", "dup", "z", "relaxed", "1 2", "escaped star", "wörd", "zero width", "tab", "line", "word@#*x"]) {
    await types.create({ fieldData: { Text: decoy } });
  }
});

afterAll(async () => {
  await fm.close();
  await emu.close();
});

describe("text round trips", () => {
  it.each(TEXTS.map((t) => [JSON.stringify(t), t]))("%s reads back unchanged", async (_label, text) => {
    const record = await types.get(ids.get(text)!);
    expect(record.fieldData.Text).toBe(text);
  });

  it("a long text (100,000 characters, mixed scripts) reads back unchanged", async () => {
    const text = "Ünïcödé ✓ שלום 👍 ".repeat(6_000).slice(0, 100_000);
    const { recordId } = await types.create({ fieldData: { Text: text } });
    expect((await types.get(recordId)).fieldData.Text).toBe(text);
  });
});

describe("a find by a plain text value returns exactly the record holding it", () => {
  it.each(TEXTS.map((t) => [JSON.stringify(t), t]))("%s", async (_label, text) => {
    const page = await types.find({ query: [{ Text: text }] });
    expect(page.data.map((r) => r.recordId)).toEqual([ids.get(text)]);
    expect(page.dataInfo.foundCount).toBe(1);
  });

  it("findOne by each text returns its record", async () => {
    for (const text of TEXTS) {
      const record = await types.findOne({ query: [{ Text: text }] });
      expect(record.recordId, JSON.stringify(text)).toBe(ids.get(text));
    }
  });

  it("property: any text over operator characters, letters, digits and unicode finds its record and only equal texts", async () => {
    const alphabet = fc.constantFrom(...OPERATOR_CHARS, "a", "B", "z", "1", "0", "-", "_", "é", "Σ", "ς", "日", "👍", "\t", "\n", " ", "'", "(", ")", "[", "]", "+", "^", "$", "|", "&", ",", ";", ":");
    // Whitespace at the ends is covered by its own test below.
    const text = fc.string({ unit: alphabet, minLength: 1, maxLength: 12 }).filter((s) => s.trim() === s && s.trim() !== "");
    await fc.assert(
      fc.asyncProperty(text, async (value) => {
        const { recordId } = await types.create({ fieldData: { Text: value } });
        const page = await types.find({ query: [{ Text: value }], limit: 1000 });
        const found = page.data.map((r) => r.recordId);
        expect(found).toContain(recordId);
        for (const r of page.data) expect(r.fieldData.Text.toLowerCase().replaceAll("ς", "σ")).toBe(value.toLowerCase().replaceAll("ς", "σ"));
      }),
      { numRuns: 150, seed: 20240229 },
    );
  });

  it("a text with whitespace at either end is found exactly, not trimmed into another value", async () => {
    const core = "padded-value";
    const plain = (await types.create({ fieldData: { Text: core } })).recordId;
    for (const text of [` ${core}`, `${core} `, `\t${core}\n`, "   "]) {
      const { recordId } = await types.create({ fieldData: { Text: text } });
      expect((await types.get(recordId)).fieldData.Text).toBe(text);
      const found = (await types.find({ query: [{ Text: text }], limit: 1000 })).data.map((r) => r.recordId);
      expect(found, JSON.stringify(text)).toEqual([recordId]);
    }
    expect((await types.find({ query: [{ Text: core }] })).data.map((r) => r.recordId)).toEqual([plain]);
  });

  it("an empty text finds the records whose text is empty", async () => {
    const { recordId } = await types.create({ fieldData: { Text: "" } });
    const page = await types.find({ query: [{ Text: "" }], limit: 1000 });
    expect(page.data.map((r) => r.recordId)).toContain(recordId);
    expect(page.data.every((r) => r.fieldData.Text === "")).toBe(true);
  });

  it("omit with a plain value removes exactly the matching record", async () => {
    const page = await types.find({ query: [{ Text: "a*b" }, { Text: "ab" }, { Text: "a*b", omit: true }] });
    expect(page.data.map((r) => r.fieldData.Text)).toEqual(["ab"]);
  });
});
