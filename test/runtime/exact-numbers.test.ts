import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { DecodeError, defineLayout, ProtocolError, q, type FileMakerClient } from "../../src/runtime/index.js";
import { createWebViewerClient } from "@fmgen/runtime/webviewer";
import { recordDecoder } from "../../src/runtime/data-api/record-decoder.js";
import { buildRecordSchema } from "../../src/runtime/data-api/record-schema.js";
import { parseJson } from "../../src/runtime/core/json-numbers.js";
import { startEmulator } from "../../src/emulator/index.js";
import { connect, startFakeServer, type FakeAnswer, type FakeServer } from "../support/runtime-emulator.js";
import { DATABASE, PASSWORD, USERNAME } from "../support/runtime-layouts.js";

// docs/reading-and-writing.md, "Exact numbers": a number field with `exact: true` reads as canonical decimal text,
// every digit kept, and is written and found from decimal text sent digit for digit; a number field without it never
// reads a rounded number. Long tokens go over the wire from a fake server answering fixed bytes (JSON.stringify would
// round them), and the request bodies it receives are compared byte for byte.

/** `Get ( UUIDNumber )`: 58 digits. */
const UUID = "1234567890123456789012345678901234567890123456789012345678";
const DIGITS_400 = "9".repeat(200) + "1".repeat(200);

interface KeysFields {
  Id: string | null;
  Amount: number | null;
  Codes: [string | null, string | null];
  Label: string;
}

const Keys = defineLayout<KeysFields>()({
  database: DATABASE,
  layout: "Keys",
  table: "Keys",
  fields: {
    Id: { type: "number", exact: true },
    Amount: { type: "number" },
    Codes: { type: "number", exact: true, repetitions: 2 },
    Label: { type: "text" },
  },
  portals: { Lines: { fields: { "Lines::Key": { type: "number", exact: true }, "Lines::Qty": { type: "number" } } } },
});

/** The bytes of a one-record page: `fieldData` and the Lines rows as JSON text written by hand (bare tokens). */
function pageText(fieldData: string, rows = "[]"): string {
  const dataInfo = `{"database":"${DATABASE}","layout":"Keys","table":"Keys","totalRecordCount":1,"foundCount":1,"returnedCount":1}`;
  return `{"response":{"dataInfo":${dataInfo},"data":[{"recordId":"7","modId":"1","fieldData":${fieldData},"portalData":{"Lines":${rows}}}]},"messages":[{"code":"0","message":"OK"}]}`;
}

/** fieldData text with `Id` (and the rest) as given: each a JSON value's text. */
const fields = (id: string, amount = "1", codes: [string, string] = ['""', '""'], label = '"x"') => `{"Id":${id},"Amount":${amount},"Codes":${codes[0]},"Codes(2)":${codes[1]},"Label":${label}}`;

const ok = (response: string) => ({ status: 200, body: `{"response":${response},"messages":[{"code":"0","message":"OK"}]}` });

let server: FakeServer | undefined;
let fm: FileMakerClient | undefined;
/** What the fake server answers next (every request but the session calls). */
let answer: FakeAnswer = ok("{}");

async function client(options: Parameters<typeof connect>[1] = {}): Promise<FileMakerClient> {
  server = await startFakeServer(() => answer);
  fm = connect(server.url, options);
  return fm;
}

afterEach(async () => {
  await fm?.close();
  await server?.close();
  fm = undefined;
  server = undefined;
});

/** The body of the one request the fake server received, as its bytes spell it. */
const sentBody = () => {
  expect(server!.requests).toHaveLength(1);
  return server!.requests[0]!.body.toString("utf8");
};

const rejection = (promise: Promise<unknown>) => promise.then((value) => ({ resolved: value }), (error: unknown) => error);

