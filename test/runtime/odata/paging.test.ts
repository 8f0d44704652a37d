import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { createODataClient, f, type ODataClient } from "../../../src/runtime/odata/index.js";
import { Audit, Contacts, PASSWORD, startOffice, USER } from "./support.js";
import { listenLoopback, type LoopbackServer } from "../../support/loopback-server.js";

// list and related are one page: the rows of one answer, whatever its nextLink (the server cuts a page at 10,000 rows,
// wire contract 2.5); all() reads every row page by page, each page checked to move through the rows the server
// counts (page-stream.ts, the Data API's streams' too). One table of 10,003 rows on the emulator, and a server that
// misbehaves on purpose on loopback.

let emu: RunningEmulator;
let od: ODataClient<"Office">;
beforeAll(async () => {
  emu = await startOffice({}, 10_003);
  od = createODataClient({ server: emu.url, database: "Office", auth: { username: USER, password: PASSWORD } });
});
afterAll(async () => {
  await od.close();
  await emu.close();
});

it("list is one page: the server's 10,000 rows of 10,003, in one request; count: true counts every match", async () => {
  const before = emu.stats().requests;
  const page = await od.table(Audit).list({ select: ["N"], count: true });
  expect(emu.stats().requests - before).toBe(1);
  expect(page.value).toHaveLength(10_000);
  expect(page.count).toBe(10_003);
  expect(page.value.at(-1)).toEqual({ N: 10_000 });
  expect((await od.table(Audit).list({ select: ["N"], filter: f.gt("N", 5), skip: 9_990 })).value).toHaveLength(8);
  expect((await od.table(Audit).list({ select: ["N"], top: 10_000 })).value).toHaveLength(10_000);
});

it("all reads every row of 10,003 once, and asks each page's count", async () => {
  const seen = new Set<number>();
  for await (const row of od.table(Audit).all({ select: ["N"], pageSize: 5_000 })) seen.add(row.N!);
  expect(seen.size).toBe(10_003);
});

describe("a server that does not page", () => {
  /** Requests a test may make before the server refuses: the code before the paging check stops there, not hangs. */
  const BOUND = 50;
  let server: LoopbackServer;
  let url: string;
  let seen: URL[] = [];
  let answer: (query: URLSearchParams) => object;
  beforeAll(async () => {
    server = await listenLoopback((req, res) => {
      const target = new URL(req.url!, "http://x");
      seen.push(target);
      res.writeHead(seen.length > BOUND ? 500 : 200, { "content-type": "application/json" });
      res.end(JSON.stringify(seen.length > BOUND ? { error: { code: "-1", message: "too many requests in this test" } } : answer(target.searchParams)));
    });
    url = server.url;
  });
  afterAll(() => server.close());
  const client = () => createODataClient({ server: url, database: "Office", auth: { username: USER, password: PASSWORD }, retry: { retries: 0 } });
  const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ Event: "e", Codes: ["", ""], N: from + i }));
  /** What a stream yields before it ends or fails. */
  async function drain(items: AsyncIterable<unknown>): Promise<{ count: number; error?: Error }> {
    let count = 0;
    try {
      for await (const _ of items) count++;
    } catch (error) {
      return { count, error: error as Error };
    }
    return { count };
  }

  it("one row and a nextLink for every request: list and related send exactly one request", async () => {
    answer = () => ({ value: rows(1, 1), "@odata.nextLink": `${url}/fmi/odata/v4/Office/Audit?$skiptoken=1` });
    const od = client();
    try {
      seen = [];
      expect((await od.table(Audit).list()).value).toEqual(rows(1, 1));
      expect(seen).toHaveLength(1);
      seen = [];
      expect((await od.table(Contacts).related("A1", "Invoices")).value).toHaveLength(1);
      expect(seen).toHaveLength(1);
    } finally {
      await od.close();
    }
  });

  it("all against a server that ignores $skip: an error naming the table at the second page", async () => {
    answer = (query) => ({ value: rows(1, Number(query.get("$top"))), "@odata.count": 1_000_000 });
    const od = client();
    try {
      seen = [];
      const { count, error } = await drain(od.table(Audit).all({ pageSize: 5 }));
      expect(error?.message).toBe('table "Audit": all: the server is not paging: 5 rows from row 6, the same as the page before');
      expect(count).toBe(5);
      expect(seen).toHaveLength(2);
      expect(seen.map((target) => target.searchParams.get("$count"))).toEqual(["true", "true"]);
    } finally {
      await od.close();
    }
  });

  it("all against a server that answers more rows than it counts: an error at that page", async () => {
    answer = (query) => ({ value: rows(Number(query.get("$skip") ?? 0) + 1, Number(query.get("$top"))), "@odata.count": 7 });
    const od = client();
    try {
      seen = [];
      const { count, error } = await drain(od.table(Audit).all({ pageSize: 5 }));
      expect(error?.message).toBe('table "Audit": all: the server is not paging: 5 rows from row 6 of a found set of 7');
      expect(count).toBe(5);
      expect(seen).toHaveLength(2);
    } finally {
      await od.close();
    }
  });
});
