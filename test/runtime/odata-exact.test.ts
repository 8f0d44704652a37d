import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createODataClient, defineTable, f, ODataDecodeError, ProtocolError, type ODataClient, type TableSpec } from "@fmgen/runtime/odata";
import { parseJson } from "../../src/runtime/core/json-numbers.js";
import { decodeRow } from "../../src/runtime/odata/values.js";
import { listenLoopback, type LoopbackServer } from "../support/loopback-server.js";

// Exact number fields of the OData client (`"exact": true`), on the wire: a fake server answers fixed bytes (long
// number tokens, IEEE754Compatible strings, hostile values), and every request's Accept, Content-Type, URL and body
// are recorded and compared digit for digit. Run through both entries (undici and fetch: vitest.config.ts FETCH_TESTS).

interface LedgerRow {
  Id: string | null;
  Amount: string | null;
  Plain: number | null;
  Note: string;
}
interface LinesRow {
  Big: string | null;
  N: number | null;
}
const Lines = defineTable<LinesRow>()({ database: "Office", table: "Lines", fields: { Big: { type: "number", exact: true }, N: { type: "number" } } });
const Ledger = defineTable<LedgerRow, { Lines: typeof Lines }>()({
  database: "Office",
  table: "Ledger",
  key: "Id",
  fields: { Id: { type: "number", exact: true }, Amount: { type: "number", exact: true }, Plain: { type: "number" }, Note: { type: "text" } },
  relations: { Lines: { table: "Lines", many: true, target: (): TableSpec => Lines } },
});
const Plain = defineTable<{ N: number | null; T: string }>()({ database: "Office", table: "Plain", fields: { N: { type: "number" }, T: { type: "text" } } });

/** 58 digits: a `Get ( UUIDNumber )` key. */
const UUID_NUMBER = "1234567890123456789012345678901234567890123456789012345678";
const D400 = "9".repeat(400);
const FRACTION_400 = `0.${"0".repeat(10)}${"7".repeat(390)}`;

interface Seen {
  method: string;
  url: string;
  accept: string | undefined;
  contentType: string | undefined;
  body: string;
}
const seen: Seen[] = [];
type Answer = { status?: number; headers?: Record<string, string>; body: string };
let next: (request: Seen) => Answer = () => ({ body: '{"value":[]}' });
let server: LoopbackServer;
let od: ODataClient<"Office">;

beforeAll(async () => {
  server = await listenLoopback((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const request: Seen = { method: req.method!, url: decodeURIComponent(req.url!), accept: req.headers.accept, contentType: req.headers["content-type"], body: Buffer.concat(chunks).toString("utf8") };
      seen.push(request);
      const answer = next(request);
      res.writeHead(answer.status ?? 200, { "Content-Type": "application/json", ...answer.headers });
      res.end(answer.body);
    });
  });
  od = createODataClient({ server: server.url, database: "Office", auth: { username: "web", password: "pw" }, insecure: "allow", retry: { retries: 0 } });
});
afterAll(async () => {
  await od?.close();
  await server?.close();
});
beforeEach(() => {
  seen.length = 0;
  next = () => ({ body: '{"value":[]}' });
});

const answer = (body: string) => (next = () => ({ body }));
const failure = (promise: Promise<unknown>) => promise.then(() => Promise.reject(new Error("expected a failure")), (e: unknown) => e as Error);
const EXACT_ACCEPT = "application/json;odata.metadata=none;IEEE754Compatible=true";
const PLAIN_ACCEPT = "application/json;odata.metadata=none";

