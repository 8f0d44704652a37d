import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConformanceEmulator, type Emulator } from "../../support/conformance-emulator.js";
import { CONTACTS, DataApi, DB, expectError, expectOk, INVOICES, NOTES, p } from "../../support/data-api-http.js";

// Layout metadata in FileMaker Server's own shape (docs/emulator.md, "Layout metadata"):
//   GET /databases/{db}/layouts           -> response.layouts[] with name
//   GET /databases/{db}/layouts/{layout}  -> response.fieldMetaData[], portalMetaData{}, valueLists[] (only when
//                                            the layout uses value lists: a real layout with none has no such key)

let emu: Emulator;
let api: DataApi;
let token: string;

beforeAll(async () => {
  ({ emu, api } = await startConformanceEmulator());
  token = await api.login();
});
afterAll(async () => {
  await emu.close();
});

interface FieldMeta {
  name: string;
  type: string;
  result: string;
  maxRepeat: number;
  notEmpty: boolean;
  autoEnter: boolean;
  global: boolean;
  valueList?: string;
}

async function layoutMeta(layout: string) {
  return expectOk(await api.call("GET", p`/databases/${DB}/layouts/${layout}`, { token }));
}

describe("GET /databases/{database}/layouts", () => {
  it("Metadata: lists every layout of the file by name", async () => {
    const response = expectOk(await api.call("GET", p`/databases/${DB}/layouts`, { token }));
    expect(Array.isArray(response.layouts)).toBe(true);
    const names = (response.layouts as { name: string }[]).map((l) => l.name);
    expect([...names].sort()).toEqual([CONTACTS, INVOICES, NOTES].sort());
  });

  it("Metadata: 404 / 100 for an unknown database; 401 / 952 without a token", async () => {
    expectError(await api.call("GET", p`/databases/${"Nope"}/layouts`, { token }), 404, "100");
    expectError(await api.call("GET", p`/databases/${DB}/layouts`), 401, "952");
  });
});

