import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { q, type QueryOf } from "../../src/runtime/index.js";
import { counting } from "../support/runtime-emulator.js";
import { startItems, type Item, type ItemRow } from "./items.js";

// Each helper, and each FileMaker find operator (docs/emulator.md, "Find semantics"; through q.raw), against the
// emulator over loopback HTTP: given a query, want exactly these record ids. Record n is ITEMS[n - 1]. Today is
// 03/15/2024.

const ITEMS: ItemRow[] = [
  /* 1 */ { Name: "John Smith", Qty: 5, Day: "01/15/2024", At: "09:00:00", Stamp: "01/15/2024 09:00:00", Tags: "red", "Tags(2)": "big", Status: "Open", "Maker::Name": "Acme" },
  /* 2 */ { Name: "Johnny Appleseed", Qty: 10, Day: "02/29/2024", At: "12:30:00", Stamp: "02/29/2024 12:30:00", Tags: "green", Status: "Closed", "Maker::Name": "Acme Corp" },
  /* 3 */ { Name: "Smith, Jane", Qty: -3.5, Day: "12/31/2023", At: "17:00:00", Stamp: "12/31/2023 23:59:59", Tags: "Blue", "Tags(2)": "red", Status: "Open", "Maker::Name": "Bolt & Co" },
  /* 4 */ { Name: "a*b", Qty: 0, Day: "03/15/2024", At: "00:00:00", Stamp: "03/15/2024 00:00:00" },
  /* 5 */ { Name: "=x", Qty: 1_000_000, Day: "03/16/2024", At: "23:59:59", Stamp: "03/16/2024 08:00:00" },
  /* 6 */ {},
  /* 7 */ { Name: "O'Brien-Jones", Qty: 0.5, Day: "06/01/2023" },
  /* 8 */ { Name: "Ünïcode ÄRGER", Qty: 42 },
  /* 9 */ { Name: "1...3", Qty: 2 },
  /* 10 */ { Name: "mail@example.com", Qty: 3 },
  /* 11 */ { Name: "#1 fan", Qty: 1 },
  /* 12 */ { Name: 'say "hi" now' },
  /* 13 */ { Name: "C:\\path\\to" },
  /* 14 */ { Name: "  padded  " },
  /* 15 */ { Name: "axb" },
  /* 16 */ { Name: "x" },
  /* 17 */ { Name: "a b" },
  /* 18 */ { Name: "ab" },
  /* 19 */ { Name: "Ab", Qty: 1e-7 },
  /* 20 */ { Name: "big", Qty: 1e21 },
];

const PARTS: ItemRow[] = [
  { ItemID: 1, Label: "bolt", Weight: 2, Due: "01/01/2024" },
  { ItemID: 1, Label: "nut", Weight: 0.5 },
  { ItemID: 2, Label: "bolt*", Weight: 7, Due: "05/05/2024" },
  { ItemID: 3, Label: "Washer", Weight: 1, Due: "03/15/2024" },
];

const ALL = ITEMS.map((_, i) => i + 1);
const except = (...ids: number[]) => ALL.filter((id) => !ids.includes(id));
const EMPTY_QTY = [6, 12, 13, 14, 15, 16, 17, 18];
const WITH_DAY = [1, 2, 3, 4, 5, 7];

type Query = QueryOf<typeof Item>;
type Case = readonly [label: string, query: Query | readonly Query[], ids: readonly number[]];

const PLAIN_VALUES: Case[] = [
  ["a text equals exactly", { Name: "John Smith" }, [1]],
  ["case does not matter", { Name: "JOHN SMITH" }, [1]],
  ["a word is not the whole field", { Name: "john" }, []],
  ["* is a star", { Name: "a*b" }, [4]],
  ["= is an equals sign", { Name: "=x" }, [5]],
  ["... is three dots", { Name: "1...3" }, [9]],
  ["whitespace at the ends counts", { Name: "  padded  " }, [14]],
  ["quotes are quotes", { Name: 'say "hi" now' }, [12]],
  ["backslashes are backslashes", { Name: "C:\\path\\to" }, [13]],
  ['"" finds empty', { Name: "" }, [6]],
  ["a number", { Qty: 5 }, [1]],
  ["zero", { Qty: 0 }, [4]],
  ["a negative number", { Qty: -3.5 }, [3]],
  ["a tiny number", { Qty: 1e-7 }, [19]],
  ["a huge number", { Qty: 1e21 }, [20]],
  ["null finds empty numbers", { Qty: null }, EMPTY_QTY],
  ["an ISO date", { Day: "2024-02-29" }, [2]],
  ["null finds empty dates", { Day: null }, except(...WITH_DAY)],
  ["a time", { At: "12:30:00" }, [2]],
  ["an ISO timestamp", { Stamp: "2024-01-15T09:00:00" }, [1]],
  ["any repetition", { Tags: "red" }, [1, 3]],
  ["a value-list value", { Status: "Open" }, [1, 3]],
  ["a related field on the layout", { "Maker::Name": "Acme" }, [1]],
  ["a portal text field: any row", { "Parts::Label": "bolt" }, [1]],
  ["a portal number field", { "Parts::Weight": 7 }, [2]],
];