describe("reading an exact field", () => {
  it("reads 58- and 400-digit values digit for digit, as long tokens and as IEEE754 strings, and asks for strings", async () => {
    answer(
      `{"value":[{"Id":${UUID_NUMBER},"Amount":-${D400},"Plain":1.5,"Note":"a"},` +
        `{"Id":"${UUID_NUMBER}","Amount":"${FRACTION_400}","Plain":"2.25","Note":"b"},` +
        `{"Id":12.5,"Amount":-0,"Plain":-0,"Note":"c"},` +
        `{"Id":"  007.50 ","Amount":1.50e3,"Plain":null,"Note":"d"},` +
        `{"Id":null,"Amount":"","Plain":"","Note":"e"}]}`,
    );
    const { value } = await od.table(Ledger).list();
    expect(value).toEqual([
      { Id: UUID_NUMBER, Amount: `-${D400}`, Plain: 1.5, Note: "a" },
      { Id: UUID_NUMBER, Amount: FRACTION_400, Plain: 2.25, Note: "b" },
      { Id: "12.5", Amount: "0", Plain: 0, Note: "c" },
      { Id: "7.5", Amount: "1500", Plain: null, Note: "d" },
      { Id: null, Amount: null, Plain: null, Note: "e" },
    ]);
    expect(Object.is(value[2]!.Plain, -0)).toBe(false);
    expect(seen.map((s) => s.accept)).toEqual([EXACT_ACCEPT]);
  });

  it("reads expanded relation rows exactly (tokens and strings), and asks for strings by the table called", async () => {
    answer(`{"value":[{"Id":1,"Lines":[{"Big":${UUID_NUMBER}0,"N":3},{"Big":"-${UUID_NUMBER}","N":"4"}]}]}`);
    const { value } = await od.table(Ledger).list({ expand: { Lines: true } });
    expect(value[0]).toEqual({ Id: "1", Lines: [{ Big: `${UUID_NUMBER}0`, N: 3 }, { Big: `-${UUID_NUMBER}`, N: 4 }] });
    // A one-row read, and related (the target's rows) ask the same way.
    answer(`{"Id":${UUID_NUMBER},"Amount":"1e-3"}`);
    expect(await od.table(Ledger).get(UUID_NUMBER)).toEqual({ Id: UUID_NUMBER, Amount: "0.001" });
    answer(`{"value":[{"Big":${D400}}]}`);
    expect((await od.table(Ledger).related(UUID_NUMBER, "Lines")).value).toEqual([{ Big: D400 }]);
    expect(seen.map((s) => [s.method, s.url, s.accept])).toEqual([
      ["GET", "/fmi/odata/v4/Office/Ledger?$expand=Lines", EXACT_ACCEPT],
      ["GET", `/fmi/odata/v4/Office/Ledger(${UUID_NUMBER})`, EXACT_ACCEPT],
      ["GET", `/fmi/odata/v4/Office/Ledger(${UUID_NUMBER})/Lines`, EXACT_ACCEPT],
    ]);
  });

  it("keeps the Accept as it was for a table without exact fields, and its answers read as before", async () => {
    answer('{"value":[{"N":-0,"T":"x"},{"N":"12","T":"y"}]}');
    expect((await od.table(Plain).list()).value).toEqual([{ N: 0, T: "x" }, { N: 12, T: "y" }]);
    for await (const row of od.table(Plain).all({ pageSize: 5 })) expect(row).toBeDefined();
    expect(seen.map((s) => s.accept)).toEqual([PLAIN_ACCEPT, PLAIN_ACCEPT]);
  });

  it("reads a long token in a text field as its text", async () => {
    answer(`{"value":[{"N":1,"T":${UUID_NUMBER}}]}`);
    expect((await od.table(Plain).list()).value).toEqual([{ N: 1, T: UUID_NUMBER }]);
  });
});

