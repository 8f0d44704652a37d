import { describe, expect, it } from "vitest";
import { filterError, names } from "./filter-support.js";

const ALL = ["Ann", "bob", "Émile", "Zoë😀"];
const incompatible = "400 8309 incompatible data types";
const unknown = (name: string) => `400 8309 The field named '${name}' does not exist in a specified table (9)`;

describe("$filter evaluation on a small table", () => {
  it.each<[string, string[]]>([
    // text: case-sensitive, code-point order, '' is empty
    ["Name eq 'Ann'", ["Ann"]],
    ["Name eq 'ann'", []],
    ["Name ne 'Ann'", ["bob", "Émile", "Zoë😀"]],
    ["Name gt 'Z'", ["bob", "Émile", "Zoë😀"]],
    ["Name le 'Ann'", ["Ann"]],
    // U+1F600 sorts after U+FFFF by code point, before it by UTF-16 unit.
    ["Name gt 'Zoë\uFFFF' and Name lt 'a'", ["Zoë😀"]],
    ["\"First Name\" eq 'Bob O''Hara'", ["bob"]],
    // Names (not values) are matched as FileMaker matches them, case aside (docs/emulator.md, "Names").
    ["\"name\" eq 'Ann'", ["Ann"]],
    ["NAME eq 'Ann'", ["Ann"]],
    ["\"First Name\" eq ''", ["Zoë😀"]],
    ['"First Name" eq null', ["Zoë😀"]],
    ['"First Name" ne null', ["Ann", "bob", "Émile"]],
    // numbers, null, arithmetic, true/false as 1/0
    ["Age gt 10", ["Ann", "Émile"]],
    ["Age eq 12.5", ["Émile"]],
    ["Age eq null", ["Zoë😀"]],
    ["Age ne null", ["Ann", "bob", "Émile"]],
    ["Age lt 100", ["Ann", "bob", "Émile"]],
    ["Age ne 7", ["Ann", "Émile", "Zoë😀"]],
    ["Age add 1 eq 8", ["bob"]],
    ["Age sub 2 eq 5", ["bob"]],
    ["Age mul 2 gt 30", ["Ann"]],
    ["Age div 2 eq 17", ["Ann"]],
    ["Age mod 5 eq 4", ["Ann"]],
    ["Age div 0 gt 0", []],
    ["Age mod 0 eq null", ALL],
    ["-Age lt -10", ["Ann", "Émile"]],
    ["Age add 2 mul 3 eq 40", ["Ann"]],
    ["(Age add 2) mul 3 eq 108", ["Ann"]],
    ['"ID" eq true', ["Ann"]],
    ['"ID" eq false', []],
    ["Age eq true", []],
    // dates, times, timestamps (UTC)
    ["Born eq 1990-05-17", ["Ann"]],
    ["Born gt 2000-01-01", ["bob", "Zoë😀"]],
    ["Born eq null", ["Émile"]],
    ["Born eq '1990-05-17'", []],
    ["Born ne '1990-05-17'", []],
    ["Born lt 2000-01-01T00:00:00Z", ["Ann"]],
    ["Updated ge 2026-01-01T00:00:00Z", ["bob"]],
    ["Updated eq 2025-10-31T12:13:13+01:00", ["Ann"]],
    ["Updated lt 2024-03-01T00:00:00+02:00", ["Émile"]],
    ["Updated eq '2025-10-31T11:13:13Z'", []],
    ["Alarm gt 07:00", ["Ann", "bob"]],
    ["Alarm eq 00:00", ["Zoë😀"]],
    // names
    ["FMFID:4296032405 eq 'Ann'", ["Ann"]],
    ["FMFID:8591000000 gt 30", ["Ann"]],
    ["A.B eq 'x'", ["Ann"]],
    ["A.B eq null", ["Émile", "Zoë😀"]],
    ["\"id\" eq 'a1'", ["Ann"]],
    ['"ID" ge 3', ["Émile", "Zoë😀"]],
    ["ROWID eq 7", ["Zoë😀"]],
    ["ROWMODID gt 1", ["Ann", "Zoë😀"]],
    // containers: emptiness only
    ["Photo eq null", ["bob", "Émile", "Zoë😀"]],
    ["Photo ne null", ["Ann"]],
    // related records through a navigation property: some related record satisfies the comparison
    ["Orders/Total gt 100", ["Ann"]],
    ["Orders/Status eq 'open'", ["Ann", "bob"]],
    ["Orders/Total gt 100 and Orders/Status eq 'open'", ["Ann"]],
    ["Orders/Total lt 100 and Orders/Status eq 'paid'", ["Ann"]],
    ["contains(Orders/Status,'pa')", ["Ann"]],
    ["Orders/Total add Age gt 200", ["Ann"]],
    // Émile's one order holds "0x10" in a number field: not a number FileMaker would read, so empty.
    ["Orders/Total eq null", ["Émile"]],
    ["Orders/Total gt 10", ["Ann"]],
    ["Orders/Status ne null", ["Ann", "bob"]],
    ["not (Orders/Total gt 100)", ["bob", "Émile", "Zoë😀"]],
    // logic and precedence
    ["Name eq 'Ann' or Name eq 'bob' and Age gt 10", ["Ann"]],
    ["(Name eq 'Ann' or Name eq 'bob') and Age gt 5", ["Ann", "bob"]],
    ["not Name eq 'Ann'", ["bob", "Émile", "Zoë😀"]],
    ["not Name eq 'Ann' and not Name eq 'bob'", ["Émile", "Zoë😀"]],
    ["not (Name eq 'Ann' or Name eq 'bob')", ["Émile", "Zoë😀"]],
    ["contains(Name,'o') eq true", ["bob", "Zoë😀"]],
    ["contains(Name,'o') eq false", ["Ann", "Émile"]],
    ["(Age gt 10) ne (Name eq 'Ann')", ["Émile"]],
  ])("%s", (filter, want) => {
    expect(names(filter)).toEqual(want);
  });
});

