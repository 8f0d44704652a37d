import { describe, expect, it } from "vitest";
import { formatJson } from "../../src/project/index.js";

// formatJson writes every JSON file fmgen writes. Its layout: 2-space indentation, one line per object or array
// of scalars. It walks the value with a stack of its own, so that the depth of what it writes is not bounded by
// the call stack.

describe("formatJson", () => {
  it("keeps its layout: scalars and leaf objects on one line, the rest indented, absent members left out", () => {
    const value = { name: "x", fields: [{ name: "a", type: "text", valueList: ["A", "B"] }, { name: "b", id: undefined }], nested: { deep: [[1, 2], []], empty: {}, none: [] } };
    expect(formatJson(value)).toBe(
      '{\n  "name": "x",\n  "fields": [\n    { "name": "a", "type": "text", "valueList": ["A", "B"] },\n    { "name": "b" }\n  ],\n' +
        '  "nested": {\n    "deep": [\n      [1, 2],\n      []\n    ],\n    "empty": {},\n    "none": []\n  }\n}\n',
    );
    expect(formatJson([])).toBe("[]\n");
    expect(formatJson("s")).toBe('"s"\n');
    expect(formatJson(null)).toBe("null\n");
  });

  it("writes arrays and objects nested 5,000 deep", () => {
    const depth = 5_000;
    let value: unknown = [1, 2];
    for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { k: value };
    // Each level a line that opens it (after its key, in an object) and one that closes it; the innermost, an object
    // of a scalar array, on one line.
    const array = (level: number) => (depth - 1 - level) % 2 === 1;
    const opens: string[] = [];
    const closes: string[] = [];
    for (let level = 0; level < depth; level++) {
      const start = `${"  ".repeat(level)}${level && !array(level - 1) ? '"k": ' : ""}`;
      if (level === depth - 1) opens.push(`${start}{ "k": [1, 2] }`);
      else {
        opens.push(`${start}${array(level) ? "[" : "{"}`);
        closes.unshift(`${"  ".repeat(level)}${array(level) ? "]" : "}"}`);
      }
    }
    expect(formatJson(value)).toBe(`${[...opens, ...closes].join("\n")}\n`);
  });
});
