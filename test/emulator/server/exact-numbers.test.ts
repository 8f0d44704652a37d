import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator, type ScriptHandlers } from "../../../src/emulator/index.js";
import type { LayoutDescriptionInput } from "../../../src/layout/schema.js";
import { DataApi, expectError, expectOk, p, type HttpResult } from "../../support/data-api-http.js";

// docs/emulator.md, "Numbers": the hosted file keeps a number field's value as a decimal of up to 400 significant
// digits and the Data API answers every digit. Over loopback HTTP with the request bodies written as text, so that
// the tokens sent are the tokens meant, and the answers compared as the bytes the emulator wrote.

const DB = "Exact";
const ACCOUNTS = "Accounts";
const LINES = "Lines";
const TICKETS = "Tickets";

/** A 58-digit key (a `Get ( UUIDNumber )`), its neighbours differing in the last digit, and a 400-digit value. */
const KEY = "1234567890123456789012345678901234567890123456789012345678";
const KEY_UP = "1234567890123456789012345678901234567890123456789012345679";
const KEY_DOWN = "1234567890123456789012345678901234567890123456789012345677";
const VALUE_400 = `3${"1415926535".repeat(40).slice(0, 399)}`;
const FRACTION_400 = `-0.000${"2718281828".repeat(40)}`;

const LAYOUTS: LayoutDescriptionInput[] = [
  {
    database: DB,
    layout: ACCOUNTS,
    table: ACCOUNTS,
    fields: [
      { name: "Key", type: "number", unique: true },
      { name: "Amount", type: "number" },
      { name: "Note", type: "text" },
      { name: "KeyShown", type: "number", readOnly: true },
      { name: "gKey", type: "number", global: true },
    ],
    portals: [
      {
        name: "Lines",
        table: LINES,
        relation: { parentField: "Key", childField: "AccountKey" },
        fields: [
          { name: "Lines::AccountKey", type: "number" },
          { name: "Lines::Label", type: "text" },
        ],
      },
    ],
  },
  {
    database: DB,
    layout: LINES,
    table: LINES,
    fields: [
      { name: "AccountKey", type: "number" },
      { name: "Label", type: "text" },
    ],
  },
  {
    database: DB,
    layout: TICKETS,
    table: TICKETS,
    fields: [
      { name: "Seq", type: "number", autoEnter: "serial" },
      { name: "Title", type: "text" },
    ],
  },
];

const SCRIPTS: ScriptHandlers = {
  // Reads a record's Key and writes it (and ".5") into Amount as text: what a handler sees and what it keeps.
  "Read and Write": ({ param, records }) => {
    const key = records.get(ACCOUNTS, param).fieldData.Key!;
    records.edit(ACCOUNTS, param, { Amount: `${key}.5` });
    const found = records.find(ACCOUNTS, [{ Key: `==${String(key)}` }]).map((r) => r.recordId);
    return `${typeof key}:${String(key)}:${found.join(",")}`;
  },
  "Global Seen": ({ globals }) => `${typeof globals["Accounts::gKey"]}:${String(globals["Accounts::gKey"])}`,
};

let emulator: RunningEmulator;
let api: DataApi;
let token: string;

beforeAll(async () => {
  emulator = await startEmulator({
    layouts: LAYOUTS,
    data: { accounts: [{ username: "web", password: "secret" }] },
    scripts: SCRIPTS,
    calculations: { [ACCOUNTS]: { KeyShown: (record) => record.Key ?? "" } },
    log: () => undefined,
  });
  api = new DataApi(emulator.url);
  token = await api.login("web", "secret", DB);
});
afterAll(() => emulator.close());