describe("a number field without exact", () => {
  it("refuses a long token or a long numeric string, naming the table, the field and the raw digits, never rounding", async () => {
    answer(`{"value":[{"N":${UUID_NUMBER},"T":"x"}]}`);
    const token = await failure(od.table(Plain).list());
    expect(token).toBeInstanceOf(ODataDecodeError);
    expect(token).toMatchObject({ table: "Plain", field: "N", value: UUID_NUMBER });
    expect(token.message).toContain(`the server sent ${UUID_NUMBER},`);
    expect(token.message).toContain('describe the field with "exact": true');

    answer(`{"value":[{"N":" ${UUID_NUMBER} ","T":"x"}]}`);
    const text = await failure(od.table(Plain).list());
    expect(text).toMatchObject({ name: "ODataDecodeError", table: "Plain", field: "N", value: ` ${UUID_NUMBER} ` });
    expect(text.message).toContain('"exact": true');

    // 2^53 + 1 has no double; 0.1 and 2^53 do.
    answer('{"value":[{"N":"9007199254740993"}]}');
    expect(await failure(od.table(Plain).list())).toBeInstanceOf(ODataDecodeError);
    answer('{"value":[{"N":9007199254740993}]}');
    expect(await failure(od.table(Plain).list())).toMatchObject({ field: "N", value: "9007199254740993" });
    answer('{"value":[{"N":"9007199254740992"},{"N":0.1},{"N":"1E2"}]}');
    expect((await od.table(Plain).list()).value).toEqual([{ N: 9007199254740992 }, { N: 0.1 }, { N: 100 }]);
  });

  it("refuses a long token in an expanded relation's non-exact field too", async () => {
    answer(`{"value":[{"Id":1,"Lines":[{"Big":1,"N":${UUID_NUMBER}}]}]}`);
    expect(await failure(od.table(Ledger).list({ expand: { Lines: true } }))).toMatchObject({ name: "ODataDecodeError", table: "Lines", field: "N", value: UUID_NUMBER });
  });
});

describe("hostile answers", () => {
  const HUGE = "7".repeat(60_000);

  it("refuses a 60,000-digit token and 1e999999, in exact fields and others, with short messages", async () => {
    answer(`{"value":[{"Id":${HUGE}}]}`);
    const huge = await failure(od.table(Ledger).list());
    expect(huge).toMatchObject({ name: "ODataDecodeError", table: "Ledger", field: "Id", value: HUGE });
    expect(huge.message).toContain("60000 significant digits, more than the 400 FileMaker keeps");
    expect(huge.message.length).toBeLessThan(500);

    answer(`{"value":[{"Amount":"${HUGE}"}]}`);
    expect(await failure(od.table(Ledger).list())).toMatchObject({ field: "Amount", message: expect.stringContaining("60000 significant digits") });

    // A positive exponent is not looked for before the parse (core/json-numbers.ts): JSON.parse reads Infinity.
    answer('{"value":[{"Amount":1e999999}]}');
    const far = await failure(od.table(Ledger).list());
    expect(far).toMatchObject({ name: "ODataDecodeError", field: "Amount", value: Infinity });
    expect(far.message).toContain("written with an exponent past a JavaScript number's range");

    answer('{"value":[{"Amount":"1e-999999"}]}');
    expect(await failure(od.table(Ledger).list())).toMatchObject({ field: "Amount", message: expect.stringContaining("beyond FileMaker's range") });

    answer(`{"value":[{"N":${HUGE}}]}`);
    expect(await failure(od.table(Plain).list())).toMatchObject({ name: "ODataDecodeError", field: "N", value: HUGE });
    answer('{"value":[{"N":1e999999}]}');
    expect(await failure(od.table(Plain).list())).toMatchObject({ name: "ODataDecodeError", field: "N", value: Infinity, message: expect.stringContaining("1e309 or more") });

    answer('{"value":[{"Amount":"twelve"},{"Amount":true}]}');
    expect(await failure(od.table(Ledger).list())).toMatchObject({ field: "Amount", message: expect.stringContaining("it is not a number") });
  });

  it("reads a 60,000-digit token with work in proportion to its length (characters read, counted)", () => {
    const body = `{"value":[{"Id":${HUGE},"Amount":"${HUGE}","Note":${HUGE}}]}`;
    const counted = countCharReads(() => {
      const row = (parseJson(body) as { value: unknown[] }).value[0]!;
      expect(() => decodeRow(Ledger, row, undefined, "t")).toThrow(ODataDecodeError);
      expect(decodeRow(Plain, { T: (row as { Note: unknown }).Note }, undefined, "t")).toEqual({ T: HUGE });
    });
    // A pass or a few over each of the three values; a quadratic reader would read billions.
    expect(counted).toBeGreaterThan(60_000);
    expect(counted).toBeLessThan(40 * body.length);
  });

  it("answers whose numbers are not JSON (.5, 5., 05, +5) are the protocol error they always were", async () => {
    for (const bad of [".5", "5.", "05", "+5", "-", "1e"]) {
      answer(`{"value":[{"Id":${bad}}]}`);
      const error = await failure(od.table(Ledger).list());
      expect(error).toBeInstanceOf(ProtocolError);
      expect(error.message).toContain("is not an OData answer");
    }
  });

  it("a ROWID or a count too long for a JavaScript number is a clear error", async () => {
    answer(`{"value":[{"ROWID":${UUID_NUMBER},"ROWMODID":1,"Id":1}]}`);
    const rowId = await failure(od.table(Ledger).list({ specialColumns: true }));
    expect(rowId).toMatchObject({ name: "ODataDecodeError", field: "ROWID", value: UUID_NUMBER });
    expect(rowId.message).toContain("a ROWID a JavaScript number holds");
    answer(`{"@count":${UUID_NUMBER},"value":[]}`);
    const count = await failure(od.table(Ledger).list({ count: true }));
    expect(count).toBeInstanceOf(ProtocolError);
    expect(count.message).toContain(`has a count of ${UUID_NUMBER.slice(0, 40)} rows, more than a JavaScript number holds`);
  });
});