describe("reading an exact field", () => {
  it("reads a 58-digit and a 400-digit token as their text, every digit, beside a number field", async () => {
    const keys = (await client()).layout(Keys);
    answer = { status: 200, body: pageText(fields(UUID, "12.5", [DIGITS_400, `-${UUID}.000`])) };
    const record = await keys.get(7);
    expect(record.fieldData).toEqual({ Id: UUID, Amount: 12.5, Codes: [DIGITS_400, `-${UUID}`], Label: "x" });
  });

  it("reads each value in its canonical form: no exponent, no leading or trailing zeros, 0 never negative", async () => {
    const keys = (await client()).layout(Keys);
    for (const [wire, read] of [
      ["1.50e3", "1500"],
      ["-0", "0"],
      ["0", "0"],
      ["0.000", "0"],
      ["1e-7", "0.0000001"],
      ["12345678901234567890.500", "12345678901234567890.5"],
      ["-1.2345678901234567890123e25", "-12345678901234567890123000"],
      ["1e400", `1${"0".repeat(400)}`],
      ['""', null],
      ['" 0012.50 "', "12.5"],
      ['"+5"', "5"],
      ['".5"', "0.5"],
      [`"${UUID}"`, UUID],
    ] as const) {
      answer = { status: 200, body: pageText(fields(wire)) };
      expect((await keys.get(7)).fieldData.Id, wire).toBe(read);
    }
  });

  it("reads portal rows' exact fields, and the same in ISO date mode and with validation off", async () => {
    for (const options of [{}, { dateFormat: "iso" as const }, { validate: false }]) {
      const keys = (await client(options)).layout(Keys);
      answer = { status: 200, body: pageText(fields(UUID), `[{"recordId":"70","modId":"0","Lines::Key":${DIGITS_400},"Lines::Qty":3},{"recordId":"71","modId":"0","Lines::Key":"","Lines::Qty":""}]`) };
      const { data } = await keys.find({ query: [{ Id: UUID }] });
      expect(data[0]!.fieldData.Id).toBe(UUID);
      expect(data[0]!.portalData.Lines).toEqual([
        { recordId: "70", modId: "0", "Lines::Key": DIGITS_400, "Lines::Qty": 3 },
        { recordId: "71", modId: "0", "Lines::Key": null, "Lines::Qty": null },
      ]);
      await fm!.close();
      await server!.close();
      fm = server = undefined;
    }
  });

  it("refuses what is not a number, more than 400 digits and values beyond 10^±400 with a DecodeError saying why", async () => {
    const keys = (await client()).layout(Keys);
    for (const [wire, why] of [
      ['"12 apples"', "it is not a number"],
      ["true", ""],
      [`1${"0".repeat(60_000)}1`, "it has 60002 significant digits, more than the 400 FileMaker keeps"],
      ["1e999999", "beyond FileMaker's range of numbers"],
      ["1e401", "beyond FileMaker's range of numbers"],
      [`"${"7".repeat(401)}"`, "it has 401 significant digits"],
    ] as const) {
      answer = { status: 200, body: pageText(fields(wire)) };
      const error = (await rejection(keys.get(7))) as DecodeError;
      expect(error, wire.slice(0, 20)).toBeInstanceOf(DecodeError);
      expect(error).toMatchObject({ layout: "Keys", field: "Id", recordId: "7", expected: "number" });
      expect(error.message).toMatch(/^layout "Keys", field "Id", record 7: /);
      expect(error.message).toContain(why);
      // A 60,000-digit token is quoted by its start and length: the message stays short, the raw value whole.
      expect(error.message.length).toBeLessThan(400);
      expect(error.raw).toBe(wire.startsWith('"') ? JSON.parse(wire) : wire === "true" ? true : wire);
    }
  });
});