/** A call with this JSON text as its body, sent as it is written. */
function send(method: string, path: string, json: string): Promise<HttpResult> {
  return api.call(method, path, { token, body: json, headers: { "Content-Type": "application/json" } });
}
const records = (layout = ACCOUNTS) => p`/databases/${DB}/layouts/${layout}/records`;
const create = (fieldData: string, layout = ACCOUNTS) => send("POST", records(layout), `{"fieldData":${fieldData}}`);
const find = (body: string, layout = ACCOUNTS) => send("POST", p`/databases/${DB}/layouts/${layout}/_find`, body);
const get = (recordId: string, layout = ACCOUNTS) => api.call("GET", `${records(layout)}/${recordId}`, { token });
const idsOf = (res: HttpResult): string[] => (expectOk(res).data as { recordId: string }[]).map((r) => r.recordId);
const createdId = async (fieldData: string, layout = ACCOUNTS): Promise<string> => expectOk(await create(fieldData, layout)).recordId as string;

/** The records of the shared file: the key, its two neighbours and a small one, created in this order. */
const ids: Record<"key" | "up" | "down" | "small", string> = { key: "", up: "", down: "", small: "" };

describe("numbers kept exactly: storing and answering", () => {
  beforeAll(async () => {
    ids.key = await createdId(`{"Key":${KEY},"Amount":${VALUE_400},"Note":"the key"}`);
    ids.up = await createdId(`{"Key":${KEY_UP},"Amount":${FRACTION_400}}`);
    ids.down = await createdId(`{"Key":${KEY_DOWN},"Amount":2.5}`);
    ids.small = await createdId(`{"Key":7,"Amount":-7}`);
  });

  it("answers a 58-digit key and a 400-digit value digit for digit, as bare JSON number tokens", async () => {
    const res = await get(ids.key);
    expectOk(res);
    expect(res.text).toContain(`"Key":${KEY},`);
    expect(res.text).toContain(`"Amount":${VALUE_400},`);
    const other = await get(ids.up);
    expect(other.text).toContain(`"Key":${KEY_UP},`);
    expect(other.text).toContain(`"Amount":${FRACTION_400},`);
    // A value a double holds is answered as before.
    expect((await get(ids.down)).text).toContain(`"Amount":2.5,`);
  });

  it("edits a number to another 400-digit value and answers the new digits", async () => {
    const id = await createdId(`{"Key":11,"Amount":1}`);
    const changed = `9${VALUE_400.slice(1)}`;
    expectOk(await send("PATCH", `${records()}/${id}`, `{"fieldData":{"Amount":${changed}}}`));
    expect((await get(id)).text).toContain(`"Amount":${changed},`);
    // A numeric string in a number field is read the same way, trailing zeros and all.
    expectOk(await send("PATCH", `${records()}/${id}`, `{"fieldData":{"Amount":" ${KEY}.2500 "}}`));
    expect((await get(id)).text).toContain(`"Amount":${KEY}.25,`);
  });

  it("keeps a long number token sent to a text field as the text it was written as", async () => {
    const id = await createdId(`{"Key":12,"Note":${KEY}}`);
    expect((await get(id)).text).toContain(`"Note":"${KEY}"`);
  });

  it("stores -0 as 0", async () => {
    const id = await createdId(`{"Key":13,"Amount":-0}`);
    expect((await get(id)).text).toContain(`"Amount":0,`);
    const again = await createdId(`{"Key":14,"Amount":"-0.000"}`);
    expect((await get(again)).text).toContain(`"Amount":0,`);
  });

  it("shows a field through a calculation without rounding it", async () => {
    expect((await get(ids.key)).text).toContain(`"KeyShown":${KEY},`);
  });
});

