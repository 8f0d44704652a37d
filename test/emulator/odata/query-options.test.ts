import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_EXPAND_DEPTH, parseQueryOptions, type ExpandItem, type NamePath, type OrderByItem, type QueryOptions } from "../../../src/emulator/odata/query-options.js";
import { formatQueryOptions } from "../../../src/emulator/odata/url-format.js";
import { expectODataError, onlyTypedErrors, syntax } from "./odata-errors.js";

const q = (raw: string): QueryOptions => parseQueryOptions(raw);

describe("query options (2.5, 2.6, 2.8, 2.9)", () => {
  it("$top, $skip, $count, $filter (raw), $format, $schemaversion, $skiptoken", () => {
    expect(q("$top=10&$skip=20&$count=true&$filter=name%20eq%20'O''Brien'&$format=JSON&$schemaversion=756294fbf83cb558&$skiptoken=s10000t0")).toEqual({
      top: 10,
      skip: 20,
      count: true,
      filter: "name eq 'O''Brien'",
      format: "json",
      schemaversion: "756294fbf83cb558",
      skiptoken: { skip: 10000, t: 0 },
      ignored: [],
    });
    expect(q("$count=false&$format=xml")).toEqual({ count: false, format: "xml", ignored: [] });
    expect(q("$format=application/json").format).toBe("json");
    expect(q("")).toEqual({ ignored: [] });
  });

  it("a timestamp keeps its literal ':' and a `$` in $filter is text", () => {
    expect(q("$filter=ts%20gt%202026-09-27T00:00:00Z").filter).toBe("ts gt 2026-09-27T00:00:00Z");
  });

  it("%24top is silently ignored (2.8), and so are unknown options", () => {
    expect(q("%24top=1&foo=bar&$levels=2&$compute=x")).toEqual({ ignored: ["%24top", "foo", "$levels", "$compute"] });
  });

  it("OData 4.01: options without `$` and in any case (section 10)", () => {
    expect(q("top=3&SKIP=4&$Select=a&Count=TRUE&$ORDERBY=a%20DESC")).toEqual({
      top: 3,
      skip: 4,
      select: [["a"]],
      count: true,
      orderby: [{ path: ["a"], direction: "desc" }],
      ignored: [],
    });
  });

  it("$select: quoted and bare names, Nav/Field, ROWID/ROWMODID, *, %22 and literal commas", () => {
    expect(q('$select=name,"Customer Summary",Nav/Field,ROWID,ROWMODID,"ID",*,FMFID:25770868870').select).toEqual([
      ["name"],
      ["Customer Summary"],
      ["Nav", "Field"],
      ["ROWID"],
      ["ROWMODID"],
      ["ID"],
      ["*"],
      ["FMFID:25770868870"],
    ]);
    expect(q("$select=%22Customer%20Summary%22,%22a,b%22").select).toEqual([["Customer Summary"], ["a,b"]]);
    expect(q('$select="Nav"/"Field"').select).toEqual([["Nav", "Field"]]);
  });

  it("$orderby: f [asc|desc], comma list, quoted names", () => {
    expect(q('$orderby=name,"First Name"%20desc,age%20asc,Nav/x%20DESC').orderby).toEqual([
      { path: ["name"], direction: "asc" },
      { path: ["First Name"], direction: "desc" },
      { path: ["age"], direction: "asc" },
      { path: ["Nav", "x"], direction: "desc" },
    ]);
  });

  it("$expand with nested options, $filter kept raw inside (2.6)", () => {
    expect(q("$expand=users($select=name;$expand=user_customer($select=name))").expand).toEqual([
      { nav: "users", options: { select: [["name"]], expand: [{ nav: "user_customer", options: { select: [["name"]] } }] } },
    ]);
    expect(q("$expand=users,%22Line%20Items%22($filter=qty%20gt%202%20and%20(a%20eq%20';)');$orderby=qty%20desc;$top=3;$skip=1;$count=true),x").expand).toEqual([
      { nav: "users", options: {} },
      {
        nav: "Line Items",
        options: { filter: "qty gt 2 and (a eq ';)')", orderby: [{ path: ["qty"], direction: "desc" }], top: 3, skip: 1, count: true },
      },
      { nav: "x", options: {} },
    ]);
    expect(q("$expand=a(select=b;TOP=1)").expand).toEqual([{ nav: "a", options: { select: [["b"]], top: 1 } }]);
  });

  it(`$expand nests ${MAX_EXPAND_DEPTH} levels, not ${MAX_EXPAND_DEPTH + 1}`, () => {
    const nest = (n: number): string => (n === 1 ? "n1" : `n${n}($expand=${nest(n - 1)})`);
    let item: ExpandItem | undefined = q(`$expand=${nest(MAX_EXPAND_DEPTH)}`).expand![0];
    let levels = 0;
    for (; item; item = item.options.expand?.[0]) levels++;
    expect(levels).toBe(MAX_EXPAND_DEPTH);
    expectODataError(() => q(`$expand=${nest(MAX_EXPAND_DEPTH + 1)}`), 400, "-1002", syntax("n1"));
  });

  it("$apply is kept raw, decoded once: its grammar and balance are apply-parse.ts's (apply.test.ts)", () => {
    const apply = 'groupby((Category),aggregate("Unit Price" with sum as "Sum of Unit Price"))';
    expect(q(`$apply=${encodeURIComponent(apply).replace(/%2C/g, ",")}`).apply).toBe(apply);
    expect(q("$apply=aggregate(").apply).toBe("aggregate(");
  });

  const errors: [string, string][] = [
    ["$filter=a+eq+1", syntax("+")],
    ["$filter=ts%20gt%202026-09-27T00%3A00%3A00Z", syntax("%3A")],
    ["$select=a%2Cb", syntax("%2C")],
    ["$expand=a($select=b%2cc)", syntax("%2c")],
    ["$select=ID", "Error: parse failure in URL at: 'ID'"],
    ["$select=name,id", "Error: parse failure in URL at: 'id'"],
    ["$select=Nav/ID", "Error: parse failure in URL at: 'ID'"],
    ["$expand=a($select=ID)", "Error: parse failure in URL at: 'ID'"],
    ["$orderby=ID", "Error: parse failure in URL at: 'ID'"],
    ["$search=blue", syntax("$search")],
    ["search=blue", syntax("search")],
    ["$expand=a($search=x)", syntax("$search")],
    ["$top=10&$top=10", syntax("$top")],
    ["$top=1&top=2", syntax("top")],
    ["$top=-1", syntax("-1")],
    ["$top=1.5", syntax("1.5")],
    ["$top=", syntax("$top=")],
    ["$top", syntax("$top=")],
    ["$skip=x", syntax("x")],
    ["$count=yes", syntax("yes")],
    ["$format=atom", syntax("atom")],
    ["$skiptoken=10000", syntax("10000")],
    ["$select=a%20b", syntax(" b")],
    ["$select=a,", syntax("")],
    ["$select=%22a", syntax('"a')],
    ['$select=""', syntax('""')],
    ["$select=a/*", syntax("a/*")],
    ["$select=$x", syntax("$x")],
    ["$orderby=tolower(name)", syntax("(name)")],
    ["$orderby=name%20up", syntax(" up")],
    ["$expand=a(", syntax("(")],
    ["$expand=a)", syntax(")")],
    ["$expand=a()", syntax("()")],
    ["$expand=a($bogus=1)", syntax("$bogus")],
    ["$expand=a($top=1;$top=2)", syntax("$top")],
    ["$expand=a($top)", syntax("$top")],
    ["$expand=a/b", syntax("/b")],
    ["$filter=name%20eq%20'x", syntax("'x")],
    ["$filter=%ZZ", syntax("%ZZ")],
  ];
  it.each(errors)("%s → 400 -1002", (raw, message) => {
    expectODataError(() => q(raw), 400, "-1002", message);
  });
});

