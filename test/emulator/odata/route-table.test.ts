import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { ROUTES } from "../../../src/emulator/odata/route-table.js";
import { DB, expectODataError, get, send, startOffice } from "./serve-support.js";

// OData's route table (src/emulator/odata/route-table.ts): a method a path kind has no row for is 405 -1002, naming
// the method and what the path is, before the request's query options or table are looked at, as on the Data API.

let emu: RunningEmulator;
const S = `/fmi/odata/v4/${DB}`;

beforeAll(async () => {
  emu = await startOffice(2);
});
afterAll(() => emu.close());

describe("the route table", () => {
  it("has one row per method and path kind", () => {
    const rows = ROUTES.map((r) => `${r.method} ${r.kind}`);
    expect(new Set(rows).size).toBe(rows.length);
  });

  it("answers a method a kind has no row for 405 -1002, naming what the path is", async () => {
    const cases: [string, string, string][] = [
      ["PUT", `${S}/Contacts`, "PUT is not supported on a collection"],
      ["POST", `${S}/Contacts('A1')`, "POST is not supported on an entity"],
      ["PATCH", `${S}/Contacts/$count`, "PATCH is not supported on a count resource"],
      ["DELETE", `${S}/Contacts('A1')/Name`, "DELETE is not supported on a member resource"],
      ["POST", `${S}/$metadata`, "POST is not supported on a metadata resource"],
      ["PUT", `${S}/Contacts('A1')/Photo`, "PUT is not supported on a member resource"],
    ];
    for (const [method, path, message] of cases) {
      expect(expectODataError(await send(emu.url, method, path, {}), 405, "-1002").message).toBe(`Error: ${message} by the emulator's OData API`);
    }
  });

  it("refuses the method before the query options and the table", async () => {
    expectODataError(await send(emu.url, "PUT", `${S}/Contacts?$select=Name`, {}), 405, "-1002");
    expectODataError(await send(emu.url, "PUT", `${S}/Nope`, {}), 405, "-1002");
    // With a row for the method, the options and the table are checked as before.
    expectODataError(await send(emu.url, "POST", `${S}/Contacts?$select=Name`, {}), 400, "-1002");
    expectODataError(await send(emu.url, "POST", `${S}/Nope`, {}), 404, "-1020");
    expect((await get(emu.url, `${S}/Contacts/$count`)).text).toBe("3");
  });
});
