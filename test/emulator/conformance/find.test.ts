import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConformanceEmulator, type Emulator } from "../../support/conformance-emulator.js";
import { CONTACTS, DataApi, DB, expectError, expectOk, INVOICES } from "../../support/data-api-http.js";

// Finding records (docs/emulator.md, "Find semantics"). This file only reads, so the seed stays as it is:
//   1 Ada Lovelace      Active    36  12/10/1815
//   2 Grace Hopper      Inactive  85  12/09/1906
//   3 Alan Turing       Active    41  06/23/1912
//   4 Adam Smith        (empty)   67  06/05/1723
//   5 Katherine Johnson Active   101  08/26/1918

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

/** Record ids of a successful find, in the order returned. */
async function found(body: unknown, layout = CONTACTS): Promise<string[]> {
  const response = expectOk(await api.find(token, layout, body));
  return (response.data as { recordId: string }[]).map((r) => r.recordId);
}
const sorted = (xs: string[]) => [...xs].sort((a, b) => Number(a) - Number(b));

describe("query semantics", () => {
  it("Find rule 1: fields inside one query object are ANDed", async () => {
    expect(sorted(await found({ query: [{ "First Name": "Ada" }] }))).toEqual(["1", "4"]);
    expect(await found({ query: [{ "First Name": "Ada", Status: "Active" }] })).toEqual(["1"]);
    expect(await found({ query: [{ "First Name": "Ada", "Last Name": "Smith" }] })).toEqual(["4"]);
  });

  it("Find rule 2: multiple query objects are ORed", async () => {
    expect(sorted(await found({ query: [{ "First Name": "Grace" }, { "First Name": "Alan" }] }))).toEqual(["2", "3"]);
    expect(sorted(await found({ query: [{ "Last Name": "Turing" }, { Age: ">100" }, { "Last Name": "Turing" }] }))).toEqual([
      "3",
      "5",
    ]);
  });

  it("Find rule 3: a query object with omit \"true\" excludes its matches", async () => {
    expect(await found({ query: [{ "First Name": "Ada" }, { "Last Name": "Smith", omit: "true" }] })).toEqual(["1"]);
    expect(sorted(await found({ query: [{ Age: ">40" }, { Status: "Inactive", omit: "true" }] }))).toEqual(["3", "4", "5"]);
  });

  it("Find rule 3: a query of only omit requests starts from all records", async () => {
    expect(sorted(await found({ query: [{ Status: "Active", omit: "true" }] }))).toEqual(["2", "4"]);
  });

  it("Find rule 4: comparison prefix >= (numbers compare numerically)", async () => {
    // "101" < "67" as text; numerically 101 >= 67
    expect(sorted(await found({ query: [{ Age: ">=67" }] }))).toEqual(["2", "4", "5"]);
    expect(sorted(await found({ query: [{ Age: "<41" }] }))).toEqual(["1"]);
    expect(sorted(await found({ query: [{ Age: "<=41" }] }))).toEqual(["1", "3"]);
    expect(sorted(await found({ query: [{ Age: ">85" }] }))).toEqual(["5"]);
  });

  it("Find rule 4: comparisons on dates are chronological (criteria MM/DD/YYYY)", async () => {
    expect(sorted(await found({ query: [{ Birthday: "<01/01/1900" }] }))).toEqual(["1", "4"]);
    expect(sorted(await found({ query: [{ Birthday: ">=06/23/1912" }] }))).toEqual(["3", "5"]);
  });

  it("Find rule 4: a trailing * wildcard", async () => {
    expect(await found({ query: [{ "First Name": "Gr*" }] })).toEqual(["2"]);
    expect(sorted(await found({ query: [{ "Last Name": "Jo*" }, { "Last Name": "Lo*" }] }))).toEqual(["1", "5"]);
  });

  it("Find rule 4: a == prefix for exact match", async () => {
    expect(await found({ query: [{ "First Name": "==Ada" }] })).toEqual(["1"]);
    expect(await found({ query: [{ "First Name": "==Adam" }] })).toEqual(["4"]);
    expectError(await api.find(token, CONTACTS, { query: [{ "First Name": "==Ad" }] }), 404, "401");
  });

  it("Find rule 4: ... between two values for a range (numbers and dates)", async () => {
    expect(sorted(await found({ query: [{ Age: "40...90" }] }))).toEqual(["2", "3", "4"]);
    expect(sorted(await found({ query: [{ Birthday: "01/01/1900...12/31/1915" }] }))).toEqual(["2", "3"]);
  });

  it("Find: a plain criterion on a number field matches that number", async () => {
    expect(await found({ query: [{ Age: "85" }] })).toEqual(["2"]);
  });

  it("Find: text matches case-insensitively", async () => {
    expect(await found({ query: [{ "Last Name": "hopper" }] })).toEqual(["2"]);
  });
});

