import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { MAX_CROSSJOIN_ROWS } from "../../../src/emulator/odata/crossjoin.js";
import { auth, expectODataError, get } from "./serve-support.js";

// `GET /db/$crossjoin(a,b)` over loopback (docs/emulator.md, "`$crossjoin`"):
// rows of navigation links and merged fields, the expand and filter rules of the live capture, and a product that is
// decoded row by row, never built.

const DB = "Join";
const BIG = 10_000;
let emu: RunningEmulator;
let R: string;
const S = `/fmi/odata/v4/${DB}`;

const key = (name: string) => ({ name, type: "number" as const, autoEnter: "serial" as const, required: true, unique: true });

beforeAll(async () => {
  emu = await startEmulator({
    layouts: [
      { database: DB, layout: "A", table: "A", fields: [key("ka"), { name: "name", type: "text" }, { name: "x", type: "number" }, { name: "Pic", type: "container" }] },
      { database: DB, layout: "B", table: "B", fields: [key("kb"), { name: "name", type: "text" }, { name: "y", type: "text" }] },
      { database: DB, layout: "C", table: "C", fields: [{ name: "c", type: "text" }] },
      { database: DB, layout: "Big1", table: "Big1", fields: [key("k1"), { name: "v1", type: "number" }] },
      { database: DB, layout: "Big2", table: "Big2", fields: [key("k2"), { name: "v2", type: "number" }] },
    ],
    data: {
      accounts: [{ username: "web", password: "secret" }],
      records: {
        A: [
          { name: "Ada", x: 1.5 },
          { name: "Bob", x: 2 },
        ],
        B: [
          { name: "one", y: "p" },
          { name: "two", y: "q" },
          { name: "three", y: "r" },
        ],
        C: [{ c: "only" }],
        Big1: Array.from({ length: BIG }, (_, i) => ({ v1: i })),
        Big2: Array.from({ length: BIG }, (_, i) => ({ v2: i })),
      },
    },
  });
  R = `${emu.url}${S}`;
});
afterAll(() => emu.close());

const cj = (sets: string, query = "") => get(emu.url, `${S}/$crossjoin(${sets})${query}`, { Authorization: auth("web", "secret") });

describe("rows (PKX)", () => {
  it("answers every combination, the last set varying fastest: navigation links, then all fields flat, a later set's value winning", async () => {
    const a = await cj("A,B");
    expect(a.status).toBe(200);
    expect(a.headers.get("content-type")).toBe("application/json;charset=utf-8");
    expect(a.body["@context"]).toBe(`${R}/$metadata#Collection(Edm.ComplexType)`);
    expect(a.body.value).toHaveLength(6);
    expect(a.body.value[0]).toEqual({ "A@navigationLink": `${R}/A(1)`, "B@navigationLink": `${R}/B(1)`, ka: 1, name: "one", x: 1.5, kb: 1, y: "p" });
    expect(Object.keys(a.body.value[0])).toEqual(["A@navigationLink", "B@navigationLink", "ka", "name", "x", "kb", "y"]);
    expect(a.body.value.map((r: any) => [r["A@navigationLink"].slice(-4), r.name])).toEqual([
      ["A(1)", "one"],
      ["A(1)", "two"],
      ["A(1)", "three"],
      ["A(2)", "one"],
      ["A(2)", "two"],
      ["A(2)", "three"],
    ]);
  });

  it("takes three sets, keyless ones linked by ROWID; $top, $skip and $count=true (the whole product)", async () => {
    const a = await cj("B,A,C", "?$top=2&$skip=3&$count=true");
    expect(a.body["@count"]).toBe(6);
    expect(a.body.value).toEqual([
      { "B@navigationLink": `${R}/B(2)`, "A@navigationLink": `${R}/A(2)`, "C@navigationLink": `${R}/C(1)`, kb: 2, name: "Bob", y: "q", ka: 2, x: 2, c: "only" },
      { "B@navigationLink": `${R}/B(3)`, "A@navigationLink": `${R}/A(1)`, "C@navigationLink": `${R}/C(1)`, kb: 3, name: "Ada", y: "r", ka: 1, x: 1.5, c: "only" },
    ]);
    expect(a.body["@nextLink"]).toBeUndefined();
  });

  it("keeps only the expanded set's fields, and every set's link", async () => {
    const a = await cj("A,B", "?$expand=B&$top=1");
    expect(a.body.value).toEqual([{ "A@navigationLink": `${R}/A(1)`, "B@navigationLink": `${R}/B(1)`, kb: 1, name: "one", y: "p" }]);
  });

  it("follows the annotation form, IEEE754Compatible and Prefer as the read path does", async () => {
    const a = await get(emu.url, `${S}/$crossjoin(A,C)?$top=1`, { Authorization: auth("web", "secret"), "OData-Version": "4.0", Accept: "application/json;IEEE754Compatible=true", Prefer: "fmodata.include-specialcolumns" });
    expect(a.body["@odata.context"]).toBe(`${R}/$metadata#Collection(Edm.ComplexType)`);
    expect(a.body.value[0]).toEqual({ "A@odata.navigationLink": `${R}/A(1)`, "C@odata.navigationLink": `${R}/C(1)`, ka: "1", name: "Ada", x: "1.5", c: "only", ROWID: 1, ROWMODID: 0 });
    const none = await get(emu.url, `${S}/$crossjoin(A,C)?$top=1`, { Authorization: auth("web", "secret"), Accept: "application/json;odata.metadata=none" });
    expect(none.body).toEqual({ value: [{ ka: 1, name: "Ada", x: 1.5, c: "only" }] });
  });

  it("pages by min(maxpagesize, 10,000) with a nextLink that carries on where the page ended", async () => {
    const a = await get(emu.url, `${S}/$crossjoin(A,B)`, { Authorization: auth("web", "secret"), Prefer: "odata.maxpagesize=4" });
    expect(a.body.value).toHaveLength(4);
    const next = a.body["@nextLink"] as string;
    expect(next).toBe(`${R}/$crossjoin(A,B)?$skiptoken=s4t0`);
    const b = await get(emu.url, next.slice(emu.url.length), { Authorization: auth("web", "secret"), Prefer: "odata.maxpagesize=4" });
    expect(b.body.value.map((r: any) => [r.ka, r.kb])).toEqual([
      [2, 2],
      [2, 3],
    ]);
    expect(b.body["@nextLink"]).toBeUndefined();
  });
});

