import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ODataDecodeError } from "../../../src/runtime/odata/index.js";
import { decodeRow, encodeRow, fieldIds } from "../../../src/runtime/odata/values.js";
import { Audit, Contacts } from "./support.js";

// The value codecs on their own: what no emulator answer shows (numeric strings, as IEEE754Compatible servers send
// them; a timestamp with an offset; a short or long repetition list; a field named like an Object member).

describe("decodeRow", () => {
  it("reads numeric strings as numbers and refuses other text, naming table, field and value", () => {
    expect(decodeRow(Audit, { Event: null, N: "-12.50", Codes: ["a"] }, undefined, "t")).toEqual({ Event: "", N: -12.5, Codes: ["a", ""] });
    expect(() => decodeRow(Audit, { N: "1e" }, undefined, "t")).toThrow(ODataDecodeError);
    expect(() => decodeRow(Audit, { N: true }, undefined, "t")).toThrow('table "Audit", field "N": the server sent true, which is not a number');
    expect(() => decodeRow(Audit, { Codes: ["a", "b", "c"] }, undefined, "t")).toThrow(/at most 2 repetitions/);
    expect(() => decodeRow(Audit, { Event: 5 }, undefined, "t")).toThrow(/which is not text/);
  });

  it("takes a timestamp's zone to UTC, drops Z, and checks dates and times", () => {
    expect(decodeRow(Contacts, { Seen: "2025-10-31T11:13:13Z", Born: "2025-02-28", Alarm: "13:45:00" }, undefined, "t")).toEqual({ Seen: "2025-10-31T11:13:13", Born: "2025-02-28", Alarm: "13:45:00" });
    expect(decodeRow(Contacts, { Seen: "2025-10-31T11:13:13+02:00" }, undefined, "t")).toEqual({ Seen: "2025-10-31T09:13:13" });
    expect(() => decodeRow(Contacts, { Born: "10/31/2025" }, undefined, "t")).toThrow(/not a date/);
    expect(() => decodeRow(Contacts, { Alarm: "25:00:00" }, undefined, "t")).toThrow(/not a time/);
  });

  it("accepts exactly the dates, times and timestamps the wire's patterns accept (the fast checks decide nothing alone)", () => {
    // The patterns as the wire contract states them; decoding must accept a text iff its pattern does (and, for a
    // timestamp with an offset other than 00:00, iff the offset is one a clock has: it is taken to UTC).
    const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
    const TIME = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,9})?$/;
    const STAMP = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)?$/;
    const reads = (field: "Born" | "Alarm" | "Seen", text: string) => {
      try {
        decodeRow(Contacts, { [field]: text }, undefined, "t");
        return true;
      } catch (error) {
        expect(error).toBeInstanceOf(ODataDecodeError);
        return false;
      }
    };
    // Mutations of valid texts: each character replaced by a near one (digits, separators, a fullwidth digit, a space).
    const near = fc.constantFrom(..."0123456789:-TZ. +/\uff10\u0660/".split(""), "");
    const mutated = (valid: fc.Arbitrary<string>) =>
      fc.tuple(valid, fc.nat(), near, fc.boolean()).map(([text, at, c, twice]) => {
        const i = at % (text.length + 1);
        const once = text.slice(0, i) + c + text.slice(i + 1);
        return twice ? once.slice(0, (at * 7) % (once.length + 1)) + c + once.slice((at * 7) % (once.length + 1)) : once;
      });
    const d2 = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, "0"));
    const date = fc.tuple(fc.integer({ min: 0, max: 9999 }), d2(13), d2(32)).map(([y, m, d]) => `${String(y).padStart(4, "0")}-${m}-${d}`);
    const time = fc.tuple(d2(24), d2(60), d2(60)).map(([h, m, s]) => `${h}:${m}:${s}`);
    const stamp = fc.tuple(date, time, fc.constantFrom("", "Z", ".5Z", "+00:00", "-03:30")).map(([d, t, z]) => `${d}T${t}${z}`);
    fc.assert(fc.property(fc.oneof(date, mutated(date)), (text) => reads("Born", text) === DATE.test(text)), { numRuns: 400 });
    fc.assert(fc.property(fc.oneof(time, mutated(time)), (text) => reads("Alarm", text) === TIME.test(text)), { numRuns: 400 });
    fc.assert(fc.property(fc.oneof(stamp, mutated(stamp)), (text) => reads("Seen", text) === (STAMP.test(text) && (!/[+-]\d\d:\d\d$/.test(text) || /[+-]00:00$/.test(text) || !Number.isNaN(Date.parse(text))))), { numRuns: 400 });
    for (const [field, text] of [["Born", "2024-02-30"], ["Alarm", "23:59:59"], ["Seen", "2024-12-31T23:59:59Z"], ["Seen", "2024-01-01T10:00:00-00:00"]] as const) expect(reads(field, text)).toBe(true);
    for (const [field, text] of [["Born", "2024-13-01"], ["Born", "2024-00-10"], ["Born", "\uff12024-01-01"], ["Alarm", "24:00:00"], ["Seen", "2024-01-01T10:00:00z"], ["Seen", "2024-01-01 10:00:00Z"]] as const) expect(reads(field, text)).toBe(false);
    // An offset no clock has is refused as a bad value (it was a RangeError from Date before).
    expect(() => decodeRow(Contacts, { Seen: "2024-01-01T10:00:00-03:60" }, undefined, "t")).toThrow(/not a timestamp/);
    expect(decodeRow(Contacts, { Seen: "2024-01-01T10:00:00-00:00" }, undefined, "t")).toEqual({ Seen: "2024-01-01T10:00:00" });
    expect(decodeRow(Contacts, { Seen: "2024-01-01T10:00:00.25+00:00" }, undefined, "t")).toEqual({ Seen: "2024-01-01T10:00:00.25" });
  });

  it("maps FMFIDs back to names, ROWID/ROWMODID to rowId/modId, and leaves annotations and unknown members out", () => {
    const id = Contacts.fields.Name!.id!;
    const answer = JSON.parse(`{"${id}":"Ada","@id":"x","Photo@com.filemaker.odata.ContentType":"image/png","ROWID":3,"ROWMODID":1,"Extra":1,"__proto__":{"polluted":1}}`);
    const row = decodeRow(Contacts, answer, fieldIds(Contacts), "t");
    expect(row).toEqual({ Name: "Ada", rowId: 3, modId: 1 });
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
  });
});

describe("encodeRow", () => {
  it("writes timestamps with Z, repetitions whole as an array or one by one, null clearing, FMFIDs with entityIds", () => {
    expect(JSON.parse(encodeRow(Contacts, { Seen: "2025-10-31T11:13:13", Tags: ["a", "b"], Age: null }, false, "t").body)).toEqual({ Seen: "2025-10-31T11:13:13Z", Tags: ["a", "b"], Age: null });
    // eslint-disable-next-line no-sparse-arrays
    expect(JSON.parse(encodeRow(Contacts, { Tags: [, "b"] as never }, false, "t").body)).toEqual({ "Tags[2]": "b" });
    expect(JSON.parse(encodeRow(Contacts, { Name: "x" }, true, "t").body)).toEqual({ [Contacts.fields.Name!.id!]: "x" });
    expect(() => encodeRow(Audit, { N: 1 }, true, "t")).toThrow(/has no FMFID in its definition, which entityIds needs/);
    expect(() => encodeRow(Contacts, [] as never, false, "t")).toThrow(/must be an object of field names, not an array/);
  });
});
