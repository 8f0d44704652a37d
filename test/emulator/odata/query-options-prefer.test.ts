import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parsePrefer } from "../../../src/emulator/odata/query-options-prefer.js";

const NONE = { continueOnError: false, includeSpecialColumns: false, entityIds: false, basicTimestamp: false, gmtOffset: false, ignored: [] };

describe("Prefer (2.1, 2.5, 2.10, 3.1, 4)", () => {
  it("no header", () => {
    expect(parsePrefer(undefined)).toEqual(NONE);
    expect(parsePrefer("")).toEqual(NONE);
  });
  it("every value FileMaker reads, comma-joined in one header", () => {
    expect(
      parsePrefer(
        "odata.maxpagesize=50, return=minimal,fmodata.include-specialcolumns, fmodata.entity-ids,odata.continue-on-error,fmodata.basic-timestamp,fmodata.gmtoffset",
      ),
    ).toEqual({
      maxPageSize: 50,
      return: "minimal",
      continueOnError: true,
      includeSpecialColumns: true,
      entityIds: true,
      basicTimestamp: true,
      gmtOffset: true,
      ignored: [],
    });
  });
  it("several headers; unprefixed and any case (4.01); the last value wins", () => {
    expect(parsePrefer(["maxpagesize=10", "Return=Representation", "Continue-On-Error", "ODATA.MAXPAGESIZE=20"])).toEqual({
      ...NONE,
      maxPageSize: 20,
      return: "representation",
      continueOnError: true,
    });
  });
  it("continue-on-error=false turns it off; quoted values; parameters after ';' are dropped", () => {
    expect(parsePrefer('odata.continue-on-error=false, odata.maxpagesize="7"; foo=bar')).toEqual({ ...NONE, maxPageSize: 7 });
  });
  it("unknown preferences and values that do not fit are ignored and listed", () => {
    expect(parsePrefer("respond-async, wait=10, return=everything, odata.maxpagesize=0, odata.maxpagesize=x, fmodata.entity-ids=maybe")).toEqual({
      ...NONE,
      ignored: ["respond-async", "wait=10", "return=everything", "odata.maxpagesize=0", "odata.maxpagesize=x", "fmodata.entity-ids=maybe"],
    });
  });
  it("never throws, whatever the header", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.array(fc.string())), (h) => {
        const p = parsePrefer(h);
        expect(typeof p.continueOnError).toBe("boolean");
        if (p.maxPageSize !== undefined) expect(Number.isInteger(p.maxPageSize) && p.maxPageSize >= 1).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
