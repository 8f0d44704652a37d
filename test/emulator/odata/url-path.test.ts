import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseODataPath, type EntityKey, type ODataPath, type SetRef } from "../../../src/emulator/odata/url-path.js";
import { parseODataRequestTarget } from "../../../src/emulator/odata/url-request.js";
import { formatODataPath } from "../../../src/emulator/odata/url-format.js";
import { MAX_URL_LENGTH } from "../../../src/emulator/odata/odata-error.js";
import { expectODataError, onlyTypedErrors, syntax } from "./odata-errors.js";

const T = (name: string): SetRef => ({ by: "name", name });
const str = (value: string): EntityKey => ({ kind: "single", value: { type: "string", value } });
const num = (text: string): EntityKey => ({ kind: "single", value: { type: "number", value: Number(text), text } });

describe("OData request paths (1.1, 2.4, 5, 6, 7)", () => {
  const cases: [string, ODataPath][] = [
    ["", { kind: "serviceRoot" }],
    ["/", { kind: "serviceRoot" }],
    ["/DB", { kind: "serviceDocument", db: "DB" }],
    ["/DB/", { kind: "serviceDocument", db: "DB" }],
    ["/WebData.fmp12", { kind: "serviceDocument", db: "WebData.fmp12" }],
    ["/Bob's%20DB/contacts", { kind: "collection", db: "Bob's DB", set: T("contacts") }],
    ["/D(1)/contacts", { kind: "collection", db: "D(1)", set: T("contacts") }],
    ["/DB/$metadata", { kind: "metadata", db: "DB" }],
    ["/DB/$metadata%23contacts", { kind: "metadata", db: "DB", table: "contacts" }],
    ["/DB/$batch", { kind: "batch", db: "DB" }],
    ["/DB/contacts", { kind: "collection", db: "DB", set: T("contacts") }],
    ["/DB/Customer%20Orders", { kind: "collection", db: "DB", set: T("Customer Orders") }],
    ["/DB/FMTID:1065093", { kind: "collection", db: "DB", set: { by: "id", id: 1065093 } }],
    ["/DB/FMTID:1065093('k')", { kind: "entity", db: "DB", set: { by: "id", id: 1065093 }, key: str("k") }],
    ["/DB/contacts/$count", { kind: "count", db: "DB", set: T("contacts") }],
    ["/DB/contacts('abc')", { kind: "entity", db: "DB", set: T("contacts"), key: str("abc") }],
    ["/DB/contacts('O''Brien')", { kind: "entity", db: "DB", set: T("contacts"), key: str("O'Brien") }],
    ["/DB/contacts(%27O%27%27Brien%27)", { kind: "entity", db: "DB", set: T("contacts"), key: str("O'Brien") }],
    ["/DB/contacts('a/b(c)')", { kind: "entity", db: "DB", set: T("contacts"), key: str("a/b(c)") }],
    ["/DB/contacts('')", { kind: "entity", db: "DB", set: T("contacts"), key: str("") }],
    ["/DB/contacts(42)", { kind: "entity", db: "DB", set: T("contacts"), key: num("42") }],
    ["/DB/contacts(-1.5)", { kind: "entity", db: "DB", set: T("contacts"), key: num("-1.5") }],
    ["/DB/contacts(12345678901234567890)", { kind: "entity", db: "DB", set: T("contacts"), key: num("12345678901234567890") }],
    ["/DB/contacts(ROWID=11167)", { kind: "entity", db: "DB", set: T("contacts"), key: { kind: "rowid", rowid: 11167 } }],
    [
      "/DB/contact(3276,'211E','BBC1')",
      {
        kind: "entity",
        db: "DB",
        set: T("contact"),
        key: {
          kind: "composite",
          values: [
            { type: "number", value: 3276, text: "3276" },
            { type: "string", value: "211E" },
            { type: "string", value: "BBC1" },
          ],
        },
      },
    ],
    ["/DB/contacts('B5BF')/name", { kind: "member", db: "DB", set: T("contacts"), key: str("B5BF"), member: "name" }],
    ["/DB/contacts('B5BF')/users", { kind: "member", db: "DB", set: T("contacts"), key: str("B5BF"), member: "users" }],
    ["/DB/contacts(1)/Photo/$value", { kind: "value", db: "DB", set: T("contacts"), key: num("1"), member: "Photo" }],
    ["/DB/contacts(1)/FMFID:25770868870", { kind: "member", db: "DB", set: T("contacts"), key: num("1"), member: "FMFID:25770868870" }],
    ["/DB/$crossjoin(a,b)", { kind: "crossjoin", db: "DB", sets: [T("a"), T("b")] }],
    ["/DB/$crossjoin(a,FMTID:7,c)", { kind: "crossjoin", db: "DB", sets: [T("a"), { by: "id", id: 7 }, T("c")] }],
    ["/DB/Script.hello", { kind: "script", db: "DB", script: { by: "name", name: "hello" } }],
    ["/DB/Script.say%20hello", { kind: "script", db: "DB", script: { by: "name", name: "say hello" } }],
    ["/DB/Script.FMSID:12", { kind: "script", db: "DB", script: { by: "id", id: 12 } }],
    ["/DB/contacts/Script.X", { kind: "script", db: "DB", script: { by: "name", name: "X" }, set: T("contacts") }],
    ["/DB/contacts(3)/Script.X", { kind: "script", db: "DB", script: { by: "name", name: "X" }, set: T("contacts"), key: num("3") }],
    ["/DB/Webhook.Add", { kind: "webhook", db: "DB", operation: "Add" }],
    ["/DB/Webhook.GetAll", { kind: "webhook", db: "DB", operation: "GetAll" }],
    ["/DB/Webhook.Get(1)", { kind: "webhook", db: "DB", operation: "Get", id: 1 }],
    ["/DB/Webhook.Delete(12)", { kind: "webhook", db: "DB", operation: "Delete", id: 12 }],
    ["/DB/Webhook.Invoke(3)", { kind: "webhook", db: "DB", operation: "Invoke", id: 3 }],
    ["/DB/FileMaker_Tables", { kind: "tables", db: "DB" }],
    ["/DB/FileMaker_Tables/Company", { kind: "tables", db: "DB", table: "Company" }],
    ["/DB/FileMaker_Tables/Company/Notes", { kind: "tables", db: "DB", table: "Company", field: "Notes" }],
    ["/DB/FileMaker_Indexes/Company", { kind: "indexes", db: "DB", table: "Company" }],
    ["/DB/FileMaker_Indexes/Company/State", { kind: "indexes", db: "DB", table: "Company", field: "State" }],
  ];
  it.each(cases)("%s", (raw, want) => {
    expect(parseODataPath(raw)).toEqual(want);
  });

  it("decodes once: %2520 stays %20 in the name (2.8's choice)", () => {
    expect(parseODataPath("/DB/Customer%2520Orders")).toEqual({ kind: "collection", db: "DB", set: T("Customer%20Orders") });
  });

  const errors: [string, string][] = [
    ["/DB/contacts$top=10", syntax("$top=10")],
    ["/DB/contacts~x", syntax("contacts~x")],
    ["/DB/contacts%7Ex", syntax("contacts~x")],
    ["/DB/what%3Fnot", syntax("what?not")],
    ["/DB/$foo", syntax("$foo")],
    ["/$metadata", syntax("$metadata")],
    ["DB", syntax("DB")],
    ["//x", syntax("/")],
    ["/DB//x", syntax("/")],
    ["/DB/contacts('abc", syntax("('abc")],
    ["/DB/contacts('a'b')", syntax("b'")],
    ["/DB/contacts()", syntax("()")],
    ["/DB/contacts(id='x')", syntax("id='x'")],
    ["/DB/contacts(1,)", syntax("(1,)")],
    ["/DB/contacts(1)x", syntax("(1)x")],
    ["/DB/contacts/x", syntax("x")],
    ["/DB/contacts/$count/x", syntax("x")],
    ["/DB/contacts(1)/name/$count", syntax("$count")],
    ["/DB/contacts(1)/name[2]", syntax("[2]")],
    ["/DB/contacts(1)/$value", syntax("$value")],
    ["/DB/$metadata/x", syntax("x")],
    ["/DB/$crossjoin(a)", syntax("$crossjoin(a)")],
    ["/DB/$crossjoin(a,b)/x", syntax("x")],
    ["/DB/$crossjoin(a,b~)", syntax("b~")],
    ["/DB/Script.1st", syntax("Script.1st")],
    ["/DB/Script.a%40b", syntax("Script.a@b")],
    ["/DB/Script.a%26b", syntax("Script.a&b")],
    ["/DB/Script.", syntax("Script.")],
    ["/DB/Webhook.Remove(1)", syntax("Webhook.Remove(1)")],
    ["/DB/Webhook.Get", syntax("Webhook.Get")],
    ["/DB/FileMaker_Indexes", syntax("FileMaker_Indexes")],
    ["/DB/FileMaker_Tables/a/b/c", syntax("c")],
    ["/DB/contacts%ZZ", syntax("%ZZ")],
    ["/DB/contacts%C3%28", syntax("%C3%28")],
    ["/DB/a%20b%C3", syntax("%C3")],
  ];
  it.each(errors)("%s → 400 -1002", (raw, message) => {
    expectODataError(() => parseODataPath(raw), 400, "-1002", message);
  });
});