describe("$filter (PKX: only on the expanded set)", () => {
  it("filters the expanded set's records; the product holds the survivors", async () => {
    const a = await cj("A,B", "?$expand=A&$filter=A/name%20eq%20'Bob'&$count=true");
    expect(a.body["@count"]).toBe(3);
    expect(a.body.value.map((r: any) => [r.name, r["B@navigationLink"].slice(-4)])).toEqual([
      ["Bob", "B(1)"],
      ["Bob", "B(2)"],
      ["Bob", "B(3)"],
    ]);
  });

  it("refuses a cross-table filter at the other set's field (parse failure), an unqualified name, and a filter with no expand", async () => {
    expect(expectODataError(await cj("A,B", "?$expand=A&$filter=A/ka%20eq%20B/kb"), 400, "-1002").message).toBe("Error: parse failure in URL at: 'kb'");
    expect(expectODataError(await cj("A,B", "?$filter=A/name%20eq%20'x'"), 400, "-1002").message).toBe("Error: parse failure in URL at: 'name'");
    expect(expectODataError(await cj("A,B", "?$expand=A&$filter=name%20eq%20'x'"), 400, "-1002").message).toMatch(/^Error: cannot determine table for 'name'/);
    expect(expectODataError(await cj("A,B", "?$filter=1%20eq%201"), 400, "-1002").message).toMatch(/^Error: cannot determine table/);
    // An unknown field of the expanded set is the read path's 8309.
    expectODataError(await cj("A,B", "?$expand=A&$filter=A/nope%20eq%201"), 400, "8309");
  });
});

describe("options and paths the capture refuses", () => {
  it("answers $select (parse failure), two expands (syntax error), $orderby (500 internal), $apply, $search", async () => {
    expect(expectODataError(await cj("A,B", "?$select=name"), 400, "-1002").message).toBe("Error: parse failure in URL at: '$select'");
    expect(expectODataError(await cj("A,B", "?$expand=A,B"), 400, "-1002").message).toBe("Error: syntax error in URL at: 'B'");
    expectODataError(await cj("A,B", "?$orderby=name"), 500, "-1");
    expectODataError(await cj("A,B", "?$apply=aggregate($count%20as%20n)"), 400, "-1002");
    expectODataError(await cj("A,B", "?$search=x"), 400, "-1002");
  });

  it("answers an unknown set 404 -1020, a set named twice -1002, and a write 405", async () => {
    expectODataError(await cj("A,Nope"), 404, "-1020");
    expect(expectODataError(await cj("A,A"), 400, "-1002").message).toBe("Error: syntax error in URL at: 'A'");
    const post = await fetch(`${emu.url}${S}/$crossjoin(A,B)`, { method: "POST", headers: { Authorization: auth("web", "secret"), "Content-Type": "application/json" }, body: "{}", signal: AbortSignal.timeout(10_000) });
    expect(post.status).toBe(405);
  });
});

describe("bounds: the product is decoded, never built", () => {
  it("serves any page of a 10,000 × 10,000 product with $top, counting it, at the cost of the page", async () => {
    const a = await cj("Big1,Big2", `?$top=3&$skip=${BIG * BIG - 2}&$count=true`);
    expect(a.body["@count"]).toBe(BIG * BIG);
    expect(a.body.value.map((r: any) => [r.v1, r.v2])).toEqual([
      [BIG - 1, BIG - 2],
      [BIG - 1, BIG - 1],
    ]);
    const middle = await cj("Big1,Big2", `?$top=1&$skip=${1234 * BIG + 5678}`);
    expect(middle.body.value[0]).toMatchObject({ v1: 1234, v2: 5678 });
    // Building 100M rows would take minutes and gigabytes (the test's timeout); a decoded page takes milliseconds, a
    // budget of test/bench/bounds.bench.mjs.
  });

  it("refuses a product past the cap without $top, and a $top page past 10,000 rows is capped", async () => {
    const a = await cj("Big1,Big2");
    expect(expectODataError(a, 400, "-1").message).toContain(String(MAX_CROSSJOIN_ROWS));
    const b = await cj("Big1,Big2", "?$top=20000");
    expect(b.body.value).toHaveLength(10_000);
    expect(b.body["@nextLink"]).toBeUndefined();
  });
});
