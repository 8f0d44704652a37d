import { expect, it } from "vitest";
import { decodeFields } from "../../src/runtime/codecs.js";
const specs = { d: { type: "date" as const }, t: { type: "time" as const }, s: { type: "timestamp" as const } };
const w = { layout: "L", recordId: "1" };
it.each(["01/01/20x4", "13/01/2024", "02/30/2024", "00/10/2024", "1a/01/2024", "02/29/2023"])("rejects date %s", (d) => {
  expect(() => decodeFields(specs, { d, t: "", s: "" }, w)).toThrow(/not a valid date/);
});
it.each(["24:00:00", "1x:00:00", "12:60:00", "12:00:6x"])("rejects time %s", (t) => {
  expect(() => decodeFields(specs, { d: "", t, s: "" }, w)).toThrow(/not a valid time/);
});
it("accepts the canonical and lenient forms", () => {
  expect(decodeFields(specs, { d: "02/29/2024", t: "23:59:59", s: "12/31/1999 00:00:00" }, w)).toEqual({ d: "2024-02-29", t: "23:59:59", s: "1999-12-31T00:00:00" });
  expect(decodeFields(specs, { d: "2/9/2024", t: "7:05", s: "1/2/0003 7:05:09" }, w)).toEqual({ d: "2024-02-09", t: "07:05:00", s: "0003-01-02T07:05:09" });
});

it("keeps a field named __proto__ as an ordinary own field, never as the prototype", () => {
  const wire = JSON.parse('{"__proto__": "value", "constructor": 5}') as Record<string, unknown>;
  const out = decodeFields({ ["__proto__"]: { type: "text" as const }, constructor: { type: "number" as const } }, wire, w);
  expect(Object.getOwnPropertyDescriptor(out, "__proto__")?.value).toBe("value");
  expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  expect(out.constructor).toBe(5);
  expect(Object.keys(out)).toEqual(["__proto__", "constructor"]);
});