describe("request targets: root, length cap, path and query together", () => {
  it("parses path and query", () => {
    expect(parseODataRequestTarget("/fmi/odata/v4/DB/contacts?$top=2")).toEqual({
      path: { kind: "collection", db: "DB", set: T("contacts") },
      query: { top: 2, ignored: [] },
    });
    expect(parseODataRequestTarget("/fmi/odata/v4").path).toEqual({ kind: "serviceRoot" });
  });
  it("outside /fmi/odata/v4 → 404 -1000", () => {
    expectODataError(() => parseODataRequestTarget("/otto/fmi/odata/v4/DB"), 404, "-1000", "Incorrect OData service root path");
    expectODataError(() => parseODataRequestTarget("/fmi/odata/v4x/DB"), 404, "-1000", "Incorrect OData service root path");
  });
  it(`longer than ${MAX_URL_LENGTH} → 414; exactly at the cap parses`, () => {
    const base = "/fmi/odata/v4/DB/contacts?$filter=";
    const fits = base + "a".repeat(MAX_URL_LENGTH - base.length);
    expect(parseODataRequestTarget(fits).query.filter).toHaveLength(MAX_URL_LENGTH - base.length);
    expectODataError(() => parseODataRequestTarget(fits + "a"), 414, "-1002", /8193 characters exceeds the limit of 8192/);
  });
});

