import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { rawHttp, type RawAnswer } from "../../support/raw-http.js";
import { auth, CONTACTS, DB, expectODataError, get, LAYOUTS, PASSWORD, USER, type Answer } from "./serve-support.js";

// Hostile input classes over real HTTP (issue 23, item 5): each is answered with an OData error envelope, and the
// server keeps serving (how quickly each class is answered is a budget of test/bench/bounds.bench.mjs). The parsers' own bounds are tested in filter-hostile, query-options and url-path
// tests; these check what a client meets at the server: deep $filter, unterminated strings, $expand cycles (two
// tables and a self-relation), 10,000-character names, URLs past the cap (also past Node's header limit), and
// $select/$orderby lists of 10,000 items.

const LINKS = {
  database: DB,
  layout: "Links",
  table: "Links",
  fields: [
    { name: "Key", type: "number" },
    { name: "Next", type: "number" },
  ],
  portals: [{ name: "Next", table: "Links", relation: { parentField: "Next", childField: "Key" }, fields: [{ name: "Links::Key", type: "number" }] }],
};

let emu: RunningEmulator;
const S = `/fmi/odata/v4/${DB}`;

beforeAll(async () => {
  emu = await startEmulator({
    layouts: [...LAYOUTS, LINKS as never],
    calculations: { Contacts: { Label: (r) => `${r.Name} (${r.Age})` } },
    data: {
      accounts: [{ username: USER, password: PASSWORD }],
      records: {
        Contacts: CONTACTS,
        Notes: Array.from({ length: 6 }, (_, i) => ({ ContactId: i % 2 === 0 ? "A1" : "B2", Text: `note ${i + 1}`, N: i + 1 })),
        // A chain that loops: 1 → 2 → 3 → 1.
        Links: [{ Key: 1, Next: 2 }, { Key: 2, Next: 3 }, { Key: 3, Next: 1 }],
      },
    },
  });
});
afterAll(() => emu.close());

/** GET through fetch; then the server still answers an ordinary read. */
async function hostile(path: string): Promise<Answer> {
  const answer = await get(emu.url, path);
  expect((await get(emu.url, `${S}/Contacts/$count`)).text).toBe("3");
  return answer;
}

/** The same over a raw socket, for request lines fetch would send but Node refuses before any route. */
async function hostileRaw(path: string): Promise<RawAnswer> {
  const answer = await rawHttp(emu.url, "GET", path, { Authorization: auth() });
  expect((await get(emu.url, `${S}/Contacts/$count`)).text).toBe("3");
  return answer;
}

function expectRawODataError(a: RawAnswer, status: number, code: string): string {
  expect(a.status).toBe(status);
  expect(a.headers["content-type"]).toBe("application/json;charset=utf-8");
  expect(a.body?.error?.code).toBe(code);
  return a.body.error.message as string;
}

const enc = (text: string) => text.replace(/ /g, "%20");

describe("$filter nested 10,000 deep", () => {
  it("is past the URL cap (414), even past Node's header limit; the deepest that fits is a parse failure, not a stack overflow", async () => {
    const deep = `${"(".repeat(10_000)}Name eq 'x'${")".repeat(10_000)}`;
    expect(expectRawODataError(await hostileRaw(`${S}/Contacts?$filter=${enc(deep)}`), 414, "-1002")).toMatch(/exceeds the limit of 8192/);
    const fits = 4_000;
    expectODataError(await hostile(`${S}/Contacts?$filter=${enc(`${"(".repeat(fits)}Name eq 'x'${")".repeat(fits)}`)}`), 400, "-1002");
    expectODataError(await hostile(`${S}/Contacts?$filter=${enc(`${"not ".repeat(1_300)}Name eq 'x'`)}`), 400, "-1002");
    expectODataError(await hostile(`${S}/Contacts/$count?$filter=${enc(`${"tolower(".repeat(900)}Name${")".repeat(900)} eq 'x'`)}`), 400, "-1002");
  });
});

