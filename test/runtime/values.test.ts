import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FileMakerClient, LayoutClient } from "../../src/runtime/index.js";
import { connect, counting, startRuntimeEmulator, type Emulator } from "../support/runtime-emulator.js";
import { DATABASE, PASSWORD, Types, TYPES_LAYOUT, TYPES_TABLE, USERNAME, type TypesFields, type TypesInput } from "../support/runtime-layouts.js";

// docs/reading-and-writing.md, "Value types": create then get of every field type through the
// emulator, empty values, repetitions, and dates, times and timestamps at their boundaries.

let emu: Emulator;
let fm: FileMakerClient;
let types: LayoutClient<typeof Types>;

beforeAll(async () => {
  emu = await startRuntimeEmulator({ startTime: new Date("2024-02-29T12:00:00Z") });
  fm = connect(emu.url);
  types = fm.layout(Types);
});

afterAll(async () => {
  await fm.close();
  await emu.close();
});

async function roundTrip(input: TypesInput): Promise<TypesFields> {
  const { recordId, modId } = await types.create({ fieldData: input });
  expect(recordId).toMatch(/^\d+$/);
  expect(modId).toBe("0");
  const record = await types.get(recordId);
  expect(record.recordId).toBe(recordId);
  expect(record.modId).toBe(modId);
  return record.fieldData;
}

/** The record's fieldData as the emulator sends it, read without the runtime. */
async function wireFieldData(recordId: string): Promise<Record<string, unknown>> {
  const base = `${emu.url}/fmi/data/vLatest/databases/${DATABASE}`;
  const login = await fetch(`${base}/sessions`, {
    method: "POST",
    headers: { authorization: `Basic ${Buffer.from(`${USERNAME}:${PASSWORD}`).toString("base64")}`, "content-type": "application/json" },
    body: "{}",
  });
  const token = ((await login.json()) as { response: { token: string } }).response.token;
  try {
    const res = await fetch(`${base}/layouts/${encodeURIComponent(TYPES_LAYOUT)}/records/${recordId}`, { headers: { authorization: `Bearer ${token}` } });
    return ((await res.json()) as { response: { data: { fieldData: Record<string, unknown> }[] } }).response.data[0]!.fieldData;
  } finally {
    await fetch(`${base}/sessions/${token}`, { method: "DELETE" });
  }
}

describe("every field type", () => {
  it("round-trips text, number, date, time, timestamp, repetitions and a value list; containers read as null", async () => {
    const fields = await roundTrip({
      Text: "hello world",
      Number: 42.5,
      Date: "2024-02-29",
      Time: "23:59:59",
      Timestamp: "2024-02-29T00:00:00",
      Tags: ["a", "b", "c"],
      Scores: [1, -2.25],
      Days: ["1999-12-31", "2000-01-01"],
      Color: "Green",
    });
    expect(fields).toEqual({
      Serial: expect.any(Number),
      Text: "hello world",
      Number: 42.5,
      Date: "2024-02-29",
      Time: "23:59:59",
      Timestamp: "2024-02-29T00:00:00",
      File: [null, null],
      Tags: ["a", "b", "c"],
      Scores: [1, -2.25],
      Days: ["1999-12-31", "2000-01-01"],
      Color: "Green",
      Created: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
    });
  });

  it("reads an auto-entered creation timestamp as a local ISO string from the emulator's clock", async () => {
    const fields = await roundTrip({ Text: "created" });
    expect(fields.Created).toMatch(/^2024-02-29T\d{2}:\d{2}:\d{2}$/);
    expect(typeof fields.Serial).toBe("number");
  });

  it("sends dates, times and timestamps in the wire formats", async () => {
    const { recordId } = await types.create({ fieldData: { Date: "2000-02-29", Time: "00:00:00", Timestamp: "1999-12-31T23:59:59", Number: 7 } });
    const wire = await wireFieldData(recordId);
    expect(wire.Date).toBe("02/29/2000");
    expect(wire.Time).toBe("00:00:00");
    expect(wire.Timestamp).toBe("12/31/1999 23:59:59");
    expect(wire.Number).toBe(7);
  });
});