const HELPERS: Case[] = [
  ["q.eq: case-insensitive", { Name: q.eq("ab") }, [18, 19]],
  ["q.eq on a number", { Qty: q.eq(10) }, [2]],
  ["q.eq(null)", { Day: q.eq(null) }, except(...WITH_DAY)],
  ["q.eq on a value list", { Status: q.eq("Closed") }, [2]],
  ["q.words: word prefix", { Name: q.words("john") }, [1, 2]],
  ["q.words: every word, any order", { Name: q.words("smith jo") }, [1]],
  ["q.words: in another order", { Name: q.words("jane smith") }, [3]],
  ["q.words: after a hyphen", { Name: q.words("jones") }, [7]],
  ["q.words: apostrophes belong to words", { Name: q.words("o'brien") }, [7]],
  ["q.words: unicode, any case", { Name: q.words("är") }, [8]],
  ["q.words: an escaped * separates words", { Name: q.words("a*b") }, [4, 17]],
  ["q.words: @ separates words", { Name: q.words("mail@example") }, [10]],
  ["q.words: whitespace at the ends is dropped", { Name: q.words("  fan  ") }, [11]],
  ["q.words: quotes are not a phrase", { Name: q.words('"hi"') }, [12]],
  ["q.words on a repeating field", { Tags: q.words("re") }, [1, 3]],
  ["q.words on a portal field", { "Parts::Label": q.words("bo") }, [1, 2]],
  ["q.words on a related field", { "Maker::Name": q.words("co") }, [2, 3]],
  ["q.beginsWith", { Name: q.beginsWith("john") }, [1, 2]],
  ["q.beginsWith: the field, not a word", { Name: q.beginsWith("smith") }, [3]],
  ["q.beginsWith: one letter", { Name: q.beginsWith("a") }, [4, 15, 17, 18, 19]],
  ["q.beginsWith: a star", { Name: q.beginsWith("a*") }, [4]],
  ["q.beginsWith: leading whitespace", { Name: q.beginsWith("  pad") }, [14]],
  ["q.beginsWith: =", { Name: q.beginsWith("=") }, [5]],
  ["q.beginsWith: #", { Name: q.beginsWith("#") }, [11]],
  ["q.beginsWith: a dot", { Name: q.beginsWith("1.") }, [9]],
  ["q.beginsWith on a portal field", { "Parts::Label": q.beginsWith("bolt*") }, [2]],
  ["q.endsWith", { Name: q.endsWith("smith") }, [1]],
  ["q.endsWith: a star", { Name: q.endsWith("*b") }, [4]],
  ["q.endsWith: one letter", { Name: q.endsWith("b") }, [4, 15, 17, 18, 19]],
  ["q.endsWith: quotes", { Name: q.endsWith('"hi" now') }, [12]],
  ["q.endsWith: a backslash", { Name: q.endsWith("\\to") }, [13]],
  ["q.endsWith: trailing whitespace", { Name: q.endsWith("  ") }, [14]],
  ["q.endsWith: a dot", { Name: q.endsWith(".com") }, [10]],
  ["q.contains", { Name: q.contains("smith") }, [1, 3]],
  ["q.contains: across words", { Name: q.contains("n s") }, [1]],
  ["q.contains: whitespace", { Name: q.contains(" ") }, [1, 2, 3, 8, 11, 12, 14, 17]],
  ["q.contains: inside words", { Name: q.contains("x") }, [5, 10, 15, 16]],
  ["q.contains: @", { Name: q.contains("@") }, [10]],
  ["q.contains: ...", { Name: q.contains("...") }, [9]],
  ["q.contains: .", { Name: q.contains(".") }, [9, 10]],
  ["q.contains: \\", { Name: q.contains("\\") }, [13]],
  ["q.contains: *", { Name: q.contains("*") }, [4]],
  ["q.contains: unicode, any case", { Name: q.contains("ÜNÏ") }, [8]],
  ["q.contains on a related field", { "Maker::Name": q.contains("&") }, [3]],
  ["q.lt on a number", { Qty: q.lt(1) }, [3, 4, 7, 19]],
  ["q.lte on a number", { Qty: q.lte(1) }, [3, 4, 7, 11, 19]],
  ["q.gt on a number", { Qty: q.gt(10) }, [5, 8, 20]],
  ["q.gte on a number", { Qty: q.gte(10) }, [2, 5, 8, 20]],
  ["q.between on numbers", { Qty: q.between(1, 5) }, [1, 9, 10, 11]],
  ["q.between on negative numbers", { Qty: q.between(-4, 0) }, [3, 4]],
  ["q.lt(0.000001)", { Qty: q.lt(0.000001) }, [3, 4, 19]],
  ["q.gt(1e-7): no exponent on the wire", { Qty: q.gt(1e-7) }, [1, 2, 5, 7, 8, 9, 10, 11, 20]],
  ["q.gte(1e21)", { Qty: q.gte(1e21) }, [20]],
  ["q.between(1e-7, 0.5)", { Qty: q.between(1e-7, 0.5) }, [7, 19]],
  ["q.lt on a date", { Day: q.lt("2024-01-01") }, [3, 7]],
  ["q.lte on a date", { Day: q.lte("2024-01-15") }, [1, 3, 7]],
  ["q.gt on a date", { Day: q.gt("2024-03-15") }, [5]],
  ["q.gte on a date", { Day: q.gte("2024-02-29") }, [2, 4, 5]],
  ["q.between on dates", { Day: q.between("2024-01-01", "2024-02-29") }, [1, 2]],
  ["q.between on a portal date", { "Parts::Due": q.between("2024-01-01", "2024-03-31") }, [1, 3]],
  ["q.lt on a time", { At: q.lt("09:00:00") }, [4]],
  ["q.gte on a time", { At: q.gte("12:30:00") }, [2, 3, 5]],
  ["q.between on times", { At: q.between("08:00:00", "17:00:00") }, [1, 2, 3]],
  ["q.gt on a timestamp", { Stamp: q.gt("2024-01-15T09:00:00") }, [2, 4, 5]],
  ["q.lte on a timestamp", { Stamp: q.lte("2024-01-01T00:00:00") }, [3]],
  ["q.between on timestamps", { Stamp: q.between("2024-03-15T00:00:00", "2024-03-16T07:59:59") }, [4]],
  ["q.empty on text", { Name: q.empty() }, [6]],
  ["q.notEmpty on text", { Name: q.notEmpty() }, except(6)],
  ["q.empty on a number", { Qty: q.empty() }, EMPTY_QTY],
  ["q.notEmpty on a number", { Qty: q.notEmpty() }, except(...EMPTY_QTY)],
  ["q.notEmpty on a date", { Day: q.notEmpty() }, WITH_DAY],
  ["q.empty on a container", { File: q.empty() }, ALL],
  ["q.notEmpty on a container", { File: q.notEmpty() }, []],
  ["q.notEmpty on a repeating field", { Tags: q.notEmpty() }, [1, 2, 3]],
  ["q.notEmpty on a portal field", { "Parts::Label": q.notEmpty() }, [1, 2, 3]],
];

