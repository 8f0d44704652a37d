import { describe, expect, it } from "vitest";
import { ServerError } from "../../src/runtime/core/server-error.js";
import { FileMakerError, RecordMissingError, ValidationError, fileMakerError } from "../../src/runtime/data-api/errors.js";
import * as od from "../../src/runtime/odata/errors.js";

// Both APIs' error answers extend one base of the shared core (src/runtime/core/server-error.ts), and keep their own
// classes: the same names (RecordMissingError, ValidationError, ...) stay two classes each, told apart by instanceof.

const call = { method: "GET", path: "/x" };

describe("the error base both APIs share", () => {
  it("is the base of FileMakerError and ODataError, whose messages, names and fields are as before", () => {
    const data = fileMakerError("101", "Record is missing", 404, call);
    const odata = od.odataError("-1023", "Record not found", 404, call, true);
    expect(data).toBeInstanceOf(ServerError);
    expect(odata).toBeInstanceOf(ServerError);
    expect(data.message).toBe("GET /x: FileMaker error 101: Record is missing (HTTP 404)");
    expect(odata.message).toBe("GET /x: OData error -1023: Record not found (HTTP 404)");
    expect(data).toMatchObject({ name: "RecordMissingError", code: "101", httpStatus: 404, call, serverMessage: "Record is missing" });
    expect(odata).toMatchObject({ name: "RecordMissingError", code: "-1023", httpStatus: 404, call, serverMessage: "Record not found" });
    expect(Object.keys(data).sort()).toEqual(["call", "code", "httpStatus", "serverMessage"]);
  });

  it("leaves instanceof telling the two APIs' errors apart", () => {
    const data = fileMakerError("504", "Field value is not unique", 400, call);
    const odata = od.odataError("504", "Field value is not unique", 400, call, false);
    expect(data).toBeInstanceOf(ValidationError);
    expect(data).toBeInstanceOf(FileMakerError);
    expect(data).not.toBeInstanceOf(od.ValidationError);
    expect(data).not.toBeInstanceOf(od.ODataError);
    expect(odata).toBeInstanceOf(od.ValidationError);
    expect(odata).toBeInstanceOf(od.ODataError);
    expect(odata).not.toBeInstanceOf(ValidationError);
    expect(odata).not.toBeInstanceOf(FileMakerError);
    expect(fileMakerError("101", "", 404, call)).not.toBeInstanceOf(od.RecordMissingError);
    expect(new RecordMissingError("101", "", 404, call)).not.toBeInstanceOf(od.ODataError);
  });
});