describe("sort, offset and limit", () => {
  it("Find: sort is an array of SortSpec", async () => {
    expect(await found({ query: [{ Status: "Active" }], sort: [{ fieldName: "Birthday", sortOrder: "descend" }] })).toEqual([
      "5",
      "3",
      "1",
    ]);
    expect(await found({ query: [{ Status: "Active" }], sort: [{ fieldName: "Age", sortOrder: "ascend" }] })).toEqual([
      "1",
      "3",
      "5",
    ]);
  });

  it("Find: offset and limit are strings; one-based offset; foundCount counts every match", async () => {
    const res = await api.find(token, CONTACTS, {
      query: [{ Age: ">0" }],
      sort: [{ fieldName: "Age", sortOrder: "ascend" }],
      offset: "2",
      limit: "2",
    });
    const response = expectOk(res);
    expect(response.data.map((r: { recordId: string }) => r.recordId)).toEqual(["3", "4"]);
    expect(response.dataInfo).toMatchObject({
      database: DB,
      layout: CONTACTS,
      table: "Contacts",
      totalRecordCount: 5,
      foundCount: 5,
      returnedCount: 2,
    });
  });

  it("Find: offset defaults to \"1\" and limit to \"100\"", async () => {
    const response = expectOk(
      await api.find(token, CONTACTS, { query: [{ Age: ">0" }], sort: [{ fieldName: "Age", sortOrder: "descend" }] }),
    );
    expect(response.data.map((r: { recordId: string }) => r.recordId)).toEqual(["5", "2", "4", "3", "1"]);
    expect(response.dataInfo).toMatchObject({ foundCount: 5, returnedCount: 5 });
  });

  it("Find: 200 has the same shape as List records, portalData included", async () => {
    const response = expectOk(await api.find(token, CONTACTS, { query: [{ "Last Name": "Lovelace" }] }));
    expect(response.data).toHaveLength(1);
    const record = response.data[0];
    expect(record).toMatchObject({ recordId: "1", modId: "0" });
    expect(record.fieldData).toMatchObject({ "First Name": "Ada", Age: 36, Birthday: "12/10/1815" });
    expect(record.portalData.Invoices).toHaveLength(2);
  });

  it("Find: on another layout of the same file", async () => {
    expect(sorted(await found({ query: [{ Amount: ">=100" }] }, INVOICES))).toEqual(["1", "2"]);
    expect(await found({ query: [{ ContactID: "2" }] }, INVOICES)).toEqual(["3"]);
  });
});

describe("errors", () => {
  it("Find: 404 with code 401 when no records match (an empty result)", async () => {
    const res = await api.find(token, CONTACTS, { query: [{ "First Name": "Zelda" }] });
    expectError(res, 404, "401");
  });

  it("Find: 400 / 102 for a criteria field missing from the layout", async () => {
    expectError(await api.find(token, CONTACTS, { query: [{ Nickname: "x" }] }), 400, "102");
    expectError(await api.find(token, CONTACTS, { query: [{ "First Name": "Ada" }, { ContactID: "1" }] }), 400, "102");
  });

  it("Find: 400 / 102 for a sort field missing from the layout", async () => {
    expectError(
      await api.find(token, CONTACTS, { query: [{ "First Name": "Ada" }], sort: [{ fieldName: "Nickname", sortOrder: "ascend" }] }),
      400,
      "102",
    );
  });

  it("Find: 400 for a malformed query (query missing: 1708)", async () => {
    expectError(await api.find(token, CONTACTS, {}), 400, "1708");
    expectError(await api.find(token, CONTACTS, { query: "First Name=Ada" }), 400, "1708");
  });

  it("Find: 404 / 105 for an unknown layout", async () => {
    expectError(await api.find(token, "No Such Layout", { query: [{ "First Name": "Ada" }] }), 404, "105");
  });
});
