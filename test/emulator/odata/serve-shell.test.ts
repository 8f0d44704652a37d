import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { rawHttp } from "../../support/raw-http.js";
import { auth, DB, expectODataError, get, startOffice } from "./serve-support.js";

// The HTTP shell carries both APIs on one port (docs/emulator.md, "The OData API", "Reads"): a refused Host and
// injected faults are answered in OData's wire under /fmi/odata/v4 and in the Data API's elsewhere, and the server
// keeps serving after them. Also the 10,000-record page (2.5).

let emu: RunningEmulator;
const S = `/fmi/odata/v4/${DB}`;

beforeAll(async () => {
  emu = await startOffice(10_003);
});
afterAll(() => emu.close());

describe("the shell under both APIs", () => {
  it("refuses an unserved Host with 421 in each API's own shape", async () => {
    const od = await rawHttp(emu.url, "GET", `${S}/Contacts`, { Host: "evil.example", Authorization: auth() });
    expect(od.status).toBe(421);
    expect(od.headers["content-type"]).toBe("application/json;charset=utf-8");
    expect(od.body.error.code).toBe("-1000");
    expect(od.body.error.message).toMatch(/Host header names a host this emulator does not serve/);
    const data = await rawHttp(emu.url, "GET", "/fmi/data/vLatest/productInfo", { Host: "evil.example" });
    expect([data.status, data.code]).toEqual([421, "1630"]);
    expect((await get(emu.url, `${S}/Contacts?$top=1`)).status).toBe(200);
  });

  it("plays faults in OData's wire, and serves again once they stop", async () => {
    emu.setFaults({ rate: 1, kinds: ["capacity812"] });
    expect(expectODataError(await get(emu.url, `${S}/Contacts`), 503, "812").message).toMatch(/capacity/);
    emu.setFaults({ rate: 1, kinds: ["html"], afterRate: 0 });
    const html = await get(emu.url, `${S}/Contacts`);
    expect([html.status, html.headers.get("content-type")]).toEqual([502, "text/html"]);
    emu.setFaults({ rate: 1, kinds: ["drop"], afterRate: 1 });
    await expect(get(emu.url, `${S}/Contacts`)).rejects.toThrow();
    emu.setFaults({ rate: 1, kinds: ["revoke", "restart"] });
    expect((await get(emu.url, `${S}/Contacts?$top=1`)).status).toBe(200);
    emu.setFaults();
    expect((await get(emu.url, `${S}/Contacts?$top=1`)).body.value).toHaveLength(1);
  });

  it("answers a request Node cannot parse, and keeps serving", async () => {
    const bad = await rawHttp(emu.url, "GET", `${S}/Contacts bad`, { Authorization: auth() });
    expect(bad.status).toBe(400);
    expect((await get(emu.url, `${S}/Contacts?$top=1`)).status).toBe(200);
  });
});

describe("bounds", () => {
  it("refuses a response that nested $expand would grow past 200,000 records, and keeps serving", async () => {
    const a = await get(emu.url, `${S}/Contacts?$expand=Notes($expand=Contacts($expand=Notes))`);
    expect(expectODataError(a, 400, "-1").message).toMatch(/more than 200000 records/);
    expect((await get(emu.url, `${S}/Contacts?$top=1&$expand=Notes($top=2;$expand=Contacts)`)).body.value[0].Notes).toHaveLength(2);
  });
});

describe("paging at 10,000 (2.5)", () => {
  it("answers at most 10,000 records, then a nextLink to the rest; $top=10000 has none", async () => {
    const first = await get(emu.url, `${S}/Notes?$select=N`);
    expect(first.body.value).toHaveLength(10_000);
    expect(first.body["@nextLink"]).toBe(`${emu.url}${S}/Notes?$select="N"&$skiptoken=s10000t0`);
    const rest = await get("", first.body["@nextLink"]);
    expect(rest.body.value.map((v: any) => v.N)).toEqual([10_001, 10_002, 10_003]);
    expect(rest.body["@nextLink"]).toBeUndefined();
    const top = await get(emu.url, `${S}/Notes?$select=N&$top=10000`);
    expect(top.body.value).toHaveLength(10_000);
    expect(top.body["@nextLink"]).toBeUndefined();
  });
});