describe("empty values", () => {
  it("null is sent as \"\" and read back as null (number, date, time, timestamp); text reads back as \"\"", async () => {
    const { recordId } = await types.create({
      fieldData: { Text: "full", Number: 1, Date: "2024-01-01", Time: "01:02:03", Timestamp: "2024-01-01T01:02:03", Color: "Red", Scores: [5, 6] },
    });
    await types.edit(recordId, { fieldData: { Text: null, Number: null, Date: null, Time: null, Timestamp: null, Color: null, Scores: [null, null] } });
    const wire = await wireFieldData(recordId);
    for (const key of ["Text", "Number", "Date", "Time", "Timestamp", "Color", "Scores", "Scores(2)"]) expect(wire[key], key).toBe("");
    const { fieldData } = await types.get(recordId);
    expect(fieldData).toMatchObject({ Text: "", Number: null, Date: null, Time: null, Timestamp: null, Color: "", Scores: [null, null] });
  });

  it("a record created with nothing reads back with every field empty", async () => {
    const fields = await roundTrip({});
    expect(fields).toMatchObject({
      Text: "",
      Number: null,
      Date: null,
      Time: null,
      Timestamp: null,
      File: [null, null],
      Tags: ["", "", ""],
      Scores: [null, null],
      Days: [null, null],
      Color: "",
    });
  });

  it("\"\" in a text field round-trips as \"\"", async () => {
    expect((await roundTrip({ Text: "" })).Text).toBe("");
  });
});

describe("repetitions", () => {
  it("a repeating field is a tuple of all its repetitions; fewer entries leave the rest empty", async () => {
    const fields = await roundTrip({ Tags: ["only first"], Scores: [3] });
    expect(fields.Tags).toEqual(["only first", "", ""]);
    expect(fields.Scores).toEqual([3, null]);
  });

  it("undefined entries are left alone by an edit; null entries are cleared", async () => {
    const { recordId } = await types.create({ fieldData: { Tags: ["a", "b", "c"], Scores: [1, 2], Days: ["2024-02-29", "2000-02-29"] } });
    await types.edit(recordId, { fieldData: { Tags: [undefined, "B"], Scores: [undefined, 20], Days: [null] } });
    let fields = (await types.get(recordId)).fieldData;
    expect(fields.Tags).toEqual(["a", "B", "c"]);
    expect(fields.Scores).toEqual([1, 20]);
    expect(fields.Days).toEqual([null, "2000-02-29"]);

    await types.edit(recordId, { fieldData: { Tags: [null, undefined, "C"] } });
    fields = (await types.get(recordId)).fieldData;
    expect(fields.Tags).toEqual(["", "B", "C"]);

    // An empty tuple changes nothing.
    const before = await types.get(recordId);
    await types.edit(recordId, { fieldData: { Tags: [] } });
    expect((await types.get(recordId)).fieldData.Tags).toEqual(before.fieldData.Tags);
  });

  it("undefined entries are not sent at all", async () => {
    const { recordId } = await types.create({ fieldData: { Tags: [undefined, "two", undefined] } });
    const wire = await wireFieldData(recordId);
    expect([wire.Tags, wire["Tags(2)"], wire["Tags(3)"]]).toEqual(["", "two", ""]);
  });

  it("more entries than repetitions is a TypeError before any request", async () => {
    const { requests } = await counting(emu, async () => {
      // @ts-expect-error Tags has 3 repetitions
      await expect(types.create({ fieldData: { Tags: ["1", "2", "3", "4"] } })).rejects.toThrow(TypeError);
    });
    expect(requests).toBe(0);
  });
});

describe("dates", () => {
  const dates = ["0001-01-01", "1900-02-28", "1900-03-01", "1969-12-31", "1970-01-01", "1999-12-31", "2000-01-01", "2000-02-29", "2024-02-29", "2100-02-28", "4000-12-31"];

  it.each(dates)("%s round-trips", async (date) => {
    const fields = await roundTrip({ Date: date, Days: [date, date] });
    expect(fields.Date).toBe(date);
    expect(fields.Days).toEqual([date, date]);
  });

  it.each(["9999-01-01", "4001-01-01", "0000-12-31", "1900-02-29", "2023-02-29", "2100-02-29", "2024-13-01", "2024-00-10", "2024-04-31", "2024-1-1", "24-01-01", "2024/01/01", "01/01/2024", "2024-01-01T00:00:00", " 2024-01-01"])(
    "%s is refused with a TypeError before any request",
    async (date) => {
      const { requests } = await counting(emu, async () => {
        await expect(types.create({ fieldData: { Date: date } })).rejects.toThrow(TypeError);
      });
      expect(requests).toBe(0);
    },
  );
});

