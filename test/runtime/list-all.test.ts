import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FileMakerClient, LayoutClient } from "../../src/runtime/index.js";
import { connect, counting, startRuntimeEmulator, type Emulator } from "../support/runtime-emulator.js";
import { DATABASE, Types, TYPES_TABLE } from "../support/runtime-layouts.js";

// listAll over 25,000 records: every record exactly once, one page in memory at a time. Heap growth is
// reported, never timed; it is bounded only when a garbage collection can be forced (global.gc).

const COUNT = 25_000;

let emu: Emulator;
let fm: FileMakerClient;
let types: LayoutClient<typeof Types>;

beforeAll(async () => {
  const rows = Array.from({ length: COUNT }, (_, i) => ({ Text: `row ${i} ${"x".repeat(40)}`, Number: i, Tags: `t${i % 7}`, "Tags(3)": `z${i}` }));
  emu = await startRuntimeEmulator({ data: { accounts: [{ username: "web", password: "secret", privileges: ["fmrest"] }], records: { [TYPES_TABLE]: rows } } });
  fm = connect(emu.url);
  types = fm.layout(Types);
}, 60_000);

afterAll(async () => {
  await fm.close();
  await emu.close();
});

/** global.gc when node runs with --expose-gc; otherwise the flag is set at run time and gc taken from a fresh context. */
function findGc(): (() => void) | undefined {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  try {
    setFlagsFromString("--expose-gc");
    const fromContext: unknown = runInNewContext("gc");
    return typeof fromContext === "function" ? (fromContext as () => void) : undefined;
  } catch {
    return undefined;
  }
}

const gc = findGc();

function heapUsed(): number {
  gc?.();
  return process.memoryUsage().heapUsed;
}

describe(`listAll over ${COUNT.toLocaleString("en")} records`, () => {
  it("yields each record exactly once", async () => {
    expect(emu.stats().records[DATABASE]![TYPES_TABLE]).toBe(COUNT);
    const seenNumber = new Uint8Array(COUNT);
    const seenId = new Set<string>();
    let yielded = 0;
    let peak = 0;
    let midway = 0;
    const before = heapUsed();
    const { requests, logins } = await counting(emu, async () => {
      for await (const record of types.listAll()) {
        yielded++;
        const n = record.fieldData.Number;
        expect(typeof n).toBe("number");
        seenNumber[n!] = (seenNumber[n!] ?? 0) + 1;
        seenId.add(record.recordId);
        expect(record.fieldData.Text).toBe(`row ${n} ${"x".repeat(40)}`);
        if (yielded % 5_000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
        // Four fifths through: whatever the stream holds besides the current page is live here.
        if (yielded === 20_000) midway = heapUsed();
      }
    });
    const after = heapUsed();
    expect(yielded).toBe(COUNT);
    expect(seenId.size).toBe(COUNT);
    expect(seenNumber.every((times) => times === 1)).toBe(true);
    expect(logins).toBe(1);
    // Pages of the default size (500), and the login.
    expect(requests).toBeLessThanOrEqual(Math.ceil(COUNT / 500) + 2);
    console.log(
      `listAll ${COUNT} records in ${requests} requests: heapUsed ${(before / 2 ** 20).toFixed(1)} MiB before, ` +
        `${(peak / 2 ** 20).toFixed(1)} MiB peak while iterating, ${(midway / 2 ** 20).toFixed(1)} MiB live at record 20,000, ` +
        `${(after / 2 ** 20).toFixed(1)} MiB after ` +
        `(growth ${((after - before) / 2 ** 20).toFixed(1)} MiB; gc ${gc ? "exposed" : "not exposed: figures include garbage"})`,
    );
    if (gc) {
      // Holding every decoded record would cost far more (see the next test's figure).
      expect(midway - before).toBeLessThan(16 * 2 ** 20);
      expect(after - before).toBeLessThan(16 * 2 ** 20);
    }
  }, 30_000);

  it("for scale: what holding all the records at once costs", async () => {
    const before = heapUsed();
    const all: unknown[] = [];
    for await (const record of types.listAll()) all.push(record);
    const held = heapUsed();
    expect(all).toHaveLength(COUNT);
    console.log(`holding all ${COUNT} decoded records: ${((held - before) / 2 ** 20).toFixed(1)} MiB (gc ${gc ? "exposed" : "not exposed"})`);
  }, 30_000);

  it("with a sort and a larger page size, yields each record once in order", async () => {
    let expected = COUNT - 1;
    for await (const record of types.listAll({ pageSize: 2_500, sort: [{ fieldName: "Number", sortOrder: "descend" }] })) {
      expect(record.fieldData.Number).toBe(expected);
      expected--;
    }
    expect(expected).toBe(-1);
  }, 30_000);

  it("findAll over a fifth of them yields each match exactly once", async () => {
    const seen = new Set<number>();
    for await (const record of types.findAll({ query: [{ Tags: "t3" }], pageSize: 1_000 })) {
      expect(record.fieldData.Tags[0]).toBe("t3");
      seen.add(record.fieldData.Number!);
    }
    const expected = Array.from({ length: COUNT }, (_, i) => i).filter((i) => i % 7 === 3);
    expect(seen.size).toBe(expected.length);
    expect(expected.every((i) => seen.has(i))).toBe(true);
  }, 30_000);
});

describe("listAll and findAll from an offset, up to a limit", () => {
  const numbers = async (records: AsyncIterable<{ fieldData: { Number: number | null } }>) => {
    const out: (number | null)[] = [];
    for await (const r of records) out.push(r.fieldData.Number);
    return out;
  };
  const sort = [{ fieldName: "Number", sortOrder: "ascend" }] as const;

  it("yields exactly the records in the window, whatever the page size", async () => {
    for (const pageSize of [1, 7, 500, 5_000]) {
      const { result, requests } = await counting(emu, () => numbers(types.listAll({ sort, offset: 101, limit: 50, pageSize })));
      expect(result).toEqual(Array.from({ length: 50 }, (_, i) => 100 + i));
      // Never a page past the window.
      expect(requests).toBe(Math.ceil(50 / pageSize));
    }
    expect(await numbers(types.listAll({ sort, offset: COUNT - 2, limit: 10 }))).toEqual([COUNT - 3, COUNT - 2, COUNT - 1]);
    expect(await numbers(types.listAll({ offset: COUNT + 1 }))).toEqual([]);
  }, 30_000);

  it("reads at most two pages ahead of the one being consumed, and never past the found count", async () => {
    const { requests } = await counting(emu, async () => {
      for await (const record of types.listAll({ pageSize: 100 })) {
        expect(record.fieldData.Number).toBe(0);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(requests).toBe(3);
    // 250 records in pages of 100: three requests, none past the end.
    const { result, requests: exact } = await counting(emu, () => numbers(types.listAll({ sort, offset: COUNT - 249, pageSize: 100 })));
    expect(result).toHaveLength(250);
    expect(exact).toBe(3);
  }, 30_000);

  it("findAll windows the matches", async () => {
    const found = await numbers(types.findAll({ query: [{ Tags: "t3" }], sort, offset: 3, limit: 4, pageSize: 3 }));
    expect(found).toEqual([17, 24, 31, 38]);
  });

  it("refuses a window that is not whole numbers >= 1", async () => {
    await expect(numbers(types.listAll({ offset: 0 }))).rejects.toThrow("offset must be a whole number >= 1, got 0");
    await expect(numbers(types.listAll({ limit: 1.5 }))).rejects.toThrow("limit must be a whole number >= 1, got 1.5");
  });
});