describe("writing an exact field", () => {
  it("sends decimal text as JSON strings, digit for digit, with Content-Type IEEE754Compatible=true, and reads the row back exactly", async () => {
    next = (request) => ({ status: 201, body: request.body.replace(`"${UUID_NUMBER}"`, UUID_NUMBER) });
    const created = await od.table(Ledger).create({ Id: UUID_NUMBER, Amount: `-${FRACTION_400}`, Plain: 2, Note: "n" });
    expect(created).toEqual({ Id: UUID_NUMBER, Amount: `-${FRACTION_400}`, Plain: 2, Note: "n" });
    next = () => ({ status: 204, body: "", headers: { "fmodata.affected_rows": "3" } });
    await od.table(Ledger).update(UUID_NUMBER, { Amount: "1.50e-3", Plain: null });
    expect(await od.table(Ledger).updateWhere(f.gte("Amount", `${D400}`), { Amount: "-0" })).toBe(3);
    expect(seen.map(({ method, url, accept, contentType, body }) => ({ method, url, accept, contentType, body }))).toEqual([
      { method: "POST", url: "/fmi/odata/v4/Office/Ledger", accept: EXACT_ACCEPT, contentType: "application/json;IEEE754Compatible=true", body: `{"Id":"${UUID_NUMBER}","Amount":"-${FRACTION_400}","Plain":2,"Note":"n"}` },
      { method: "PATCH", url: `/fmi/odata/v4/Office/Ledger(${UUID_NUMBER})`, accept: PLAIN_ACCEPT, contentType: "application/json;IEEE754Compatible=true", body: '{"Amount":"1.50e-3","Plain":null}' },
      { method: "PATCH", url: `/fmi/odata/v4/Office/Ledger?$filter="Amount" ge ${D400}`, accept: PLAIN_ACCEPT, contentType: "application/json;IEEE754Compatible=true", body: '{"Amount":"-0"}' },
    ]);
  });

  it("keeps plain application/json for bodies without an exact value (a table without them, or an exact field cleared)", async () => {
    next = () => ({ status: 204, body: "" });
    await od.table(Ledger).update(UUID_NUMBER, { Id: null, Note: "x" });
    await od.table(Plain).update({ rowId: 1 }, { N: 1.5 });
    expect(seen.map((s) => [s.contentType, s.body])).toEqual([
      ["application/json", '{"Id":null,"Note":"x"}'],
      ["application/json", '{"N":1.5}'],
    ]);
  });

  it("refuses a JavaScript number and text that is not strict decimal text, naming the table, the field and the text, sending nothing", async () => {
    const ledger = od.table(Ledger);
    const number = await failure(ledger.create({ Id: 12 as never }));
    expect(number).toBeInstanceOf(TypeError);
    expect(number.message).toBe('table "Ledger": create: field "Id" of table "Ledger" is an exact number field: give it decimal text (a string such as "12345678901234567890"), not the number 12');
    for (const bad of ["007", ".5", "5.", "+5", "", " 5", "1e", "0x10", "NaN"]) {
      const error = await failure(ledger.update(UUID_NUMBER, { Amount: bad }));
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toContain(`field "Amount" of table "Ledger" is an exact number field, and ${JSON.stringify(bad)} is not one of its values: it`);
    }
    expect((await failure(ledger.create({ Amount: "1".repeat(401) }))).message).toContain("… (401 characters) is not one of its values: it has 401 significant digits, more than the 400 FileMaker keeps");
    expect((await failure(ledger.create({ Amount: "1e401" }))).message).toContain("beyond FileMaker's range");
    expect((await failure(ledger.create({ Amount: ["1"] as never }))).message).toContain("not an array");
    expect(seen).toEqual([]);
  });

  it("batch parts: exact values as strings with the part's Content-Type, the changeset and the read back asking for strings", async () => {
    next = (request) => {
      const boundary = /boundary=(\S+)/.exec(request.contentType ?? "")![1]!;
      if (request.body.includes("changeset_")) {
        const parts = [
          "HTTP/1.1 204 No Content\r\nLocation: http://x/fmi/odata/v4/Office/Ledger(ROWID=7)\r\n\r\n",
          "HTTP/1.1 204 No Content\r\n\r\n",
          "HTTP/1.1 204 No Content\r\nfmodata.affected_rows: 2\r\n\r\n",
        ];
        const changeset = parts.map((part, i) => `--cs\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\nContent-ID: ${i + 1}\r\n\r\n${part}`).join("") + "--cs--\r\n";
        return { headers: { "Content-Type": `multipart/mixed; boundary=${boundary}` }, body: `--${boundary}\r\nContent-Type: multipart/mixed; boundary=cs\r\n\r\n${changeset}--${boundary}--\r\n` };
      }
      const row = `{"Id":${UUID_NUMBER},"Amount":"${FRACTION_400}","Plain":1,"Note":"b"}`;
      return { headers: { "Content-Type": `multipart/mixed; boundary=${boundary}` }, body: `--${boundary}\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n${row}\r\n--${boundary}--\r\n` };
    };
    const results = await od.batch((b) => [
      b.table(Ledger).create({ Id: UUID_NUMBER, Amount: FRACTION_400, Note: "b" }),
      b.table(Plain).update({ rowId: 1 }, { N: 2 }),
      b.table(Ledger).updateWhere(f.eq("Id", UUID_NUMBER), { Amount: `-${D400}` }),
    ]);
    expect(results).toEqual([{ Id: UUID_NUMBER, Amount: FRACTION_400, Plain: 1, Note: "b" }, undefined, 2]);
    expect(seen.map((s) => s.accept)).toEqual([EXACT_ACCEPT, EXACT_ACCEPT]);
    const parts = seen[0]!.body.split(/--changeset_\w+/).slice(1, 4);
    expect(parts[0]).toContain(`POST /fmi/odata/v4/Office/Ledger HTTP/1.1\r\nContent-Type: application/json;IEEE754Compatible=true\r\n`);
    expect(parts[0]).toContain(`\r\n\r\n{"Id":"${UUID_NUMBER}","Amount":"${FRACTION_400}","Note":"b"}\r\n`);
    expect(parts[1]).toContain('PATCH /fmi/odata/v4/Office/Plain(ROWID=1) HTTP/1.1\r\nContent-Type: application/json\r\n');
    expect(parts[2]).toContain(`PATCH /fmi/odata/v4/Office/Ledger?$filter=%22Id%22%20eq%20${UUID_NUMBER} HTTP/1.1\r\nContent-Type: application/json;IEEE754Compatible=true\r\n`);
    expect(parts[2]).toContain(`{"Amount":"-${D400}"}`);
  });

  it("a batch step with a bad exact value fails where the builder names it, before anything is sent", async () => {
    const error = await failure(od.batch((b) => [b.table(Ledger).create({ Id: 5 as never })]));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toContain("is an exact number field: give it decimal text");
    expect(seen).toEqual([]);
  });
});