describe("reading a number field without exact", () => {
  it("never reads a rounded number: a token a double cannot hold is a DecodeError naming layout, field, record and the text", async () => {
    const keys = (await client()).layout(Keys);
    for (const wire of [UUID, "9007199254740993", "0.30000000000000001", "1e309", `1${"0".repeat(399)}`]) {
      answer = { status: 200, body: pageText(fields('""', wire)) };
      const error = (await rejection(keys.get(7))) as DecodeError;
      expect(error).toBeInstanceOf(DecodeError);
      expect(error).toMatchObject({ layout: "Keys", field: "Amount", recordId: "7", raw: wire, expected: "number" });
      expect(error.message).toContain(`record 7: ${wire.slice(0, 120)}`);
      expect(error.message).toContain('it has more digits than a JavaScript number holds; describe the field with "exact": true');
      expect(error.message.length).toBeLessThan(400);
    }
  });

  it("says why when exact would not read the value either (more than 400 digits, beyond 10^±400)", async () => {
    const keys = (await client()).layout(Keys);
    for (const [wire, why] of [
      ["1e999999", "it is beyond FileMaker's range of numbers"],
      [`1${"0".repeat(60_000)}1`, "it has 60002 significant digits, more than the 400 FileMaker keeps"],
    ] as const) {
      answer = { status: 200, body: pageText(fields('""', wire)) };
      const error = (await rejection(keys.get(7))) as DecodeError;
      expect(error).toMatchObject({ layout: "Keys", field: "Amount", recordId: "7", raw: wire });
      expect(error.message).toContain(`is not a valid number value: ${why}`);
      expect(error.message.length).toBeLessThan(400);
    }
  });

  it("names a portal row's field the same way", async () => {
    const keys = (await client()).layout(Keys);
    answer = { status: 200, body: pageText(fields('""'), `[{"recordId":"70","modId":"0","Lines::Key":1,"Lines::Qty":${UUID}}]`) };
    const error = (await rejection(keys.get(7))) as DecodeError;
    expect(error).toMatchObject({ layout: "Keys", field: "Lines::Qty", recordId: '7 portal "Lines" row 70', raw: UUID });
    expect(error.message).toContain('"exact": true');
  });

  it("reads a numeric string only when a double holds it, and -0 as 0", async () => {
    const keys = (await client()).layout(Keys);
    for (const [wire, read] of [
      ['" 12.5 "', 12.5],
      ['"9007199254740992"', 9007199254740992],
      ['"-0"', 0],
      ["-0", 0],
      ['"1e3"', 1000],
    ] as const) {
      answer = { status: 200, body: pageText(fields('""', wire)) };
      const value = (await keys.get(7)).fieldData.Amount;
      expect(value, wire).toBe(read);
      expect(Object.is(value, -0), wire).toBe(false);
    }
    for (const wire of ['"9007199254740993"', `"${UUID}"`, '"1e400"']) {
      answer = { status: 200, body: pageText(fields('""', wire)) };
      const error = (await rejection(keys.get(7))) as DecodeError;
      expect(error, wire).toBeInstanceOf(DecodeError);
      expect(error.message).toContain("more digits than a JavaScript number holds");
    }
  });

  it("reads a long digit-only token in a text field as its text", async () => {
    const keys = (await client()).layout(Keys);
    answer = { status: 200, body: pageText(fields('""', "1", ['""', '""'], UUID)) };
    expect((await keys.get(7)).fieldData.Label).toBe(UUID);
  });
});

describe("hostile answers", () => {
  it("refuses bodies that are not JSON (.5, 5., leading zeros) with the ProtocolError, long or short", async () => {
    const keys = (await client()).layout(Keys);
    for (const wire of [".5", "5.", "007", `.${UUID}`, `${UUID}.`, `00${UUID}`, "1e", "-"]) {
      answer = { status: 200, body: pageText(fields(wire)) };
      const error = await rejection(keys.get(7));
      expect(error, wire).toBeInstanceOf(ProtocolError);
    }
  });

  it("parses a 60,000-digit token's answer once: one JSON.parse, one short message", async () => {
    const keys = (await client()).layout(Keys);
    answer = { status: 200, body: pageText(fields(UUID)) };
    await keys.get(7);
    answer = { status: 200, body: pageText(fields(`-0.${"0".repeat(60_000)}1`)) };
    const parse = vi.spyOn(JSON, "parse");
    try {
      const error = (await rejection(keys.get(7))) as DecodeError;
      expect(error).toBeInstanceOf(DecodeError);
      expect(error.message).toContain("beyond FileMaker's range of numbers");
      expect(error.message.length).toBeLessThan(400);
      expect(parse).toHaveBeenCalledTimes(1);
    } finally {
      parse.mockRestore();
    }
  });
});

describe.each([
  ["compiled", false],
  ["interpreted", true],
] as const)("the record decoder, %s", (_, interpret) => {
  const decode = (text: string, validate = true) => recordDecoder(Keys, { validate, interpret })(parseJson(text));
  const portalRows = `[{"recordId":"70","modId":"0","Lines::Key":${UUID},"Lines::Qty":2}]`;

  it("reads exact fields and their portal rows as text, in both date modes", () => {
    for (const dateformats of [undefined, 2 as const]) {
      const record = recordDecoder(Keys, { validate: true, interpret, dateformats })(parseJson(`{"recordId":"7","modId":"1","fieldData":${fields(UUID, "2", [DIGITS_400, "-0.5"])},"portalData":{"Lines":${portalRows}}}`));
      expect(record.fieldData).toEqual({ Id: UUID, Amount: 2, Codes: [DIGITS_400, "-0.5"], Label: "x" });
      expect(record.portalData).toEqual({ Lines: [{ recordId: "70", modId: "0", "Lines::Key": UUID, "Lines::Qty": 2 }] });
    }
  });

  it("refuses a long token in a number field without exact, and a bad exact value, saying why", () => {
    expect(() => decode(`{"recordId":"7","modId":"1","fieldData":${fields('""', UUID)}}`)).toThrow('layout "Keys", field "Amount", record 7: ' + UUID + ' is not a valid number value: it has more digits than a JavaScript number holds; describe the field with "exact": true');
    expect(() => decode(`{"recordId":"7","modId":"1","fieldData":${fields('"1,5"')}}`)).toThrow('layout "Keys", field "Id", record 7: "1,5" is not a valid number value: it is not a number');
    expect(() => decode(`{"recordId":"7","modId":"1","fieldData":${fields('[1]')}}`, false)).toThrow('layout "Keys", field "Id", record 7: [1] is not a valid number value');
  });
});

