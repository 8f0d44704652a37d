import { execFileSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FieldKind, FieldSpec, LayoutSpec } from "../../src/runtime/data-api/definition.js";
import { recordDecoder } from "../../src/runtime/data-api/record-decoder.js";

// The compiled decoder and its fallback loop must decode every record alike: each case runs in both modes.
const MODES = [
  ["compiled", false],
  ["interpreted", true],
] as const;

const record = (fieldData: Record<string, unknown>, portalData: Record<string, unknown> = {}) => ({ recordId: "1", modId: "0", fieldData, portalData });
const chrono = { layout: "L", fields: { d: { type: "date" }, t: { type: "time" }, s: { type: "timestamp" } } } satisfies LayoutSpec;

describe.each(MODES)("record decoder, %s", (_, interpret) => {
  const decoder = (spec: LayoutSpec, validate = true) => recordDecoder(spec, { validate, interpret });

  it("a hostile value (100,000 arrays deep, a megabyte of text) is a DecodeError with a short message, never a RangeError", () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const spec = { layout: "L", fields: { n: { type: "number" }, d: { type: "date" } } } satisfies LayoutSpec;
    for (const [n, d, quoted] of [
      [deep, "", "an array nested too deep to quote"],
      [{ nested: deep }, "", "an object nested too deep to quote"],
      [1, "x".repeat(1_000_000), `"${"x".repeat(119)}… (1000000 characters)`],
      [Array.from({ length: 100_000 }, () => 1), "", `[${"1,".repeat(59)}1… (200001 characters)`],
    ] as const) {
      let error: unknown;
      try {
        decoder(spec)(record({ n, d }));
      } catch (e) {
        error = e;
      }
      expect((error as Error).name).toBe("DecodeError");
      expect((error as Error).message).toContain(`: ${quoted} is not a valid`);
      expect((error as Error).message.length).toBeLessThan(300);
    }
  });

  it.each(["01/01/20x4", "13/01/2024", "02/30/2024", "00/10/2024", "1a/01/2024", "02/29/2023", "2024-01-01"])("rejects date %s", (d) => {
    expect(() => decoder(chrono)(record({ d, t: "", s: "" }))).toThrow(`layout "L", field "d", record 1: ${JSON.stringify(d)} is not a valid date value`);
  });

  it.each(["24:00:00", "1x:00:00", "12:60:00", "12:00:6x", "12"])("rejects time %s", (t) => {
    expect(() => decoder(chrono)(record({ d: "", t, s: "" }))).toThrow(/field "t", record 1: .* is not a valid time value/);
  });

  it("accepts the canonical and the lenient forms", () => {
    expect(decoder(chrono)(record({ d: "02/29/2024", t: "23:59:59", s: "12/31/1999 00:00:00" })).fieldData).toEqual({ d: "2024-02-29", t: "23:59:59", s: "1999-12-31T00:00:00" });
    expect(decoder(chrono)(record({ d: "2/9/2024", t: "7:05", s: "1/2/0003 7:05:09" })).fieldData).toEqual({ d: "2024-02-09", t: "07:05:00", s: "0003-01-02T07:05:09" });
  });

  it("decodes numbers, numeric strings, empties, containers and repetitions", () => {
    const spec: LayoutSpec = { layout: "L", fields: { n: { type: "number" }, m: { type: "number" }, e: { type: "number" }, c: { type: "container" }, r: { type: "text", repetitions: 3 } } };
    const out = decoder(spec)(record({ n: 5, m: " -1.5e2 ", e: "", c: "https://x/y.png", r: "a", "r(2)": 42, "r(3)": "" }));
    expect(out.fieldData).toEqual({ n: 5, m: -150, e: null, c: "https://x/y.png", r: ["a", "42", ""] });
    expect(() => decoder(spec)(record({ n: "five", m: 1, e: 1, c: "", r: "", "r(2)": "", "r(3)": "" }))).toThrow('field "n", record 1: "five" is not a valid number value');
    expect(() => decoder(spec)(record({ n: 1, m: 1, e: 1, c: "", r: "", "r(2)": "" }))).toThrow('field "r(3)", record 1: undefined is not a valid text value');
  });

  it("checks value lists only when validating", () => {
    const spec: LayoutSpec = { layout: "L", fields: { s: { type: "text", valueList: ["Active", "Inactive"] } } };
    expect(decoder(spec)(record({ s: "" })).fieldData).toEqual({ s: "" });
    expect(() => decoder(spec)(record({ s: "Gone" }))).toThrow('field "s", record 1: "Gone" is not a valid text value');
    expect(decoder(spec, false)(record({ s: "Gone" })).fieldData).toEqual({ s: "Gone" });
    expect(() => decoder({ ...spec, validate: true }, false)(record({ s: "Gone" }))).toThrow(/"Gone"/);
  });

  it("decodes portal rows with their ids first, and names the row of a bad value", () => {
    const spec: LayoutSpec = { layout: "L", fields: {}, portals: { Lines: { fields: { "Lines::Qty": { type: "number" }, "Lines::On": { type: "date" } } } } };
    const rows = [{ recordId: "7", modId: "2", "Lines::Qty": 3, "Lines::On": "01/02/2025" }];
    const out = decoder(spec)(record({}, { Lines: rows }));
    expect(out.portalData).toEqual({ Lines: [{ recordId: "7", modId: "2", "Lines::Qty": 3, "Lines::On": "2025-01-02" }] });
    expect(Object.keys(out.portalData.Lines![0]!)).toEqual(["recordId", "modId", "Lines::Qty", "Lines::On"]);
    expect(decoder(spec)(record({})).portalData).toEqual({ Lines: [] });
    expect(() => decoder(spec)(record({}, { Lines: [{ ...rows[0], "Lines::Qty": "x" }] }))).toThrow('field "Lines::Qty", record 1 portal "Lines" row 7: "x" is not a valid number value');
    expect(() => decoder(spec)(record({}, { Lines: {} }))).toThrow('field "portalData.Lines"');
    expect(() => decoder(spec)(record({}, { Lines: [{ ...rows[0], recordId: 7 }] }))).toThrow('field "portalData.Lines", record 1: {"recordId":7,');
  });

  it("checks ids and the fieldData shape", () => {
    const spec: LayoutSpec = { layout: "L", fields: {} };
    expect(() => decoder(spec)({ recordId: 1, modId: "0", fieldData: {} })).toThrow('field "recordId", record 1');
    expect(() => decoder(spec)({ recordId: "1", modId: 0, fieldData: {} })).toThrow('field "modId"');
    expect(() => decoder(spec)({ recordId: "1", modId: "0", fieldData: null })).toThrow('field "fieldData"');
    expect(decoder(spec, false)({ recordId: 1, modId: 0, fieldData: {} })).toEqual({ recordId: "1", modId: "0", fieldData: {}, portalData: {} });
  });

  it("keeps a field named __proto__ as an ordinary own field, never as the prototype", () => {
    const wire = JSON.parse('{"__proto__": "value", "constructor": 5}') as Record<string, unknown>;
    const spec: LayoutSpec = { layout: "L", fields: { ["__proto__"]: { type: "text" as const }, constructor: { type: "number" as const } } };
    const out = decoder(spec)(record(wire)).fieldData;
    expect(Object.getOwnPropertyDescriptor(out, "__proto__")?.value).toBe("value");
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out.constructor).toBe(5);
    expect(Object.keys(out)).toEqual(["__proto__", "constructor"]);
  });

  it("treats hostile field names as data, never as code", () => {
    const names = ['"); throw new Error("injected"); ("', "a\\", "back`tick${1}", "line\nbreak", "sep\u2028\u2029", "</script>", "v0_0", "w", "id", "X", "f", "S"];
    const fields = Object.fromEntries(names.map((n) => [n, { type: "text" } as FieldSpec]));
    const wire = Object.fromEntries(names.map((n, i) => [n, `value ${i}`]));
    const out = decoder({ layout: "L", fields })(record(wire)).fieldData;
    expect(out).toEqual(wire);
    expect(Object.keys(out)).toEqual(names);
  });
});

