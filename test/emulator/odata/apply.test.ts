import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ODataError } from "../../../src/emulator/odata/odata-error.js";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { MAX_APPLY_DEPTH, MAX_APPLY_ITEMS, MAX_APPLY_STEPS, parseApply } from "../../../src/emulator/odata/apply-parse.js";
import { exactSum, MAX_APPLY_WORK } from "../../../src/emulator/odata/apply-eval.js";
import { decimalText, divideDecimal, sumDecimals, type Decimal } from "../../../src/emulator/odata/apply-decimal.js";
import { DB, expectODataError, get, send, startOffice } from "./serve-support.js";

// `$apply` over loopback against the Office file (docs/emulator.md "The OData API", "$apply").
// Notes: 25 rows, N = 1…25, ContactId "A1" for odd N, "B2" for even N. Contacts: Ada 36, bob 41, Cy O'Brien 7.5.

let emu: RunningEmulator;
let R: string;
const S = `/fmi/odata/v4/${DB}`;

beforeAll(async () => {
  emu = await startOffice();
  R = `${emu.url}${S}`;
});
afterAll(() => emu.close());

/** `$apply` text as a client sends it: spaces `%20`, quotes `%22`, commas and parentheses literal (2.8). */
const enc = (text: string) => text.replace(/ /g, "%20").replace(/"/g, "%22").replace(/\$count/g, "%24count").replace(/'/g, "%27");
const apply = (set: string, text: string, rest = "", headers: Record<string, string> = {}) => get(emu.url, `${S}/${set}?$apply=${enc(text)}${rest}`, headers);

describe("transformations", () => {
  it("groupby with aggregate: rows of keys and aliases (quoted names too), no @id, a context listing them", async () => {
    const a = await apply("Notes", 'groupby((ContactId),aggregate(N with sum as "Sum of N",$count as n))');
    expect(a.status).toBe(200);
    expect(a.body).toEqual({
      "@context": `${R}/$metadata#Notes("ContactId","Sum of N","n")`,
      value: [
        { ContactId: "A1", "Sum of N": 169, n: 13 },
        { ContactId: "B2", "Sum of N": 156, n: 12 },
      ],
    });
  });

  it("aggregates sum, average, min, max, countdistinct over non-empty values, of numbers, text, dates and timestamps", async () => {
    const a = await apply(
      "Contacts",
      "aggregate(Age with sum as S,Age with average as A,Name with min as MinName,Name with max as MaxName,Born with min as First,Seen with max as Last,Alarm with max as Late,Born with countdistinct as Dates,$count as All)",
    );
    expect(a.body.value).toEqual([
      { S: 84.5, A: 28.16666666666667, MinName: "Ada", MaxName: "bob", First: "1815-12-10", Last: "2026-11-27T09:15:00Z", Late: "23:59:59", Dates: 2, All: 3 },
    ]);
    const empty = await apply("Contacts", "filter(Age gt 100)/aggregate(Age with sum as S,Age with max as M,Name with countdistinct as C,$count as n)");
    expect(empty.body.value).toEqual([{ S: null, M: null, C: 0, n: 0 }]);
  });

  it("sums and averages past the double's range, and past 2^53, exactly: JSON number tokens, strings under IEEE754Compatible", async () => {
    const own = await startOffice(0);
    try {
      for (const N of [1e308, 1e308, 9007199254740992, 1]) expect((await send(own.url, "POST", `${S}/Notes`, { ContactId: N > 1e300 ? "big" : "wide", N })).status).toBe(201);
      const text = "groupby((ContactId),aggregate(N with sum as s,N with average as a,N with max as m))";
      const path = `${S}/Notes?$apply=${enc(text)}`;
      const plain = await get(own.url, path);
      expect(plain.status).toBe(200);
      // A sum past the double is a FileMaker number still (up to 10^400): written digit for digit, as a number field's
      // value is; an average that ends is exact (4503599627370496.5, not 16 digits' 4503599627370497).
      const twoE308 = `2${"0".repeat(308)}`;
      const oneE308 = `1${"0".repeat(308)}`;
      expect(plain.text).toContain(`"value":[{"ContactId":"big","s":${twoE308},"a":1e+308,"m":1e+308},{"ContactId":"wide","s":9007199254740993,"a":4503599627370496.5,"m":9007199254740992}]`);
      const strings = await get(own.url, path, { Accept: "application/json;IEEE754Compatible=true" });
      expect(strings.body.value).toEqual([
        { ContactId: "big", s: twoE308, a: oneE308, m: oneE308 },
        { ContactId: "wide", s: "9007199254740993", a: "4503599627370496.5", m: "9007199254740992" },
      ]);
      // The exact sum is what $filter and $orderby compare: 2e308 is past every double.
      const filtered = await get(own.url, `${path}&$filter=s%20gt%201e300&$orderby=a%20desc`);
      expect(filtered.body.value.map((r: { ContactId: string }) => r.ContactId)).toEqual(["big"]);
    } finally {
      await own.close();
    }
    expect(decimalText(divideDecimal(sumDecimals([1, 2, 2]), 3))).toBe("1.666666666666667");
    expect(decimalText(divideDecimal(sumDecimals([-1, -2, -2]), 3))).toBe("-1.666666666666667");
    expect(decimalText(divideDecimal(sumDecimals([1e-300, 2e-300]), 2))).toBe("1.5e-300");
    expect(decimalText(sumDecimals([1e21, 1]))).toBe("1.000000000000000000001e+21");
    expect(decimalText(sumDecimals([0.000001, 0]))).toBe("0.000001");
    expect(decimalText(sumDecimals([1e-7]))).toBe("1e-7");
  });

  it("sums as decimals (0.1 + 0.2 is 0.3), and writes Edm.Decimal values as strings under IEEE754Compatible", async () => {
    const a = await apply("Notes", "filter(N le 2)/compute(N div 10 as T)/aggregate(T with sum as S)");
    expect(a.body.value).toEqual([{ S: 0.3 }]);
    expect(decimalText(exactSum([0.1, 0.2, -1e-7]) as Decimal)).toBe("0.2999999");
    expect(decimalText(exactSum([1.25, -2.5, 10]) as Decimal)).toBe("8.75");
    const b = await apply("Notes", "groupby((ContactId),aggregate(N with average as A))", "", { Accept: "application/json;IEEE754Compatible=true" });
    expect(b.body.value).toEqual([
      { ContactId: "A1", A: "13" },
      { ContactId: "B2", A: "13" },
    ]);
  });

  it("filter and compute keep whole records: their fields as the read path writes them, then the aliases", async () => {
    const a = await apply("Contacts", "filter(Age gt 40)/compute(Age mul 2 as Twice,toupper(Name) as Upper,Age gt 40 as Old,year(Seen) as Y)");
    expect(a.body["@context"]).toBe(`${R}/$metadata#Contacts("id","Name","Age","Born","Alarm","Seen","Tags","Label","Twice","Upper","Old","Y")`);
    expect(a.body.value).toEqual([
      { id: "B2", Name: "bob", Age: 41, Born: null, Alarm: null, Seen: null, Tags: [null, null], Label: "bob (41)", Twice: 82, Upper: "BOB", Old: 1, Y: null },
    ]);
    const whole = await apply("Contacts", "filter(Name eq 'Ada')");
    expect(whole.body["@context"]).toBe(`${R}/$metadata#Contacts`);
    expect(whole.body.value[0]).not.toHaveProperty("@id");
    expect(whole.body.value[0]).toMatchObject({ id: "A1", Born: "1815-12-10", Tags: ["x", null] });
  });

  it("filter inside $apply reads navigation while rows are records", async () => {
    const a = await apply("Contacts", "filter(Notes/N eq 25)/aggregate($count as n)");
    expect(a.body.value).toEqual([{ n: 1 }]);
  });

  it("groupby runs its inner sequence per group, groups by several properties and by computed values", async () => {
    const a = await apply("Notes", "groupby((ContactId),filter(N gt 20)/aggregate($count as n))");
    expect(a.body.value).toEqual([
      { ContactId: "A1", n: 3 },
      { ContactId: "B2", n: 2 },
    ]);
    const b = await apply("Notes", "compute(N mod 3 as M)/groupby((M,ContactId),aggregate(N with max as Top))/filter(M eq 0)");
    expect(b.body.value).toEqual([
      { M: 0, ContactId: "A1", Top: 21 },
      { M: 0, ContactId: "B2", Top: 24 },
    ]);
    // A groupby that names every column is a distinct.
    const c = await apply("Notes", "groupby((ContactId),aggregate($count as n))/groupby((ContactId,n))");
    expect(c.body.value).toEqual([
      { ContactId: "A1", n: 13 },
      { ContactId: "B2", n: 12 },
    ]);
  });

  it("chains with `/` and concatenates sequences", async () => {
    const a = await apply("Notes", "groupby((ContactId),aggregate(N with sum as T))/filter(T gt 160)/compute(T sub 100 as U)");
    expect(a.body.value).toEqual([{ ContactId: "A1", T: 169, U: 69 }]);
    const b = await apply("Notes", "concat(groupby((ContactId),aggregate($count as n)),aggregate($count as n))");
    expect(b.body.value).toEqual([{ ContactId: "A1", n: 13 }, { ContactId: "B2", n: 12 }, { n: 25 }]);
  });

  it("takes transformation names, methods and keywords in any case (4.01), and quoted field names", async () => {
    const a = await apply("Notes", 'GroupBy(("ContactId"),Aggregate("N" WITH Sum AS T))');
    expect(a.body.value).toEqual([
      { ContactId: "A1", T: 169 },
      { ContactId: "B2", T: 156 },
    ]);
  });
});

describe("join and outerjoin (CL/query-option-apply)", () => {
  it("repeats each record once per related record, its fields nested under the alias; outerjoin keeps records with none", async () => {
    const a = await apply("Contacts", "join(Notes as N)/filter(N/N gt 22)");
    expect(a.body["@context"]).toBe(`${R}/$metadata#Contacts("id","Name","Age","Born","Alarm","Seen","Tags","Label","N/Text","N/ContactId","N/N")`);
    expect(a.body.value.map((r: any) => [r.id, r.N])).toEqual([
      ["A1", { Text: "note 23", ContactId: "A1", N: 23 }],
      ["A1", { Text: "note 25", ContactId: "A1", N: 25 }],
      ["B2", { Text: "note 24", ContactId: "B2", N: 24 }],
    ]);
    expect(a.body.value[0]).toMatchObject({ Name: "Ada", Tags: ["x", null] });
    const b = await apply("Contacts", "outerjoin(Notes as N)/filter(N/N eq null)");
    expect(b.body.value.map((r: any) => [r.id, r.N])).toEqual([["C3", null]]);
    expect((await apply("Contacts", "join(Notes as N)/aggregate($count as n)")).body.value).toEqual([{ n: 25 }]);
    expect((await apply("Contacts", "outerjoin(Notes as N)/aggregate($count as n)")).body.value).toEqual([{ n: 26 }]);
  });

  it("lets later steps group, aggregate, compute and sort by Alias/Field", async () => {
    const a = await apply("Contacts", "outerjoin(Notes as N)/compute(N/N mul 10 as X)/groupby((Name,N/ContactId),aggregate(X with sum as T,N/N with max as M))", "&$orderby=N/ContactId%20desc");
    expect(a.body.value).toEqual([
      { Name: "bob", N: { ContactId: "B2" }, T: 1560, M: 24 },
      { Name: "Ada", N: { ContactId: "A1" }, T: 1690, M: 25 },
      { Name: "Cy O'Brien", N: { ContactId: null }, T: null, M: null },
    ]);
  });

  it("answers an unknown navigation or joined field 8309, a taken alias or a join after aggregation -1002", async () => {
    expect(expectODataError(await apply("Contacts", "join(Nope as N)"), 400, "8309").message).toBe("The field named 'Nope' does not exist in a specified table (9)");
    expect(expectODataError(await apply("Contacts", "join(Notes as N)/filter(N/Nope eq 1)"), 400, "8309").message).toBe("The field named 'Nope' does not exist in a specified table (9)");
    expectODataError(await apply("Contacts", "join(Notes as N)/groupby((N/Nope))"), 400, "8309");
    expectODataError(await apply("Contacts", "join(Notes as Name)"), 400, "-1002");
    expectODataError(await apply("Contacts", "aggregate($count as c)/join(Notes as N)"), 400, "-1002");
    expectODataError(await apply("Contacts", "join(Notes)"), 400, "-1002");
  });
});

describe("options after the transformation", () => {
  it("applies $filter, $orderby, $skip, $top and $count=true to the result rows", async () => {
    const a = await apply("Notes", "groupby((ContactId),aggregate(N with sum as T))", "&$filter=T%20gt%20100&$orderby=T%20asc&$count=true");
    expect(a.body["@count"]).toBe(2);
    expect(a.body.value.map((r: any) => r.T)).toEqual([156, 169]);
    const b = await apply("Notes", "compute(N mod 4 as M)", "&$orderby=M%20desc,N%20desc&$top=2&$skip=1");
    expect(b.body.value.map((r: any) => [r.M, r.N])).toEqual([
      [3, 19],
      [3, 15],
    ]);
    expectODataError(await apply("Notes", "groupby((ContactId),aggregate(N with sum as T))", "&$orderby=N"), 400, "8309");
    expectODataError(await apply("Notes", "aggregate(N with sum as T)", "&$filter=Nope%20eq%201"), 400, "8309");
  });

  it("pages rows with a nextLink that repeats $apply", async () => {
    const a = await apply("Notes", "filter(N gt 5)", "", { Prefer: "odata.maxpagesize=15" });
    expect(a.body.value).toHaveLength(15);
    const next = a.body["@nextLink"] as string;
    expect(next).toContain("$apply=filter(");
    const b = await get(emu.url, next.slice(emu.url.length));
    expect(b.body.value.map((r: any) => r.N)).toEqual([21, 22, 23, 24, 25]);
    expect(b.body["@nextLink"]).toBeUndefined();
  });

  it("refuses $select and $expand beside $apply, and $apply on anything but a collection", async () => {
    expectODataError(await apply("Notes", "aggregate($count as n)", "&$select=n"), 400, "-1002");
    expectODataError(await apply("Contacts", "filter(Age gt 1)", "&$expand=Notes"), 400, "-1002");
    expect(expectODataError(await get(emu.url, `${S}/Contacts('A1')?$apply=filter(Age%20gt%201)`), 400, "-1002").message).toMatch(/collection/);
    expectODataError(await get(emu.url, `${S}/Contacts/$count?$apply=filter(Age%20gt%201)`), 400, "-1002");
  });
});

describe("FileMaker's answers (2.9) and errors", () => {
  it("answers `aggregate(` and `aggregate()` with the parse failure at ')'", async () => {
    for (const text of ["aggregate(", "aggregate()", "groupby((ContactId),aggregate("]) {
      expect(expectODataError(await apply("Notes", text), 400, "-1002").message).toBe("Error: parse failure in URL at: ')'");
    }
  });

  it("answers a groupby that leaves non-aggregated fields 8309, also for names a groupby dropped", async () => {
    const message = "All non-aggregated field references must be in the groupby clause.";
    for (const text of ["groupby((ContactId))", "groupby((ContactId,N))", "groupby((ContactId),compute(N mul 2 as M))", "groupby((ContactId),aggregate(N with sum as T))/filter(N gt 1)", "aggregate($count as k)/compute(N as M)", "groupby((ContactId),aggregate($count as n))/groupby((Text))"]) {
      expect(expectODataError(await apply("Notes", text), 400, "8309").message, text).toBe(message);
    }
  });

  it("answers unknown names 8309, wrong types 8309, bad syntax -1002 where it is", async () => {
    expect(expectODataError(await apply("Notes", "groupby((Nope),aggregate($count as n))"), 400, "8309").message).toBe("The field named 'Nope' does not exist in a specified table (9)");
    expectODataError(await apply("Notes", "aggregate(Nope with sum as S)"), 400, "8309");
    expect(expectODataError(await apply("Notes", "aggregate(Text with sum as S)"), 400, "8309").message).toBe("incompatible data types");
    expect(expectODataError(await apply("Notes", "aggregate(N with median as S)"), 400, "-1002").message).toBe("Error: syntax error in URL at: 'median'");
    expect(expectODataError(await apply("Notes", "topcount(2,N)"), 400, "-1002").message).toBe("Error: syntax error in URL at: 'topcount'");
    expect(expectODataError(await apply("Notes", "groupby((ContactId)"), 400, "-1002").message).toBe("Error: syntax error in URL at: '((ContactId)'");
    expectODataError(await apply("Notes", "aggregate(N with sum)"), 400, "-1002");
    expectODataError(await apply("Notes", "aggregate(N as S)"), 400, "-1002");
    expectODataError(await apply("Notes", "filter(N gt 1) extra"), 400, "-1002");
    expectODataError(await apply("Notes", "compute(N as Text)"), 400, "-1002");
    expectODataError(await apply("Notes", "aggregate($count as n,$count as n)"), 400, "-1002");
    expectODataError(await apply("Contacts", "groupby((Notes/N),aggregate($count as n))"), 400, "-1002");
    expectODataError(await apply("Contacts", "compute(Notes/N as M)"), 400, "-1002");
    expectODataError(await apply("Notes", "aggregate(N with sum as S)", "&$search=x"), 400, "-1002");
    // Containers: no value to group, sort or aggregate by.
    expect(expectODataError(await apply("Contacts", "groupby((Photo),aggregate($count as n))"), 400, "8309").message).toBe("incompatible data types");
    expectODataError(await apply("Contacts", "filter(Photo eq null)", "&$orderby=Photo"), 400, "8309");
    expectODataError(await apply("Contacts", "aggregate(Photo with max as M)"), 400, "8309");
  });

  it("answers the documented transformations it does not emulate 501, naming them", async () => {
    for (const name of ["nest", "addnested"]) {
      const e = expectODataError(await apply("Contacts", `${name}(Notes as X)`), 501, "-1");
      expect(e.message).toContain(`'${name}'`);
    }
  });
});

describe("hostile input: bounded, linear", () => {
  it("refuses nesting deeper than MAX_APPLY_DEPTH", async () => {
    const nest = (n: number): string => (n === 0 ? "aggregate($count as n)" : `concat(${nest(n - 1)},filter(N gt 0))`);
    expect(parseApply(nest(MAX_APPLY_DEPTH - 1))).toHaveLength(1);
    expectODataError(await apply("Notes", nest(MAX_APPLY_DEPTH)), 400, "-1002");
    const groups = (n: number): string => (n === 0 ? "aggregate($count as n)" : `groupby((ContactId),${groups(n - 1)})`);
    expectODataError(await apply("Notes", groups(MAX_APPLY_DEPTH + 1)), 400, "-1002");
  });

  it("refuses lists and chains longer than their caps", async () => {
    const items = (n: number) => `aggregate(${Array.from({ length: n }, (_, i) => `$count as a${i}`).join(",")})`;
    expect((await apply("Notes", items(MAX_APPLY_ITEMS))).status).toBe(200);
    expectODataError(await apply("Notes", items(MAX_APPLY_ITEMS + 1)), 400, "-1002");
    const chain = (n: number) => Array.from({ length: n }, () => "filter(N gt 0)").join("/");
    expect((await apply("Notes", chain(MAX_APPLY_STEPS))).status).toBe(200);
    expectODataError(await apply("Notes", chain(MAX_APPLY_STEPS + 1)), 400, "-1002");
  });

  it("stops a concat fan-out at MAX_APPLY_WORK rows instead of multiplying them", async () => {
    // Each chained concat doubles the rows: 25 × 2^20 would be 26M rows from a 1 kB URL.
    const text = Array.from({ length: 20 }, () => "concat(filter(true),filter(true))").join("/");
    // Refused at MAX_APPLY_WORK rows, a count: the work is bounded (how soon is a budget of test/bench/bounds.bench.mjs).
    const e = expectODataError(await apply("Notes", text), 400, "-1");
    expect(e.message).toContain(String(MAX_APPLY_WORK));
  });

  it("stops chained joins at MAX_APPLY_WORK rows as they multiply", async () => {
    // Each join multiplies Ada's and bob's rows by 12 or 13: six of them would make millions of rows.
    const text = Array.from({ length: 6 }, (_, i) => `join(Notes as J${i})`).join("/");
    expect(expectODataError(await apply("Contacts", text), 400, "-1").message).toContain(String(MAX_APPLY_WORK));
  });

  // No clock is read (each text's budget is in test/bench/bounds.bench.mjs): a quadratic parser fails by the
  // test's timeout.
  it("parses long hostile texts, or refuses them, without a fault", () => {
    const texts = [
      `compute('${"''".repeat(3000)}' as x)`,
      `filter(${"(".repeat(50)}N gt 1${")".repeat(50)})`,
      `aggregate(${Array.from({ length: 100 }, (_, i) => `"${"x".repeat(60)}${i}" with sum as a${i}`).join(",")})`,
      `groupby((${Array.from({ length: 100 }, (_, i) => `"f ${i} ${"y".repeat(50)}"`).join(",")}))`,
      "concat(".repeat(4000),
      `compute(N${" add N".repeat(1000)} as x)`,
    ];
    for (const text of texts) {
      try {
        parseApply(text);
      } catch (error) {
        // Refusals are fine, as a typed error (never a stack overflow or a fault).
        expect(error, text.slice(0, 40)).toBeInstanceOf(ODataError);
      }
    }
  });

  // Pieces of the grammar, shuffled: whatever comes of them is parsed, planned and run without a fault (never a 500).
  const pieces = fc.constantFrom(
    "groupby(", "((", "ContactId", "N", "Text", ",", ")", "aggregate(", "filter(", "compute(", "concat(", "/", " with ", "sum", "max",
    "countdistinct", " as ", "x", '"a b"', "$count", " gt ", "1", "'s'", "N mul 2", "join(", " eq ", "(", "rollup(", "null", "true",
  );
  const texts = fc.array(pieces, { minLength: 1, maxLength: 14 }).map((p) => p.join(""));

  it("random texts: the parser throws nothing but ODataError", () => {
    fc.assert(
      fc.property(texts, (text) => {
        try {
          parseApply(text);
        } catch (e) {
          if (!(e instanceof ODataError)) throw e;
          expect([400, 501]).toContain(e.status);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("random texts over HTTP: 200, 400 or 501 in OData's error shape, never a fault", async () => {
    const samples = fc.sample(texts, { numRuns: 60, seed: 23 });
    samples.push("groupby((ContactId),aggregate(N with sum as x))", "compute(N mul 2 as x)/groupby((x),aggregate($count as n))");
    for (const text of samples) {
      const a = await get(emu.url, `${S}/Notes?$apply=${encodeURIComponent(text)}`);
      expect([200, 400, 501], `${text} → ${a.text.slice(0, 200)}`).toContain(a.status);
      if (a.status !== 200) expect(typeof a.body?.error?.code, text).toBe("string");
    }
  });
});
