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
    expect(JSON.parse(encodeRow(Contacts, { Seen: "2025-10-31T11:13:13", Tags: ["a", "b"], Age: null }, false, "t"))).toEqual({ Seen: "2025-10-31T11:13:13Z", Tags: ["a", "b"], Age: null });
    // eslint-disable-next-line no-sparse-arrays
    expect(JSON.parse(encodeRow(Contacts, { Tags: [, "b"] as never }, false, "t"))).toEqual({ "Tags[2]": "b" });
    expect(JSON.parse(encodeRow(Contacts, { Name: "x" }, true, "t"))).toEqual({ [Contacts.fields.Name!.id!]: "x" });
    expect(() => encodeRow(Audit, { N: 1 }, true, "t")).toThrow(/has no FMFID in its definition, which entityIds needs/);
    expect(() => encodeRow(Contacts, [] as never, false, "t")).toThrow(/must be an object of field names, not an array/);
  });
});