describe("numbers kept exactly: finds and sorts", () => {
  it("finds by == exactly that key, not its neighbours a double cannot tell from it", async () => {
    expect(idsOf(await find(`{"query":[{"Key":"==${KEY}"}]}`))).toEqual([ids.key]);
    expect(idsOf(await find(`{"query":[{"Key":"=${KEY_UP}"}]}`))).toEqual([ids.up]);
    // A criterion sent as a bare number token, every digit of it.
    expect(idsOf(await find(`{"query":[{"Key":${KEY_DOWN}}]}`))).toEqual([ids.down]);
    expect(idsOf(await find(`{"query":[{"Amount":"${VALUE_400}"}]}`))).toEqual([ids.key]);
    const missing = await find(`{"query":[{"Key":"==${KEY.slice(0, -1)}0"}]}`);
    expectError(missing, 404, "401");
  });

  it("compares > < >= <= and ranges exactly", async () => {
    // Other tests add records with small keys: only the four shared records are compared here.
    const mine = async (body: string) => idsOf(await find(body)).filter((id) => Object.values(ids).includes(id));
    expect(await mine(`{"query":[{"Key":">${KEY}"}]}`)).toEqual([ids.up]);
    expect(await mine(`{"query":[{"Key":">=${KEY}"}]}`)).toEqual([ids.key, ids.up]);
    expect(await mine(`{"query":[{"Key":"<${KEY}"}]}`)).toEqual([ids.down, ids.small]);
    expect(await mine(`{"query":[{"Key":"<=${KEY}","Amount":"<0"}]}`)).toEqual([ids.small]);
    expect(await mine(`{"query":[{"Key":"${KEY_DOWN}...${KEY}"}]}`)).toEqual([ids.key, ids.down]);
    expect(await mine(`{"query":[{"Key":"${KEY}...${KEY_UP}"}]}`)).toEqual([ids.key, ids.up]);
    expect(await mine(`{"query":[{"Amount":"${FRACTION_400}...0"}]}`)).toEqual([ids.up]);
    expect(await mine(`{"query":[{"Amount":"<${FRACTION_400}"}]}`)).toEqual([ids.small]);
  });

  it("omits exactly the record the omit request names", async () => {
    const found = idsOf(await find(`{"query":[{"Key":">1000"},{"Key":"==${KEY}","omit":"true"}]}`));
    expect(found.filter((id) => Object.values(ids).includes(id))).toEqual([ids.up, ids.down]);
  });

  it("sorts long numbers by their value, not by a double that ties them", async () => {
    const sort = (order: string) => `,"sort":[{"fieldName":"Key","sortOrder":"${order}"}]`;
    const query = `{"query":[{"Key":">5"},{"Key":"<5"}]`;
    const ascending = idsOf(await find(`${query}${sort("ascend")}}`));
    expect(ascending.filter((id) => Object.values(ids).includes(id))).toEqual([ids.small, ids.down, ids.key, ids.up]);
    const listed = await api.call("GET", `${records()}?_sort=${encodeURIComponent(`[{"fieldName":"Key","sortOrder":"descend"}]`)}`, { token });
    expect(idsOf(listed).filter((id) => Object.values(ids).includes(id))).toEqual([ids.up, ids.key, ids.down, ids.small]);
  });
});

describe("numbers kept exactly: unique values, relations, globals", () => {
  it("holds 1.50 and 1.5 to be the same value, and two keys differing in the 58th digit to be two", async () => {
    await createdId(`{"Key":"1.50"}`);
    const clash = await create(`{"Key":1.5}`);
    expectError(clash, 400, "504");
    const alsoClash = await create(`{"Key":${KEY}}`);
    expectError(alsoClash, 400, "504");
    // KEY, KEY_UP and KEY_DOWN were all created, so none of them clashed; a fourth neighbour does not either.
    await createdId(`{"Key":${KEY.slice(0, -1)}0}`);
  });

  it("joins a portal through a 58-digit key, and relates a new portal row by every digit of it", async () => {
    const lines = [`{"AccountKey":${KEY},"Label":"one"}`, `{"AccountKey":${KEY},"Label":"two"}`, `{"AccountKey":${KEY_UP},"Label":"up"}`];
    for (const line of lines) await createdId(line, LINES);
    const labels = async (id: string) => (expectOk(await get(id)).data[0].portalData.Lines as { "Lines::Label": string }[]).map((row) => row["Lines::Label"]);
    expect(await labels(ids.key)).toEqual(["one", "two"]);
    expect(await labels(ids.up)).toEqual(["up"]);
    expect(await labels(ids.down)).toEqual([]);
    expectOk(await send("PATCH", `${records()}/${ids.down}`, `{"fieldData":{},"portalData":{"Lines":[{"Lines::Label":"down"}]}}`));
    expect(await labels(ids.down)).toEqual(["down"]);
    const row = await get(ids.down);
    expect(row.text).toContain(`"Lines::AccountKey":${KEY_DOWN},`);
    expect(idsOf(await find(`{"query":[{"AccountKey":"==${KEY_DOWN}"}]}`, LINES))).toHaveLength(1);
  });

  it("sets a number global exactly and reads it back, through a record and a script handler", async () => {
    const setGlobal = (value: string) => send("PATCH", p`/databases/${DB}/globals`, `{"globalFields":{"Accounts::gKey":${value}}}`);
    expectOk(await setGlobal(KEY));
    expect((await get(ids.small)).text).toContain(`"gKey":${KEY}`);
    const script = expectOk(await api.call("GET", `${p`/databases/${DB}/layouts/${ACCOUNTS}/script/${"Global Seen"}`}`, { token }));
    expect(script.scriptResult).toBe(`string:${KEY}`);
    const refused = await setGlobal(`1${"0".repeat(400)}1`);
    expectError(refused, 400, "502");
    expect(refused.body.messages[0]!.message).toContain('"Accounts::gKey"');
    expect(refused.body.messages[0]!.message).toContain("402 significant digits");
  });
});