// Random field lists and random wire values, valid or not: both modes answer the same record or the same error.
const KINDS: readonly FieldKind[] = ["text", "number", "date", "time", "timestamp", "container"];
const wireValue = fc.oneof(
  fc.constantFrom("", "01/31/2024", "2/29/2023", "12:00:00", "7:5", "01/01/2000 10:00:00", "Active", "1e3", "-", " 4 "),
  fc.string(),
  fc.double(),
  fc.integer(),
  fc.constantFrom(null, true, undefined, {}),
);
const fieldList = fc.uniqueArray(
  fc.record({ name: fc.oneof(fc.string({ minLength: 1 }), fc.constantFrom("__proto__", "constructor", "a(2)")), type: fc.constantFrom(...KINDS), repetitions: fc.integer({ min: 1, max: 3 }), list: fc.boolean() }),
  { selector: (f) => f.name, maxLength: 8 },
);

function outcome(decode: () => unknown): unknown {
  try {
    return { ok: decode() };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

it("compiled and interpreted decoders agree on 1,000 random layouts and records", () => {
  fc.assert(
    fc.property(fieldList, fc.array(wireValue, { minLength: 30, maxLength: 30 }), fc.boolean(), (list, values, validate) => {
      const fields: Record<string, FieldSpec> = {};
      for (const f of list) Object.defineProperty(fields, f.name, { value: { type: f.type, repetitions: f.repetitions, ...(f.list ? { valueList: ["Active", "01/31/2024"] } : {}) }, enumerable: true });
      const wire: Record<string, unknown> = {};
      let i = 0;
      for (const f of list) for (let r = 1; r <= f.repetitions; r++) Object.defineProperty(wire, r === 1 ? f.name : `${f.name}(${r})`, { value: values[i++ % values.length], enumerable: true, writable: true });
      const spec: LayoutSpec = { layout: "Random", fields };
      const compiled = outcome(() => recordDecoder(spec, { validate })(record(wire)));
      const interpreted = outcome(() => recordDecoder(spec, { validate, interpret: true })(record(wire)));
      expect(compiled).toEqual(interpreted);
    }),
    { numRuns: 1_000, seed: 20261121 },
  );
});

it("falls back to the loop where code generation from strings is disallowed", () => {
  // Needs packages/runtime/dist/ (npm test builds first).
  const module = new URL("../../packages/runtime/dist/data-api/record-decoder.js", import.meta.url).href;
  const script = `import { recordDecoder } from ${JSON.stringify(module)};
    try { new Function("return 1"); console.log("eval allowed"); } catch { }
    const decode = recordDecoder({ layout: "L", fields: { d: { type: "date" }, r: { type: "text", repetitions: 2 } } }, { validate: true });
    console.log(JSON.stringify(decode({ recordId: "1", modId: "0", fieldData: { d: "03/04/2025", r: "a", "r(2)": "b" } }).fieldData));`;
  const out = execFileSync(process.execPath, ["--disallow-code-generation-from-strings", "--input-type=module", "-e", script], { encoding: "utf8" });
  expect(out.trim()).toBe('{"d":"2025-03-04","r":["a","b"]}');
});

it("builds one decoder per definition and mode, however often a client is made for it", () => {
  const spec: LayoutSpec = { layout: "L", fields: { d: { type: "date" } } };
  const checked = recordDecoder(spec, { validate: true });
  expect(recordDecoder(spec, { validate: true })).toBe(checked);
  expect(recordDecoder(spec, { validate: false })).not.toBe(checked);
  expect(recordDecoder(spec, { validate: true, interpret: true })).not.toBe(checked);
  // The definition's own `validate` decides over the client's.
  expect(recordDecoder({ ...spec, validate: false }, { validate: true })).not.toBe(checked);
  expect(recordDecoder({ ...spec }, { validate: true })).not.toBe(checked);
});