const nameArb = fc.string({ minLength: 1, maxLength: 6 }).filter((s) => !s.includes('"') && s !== "*");
const pathArb: fc.Arbitrary<NamePath> = fc.array(nameArb, { minLength: 1, maxLength: 3 });
const orderArb: fc.Arbitrary<OrderByItem> = fc.record({ path: pathArb, direction: fc.constantFrom("asc" as const, "desc" as const) });
const filterArb = fc
  .array(fc.oneof(fc.constantFrom("a", " eq ", "1", "(", ")", " and ", ":", "$", ",", "é", "%"), fc.string({ maxLength: 4 }).map((s) => `'${s.replace(/'/g, "''")}'`)), {
    minLength: 1,
    maxLength: 8,
  })
  .map((parts) => parts.join(""))
  .filter((f) => {
    let depth = 0;
    for (const c of f.replace(/'[^']*'/g, "")) {
      depth += c === "(" ? 1 : c === ")" ? -1 : 0;
      if (depth < 0) return false;
    }
    return depth === 0 && !f.includes("+");
  });

function optionsArb(depth: number): fc.Arbitrary<Omit<QueryOptions, "ignored">> {
  return fc.record(
    {
      select: fc.array(pathArb, { minLength: 1, maxLength: 3 }),
      expand: depth >= 3 ? fc.constant(undefined) : fc.array(fc.record({ nav: nameArb.filter((n) => !n.includes("/")), options: optionsArb(depth + 1) }), { minLength: 1, maxLength: 2 }),
      filter: filterArb,
      orderby: fc.array(orderArb, { minLength: 1, maxLength: 3 }),
      top: fc.nat(),
      skip: fc.nat(),
      count: fc.boolean(),
    },
    { requiredKeys: [] },
  ) as fc.Arbitrary<Omit<QueryOptions, "ignored">>;
}