describe("$filter functions on a small table", () => {
  it.each<[string, string[]]>([
    ["contains(Name,'o')", ["bob", "Zoë😀"]],
    ["contains(\"First Name\",'Lee')", ["Ann"]],
    ["contains(Name,'O')", []],
    ["startswith(Name,'É')", ["Émile"]],
    ["endswith(Name,'😀')", ["Zoë😀"]],
    ["length(Name) eq 4", ["Zoë😀"]],
    ["length(Name) eq 3", ["Ann", "bob"]],
    ['length("First Name") eq 0', ["Zoë😀"]],
    ["indexof(Name,'😀') eq 3", ["Zoë😀"]],
    ["indexof(Name,'x') eq -1", ALL],
    ["substring(Name,1) eq 'nn'", ["Ann"]],
    ["substring(Name,1,2) eq 'ob'", ["bob"]],
    ["substring(Name,3) eq '😀'", ["Zoë😀"]],
    ["substring(Name,10) eq null", ALL],
    ["tolower(Name) eq 'ann'", ["Ann"]],
    ["toupper(Name) eq 'BOB'", ["bob"]],
    ["trim(\"First Name\") eq 'Émile'", ["Émile"]],
    ["concat(Name,'!') eq 'bob!'", ["bob"]],
    ["concat(concat(Name,' '),\"First Name\") eq 'Ann Ann Lee'", ["Ann"]],
    ["year(Born) eq 2018", ["bob"]],
    ["month(Born) eq 2", ["Zoë😀"]],
    ["day(Born) eq 17", ["Ann"]],
    ["year(Updated) eq 2024", ["Émile"]],
    ["hour(Updated) eq 21", ["Émile"]],
    ["minute(Updated) eq 13", ["Ann"]],
    ["second(Updated) eq 59", ["Émile"]],
    ["hour(Alarm) eq 25", ["bob"]],
    ["minute(Alarm) eq 30", ["Ann"]],
    ["date(Updated) eq 2025-10-31", ["Ann"]],
    ["time(Updated) eq 11:13:13", ["Ann"]],
    ["totaloffsetminutes(Updated) eq 0", ["Ann", "bob", "Émile"]],
    ["totalseconds(Alarm) eq 27000", ["Ann"]],
    ["Updated lt now()", ["Ann", "bob", "Émile"]],
    ["Updated gt now()", []],
    ["Born gt date(now())", []],
    ["Updated gt mindatetime() and Updated lt maxdatetime()", ["Ann", "bob", "Émile"]],
    ["round(Age) eq 13", ["Émile"]],
    ["round(Age sub 15) eq -3", ["Émile"]],
    ["floor(Age) eq 12", ["Émile"]],
    ["ceiling(Age) eq 13", ["Émile"]],
    ["cast(Age, Edm.String) eq '12.5'", ["Émile"]],
    ["cast(Born, Edm.String) eq '1990-05-17'", ["Ann"]],
    ["cast('2018-01-01', Edm.Date) eq Born", ["bob"]],
    ["cast(Updated, Edm.Date) eq 2025-10-31", ["Ann"]],
    ["cast(Updated, Edm.TimeOfDay) eq 11:13:13", ["Ann"]],
    ["cast(Updated, Edm.String) eq '2025-10-31T11:13:13Z'", ["Ann"]],
    ["cast(Alarm, Edm.String) eq '25:00:00'", ["bob"]],
    ["cast(Born, Edm.DateTimeOffset) eq 2018-01-01T00:00:00Z", ["bob"]],
    ["cast(A.B, Edm.Decimal) eq null", ALL],
    ["cast('12.5', Edm.Decimal) eq Age", ["Émile"]],
    ["cast(null, Edm.Date) eq null", ALL],
  ])("%s", (filter, want) => {
    expect(names(filter)).toEqual(want);
  });
});