describe("filters and keys of an exact field", () => {
  it("write decimal text bare, digit for digit, in its canonical form", async () => {
    await od.table(Ledger).list({ filter: f.and(f.eq("Id", UUID_NUMBER), f.between("Amount", "-1.5e3", `${FRACTION_400}`), f.ne("Amount", null), f.isNull("Id")) });
    answer("3");
    expect(await od.table(Ledger).count({ filter: f.lt("Id", "-0") })).toBe(3);
    // A count no JavaScript number holds is refused, never rounded.
    answer(UUID_NUMBER);
    expect(await failure(od.table(Ledger).count())).toBeInstanceOf(ProtocolError);
    await od.table(Ledger).deleteWhere(f.gt("Id", "1E+2")).catch(() => undefined);
    answer('{"value":[]}');
    await od.table(Ledger).list({ expand: { Lines: { filter: f.lte("Big", `-${UUID_NUMBER}.50`) } } });
    expect(seen.map((s) => s.url)).toEqual([
      `/fmi/odata/v4/Office/Ledger?$filter="Id" eq ${UUID_NUMBER} and ("Amount" ge -1500 and "Amount" le ${FRACTION_400}) and "Amount" ne null and "Id" eq null`,
      `/fmi/odata/v4/Office/Ledger/$count?$filter="Id" lt 0`,
      `/fmi/odata/v4/Office/Ledger/$count`,
      `/fmi/odata/v4/Office/Ledger?$filter="Id" gt 100`,
      `/fmi/odata/v4/Office/Ledger?$expand=Lines($filter="Big" le -${UUID_NUMBER}.5)`,
    ]);
  });

  it("refuse a JavaScript number and text that is not decimal text, before anything is sent", async () => {
    const number = await failure(od.table(Ledger).list({ filter: f.eq("Id", 5 as never) }));
    expect(number).toBeInstanceOf(TypeError);
    expect(number.message).toBe('"Id" is an exact number field: compare it with decimal text (a string such as "12345678901234567890"), not the number 5');
    for (const bad of ["007", ".5", "5.", "+5", "", "abc", "1".repeat(401)]) {
      const error = await failure(od.table(Ledger).list({ filter: f.gte("Amount", bad) }));
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toMatch(/^"Amount" is an exact number field, and .* is not one of its values: it/);
    }
    expect(await failure(od.table(Ledger).get(12 as never))).toMatchObject({ name: "TypeError", message: expect.stringContaining('key "Id" of table "Ledger" is an exact number field: give decimal text') });
    expect(await failure(od.table(Ledger).get("012"))).toMatchObject({ message: expect.stringContaining('and "012" is not one of its values: it is not decimal text') });
    // A non-exact number field still takes numbers only.
    expect(await failure(od.table(Plain).list({ filter: f.eq("N", "5" as never) }))).toBeInstanceOf(TypeError);
    expect(seen).toEqual([]);
  });
});