describe("times and timestamps", () => {
  it.each(["00:00:00", "23:59:59", "12:00:00", "09:05:07"])("time %s round-trips", async (time) => {
    expect((await roundTrip({ Time: time })).Time).toBe(time);
  });

  it.each(["0001-01-01T00:00:00", "1999-12-31T23:59:59", "2000-01-01T00:00:00", "2000-02-29T23:59:59", "2024-02-29T00:00:00", "4000-12-31T23:59:59"])(
    "timestamp %s round-trips",
    async (timestamp) => {
      expect((await roundTrip({ Timestamp: timestamp })).Timestamp).toBe(timestamp);
    },
  );

  it.each([
    ["Time", "24:00:00"],
    ["Time", "12:60:00"],
    ["Time", "12:00:60"],
    ["Time", "7:30:00"],
    ["Time", "07:30"],
    ["Timestamp", "2024-01-01 10:00:00"],
    ["Timestamp", "2024-01-01T24:00:00"],
    ["Timestamp", "2023-02-29T00:00:00"],
    ["Timestamp", "2024-01-01"],
    ["Timestamp", "2024-01-01T10:00:00Z"],
  ] as const)("%s %s is refused with a TypeError before any request", async (field, value) => {
    const { requests } = await counting(emu, async () => {
      await expect(types.create({ fieldData: { [field]: value } })).rejects.toThrow(TypeError);
    });
    expect(requests).toBe(0);
  });
});

describe("numbers", () => {
  it.each([0, 1, -1, 3.14159, -0.5, 1e-7, 123456789012, Number.MAX_SAFE_INTEGER, 1.5e300])("%s round-trips", async (n) => {
    const fields = await roundTrip({ Number: n, Scores: [n, -n] });
    expect(fields.Number).toBe(n);
    expect(fields.Scores).toEqual([n, -n === 0 ? 0 : -n]);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])("%s is refused with a TypeError before any request", async (n) => {
    const { requests } = await counting(emu, async () => {
      await expect(types.create({ fieldData: { Number: n } })).rejects.toThrow(TypeError);
    });
    expect(requests).toBe(0);
  });
});

describe("finds by plain values of each type", () => {
  it("a number, a date, a time and a timestamp each find exactly their record", async () => {
    const marker = { Number: 98765.4321, Date: "1904-02-29", Time: "13:14:15", Timestamp: "1955-11-05T06:15:00" };
    const { recordId } = await types.create({ fieldData: marker });
    await types.create({ fieldData: { Number: 98765.43, Date: "1904-03-01", Time: "13:14:16", Timestamp: "1955-11-05T06:15:01" } });
    for (const [field, value] of Object.entries(marker)) {
      const page = await types.find({ query: [{ [field]: value }] });
      expect(page.data.map((r) => r.recordId), `${field} = ${value}`).toEqual([recordId]);
    }
  });

  it("a negative number and an exponent-sized number find their record", async () => {
    for (const n of [-42.5, 1e-7, 1.5e300]) {
      const { recordId } = await types.create({ fieldData: { Number: n } });
      const page = await types.find({ query: [{ Number: n }] });
      expect(page.data.map((r) => r.recordId), String(n)).toContain(recordId);
      expect(page.data.every((r) => r.fieldData.Number === n), String(n)).toBe(true);
    }
  });

  it("a value of a repeating field finds records holding it in any repetition", async () => {
    const { recordId } = await types.create({ fieldData: { Tags: ["", "", "needle-in-rep-3"] } });
    const page = await types.find({ query: [{ Tags: "needle-in-rep-3" }] });
    expect(page.data.map((r) => r.recordId)).toEqual([recordId]);
  });

  it("null finds the records whose field is empty", async () => {
    const page = await types.find({ query: [{ Date: null }], limit: 1000 });
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.data.every((r) => r.fieldData.Date === null)).toBe(true);
    expect(page.dataInfo.foundCount).toBe(page.data.length);
  });
});

describe("the table", () => {
  it("every record created in this file is in the emulator's table", async () => {
    const count = emu.stats().records[DATABASE]![TYPES_TABLE]!;
    const page = await types.list({ limit: 10_000 });
    expect(page.data).toHaveLength(count);
    expect(page.dataInfo.totalRecordCount).toBe(count);
  });
});