describe("numbers kept exactly: script handlers", () => {
  it("gives a handler a long number as its decimal text and keeps the text a handler writes", async () => {
    const run = async (id: string) => expectOk(await api.call("GET", `${p`/databases/${DB}/layouts/${ACCOUNTS}/script/${"Read and Write"}`}?script.param=${id}`, { token })).scriptResult as string;
    expect(await run(ids.key)).toBe(`string:${KEY}:${ids.key}`);
    expect((await get(ids.key)).text).toContain(`"Amount":${KEY}.5,`);
    // A number a double holds is a number.
    expect(await run(ids.small)).toBe(`number:7:${ids.small}`);
    expect((await get(ids.small)).text).toContain(`"Amount":7.5,`);
  });
});

describe("numbers kept exactly: hostile and invalid values", () => {
  const refusal = async (amount: string): Promise<string> => {
    const res = await create(`{"Key":99,"Amount":${amount}}`);
    expectError(res, 400, "502");
    return res.body.messages[0]!.message;
  };

  it("refuses a 60,000-digit token, naming the field, in a message of bounded length", async () => {
    const message = await refusal("7".repeat(60_000));
    expect(message).toContain('"Amount"');
    expect(message).toContain("60000 significant digits, more than the 400 FileMaker keeps");
    expect(message.length).toBeLessThan(400);
  });

  it("refuses 401 significant digits and values beyond 10^±400, and takes 400 digits at both ends of the range", async () => {
    expect(await refusal(`1${"2".repeat(400)}`)).toContain("401 significant digits");
    expect(await refusal("1e999999")).toContain("beyond FileMaker's range of numbers");
    expect(await refusal("-1e-401")).toContain("beyond FileMaker's range of numbers");
    expect(await refusal(`"1e401"`)).toContain("beyond FileMaker's range of numbers");
    const big = await createdId(`{"Amount":9.${"9".repeat(399)}e400}`);
    expect((await get(big)).text).toContain(`"Amount":9${"9".repeat(399)}${"0".repeat(1)},`);
  });

  it("answers the existing invalid-JSON refusal for number tokens JSON does not allow", async () => {
    for (const bad of [".5", "5.", "05", "-", "1e", "+1", `0${KEY}`]) {
      const res = await create(`{"Amount":${bad}}`);
      expectError(res, 400, "1708");
      expect(res.body.messages[0]!.message, bad).toContain("body is not valid JSON");
    }
    // Invalid JSON holding a long token: the refusal quotes the text as sent, never what the parser marked it as.
    const sent = `{"fieldData":{"Amount":${KEY} x}}`;
    const res = await send("POST", records(), sent);
    expectError(res, 400, "1708");
    expect(res.body.messages[0]!.message).toContain(`body is not valid JSON (Expected ',' or '}' after property value in JSON at position ${sent.indexOf("x")})`);
    const early = await send("POST", records(), `x{"fieldData":{"Amount":${KEY}}}`);
    expect(early.body.messages[0]!.message).not.toMatch(/fmgen-number|\\u0000/);
  });

  it("keeps the body's nesting and duplicate-key checks with long tokens in it", async () => {
    const nested = `{"fieldData":{"Note":"x"},"portalData":${"[".repeat(70)}${KEY}${"]".repeat(70)}}`;
    expectError(await send("POST", records(), nested), 400, "1708");
    const twice = await send("POST", records(), `{"fieldData":{"Amount":${KEY},"Amount":${KEY_UP}}}`);
    expectError(twice, 400, "1708");
    expect(twice.body.messages[0]!.message).toContain("given twice");
  });
});

