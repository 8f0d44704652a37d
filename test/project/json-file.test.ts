import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JsonFileError, jsonErrorOffset, parseJson, parseJsonText, readJsonFile } from "../../src/project/json-file.js";

// Every kind of JSON syntax error is told with its file, line and column, whether or not the engine's message holds a
// position: Node 20's "Unexpected end of JSON input" and "Unexpected token '}', "..." is not valid JSON" hold none.

/** [what, text, line, column] of the first character JSON.parse refuses (the end, when the text stops too soon). */
const BROKEN: [string, string, number, number][] = [
  ["an empty file", "", 1, 1],
  ["only whitespace", "  \n  ", 2, 3],
  ["a truncated object", '{\n  "layout": "Contacts",\n  "fields": [\n', 4, 1],
  ["a truncated string", '{"layout": "Cont', 1, 17],
  ["a truncated word", '{"a": nul', 1, 10],
  ["a truncated escape", '{"a": "\\u00', 1, 12],
  ["a trailing comma in an object", '{\n  "a": 1,\n}', 3, 1],
  ["a trailing comma in an array", '[1,\n 2,\n]', 3, 1],
  ["single quotes", "{'a': 1}", 1, 2],
  ["a single-quoted value", '{"a": \'x\'}', 1, 7],
  ["a bad escape", '{"a": "x\\qy"}', 1, 10],
  ["a bad unicode escape", '{"a": "\\u12G4"}', 1, 12],
  ["a missing comma", '{\n  "a": 1\n  "b": 2\n}', 3, 3],
  ["a missing colon", '{"a" 1}', 1, 6],
  ["a closing brace alone", "  \n  }", 2, 3],
  ["a mismatched bracket", '{"a": [1, 2}', 1, 12],
  ["a leading zero", '{"a": 01}', 1, 8],
  ["a bare minus", '{"a": -}', 1, 8],
  ["a fraction without digits", '{"a": 1.}', 1, 9],
  ["an exponent without digits", '{"a": 1e+}', 1, 10],
  ["a control character in a string", '{"a": "x\ny"}', 1, 9],
  ["text after the value", '{"a": 1}\n// comment', 2, 1],
  ["a comment", '{\n  // fields\n  "a": 1\n}', 2, 3],
  ["an unquoted key", "{a: 1}", 1, 2],
  ["a byte order mark", '\uFEFF{"a": 1}', 1, 1],
  ["NaN", '{"a": NaN}', 1, 7],
  ["CRLF line ends", '{\r\n  "a": 1,\r\n}', 3, 1],
];

describe("JSON syntax errors say where", () => {
  it.each(BROKEN)("%s: line %#", (_what, text, line, column) => {
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    let error: unknown;
    try {
      parseJsonText(text, "broken.json", JsonFileError);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(JsonFileError);
    expect((error as Error).message).toMatch(new RegExp(`^broken\\.json: invalid JSON at line ${line}, column ${column}: \\S`));
  });

  it.each(BROKEN)("%s: the scanner finds the offset the engine names, where it names one", (_what, text) => {
    let message = "";
    try {
      JSON.parse(text);
    } catch (e) {
      message = (e as Error).message;
    }
    const position = /position (\d+)/.exec(message);
    if (position) expect(jsonErrorOffset(text)).toBe(Number(position[1]));
    else expect(jsonErrorOffset(text)).toBeGreaterThanOrEqual(0);
  });

  it("finds no error in valid JSON, however deep", () => {
    for (const text of ['{"a": [1, -2.5e+3, true, false, null, "x\\u00e9\\n", {}, []]}', " 0 ", '"\\/"', "[".repeat(100_000) + "]".repeat(100_000)]) {
      expect(jsonErrorOffset(text)).toBe(-1);
    }
    expect(jsonErrorOffset("[".repeat(100_000) + "]".repeat(99_999))).toBe(200_000 - 1);
  });

  it("parseJson gives the value, or a SyntaxError with the line and column", () => {
    expect(parseJson('{"a": [1]}')).toEqual({ a: [1] });
    expect(() => parseJson("{\n  'a': 1\n}")).toThrow(/^invalid JSON at line 2, column 3: /);
  });
});

describe("readJsonFile", () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "fmgen-json-file-"));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("names the file, line and column of a truncated file", async () => {
    const file = join(folder, "Contacts.layout.json");
    await writeFile(file, '{\n  "layout": "Contacts",\n  "fields": {\n    "Name": ');
    await expect(readJsonFile(file, JsonFileError)).rejects.toThrow(`${file}: invalid JSON at line 4, column 13: Unexpected end of JSON input`);
  });
});
