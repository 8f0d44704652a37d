import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FindQuery, q, type FileMakerClient, type LayoutClient } from "../../src/runtime/index.js";
import { collect, connect, counting, startRuntimeEmulator, type Emulator } from "../support/runtime-emulator.js";
import { Contact } from "../support/runtime-layouts.js";
import { startItems, type ItemRow } from "./items.js";

// The immutable query builder against the emulator over loopback HTTP: the example contacts (docs/finding.md,
// "The query builder: `layout.query()`") and 200 numbered items (pages, offsets, limits, 50 OR requests with 10 omit
// requests).

const N = 200;
const ITEMS: ItemRow[] = Array.from({ length: N }, (_, i) => ({ Name: `item ${i + 1}`, Qty: i + 1, Status: i % 2 ? "Closed" : "Open" }));

let emu: Emulator;
let fm: FileMakerClient;
let contacts: LayoutClient<typeof Contact>;
let env: Awaited<ReturnType<typeof startItems>>;

beforeAll(async () => {
  emu = await startRuntimeEmulator();
  fm = connect(emu.url);
  contacts = fm.layout(Contact);
  env = await startItems(ITEMS);
});

afterAll(async () => {
  await fm.close();
  await emu.close();
  await env.close();
});

const names = (records: readonly { fieldData: { "First Name": string } }[]) => records.map((r) => r.fieldData["First Name"]);
const qtys = (records: readonly { fieldData: { Qty: number | null } }[]) => records.map((r) => r.fieldData.Qty);

describe("the guide's example", () => {
  it("where, or, sort, limit, run", async () => {
    const page = await contacts.query().where({ Status: "Active" }).or({ Email: q.endsWith("@example.com") }).sort("Birthday", "descend").limit(10).run();
    // Everyone is Active or has an example.com address; youngest first.
    expect(names(page.data)).toEqual(["Katherine", "Alan", "Grace", "Ada"]);
    expect(page.dataInfo.foundCount).toBe(4);
  });

  it("find with q helpers, an omit request and a portal field", async () => {
    const found = await contacts.find({
      query: [{ "First Name": q.beginsWith("a"), Birthday: q.gte("1900-01-01") }, { Status: "Inactive", omit: true }, { "Invoices::Amount": q.gt(100) }],
      sort: [{ fieldName: "Birthday", sortOrder: "descend" }],
      limit: 10,
    });
    // Alan (1912) is found, then omitted as Inactive; Ada and Grace have an invoice over 100.
    expect(names(found.data)).toEqual(["Grace", "Ada"]);
  });
});