const nameChars = fc.constantFrom(..."abcXYZ09_ .-%é#&+=;:,@!*".split(""));
const safeName = fc
  .array(nameChars, { minLength: 1, maxLength: 8 })
  .map((a) => a.join(""))
  .filter((s) => !/^(Script\.|Webhook\.|FileMaker_|FMTID:|FMFID:)/.test(s) && !/\[\d*\]$/.test(s));
const setArb: fc.Arbitrary<SetRef> = fc.oneof(safeName.map(T), fc.integer({ min: 0, max: 2 ** 40 }).map((id): SetRef => ({ by: "id", id })));
const literalArb = fc.oneof(
  fc.string({ maxLength: 8 }).map((value) => ({ type: "string" as const, value })),
  fc.integer({ min: -1e9, max: 1e9 }).map((n) => ({ type: "number" as const, value: n, text: String(n) })),
);
const keyArb: fc.Arbitrary<EntityKey> = fc.oneof(
  literalArb.map((value): EntityKey => ({ kind: "single", value })),
  fc.integer({ min: 0, max: 2 ** 40 }).map((rowid): EntityKey => ({ kind: "rowid", rowid })),
  fc.array(literalArb, { minLength: 2, maxLength: 4 }).map((values): EntityKey => ({ kind: "composite", values })),
);
const dbArb = fc
  .tuple(safeName, fc.constantFrom("", "'", "(", ")", "'s"))
  .map(([a, b]) => a + b)
  .filter((s) => !s.startsWith("$"));