const OPERATORS: Case[] = [
  ["==: whole field", { Name: q.raw("==john smith") }, [1]],
  ["== with *: the field ends with", { Name: q.raw("==*smith") }, [1]],
  ["=: whole word", { Name: q.raw("=john") }, [1]],
  ["= alone: empty", { Name: q.raw("=") }, [6]],
  ["* alone: not empty", { Name: q.raw("*") }, except(6)],
  ["* inside a word", { Name: q.raw("j*y") }, [2]],
  ["@: one character", { Name: q.raw("j@hn") }, [1, 2]],
  ["== with @", { Name: q.raw("==@b") }, [18, 19]],
  ["#: one digit", { Name: q.raw("#") }, [9, 11]],
  ["\\ escapes *", { Name: q.raw("==a\\*b") }, [4]],
  ["\\ escapes =", { Name: q.raw("==\\=x") }, [5]],
  ['"phrase"', { Name: q.raw('"john smith"') }, [1]],
  ["<", { Qty: q.raw("<5") }, [3, 4, 7, 9, 10, 11, 19]],
  ["<=", { Qty: q.raw("<=5") }, [1, 3, 4, 7, 9, 10, 11, 19]],
  [">", { Qty: q.raw(">42") }, [5, 20]],
  [">=", { Qty: q.raw(">=42") }, [5, 8, 20]],
  ["≤", { Qty: q.raw("≤0") }, [3, 4]],
  ["≥", { Qty: q.raw("≥1000000") }, [5, 20]],
  ["... on numbers", { Qty: q.raw("2...5") }, [1, 9, 10]],
  [".. on numbers", { Qty: q.raw("2..5") }, [1, 9, 10]],
  ["... on dates (MM/DD/YYYY)", { Day: q.raw("1/1/2024...2/29/2024") }, [1, 2]],
  ["... on single-word text", { "Parts::Label": q.raw("a...c") }, [1, 2]],
  ["< on a date", { Day: q.raw("<1/1/2024") }, [3, 7]],
  ["// is today", { Day: q.raw("//") }, [4]],
  ["a year", { Day: q.raw("2024") }, [1, 2, 4, 5]],
  ["a month", { Day: q.raw("2/2024") }, [2]],
  ["<= on a time", { At: q.raw("<=12:30:00") }, [1, 2, 4]],
  [">= a day on a timestamp: from its start", { Stamp: q.raw(">=3/15/2024") }, [4, 5]],
  ["> on a portal number", { "Parts::Weight": q.raw(">5") }, [2]],
];