describe("an immutable builder", () => {
  it("returns a new frozen query from every call and never changes the one it was called on", () => {
    const base = env.items.query();
    const open = base.where({ Status: "Open" });
    const small = open.where({ Qty: q.lt(10) });
    const either = open.or({ Name: "item 2" });
    const without = open.omit({ Qty: 1 });
    const sorted = small.sort("Qty", "descend").offset(2).limit(3);
    const queries = [base, open, small, either, without, sorted];
    expect(new Set(queries).size).toBe(queries.length);
    for (const query of queries) {
      expect(query).toBeInstanceOf(FindQuery);
      expect(Object.isFrozen(query)).toBe(true);
      expect(Object.isFrozen(query.toFindOptions())).toBe(true);
      expect(Object.isFrozen(query.toFindOptions().query)).toBe(true);
      for (const request of query.toFindOptions().query) expect(Object.isFrozen(request)).toBe(true);
    }
    expect(() => Object.assign(open, { extra: 1 })).toThrow(TypeError);
    expect(() => (open.toFindOptions().query as unknown[]).push({})).toThrow(TypeError);
    expect(base.toFindOptions()).toEqual({ query: [], sort: [] });
    expect(open.toFindOptions()).toEqual({ query: [{ Status: "Open" }], sort: [] });
    expect(small.toFindOptions()).toEqual({ query: [{ Status: "Open", Qty: q.lt(10) }], sort: [] });
    expect(either.toFindOptions().query).toEqual([{ Status: "Open" }, { Name: "item 2" }]);
    expect(without.toFindOptions().query).toEqual([{ Status: "Open" }, { Qty: 1, omit: true }]);
    expect(sorted.toFindOptions()).toEqual({ query: [{ Status: "Open", Qty: q.lt(10) }], sort: [{ fieldName: "Qty", sortOrder: "descend" }], offset: 2, limit: 3 });
  });

  it("branches independently", async () => {
    const open = env.items.query().where({ Qty: q.lte(6) });
    const a = await open.omit({ Status: "Closed" }).run();
    const b = await open.or({ Qty: 200 }).sort("Qty", "descend").run();
    const c = await open.run();
    expect(qtys(a.data)).toEqual([1, 3, 5]);
    expect(qtys(b.data)).toEqual([200, 6, 5, 4, 3, 2, 1]);
    expect(qtys(c.data)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("sorts by several fields in call order; later limit and offset replace earlier ones", async () => {
    const page = await env.items.query().where({ Qty: q.between(1, 8) }).sort("Status").sort("Qty", "descend").limit(100).offset(1).limit(5).run();
    expect(page.data.map((r) => `${r.fieldData.Status} ${r.fieldData.Qty}`)).toEqual(["Closed 8", "Closed 6", "Closed 4", "Closed 2", "Open 7"]);
  });
});

describe("running and iterating", () => {
  it("run() returns one page: the server's default limit of 100, or the query's offset and limit", async () => {
    const all = await env.items.query().where({ Qty: q.notEmpty() }).run();
    expect(all.data).toHaveLength(100);
    expect(all.dataInfo.foundCount).toBe(N);
    const page = await env.items.query().where({ Qty: q.gt(100) }).sort("Qty").offset(11).limit(5).run();
    expect(qtys(page.data)).toEqual([111, 112, 113, 114, 115]);
  });

  it("for await iterates every match across pages", async () => {
    const seen: number[] = [];
    for await (const record of env.items.query().where({ Qty: q.gt(20) }).sort("Qty")) seen.push(record.fieldData.Qty!);
    expect(seen).toEqual(Array.from({ length: N - 20 }, (_, i) => i + 21));
  });

  it("all() fetches pages of pageSize, from the offset, up to the limit", async () => {
    const query = env.items.query().where({ Status: "Open" }).sort("Qty").offset(3).limit(7);
    const { result, requests } = await counting(env.emu, () => collect(query.all({ pageSize: 3 })));
    expect(qtys(result)).toEqual([5, 7, 9, 11, 13, 15, 17]);
    expect(requests).toBe(3);
    const { result: everything, requests: pages } = await counting(env.emu, () => collect(env.items.query().where({ Status: "Open" }).all({ pageSize: 40 })));
    expect(everything).toHaveLength(100);
    // 40 + 40 + 20: the short page ends it.
    expect(pages).toBe(3);
  });

  it("no match: an empty page, and an iteration over nothing", async () => {
    const none = env.items.query().where({ Name: "no such item" });
    const page = await none.run();
    expect(page.data).toEqual([]);
    expect(page.dataInfo.foundCount).toBe(0);
    expect(await collect(none)).toEqual([]);
  });

  it("a query without requests lists every record, sorted, offset and limited", async () => {
    const page = await env.items.query().sort("Qty", "descend").limit(3).run();
    expect(qtys(page.data)).toEqual([200, 199, 198]);
    expect(await collect(env.items.query())).toHaveLength(N);
  });

  it("an omit-only query finds every record but the omitted", async () => {
    const page = await env.items.query().omit({ Qty: q.gt(2) }).run();
    expect(qtys(page.data)).toEqual([1, 2]);
  });

  it("a signal aborts a run", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(env.items.query().where({ Qty: 1 }).run({ signal: controller.signal })).rejects.toThrow();
  });
});

describe("50 OR requests and 10 omit requests", () => {
  it("find the right set, in order of the requests", async () => {
    // Find every multiple of 3 up to 150 (50 requests), then omit 1-5, 11-15, ..., 91-95 (10 requests).
    let query = env.items.query();
    for (let k = 1; k <= 50; k++) query = query.or({ Qty: 3 * k });
    for (let j = 0; j < 10; j++) query = query.omit({ Qty: q.between(10 * j + 1, 10 * j + 5) });
    expect(query.toFindOptions().query).toHaveLength(60);
    const expected = Array.from({ length: 50 }, (_, i) => 3 * (i + 1)).filter((n) => !(n <= 95 && n % 10 >= 1 && n % 10 <= 5));
    const found = await collect(query.sort("Qty"));
    expect(qtys(found)).toEqual(expected);
    // The same through find() in one request body.
    const page = await env.items.find({ query: query.toFindOptions().query, limit: 1000 });
    expect(page.dataInfo.foundCount).toBe(expected.length);
  });

  it("a find request after the omits adds records back", async () => {
    let query = env.items.query();
    for (let k = 1; k <= 50; k++) query = query.or({ Qty: k });
    for (let j = 0; j < 10; j++) query = query.omit({ Qty: 5 * j + 1 });
    query = query.or({ Qty: 1 });
    // 1..50 without 1, 6, 11, ..., 46, then 1 again.
    const expected = Array.from({ length: 50 }, (_, i) => i + 1).filter((n) => n === 1 || n % 5 !== 1);
    expect(qtys(await collect(query.sort("Qty")))).toEqual(expected);
  });
});

describe("mistakes throw at the call that makes them, before any request", () => {
  it.each([
    ["where() after omit()", () => env.items.query().omit({ Qty: 1 }).where({ Qty: 2 }), /where\(\) after omit\(\)/],
    ["a field twice in one request", () => env.items.query().where({ Qty: q.gt(1) }).where({ Qty: q.lt(5) }), /field "Qty" already has a criterion in this request/],
    ["omit as a criterion", () => env.items.query().where({ omit: true } as never), /use omit\(\)/],
    ["an unknown field", () => env.items.query().or({ Nope: 1 } as never), /no field "Nope"/],
    ["a helper the field does not take", () => env.items.query().where({ Name: q.gt("a") as never }), /q\.gt\(\) does not apply to a text field/],
    ["a value of the wrong type", () => env.items.query().omit({ Day: "03/15/2024" }), /"03\/15\/2024" is not a valid date value/],
    ["sorting by an unknown field", () => env.items.query().sort("Nope" as never), /no field "Nope"/],
    ["sorting by a portal field", () => env.items.query().sort("Parts::Label" as never), /no field "Parts::Label"/],
    ["an empty sort order", () => env.items.query().sort("Qty", "" as never), /"ascend", "descend" or a value list's name/],
    ["offset 0", () => env.items.query().offset(0), /offset must be a whole number >= 1/],
    ["a fractional limit", () => env.items.query().limit(2.5), /limit must be a whole number >= 1/],
  ])("%s", async (_label, make, message) => {
    const { requests } = await counting(env.emu, async () => {
      expect(make).toThrow(message);
    });
    expect(requests).toBe(0);
  });

  it("a pageSize of 0 throws when iterating starts", async () => {
    await expect(collect(env.items.query().all({ pageSize: 0 }))).rejects.toThrow(/pageSize must be a whole number >= 1/);
  });

  it("empty criteria add no request", () => {
    const query = env.items.query().where({}).or({}).omit({});
    expect(query.toFindOptions().query).toEqual([]);
  });
});
