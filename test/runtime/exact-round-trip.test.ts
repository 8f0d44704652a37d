import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, defineLayout, type FileMakerClient } from "@fmgen/runtime";
import { createODataClient, defineTable, f, type ODataClient } from "@fmgen/runtime/odata";
import { startEmulator, type RunningEmulator } from "../../src/emulator/index.js";
import { MAX_DIGITS } from "../../src/runtime/core/decimal-text.js";

// docs/reading-and-writing.md, "Exact numbers": any decimal text of up to 400 significant digits goes through create,
// get and find (the Data API), insert, read and $filter (OData), written by one API and read by the other, and comes
// back digit for digit; the emulator keeps it as decimal text. The fetch project runs this file again on the fetch
// entries (vitest.config.ts, FETCH_TESTS).

const DB = "Ledger";
const ACCOUNT = { username: "web", password: "s3cret" };
let emu: RunningEmulator;
let fm: FileMakerClient;
let od: ODataClient<typeof DB>;

const Entry = defineLayout({
  database: DB,
  layout: "Entries Web",
  fields: { Key: { type: "number", exact: true }, Amount: { type: "number", exact: true }, Note: { type: "text" } },
});
const Entries = defineTable()({
  database: DB,
  table: "Entries",
  fields: { Key: { type: "number", exact: true }, Amount: { type: "number", exact: true }, Note: { type: "text" } },
});

beforeAll(async () => {
  emu = await startEmulator({
    port: 0,
    layouts: [
      {
        database: DB,
        layout: "Entries Web",
        table: "Entries",
        fields: [
          { name: "Key", type: "number", exact: true },
          { name: "Amount", type: "number", exact: true },
          { name: "Note", type: "text" },
        ],
      },
    ],
    data: { accounts: [{ ...ACCOUNT }] },
  });
  fm = createClient({ server: emu.url, database: DB, auth: ACCOUNT });
  od = createODataClient({ server: emu.url, database: DB, auth: ACCOUNT });
});

afterAll(async () => {
  await fm?.close();
  await od?.close();
  await emu?.close();
});

/**
 * Decimal text in the canonical form (plainDecimal): an optional "-", a whole part without leading zeros, an optional
 * fraction without trailing zeros; 1 to MAX_DIGITS significant digits, up to 40 zeros after the point before them.
 */
const digitRun = (min: number, max: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max }).map((d) => d.join(""));
const decimalText = fc
  .record({
    negative: fc.boolean(),
    whole: digitRun(0, MAX_DIGITS),
    fraction: digitRun(0, MAX_DIGITS),
    zeros: fc.integer({ min: 0, max: 40 }),
  })
  .map(({ negative, whole, fraction, zeros }) => {
    const w = whole.replace(/^0+/, "");
    let frac = fraction.replace(/0+$/, "");
    // Significant digits: the whole part's, then the fraction's (its leading zeros count once a whole part has digits).
    const room = MAX_DIGITS - w.length;
    frac = frac.slice(0, Math.max(0, room)).replace(/0+$/, "");
    if (w === "" && frac !== "") frac = `${"0".repeat(zeros)}${frac}`.slice(0, zeros + MAX_DIGITS).replace(/0+$/, "");
    const text = `${w === "" ? "0" : w}${frac === "" ? "" : `.${frac}`}`;
    return text === "0" ? "1" : `${negative ? "-" : ""}${text}`;
  });

/** A key no other case has: its case number, then digits enough that no double holds it. */
let cases = 0;
const uniqueKey = () => `${++cases}${"7".repeat(57)}`;

describe("exact numbers round trip, digit for digit", () => {
  it("through the Data API: create, get, find by the key, edit", async () => {
    const entries = fm.layout(Entry);
    await fc.assert(
      fc.asyncProperty(decimalText, decimalText, async (amount, edited) => {
        const key = uniqueKey();
        const { recordId } = await entries.create({ fieldData: { Key: key, Amount: amount, Note: "dapi" } });
        expect((await entries.get(recordId)).fieldData).toEqual({ Key: key, Amount: amount, Note: "dapi" });
        const found = await entries.find({ query: [{ Key: key }] });
        expect(found.data.map((r) => r.fieldData.Amount)).toEqual([amount]);
        await entries.edit(recordId, { fieldData: { Amount: edited } });
        expect((await entries.get(recordId)).fieldData.Amount).toBe(edited);
      }),
      { numRuns: 40, seed: 35 },
    );
  });

  it("through OData: insert, read back, $filter eq on the key and the amount", async () => {
    const entries = od.table(Entries);
    await fc.assert(
      fc.asyncProperty(decimalText, async (amount) => {
        const key = uniqueKey();
        const created = await entries.create({ Key: key, Amount: amount, Note: "odata" });
        expect(created).toMatchObject({ Key: key, Amount: amount });
        const { value } = await entries.list({ filter: f.and(f.eq("Key", key), f.eq("Amount", amount)) });
        expect(value.map((row) => [row.Key, row.Amount])).toEqual([[key, amount]]);
      }),
      { numRuns: 40, seed: 36 },
    );
  });

  it("written by one API, read by the other", async () => {
    const layout = fm.layout(Entry);
    const table = od.table(Entries);
    await fc.assert(
      fc.asyncProperty(decimalText, decimalText, async (a, b) => {
        const keyA = uniqueKey();
        await layout.create({ fieldData: { Key: keyA, Amount: a } });
        expect((await table.list({ filter: f.eq("Key", keyA) })).value.map((row) => row.Amount)).toEqual([a]);
        const keyB = uniqueKey();
        await table.create({ Key: keyB, Amount: b });
        expect((await layout.find({ query: [{ Key: keyB }] })).data.map((r) => r.fieldData.Amount)).toEqual([b]);
      }),
      { numRuns: 25, seed: 37 },
    );
  });

  it("finds only the key asked for, not its neighbours a double would confuse with it", async () => {
    const entries = fm.layout(Entry);
    const base = "9007199254740993000000000000000000000000000000000000000001";
    for (const key of [base, base.replace(/1$/, "2"), base.replace(/1$/, "0")]) await entries.create({ fieldData: { Key: key, Note: "neighbour" } });
    const found = await entries.find({ query: [{ Key: base }] });
    expect(found.data.map((r) => r.fieldData.Key)).toEqual([base]);
    const { value } = await od.table(Entries).list({ filter: f.eq("Key", base) });
    expect(value.map((row) => row.Key)).toEqual([base]);
  });
});