const topArb = fc
  .tuple(
    optionsArb(1),
    fc.record(
      {
        apply: filterArb,
        format: fc.constantFrom("json" as const, "xml" as const),
        schemaversion: fc.string({ minLength: 1, maxLength: 8 }),
        skiptoken: fc.record({ skip: fc.nat(), t: fc.nat() }),
      },
      { requiredKeys: [] },
    ),
  )
  .map(([a, b]) => ({ ...a, ...b }))
  .map((o) => JSON.parse(JSON.stringify(o)) as Omit<QueryOptions, "ignored">);

describe("properties", () => {
  it("formatting random valid options, then parsing them, gives them back", () => {
    fc.assert(
      fc.property(topArb, (opts) => {
        // A bare ID can't occur: the formatter quotes every name.
        expect(parseQueryOptions(formatQueryOptions(opts))).toEqual({ ...opts, ignored: [] });
      }),
      { numRuns: 400 },
    );
  });
  it("random input throws nothing but ODataError", () => {
    const piece = fc.constantFrom(
      ..."$&=()'\",;/+% :*".split(""),
      "$select=",
      "$expand=",
      "$orderby=",
      "$filter=",
      "$top=",
      "$apply=",
      "$skiptoken=",
      "%2C",
      "%3A",
      "%27",
      "ID",
      " desc",
      "a",
    );
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.array(piece, { maxLength: 40 }).map((a) => a.join(""))), (raw) => {
        onlyTypedErrors(() => parseQueryOptions(raw));
      }),
      { numRuns: 3000 },
    );
  });
  // No clock is read (its budget is in test/bench/bounds.bench.mjs): each answers a typed error, no stack overflow,
  // and a quadratic parser fails by the test's timeout.
  it("hostile nesting and long lists parse to typed errors", () => {
    onlyTypedErrors(() => q("$expand=" + "a($expand=".repeat(2000) + "b" + ")".repeat(2000)));
    onlyTypedErrors(() => q("$select=" + "a,".repeat(999) + "a"));
    onlyTypedErrors(() => q("$filter=" + "(".repeat(8000)));
    onlyTypedErrors(() => q("$orderby=" + '"'.repeat(8000)));
    onlyTypedErrors(() => q("&".repeat(8000)));
  });
});