describe("unterminated strings", () => {
  it("in $filter, a key, $select, $orderby, $expand and a write's JSON body are -1002", async () => {
    expect(expectODataError(await hostile(`${S}/Contacts?$filter=${enc("Name eq 'Ada")}`), 400, "-1002").message).toMatch(/'Ada/);
    expectODataError(await hostile(`${S}/Contacts?$filter=${enc('"Name eq 1')}`), 400, "-1002");
    expectODataError(await hostile(`${S}/Contacts('A1`), 400, "-1002");
    expectODataError(await hostile(`${S}/Contacts?$select="Name`), 400, "-1002");
    expectODataError(await hostile(`${S}/Contacts?$orderby="Name`), 400, "-1002");
    expectODataError(await hostile(`${S}/Contacts?$expand="Notes`), 400, "-1002");
    const write = await fetch(`${emu.url}${S}/Contacts`, { method: "POST", headers: { Authorization: auth(), "Content-Type": "application/json" }, body: '{"Name": "unterminated', signal: AbortSignal.timeout(10_000) });
    expect(write.status).toBe(400);
    expect(((await write.json()) as { error: { code: string } }).error.code).toBe("-1002");
  });
});

describe("$expand cycles", () => {
  const cycle = (a: string, b: string, depth: number) => {
    let text = "";
    for (let i = depth - 1; i >= 0; i--) text = i === depth - 1 ? (i % 2 === 0 ? a : b) : `${i % 2 === 0 ? a : b}($expand=${text})`;
    return text;
  };

  it("Contacts → Notes → Contacts … 1,000 deep is past the URL cap; 11 deep is -1002; 10 deep (the most) answers", async () => {
    expectRawODataError(await hostileRaw(`${S}/Contacts?$expand=${cycle("Notes", "Contacts", 1_000)}`), 414, "-1002");
    expectODataError(await hostile(`${S}/Contacts?$expand=${cycle("Notes", "Contacts", 11)}`), 400, "-1002");
    expectODataError(await hostile(`${S}/Contacts?$expand=${cycle("Notes", "Contacts", 50)}`), 400, "-1002");
    const most = await hostile(`${S}/Contacts('A1')?$select=Name&$expand=${cycle("Notes", "Contacts", 10)}`);
    expect(most.status).toBe(200);
    let level: any = most.body;
    for (let i = 0; i < 10; i++) level = level[i % 2 === 0 ? "Notes" : "Contacts"][0];
    expect(level.Name).toBe("Ada");
  });

  it("a self-relation (Links → Links, looping 1 → 2 → 3 → 1): 1,000 deep is 414, 11 deep -1002, 10 deep follows the loop", async () => {
    expectRawODataError(await hostileRaw(`${S}/Links?$expand=${cycle("Links", "Links", 1_000)}`), 414, "-1002");
    expectODataError(await hostile(`${S}/Links?$expand=${cycle("Links", "Links", 11)}`), 400, "-1002");
    const ten = await hostile(`${S}/Links?$top=1&$select=Key&$expand=${cycle("Links", "Links", 10)}`);
    expect(ten.status).toBe(200);
    const ids: number[] = [];
    let level: any = ten.body.value[0];
    for (let i = 0; i < 10; i++) {
      // Each link relates to the link whose Key is its Next, and to the link whose Next is its Key (both ways).
      level = level.Links.find((l: any) => l.Key === (ids.length === 0 ? 2 : (ids[ids.length - 1]! % 3) + 1));
      ids.push(level.Key);
    }
    expect(ids).toEqual([2, 3, 1, 2, 3, 1, 2, 3, 1, 2]);
    // A self-relation through Nav/Field paths is bounded by the path's length.
    expectODataError(await hostile(`${S}/Links?$select=${"Links/".repeat(20)}Key`), 400, "-1002");
    expect((await hostile(`${S}/Links?$select=${"Links/".repeat(8)}Key`)).status).toBe(200);
  });
});

describe("10,000-character names", () => {
  const long = "N".repeat(10_000);
  const nearCap = "N".repeat(8_000);

  it("of a table, field, navigation or script in a URL are past the cap (414); 8,000 characters get the unknown-name errors, quoted short", async () => {
    for (const path of [`${S}/${long}`, `${S}/Contacts?$select=${long}`, `${S}/Contacts?$expand=${long}`, `${S}/Script.${long}`, `${S}/Contacts('A1')/${long}`]) {
      expectODataError(await hostile(path), 414, "-1002");
    }
    const short = (a: Answer, status: number, code: string) => expect(expectODataError(a, status, code).message.length).toBeLessThan(400);
    short(await hostile(`${S}/${nearCap}`), 404, "-1020");
    short(await hostile(`${S}/Contacts?$select=${nearCap}`), 400, "8309");
    short(await hostile(`${S}/Contacts?$orderby=${nearCap}`), 400, "8309");
    short(await hostile(`${S}/Contacts('A1')/${nearCap}`), 400, "8309");
    // A bad name inside an $expand is answered 200 with the per-record error (2.6); an unknown navigation is 8309.
    short(await hostile(`${S}/Contacts?$expand=${nearCap}`), 400, "8309");
    // Scripts are another item's: whatever it answers, it is an OData error, quickly.
    const script = await hostile(`${S}/Script.${nearCap}`);
    expect(script.status).toBeGreaterThanOrEqual(400);
    expect(typeof script.body?.error?.code).toBe("string");
  });

  it("of a field in a write's body: 400 8309, quoted short", async () => {
    const write = await fetch(`${emu.url}${S}/Contacts`, { method: "POST", headers: { Authorization: auth(), "Content-Type": "application/json" }, body: JSON.stringify({ [long]: 1 }), signal: AbortSignal.timeout(10_000) });
    expect(write.status).toBe(400);
    const error = ((await write.json()) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe("8309");
    expect(error.message.length).toBeLessThan(400);
  });
});

describe("URLs past the limit", () => {
  it("8,193 characters and 100,000 characters are both 414 in OData's envelope; the Data API's long URLs stay its own", async () => {
    const pad = (length: number) => `${S}/Contacts?x=${"a".repeat(length - `${S}/Contacts?x=`.length)}`;
    expectODataError(await hostile(pad(8_192 + 1)), 414, "-1002");
    expect((await hostile(pad(8_192))).status).toBe(200);
    expectRawODataError(await hostileRaw(pad(100_000)), 414, "-1002");
    // Past Node's header limit under /fmi/data the Data API answers, in its own envelope.
    const data = await rawHttp(emu.url, "GET", `/fmi/data/vLatest/databases/${DB}/layouts?x=${"a".repeat(100_000)}`, {});
    expect(data.status).toBe(431);
    expect(data.code).toBe("1708");
  });
});

describe("$select and $orderby lists of 10,000 items", () => {
  it("are past the URL cap (414); 1,001 items are -1002; 1,000 items (the most) answer", async () => {
    const list = (n: number) => Array.from({ length: n }, () => "Name").join(",");
    expectRawODataError(await hostileRaw(`${S}/Contacts?$select=${list(10_000)}`), 414, "-1002");
    expectRawODataError(await hostileRaw(`${S}/Contacts?$orderby=${list(10_000)}`), 414, "-1002");
    expectODataError(await hostile(`${S}/Contacts?$select=${list(1_001)}`), 400, "-1002");
    expectODataError(await hostile(`${S}/Contacts?$orderby=${list(1_001)}`), 400, "-1002");
    const select = await hostile(`${S}/Contacts?$select=${list(1_000)}`);
    expect(select.body.value.map((r: any) => Object.keys(r).filter((k) => !k.startsWith("@")))).toEqual([["Name"], ["Name"], ["Name"]]);
    const order = await hostile(`${S}/Contacts?$select=Name&$orderby=${list(1_000)}`);
    expect(order.body.value.map((r: any) => r.Name)).toEqual(["Ada", "bob", "Cy O'Brien"]);
    // Related paths in a long list too (as many as the URL cap allows).
    const related = await hostile(`${S}/Contacts?$select=Name&$orderby=${Array.from({ length: 500 }, () => "Notes/N%20desc").join(",")}`);
    expect(related.body.value.map((r: any) => r.Name)).toEqual(["bob", "Ada", "Cy O'Brien"]);
  });
});