describe("$filter semantic errors (8309)", () => {
  it.each([
    ["Nope eq 1", unknown("Nope")],
    ["FMFID:1 eq 1", unknown("FMFID:1")],
    ["Nope/Total eq 1", unknown("Nope")],
    ["Orders/Nope eq 1", unknown("Nope")],
    ["Age eq 'x'", incompatible],
    ["Name eq 5", incompatible],
    ["Name eq true", incompatible],
    ["Name gt Age", incompatible],
    ["Born eq 13:00", incompatible],
    ["Alarm eq 2020-01-01", incompatible],
    ["Alarm eq 2020-01-01T00:00:00Z", incompatible],
    ["Name", incompatible],
    ["Age add 1", incompatible],
    ["null", incompatible],
    ["not Name", incompatible],
    ["Name eq 'a' and Age", incompatible],
    ["contains(Age,'1')", incompatible],
    ["year(Name) eq 1", incompatible],
    ["hour(Born) eq 1", incompatible],
    ["length(Born) eq 1", incompatible],
    ["Name add 1 eq 1", incompatible],
    ["-Name eq 1", incompatible],
    ["round(Name) eq 1", incompatible],
    ["totalseconds(Updated) eq 1", incompatible],
    ["cast(Age, Edm.Date) eq 2020-01-01", incompatible],
    ["cast(Alarm, Edm.Date) eq 2020-01-01", incompatible],
    ["Photo gt null", incompatible],
    ["Photo eq 'abc'", incompatible],
    ["cast(Photo, Edm.String) eq 'x'", incompatible],
    ["contains(Name,'o') eq 1", incompatible],
  ])("%s", (filter, want) => {
    expect(filterError(filter)).toBe(want);
  });

  it("reports syntax before names and types", () => {
    expect(filterError("Nope in (1)")).toBe("400 -1002 Error: syntax error in URL at: ' in '");
    expect(filterError("Nope eq 1 and Age eq")).toBe("400 -1002 Error: parse failure in URL at: ''");
  });
});