describe("numbers kept exactly: serials", () => {
  it("counts a serial on past a long value exactly", async () => {
    await createdId(`{"Seq":${KEY},"Title":"seeded by hand"}`, TICKETS);
    const next = await createdId(`{"Title":"next"}`, TICKETS);
    expect((await get(next, TICKETS)).text).toContain(`"Seq":${KEY_UP},`);
  });
});

describe("numbers kept exactly: seed files and the Web Viewer bridge", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "fmgen-exact-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const seedFile = async (name: string, records: string): Promise<string> => {
    const file = join(dir, name);
    await writeFile(file, `{"accounts":[{"username":"web","password":"secret"}],"records":${records}}`);
    return file;
  };

  it("loads long tokens from a seed file digit for digit, and counts a seeded serial on from them", async () => {
    const file = await seedFile("seed.json", `{"Accounts":[{"Key":${KEY},"Amount":${VALUE_400},"Note":${KEY_UP}}],"Tickets":[{"Seq":${KEY_DOWN}}]}`);
    const seeded = await startEmulator({ layouts: LAYOUTS, data: file, log: () => undefined });
    try {
      const other = new DataApi(seeded.url);
      const t = await other.login("web", "secret", DB);
      const read = await other.call("GET", `${records()}/1`, { token: t });
      expect(read.text).toContain(`"Key":${KEY},"Amount":${VALUE_400},"Note":"${KEY_UP}"`);
      expectOk(await other.call("POST", records(TICKETS), { token: t, json: { fieldData: { Title: "after the seed" } } }));
      expect((await other.call("GET", `${records(TICKETS)}/2`, { token: t })).text).toContain(`"Seq":${KEY},`);
    } finally {
      await seeded.close();
    }
  });

  it("refuses a seed file's number past 400 digits, naming the record and field", async () => {
    const file = await seedFile("too-long.json", `{"Accounts":[{"Amount":${"5".repeat(401)}}]}`);
    await expect(startEmulator({ layouts: LAYOUTS, data: file, log: () => undefined })).rejects.toThrow(/records\.Accounts\[0\]\["Amount"\].*401 significant digits/);
  });

  it("carries long tokens through the Web Viewer bridge both ways", async () => {
    const answers: string[] = [];
    const window: Record<string, unknown> = { cb: (_id: string, result: string) => answers.push(result) };
    const viewer = emulator.webViewer();
    viewer.install(window);
    const key = `${KEY.slice(0, -1)}5`;
    const perform = (request: string) => (window.FileMaker as { PerformScript(s: string, p: string): void }).PerformScript("fmgen webviewer", `{"v":1,"id":"c","callback":"cb","request":${request}}`);
    perform(`{"action":"create","layouts":"Accounts","fieldData":{"Key":${key},"Amount":${VALUE_400}}}`);
    perform(`{"action":"read","layouts":"Accounts","query":[{"Key":"==${key}"}]}`);
    perform(`{"action":"read","layouts":"Accounts","query":[{"Key":${key}}],"sort":[{"fieldName":"Key"}]}`);
    await viewer.settled();
    expect(answers).toHaveLength(3);
    expect(answers[0]).toContain(`"code":"0"`);
    for (const answer of answers.slice(1)) {
      expect(answer).toContain(`"Key":${key},"Amount":${VALUE_400},`);
      expect((JSON.parse(answer) as { response: { dataInfo: { foundCount: number } } }).response.dataInfo.foundCount).toBe(1);
    }
  });
});