describe("GET /databases/{database}/layouts/{layout}", () => {
  it("Metadata: fieldMetaData lists the layout's own fields in description order", async () => {
    const response = await layoutMeta(CONTACTS);
    const names = (response.fieldMetaData as FieldMeta[]).map((f) => f.name);
    expect(names).toEqual([
      "id",
      "uuid",
      "First Name",
      "Last Name",
      "Email",
      "Status",
      "Age",
      "Birthday",
      "Wake Up",
      "Last Seen",
      "Created",
      "Modified",
      "Photo",
      "Attachments",
      "Phone",
      "Site Banner",
      "Company::Name",
    ]);
  });

  it("Metadata: each field carries name, type, result, maxRepeat, notEmpty, autoEnter and global", async () => {
    const fields = new Map((((await layoutMeta(CONTACTS)).fieldMetaData) as FieldMeta[]).map((f) => [f.name, f]));
    for (const field of fields.values()) {
      expect(["normal", "calculation", "summary"]).toContain(field.type);
      expect(["text", "number", "date", "time", "timeStamp", "container"]).toContain(field.result);
      expect(typeof field.maxRepeat).toBe("number");
      expect(typeof field.notEmpty).toBe("boolean");
      expect(typeof field.autoEnter).toBe("boolean");
      expect(typeof field.global).toBe("boolean");
    }
    const pick = (name: string) => {
      const f = fields.get(name);
      expect(f, name).toBeDefined();
      const { name: n, result, maxRepeat, notEmpty, autoEnter, global } = f!;
      return { name: n, result, maxRepeat, notEmpty, autoEnter, global };
    };
    expect(pick("id")).toEqual({ name: "id", result: "number", maxRepeat: 1, notEmpty: false, autoEnter: true, global: false });
    expect(pick("uuid")).toMatchObject({ result: "text", autoEnter: true });
    expect(pick("First Name")).toEqual({ name: "First Name", result: "text", maxRepeat: 1, notEmpty: true, autoEnter: false, global: false });
    expect(fields.get("First Name")?.type).toBe("normal");
    expect(pick("Age")).toMatchObject({ result: "number", notEmpty: false, autoEnter: false });
    expect(pick("Birthday")).toMatchObject({ result: "date" });
    expect(pick("Wake Up")).toMatchObject({ result: "time" });
    expect(pick("Last Seen")).toMatchObject({ result: "timeStamp", autoEnter: false });
    expect(pick("Created")).toMatchObject({ result: "timeStamp", autoEnter: true });
    expect(pick("Modified")).toMatchObject({ result: "timeStamp", autoEnter: true });
    expect(pick("Photo")).toMatchObject({ result: "container", maxRepeat: 1 });
    expect(pick("Attachments")).toMatchObject({ result: "container", maxRepeat: 2 });
    expect(pick("Phone")).toMatchObject({ result: "text", maxRepeat: 3 });
    expect(pick("Site Banner")).toMatchObject({ result: "text", global: true });
    expect(pick("Company::Name")).toMatchObject({ result: "text", maxRepeat: 1 });
  });

  it("Metadata: a field with a value list names it, and valueLists[] holds its values as { value, displayValue }", async () => {
    const response = await layoutMeta(CONTACTS);
    const status = (response.fieldMetaData as FieldMeta[]).find((f) => f.name === "Status");
    expect(typeof status?.valueList).toBe("string");
    expect(status?.valueList).not.toBe("");
    const withoutList = (response.fieldMetaData as FieldMeta[]).filter((f) => f.name !== "Status");
    for (const f of withoutList) expect(f.valueList, f.name).toBeUndefined();
    const list = (response.valueLists as { name: string; values: { value: string; displayValue: string }[] }[]).find(
      (l) => l.name === status?.valueList,
    );
    expect(list).toBeDefined();
    expect(list?.values.map(({ value, displayValue }) => ({ value, displayValue }))).toEqual([
      { value: "Active", displayValue: "Active" },
      { value: "Inactive", displayValue: "Inactive" },
    ]);
  });

  it("Metadata: portalMetaData is keyed by portal name and describes the portal's fields", async () => {
    const response = await layoutMeta(CONTACTS);
    expect(Object.keys(response.portalMetaData)).toEqual(["Invoices"]);
    const rows = response.portalMetaData.Invoices as FieldMeta[];
    expect(rows.map((f) => [f.name, f.result, f.maxRepeat])).toEqual([
      ["Invoices::Amount", "number", 1],
      ["Invoices::Issued", "date", 1],
    ]);
    for (const f of rows) expect(f.type).toBe("normal");
  });

  it("Metadata: a layout without portals or value lists answers an empty portalMetaData and no valueLists key", async () => {
    const response = await layoutMeta(INVOICES);
    expect((response.fieldMetaData as FieldMeta[]).map((f) => [f.name, f.result])).toEqual([
      ["ContactID", "number"],
      ["Amount", "number"],
      ["Issued", "date"],
    ]);
    // As a recorded real answer: fieldMetaData and portalMetaData, in that order, and nothing else.
    expect(Object.keys(response)).toEqual(["fieldMetaData", "portalMetaData"]);
    expect(response.portalMetaData).toEqual({});
  });

  it("Metadata: a layout whose fields use value lists answers the three keys, valueLists last", async () => {
    expect(Object.keys(await layoutMeta(CONTACTS))).toEqual(["fieldMetaData", "portalMetaData", "valueLists"]);
  });

  it("Metadata: 404 / 105 for an unknown layout; 401 / 952 without a token", async () => {
    expectError(await api.call("GET", p`/databases/${DB}/layouts/${"Nope"}`, { token }), 404, "105");
    expectError(await api.call("GET", p`/databases/${DB}/layouts/${CONTACTS}`), 401, "952");
  });
});