describe("writing an exact field", () => {
  it("sends create's fieldData and portal rows digit for digit, as bare number tokens", async () => {
    const keys = (await client()).layout(Keys);
    answer = ok('{"recordId":"8","modId":"0"}');
    await keys.create({ fieldData: { Id: UUID, Amount: 2.5, Codes: [DIGITS_400, "-1.50e3"], Label: "a" }, portalData: { Lines: [{ "Lines::Key": `0.${UUID}`, "Lines::Qty": 1 }] } });
    expect(sentBody()).toBe(`{"fieldData":{"Id":${UUID},"Amount":2.5,"Codes":${DIGITS_400},"Codes(2)":-1.50e3,"Label":"a"},"portalData":{"Lines":[{"Lines::Key":0.${UUID},"Lines::Qty":1}]}}`);
  });

  it("sends edit's fieldData and portal rows digit for digit; null clears as for every field", async () => {
    const keys = (await client()).layout(Keys);
    answer = ok('{"modId":"2"}');
    await keys.edit(7, { fieldData: { Id: `-${UUID}`, Codes: [null, "0"] }, portalData: { Lines: [{ recordId: "70", "Lines::Key": UUID }] }, modId: "1" });
    expect(sentBody()).toBe(`{"fieldData":{"Id":-${UUID},"Codes":"","Codes(2)":0},"portalData":{"Lines":[{"Lines::Key":${UUID},"recordId":"70"}]},"modId":"1"}`);
  });

  it("refuses what is not decimal text, a number among it, with a TypeError naming layout, field and text, before sending", async () => {
    const keys = (await client()).layout(Keys);
    for (const [value, why] of [
      ["007", "it is not decimal text"],
      [".5", "it is not decimal text"],
      ["5.", "it is not decimal text"],
      ["+5", "it is not decimal text"],
      ["", "it is not decimal text"],
      [" 5", "it is not decimal text"],
      ["1e401", "beyond FileMaker's range"],
      ["7".repeat(401), "it has 401 significant digits"],
      [12, 'an exact field takes decimal text (a string such as "12.50"), not a JavaScript number'],
    ] as const) {
      const error = (await rejection(keys.create({ fieldData: { Id: value as string } }))) as Error;
      expect(error, String(value)).toBeInstanceOf(TypeError);
      expect(error.message).toMatch(/^layout "Keys", field "Id": /);
      expect(error.message).toContain(`${typeof value === "string" ? JSON.stringify(value).slice(0, 120) : value}`);
      expect(error.message).toContain(why);
      expect(error.message.length).toBeLessThan(400);
    }
    const portal = (await rejection(keys.edit(7, { portalData: { Lines: [{ "Lines::Key": 5 as unknown as string }] } }))) as Error;
    expect(portal.message).toMatch(/^layout "Keys" portal "Lines", field "Lines::Key": 5 is not a valid exact number value/);
    expect(server!.requests).toHaveLength(0);
  });
});

describe("finding by an exact field", () => {
  it("writes each helper's decimal text into the criterion digit for digit, in plain notation", async () => {
    const keys = (await client()).layout(Keys);
    answer = { status: 200, body: pageText(fields(UUID)) };
    await keys.find({
      query: [
        { Id: UUID, Codes: q.between(`-${UUID}`, "1.5e2") },
        { Id: q.gt(DIGITS_400) },
        { Id: q.lte("0.000") },
        { Id: q.eq(null), "Lines::Key": q.lt("1e-3") },
        { Id: "", omit: true },
      ],
    });
    const { query } = JSON.parse(sentBody()) as { query: unknown };
    expect(query).toEqual([
      { Id: `==${UUID}`, Codes: `-${UUID}...150` },
      { Id: `>${DIGITS_400}` },
      { Id: "<=0" },
      { Id: "=", "Lines::Key": "<0.001" },
      { Id: "=", omit: "true" },
    ]);
  });

  it("refuses what writes refuse, in find() and the query builder alike, before sending", async () => {
    const keys = (await client()).layout(Keys);
    for (const [criterion, quoted] of [
      [12, "12"],
      ["007", '"007"'],
      [q.gt(5), "5"],
      [q.between("1", ".5"), '".5"'],
      [q.gte("1e999"), '"1e999"'],
    ] as const) {
      const expected = new RegExp(`^find on layout "Keys", field "Id": ${quoted.replace(/[.*]/g, "\\$&")} is not a valid exact number value: `);
      expect(() => keys.query().where({ Id: criterion as string })).toThrow(expected);
      const error = (await rejection(keys.find({ query: [{ Id: criterion as string }] }))) as Error;
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toMatch(expected);
    }
    expect(server!.requests).toHaveLength(0);
  });
});