const REQUESTS: Case[] = [
  ["fields in a request are ANDed", { Name: q.words("smith"), Qty: q.gt(0) }, [1]],
  ["a portal field and a layout field ANDed", { "Parts::Label": "bolt", Status: "Open" }, [1]],
  // As in FileMaker, criteria on two fields of one portal may be met by different rows (nut 0.5, bolt 2).
  ["two portal fields ANDed: any row for each", { "Parts::Label": "nut", "Parts::Weight": 2 }, [1]],
  ["requests are ORed", [{ Status: "Open" }, { Status: "Closed" }], [1, 2, 3]],
  ["omit removes from what came before", [{ Status: "Open" }, { Name: q.beginsWith("john"), omit: true }], [3]],
  ["a query of omit requests starts from every record", [{ Qty: q.empty(), omit: true }], except(...EMPTY_QTY)],
  ["requests apply in order: find, omit, find", [{ Status: "Open" }, { Tags: "red", omit: true }, { Name: "John Smith" }], [1]],
  ["omit first, then find adds back", [{ Qty: q.lt(0), omit: true }, { Name: "Smith, Jane" }], ALL],
  ["two omits", [{ Qty: q.notEmpty() }, { Qty: q.lt(1), omit: true }, { Qty: q.gt(10), omit: true }], [1, 2, 9, 10, 11]],
];

let env: Awaited<ReturnType<typeof startItems>>;

beforeAll(async () => {
  env = await startItems(ITEMS, PARTS);
});

afterAll(async () => {
  await env.close();
});

async function found(query: Query | readonly Query[]): Promise<number[]> {
  const page = await env.items.find({ query: Array.isArray(query) ? query : [query as Query], limit: 1000 });
  return page.data.map((r) => Number(r.recordId)).sort((a, b) => a - b);
}

describe.each([
  ["plain values: equal exactly", PLAIN_VALUES],
  ["the q helpers", HELPERS],
  ["FileMaker's operators through q.raw", OPERATORS],
  ["requests: AND, OR, omit in order", REQUESTS],
] as const)("%s", (_title, cases) => {
  it.each(cases)("%s", async (_label, query, ids) => {
    expect(await found(query)).toEqual(ids);
  });
});

describe("the builder finds the same", () => {
  it("where ANDs, or ORs, omit removes, as the requests above", async () => {
    const ids = async (query: { all(): AsyncIterable<{ recordId: string }> }) => {
      const out: number[] = [];
      for await (const r of query.all()) out.push(Number(r.recordId));
      return out.sort((a, b) => a - b);
    };
    expect(await ids(env.items.query().where({ Name: q.words("smith") }).where({ Qty: q.gt(0) }))).toEqual([1]);
    expect(await ids(env.items.query().where({ Status: "Open" }).omit({ Tags: "red" }).or({ Name: "John Smith" }))).toEqual([1]);
    expect(await ids(env.items.query().omit({ Qty: q.lt(0) }).or({ Name: "Smith, Jane" }))).toEqual(ALL);
  });
});

describe("a criterion the field does not take is refused before any request", () => {
  it.each([
    ["a range on text", { Name: q.gte("a") }],
    ["a text helper on a number", { Qty: q.beginsWith("1") }],
    ["a text helper on a date", { Day: q.contains("2024") }],
    ["a date that is not ISO", { Day: q.gt("03/15/2024") }],
    ["text for a number", { Qty: q.gte("1990-01-01") }],
    ["a number for a date", { Day: q.gte(5) }],
    ["an empty contains", { Name: q.contains("") }],
    ["a field the layout lacks", { Nope: "x" }],
  ])("%s", async (_label, request) => {
    const { requests } = await counting(env.emu, async () => {
      await expect(env.items.find({ query: [request as Query] })).rejects.toThrow(TypeError);
      expect(() => env.items.query().where(request as Query)).toThrow(TypeError);
    });
    expect(requests).toBe(0);
  });
});
