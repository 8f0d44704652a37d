import { describe, expect, it } from "vitest";
import { classifyWireValue, decodesAs, groupRepetitions, inferFieldType, inferLayout } from "../../src/pull/index.js";

describe("classifyWireValue: what one wire value looks like", () => {
  it.each([
    [42, "number"],
    [0.5, "number"],
    ["", "empty"],
    ["12/10/1815", "date"],
    ["2/29/2024", "date"],
    ["02/30/2024", "text"],
    ["07:30:00", "time"],
    ["23:59:59.5", "time"],
    ["24:00:00", "text"],
    ["12/10/1815 07:30:00", "timestamp"],
    ["http://127.0.0.1:8080/Streaming/Contacts/AB12/photo.png", "container"],
    ["https://fms.example.com/Streaming_SSL/MainDB/6A4A.png?RCType=EmbeddedRCFileProcessor", "container"],
    ["https://example.com/page", "text"],
    ["02134", "numericText"],
    ["-1.5e3", "numericText"],
    ["Ada", "text"],
    ["555-0100", "text"],
  ] as const)("%j -> %s", (value, expected) => {
    expect(classifyWireValue(value)).toBe(expected);
  });
});

describe("inferFieldType: the one type all values share, and how sure it is", () => {
  it.each([
    ["JSON numbers: the wire decides", [1, 2.5, ""], { type: "number", confidence: "high" }],
    ["one JSON number is enough", [7], { type: "number", confidence: "high" }],
    ["container URLs", ["http://h:1/Streaming/db/1/a.png", ""], { type: "container", confidence: "high" }],
    ["a value only text carries", ["Ada", "Grace"], { type: "text", confidence: "high" }],
    ["dates and a word: only text holds both", ["12/10/1815", "n/a"], { type: "text", confidence: "high" }],
    ["a date and a time: only text holds both", ["12/10/1815", "07:30:00"], { type: "text", confidence: "high" }],
    ["three dates", ["12/10/1815", "12/09/1906", "06/23/1912"], { type: "date", confidence: "high" }],
    ["three timestamps", ["01/01/2024 00:00:00", "01/02/2024 10:00:00", "01/03/2024 23:59:59"], { type: "timestamp", confidence: "high" }],
  ] as const)("%s", (_, values, expected) => {
    expect(inferFieldType(values)).toEqual(expected);
  });

  it("is medium sure of fewer than three dates or times, and says why", () => {
    expect(inferFieldType(["07:30:00", "06:00:00", ""])).toMatchObject({ type: "time", confidence: "medium", reason: expect.stringMatching(/only 2 values.*text field could hold them/) });
    expect(inferFieldType(["03/15/2019"])).toMatchObject({ type: "date", confidence: "medium" });
  });

  it("keeps numeric strings as text with medium confidence (digits in text, or numbers from an old server)", () => {
    expect(inferFieldType(["02134", "10001"])).toMatchObject({ type: "text", confidence: "medium", reason: expect.stringMatching(/numeric string/) });
    expect(inferFieldType([1, "2"])).toMatchObject({ type: "number", confidence: "medium" });
    expect(inferFieldType([1, "Ada"])).toMatchObject({ type: "text", confidence: "medium" });
  });

  it("leaves a field seen only empty as text with low confidence", () => {
    expect(inferFieldType(["", "", ""])).toMatchObject({ type: "text", confidence: "low", reason: expect.stringMatching(/only empty/) });
    expect(inferFieldType([])).toMatchObject({ type: "text", confidence: "low" });
  });
});

describe("groupRepetitions", () => {
  it("takes F(n) as repetition n of F when F is a key too, and keeps first-seen order", () => {
    const groups = groupRepetitions(["id", "Phone", "Phone(2)", "Phone(3)", "Size(2)", "Notes"]);
    expect([...groups.keys()]).toEqual(["id", "Phone", "Size(2)", "Notes"]);
    expect(groups.get("Phone")).toEqual({ keys: ["Phone", "Phone(2)", "Phone(3)"], repetitions: 3 });
    expect(groups.get("Size(2)")).toEqual({ keys: ["Size(2)"], repetitions: 1 });
  });
});

describe("decodesAs: the runtime's own codecs decide whether values fit a type", () => {
  it.each([
    ["text", ["Ada", 5], true],
    ["number", [5, "5", ""], true],
    ["number", ["five"], false],
    ["date", ["12/10/1815", ""], true],
    ["date", ["1815-12-10"], false],
    ["container", ["", "http://h/Streaming/x"], true],
    ["time", [], true],
  ] as const)("%s <- %j: %s", (type, values, expected) => {
    expect(decodesAs(type, values)).toBe(expected);
  });
});

describe("inferLayout: fields, repetitions, portals and related fields from wire records", () => {
  const record = (recordId: number, fieldData: Record<string, unknown>, portalData: Record<string, Record<string, unknown>[]> = {}) => ({ recordId: String(recordId), modId: "0", fieldData, portalData });

  it("infers repetitions, portal fields by their TO:: prefix, and marks a portal with no row as unknown", () => {
    const live = inferLayout("Db", "L", [
      record(1, { id: 1, "Phone": "555-0100", "Phone(2)": "", "Phone(3)": "555-0199", "Company::Name": "Acme" }, {
        Invoices: [{ recordId: "1", "Invoices::Amount": 10, "Invoices::Issued": "01/15/2024", modId: "0" }],
        Empty: [],
      }),
      record(2, { id: 2, "Phone": "", "Phone(2)": "", "Phone(3)": "", "Company::Name": "" }, { Invoices: [], Empty: [] }),
    ]);
    expect(live.fields.map((f) => [f.name, f.type, f.repetitions, f.confidence])).toEqual([
      ["id", "number", 1, "high"],
      ["Phone", "text", 3, "high"],
      ["Company::Name", "text", 1, "high"],
    ]);
    expect(live.portals.map((p) => [p.name, p.fields.map((f) => [f.name, f.type]), p.fieldsUnknown ?? false])).toEqual([
      ["Invoices", [["Invoices::Amount", "number"], ["Invoices::Issued", "date"]], false],
      ["Empty", [], true],
    ]);
    expect(live.sampled).toBe(2);
    expect(live.notes.join("\n")).toMatch(/portal "Empty": no row in the 2 sampled records/);
  });
});