const pathArb: fc.Arbitrary<ODataPath> = fc.oneof(
  fc.constant<ODataPath>({ kind: "serviceRoot" }),
  dbArb.map((db): ODataPath => ({ kind: "serviceDocument", db })),
  fc.record({ db: dbArb, table: safeName }).map((r): ODataPath => ({ kind: "metadata", ...r })),
  fc.record({ db: dbArb, set: setArb }).map((r): ODataPath => ({ kind: "collection", ...r })),
  fc.record({ db: dbArb, set: setArb }).map((r): ODataPath => ({ kind: "count", ...r })),
  fc.record({ db: dbArb, sets: fc.array(setArb.filter((s) => s.by === "id" || !s.name.includes(",")), { minLength: 2, maxLength: 4 }) }).map((r): ODataPath => ({ kind: "crossjoin", ...r })),
  fc.record({ db: dbArb, set: setArb, key: keyArb }).map((r): ODataPath => ({ kind: "entity", ...r })),
  fc.record({ db: dbArb, set: setArb, key: keyArb, member: safeName }).map((r): ODataPath => ({ kind: "member", ...r })),
  fc.record({ db: dbArb, set: setArb, key: keyArb, member: safeName }).map((r): ODataPath => ({ kind: "value", ...r })),
  fc.record({ db: dbArb, table: safeName, field: safeName }).map((r): ODataPath => ({ kind: "indexes", ...r })),
  fc.record({ db: dbArb, id: fc.integer({ min: 0, max: 1e6 }) }).map((r): ODataPath => ({ kind: "webhook", operation: "Invoke", ...r })),
);

describe("$crossjoin query options (2.9, the live capture)", () => {
  const cj = "/fmi/odata/v4/DB/$crossjoin(a,b)";
  it("$top, $filter and one $expand of a joined set parse", () => {
    expect(parseODataRequestTarget(`${cj}?$top=10&$expand=a&$filter=x%20eq%201`).query).toEqual({ top: 10, expand: [{ nav: "a", options: {} }], filter: "x eq 1", ignored: [] });
  });
  it("$select → parse failure, two expands → syntax error, $orderby → internal error", () => {
    expectODataError(() => parseODataRequestTarget(`${cj}?$select=x`), 400, "-1002", "Error: parse failure in URL at: '$select'");
    expectODataError(() => parseODataRequestTarget(`${cj}?$expand=a,b`), 400, "-1002", syntax("b"));
    expectODataError(() => parseODataRequestTarget(`${cj}?$expand=c`), 400, "-1002", syntax("c"));
    expectODataError(() => parseODataRequestTarget(`${cj}?$expand=a($top=1)`), 400, "-1002", syntax("a"));
    expectODataError(() => parseODataRequestTarget(`${cj}?$orderby=x`), 500, "-1", "Unexpected internal OData Provider error");
  });
});

describe("properties", () => {
  it("formatting a random valid path, then parsing it, gives it back", () => {
    fc.assert(
      fc.property(pathArb, (path) => {
        expect(parseODataPath(formatODataPath(path))).toEqual(path);
      }),
      { numRuns: 500 },
    );
  });
  it("random input throws nothing but ODataError", () => {
    const chars = fc.constantFrom(..."/()',$%~?:=ab1 #\"".split(""), "%2", "%27", "%28", "('", "''", "Script.", "Webhook.", "FMTID:", "ROWID=", "$count", "$value");
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.array(chars, { maxLength: 30 }).map((a) => "/" + a.join(""))), (raw) => {
        onlyTypedErrors(() => parseODataPath(raw));
        onlyTypedErrors(() => parseODataRequestTarget(`/fmi/odata/v4${raw}`));
      }),
      { numRuns: 2000 },
    );
  });
  // No clock is read (its budget is in test/bench/bounds.bench.mjs): each answers a typed error, no stack overflow,
  // and a quadratic parser fails by the test's timeout.
  it("a long hostile path parses to a typed error", () => {
    onlyTypedErrors(() => parseODataPath("/DB/T(" + "'',".repeat(2500) + "1)"));
    onlyTypedErrors(() => parseODataPath("/DB/" + "(".repeat(8000)));
    onlyTypedErrors(() => parseODataPath("/DB/" + "a/".repeat(4000)));
  });
});