describe("validating records with the schema", () => {
  const schema = buildRecordSchema(z, Keys);
  const record = (id: unknown) => ({ recordId: "7", modId: "1", fieldData: { Id: id, Amount: 1, Codes: [UUID, null], Label: "" }, portalData: { Lines: [{ recordId: "70", modId: "0", "Lines::Key": DIGITS_400, "Lines::Qty": null }] } });

  it("takes decimal text or null for an exact field, and refuses a number or other text", () => {
    expect(schema.safeParse(record(UUID)).success).toBe(true);
    expect(schema.safeParse(record(null)).success).toBe(true);
    for (const id of [12, "12 apples", ".5", ""]) {
      const result = schema.safeParse(record(id));
      expect(result.success, String(id)).toBe(false);
    }
  });
});

describe("against the emulator", () => {
  let emu: Awaited<ReturnType<typeof startEmulator>>;
  let client: FileMakerClient;
  const Ledger = defineLayout<{ Key: string | null; Amount: number | null }>()({ database: DATABASE, layout: "Ledger", table: "Ledger", fields: { Key: { type: "number", exact: true }, Amount: { type: "number" } } });

  beforeAll(async () => {
    emu = await startEmulator({
      port: 0,
      layouts: [{ database: DATABASE, layout: "Ledger", table: "Ledger", fields: [{ name: "Key", type: "number", exact: true }, { name: "Amount", type: "number" }] }],
      data: { accounts: [{ username: USERNAME, password: PASSWORD }], records: {} },
    });
    client = connect(emu.url);
  });
  afterAll(async () => {
    await client.close();
    await emu.close();
  });

  it("writes, reads back in canonical form, finds and clears an exact field", async () => {
    const ledger = client.layout(Ledger);
    const { recordId } = await ledger.create({ fieldData: { Key: "1200.50", Amount: 3 } });
    await ledger.create({ fieldData: { Key: "-7", Amount: 4 } });
    expect((await ledger.get(recordId)).fieldData).toEqual({ Key: "1200.5", Amount: 3 });
    const found = await ledger.find({ query: [{ Key: q.gt("0") }] });
    expect(found.data.map((r) => r.fieldData.Key)).toEqual(["1200.5"]);
    expect((await ledger.query().where({ Key: "-7.0" }).run()).data.map((r) => r.fieldData.Amount)).toEqual([4]);
    await ledger.edit(recordId, { fieldData: { Key: null } });
    expect((await ledger.get(recordId)).fieldData.Key).toBeNull();
  });
});

describe("through the Web Viewer bridge", () => {
  type Win = Record<string, unknown>;
  afterEach(() => {
    delete (globalThis as { window?: Win }).window;
  });

  it("hands FileMaker's script an exact field's text digit for digit, and reads the step's answer the same", async () => {
    const parameters: string[] = [];
    let result = "";
    const win: Win = {
      FileMaker: {
        PerformScriptWithOption: (_script: string, text: string) => {
          parameters.push(text);
          const { id, callback } = JSON.parse(text) as { id: string; callback: string };
          setTimeout(() => (win[callback] as (id: string, text: string) => void)(id, result), 1);
        },
      },
    };
    (globalThis as { window?: Win }).window = win;
    const web = createWebViewerClient({ database: DATABASE, script: "fmgen webviewer", timeoutMs: 2_000 });
    try {
      const keys = web.layout(Keys);
      result = ok('{"recordId":"8","modId":"0"}').body;
      await keys.create({ fieldData: { Id: UUID, Codes: [DIGITS_400] } });
      expect(parameters.at(-1)).toContain(`"fieldData":{"Id":${UUID},"Codes":${DIGITS_400}}`);
      result = pageText(fields(UUID, "1", [DIGITS_400, '""']));
      expect((await keys.get(7)).fieldData).toEqual({ Id: UUID, Amount: 1, Codes: [DIGITS_400, null], Label: "x" });
      await keys.find({ query: [{ Id: q.gte(UUID) }] });
      expect(parameters.at(-1)).toContain(`"query":[{"Id":">=${UUID}"}]`);
    } finally {
      await web.close();
    }
  });
});