describe("other answers that hold numbers", () => {
  it("a script's result keeps every digit of a long number", async () => {
    answer(`{"scriptResult":{"code":0,"resultParameter":${UUID_NUMBER}}}`);
    expect(await od.runScript("Total")).toEqual({ code: 0, result: UUID_NUMBER });
    answer(`{"scriptResult":{"code":0,"resultParameter":{"n":${UUID_NUMBER},"m":[1.5]}}}`);
    expect(await od.runScript("Total")).toEqual({ code: 0, result: `{"n":${UUID_NUMBER},"m":[1.5]}` });
  });

  it("a webhook's invoked payload holds a long number as its text", async () => {
    answer(`{"value":[{"Id":${UUID_NUMBER},"ok":true}]}`);
    expect(await od.webhooks.invoke(1)).toEqual({ value: [{ Id: UUID_NUMBER, ok: true }] });
  });

  it("an error answer whose code is a long token is still an OData error", async () => {
    next = () => ({ status: 400, body: `{"error":{"code":${UUID_NUMBER},"message":"odd"}}` });
    expect(await failure(od.table(Plain).list())).toMatchObject({ name: "ODataError", code: UUID_NUMBER, httpStatus: 400 });
  });
});

/** How many characters `String.prototype.charCodeAt` reads while `run` runs: the decimal readers' unit of work. */
function countCharReads(run: () => void): number {
  const original = String.prototype.charCodeAt;
  let count = 0;
  String.prototype.charCodeAt = function (this: string, index: number) {
    count++;
    return original.call(this, index);
  };
  try {
    run();
  } finally {
    String.prototype.charCodeAt = original;
  }
  return count;
}
