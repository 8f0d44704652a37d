import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Calculations, type ScriptHandlers } from "../../src/emulator/index.js";
import type { CliIo } from "../../src/cli/io.js";
import { run } from "../../src/cli/run.js";
import { DataApi, expectError, expectOk, p } from "../support/data-api-http.js";

// The emulator computes what servers compute (docs/emulator.md, "Calculations and related fields"): calculation
// fields given as JavaScript functions (a scripts module's `calculations` export, or startEmulator's option),
// evaluated on every read; related fields outside portals joined through the descriptions' relations to the first
// related record. Over loopback HTTP, on the Shop fixture: Orders (Total, Label, Check calculations;
// Customers::Name joined), its Lines portal (Lines::Amount a calculation), Customers with an Orders portal.

type Emulator = Awaited<ReturnType<typeof startEmulator>>;

const FIXTURE = fileURLToPath(new URL("../fixtures/calculations/", import.meta.url));
const LAYOUTS = `${FIXTURE}layouts`;
const SEED = `${FIXTURE}seed.json`;
const MODULE = `${FIXTURE}calculations.mjs`;
const DB = "Shop";

/** The fixture's calculations, as an object (the module's export, imported). */
const calculations = ((await import(MODULE)) as { calculations: Calculations }).calculations;

/** What order 1..4 of the seed read as: the computed fields of the Orders layout. */
const SEEDED = [
  { Number: "A-1", "Customers::Name": "Acme", Total: 25.5, Label: "A-1 for Acme", Check: 3 },
  { Number: "A-2", "Customers::Name": "Globex", Total: 300, Label: "A-2 for Globex", Check: 3 },
  { Number: "B-1", "Customers::Name": "Acme", Total: 0, Label: "B-1 for Acme", Check: "?" },
  { Number: "B-2", "Customers::Name": "", Total: 0, Label: "B-2 for nobody", Check: "?" },
];

function computed(fieldData: Record<string, unknown>) {
  const { Number, "Customers::Name": name, Total, Label, Check } = fieldData;
  return { Number, "Customers::Name": name, Total, Label, Check };
}

async function started(options: { scripts?: ScriptHandlers; log?: string[]; data?: unknown } = {}): Promise<{ emu: Emulator; api: DataApi; token: string }> {
  const log = options.log ?? [];
  const emu = await startEmulator({
    layouts: [LAYOUTS],
    data: (options.data as never) ?? SEED,
    calculations,
    ...(options.scripts ? { scripts: options.scripts } : {}),
    log: (line) => log.push(line),
  });
  const api = new DataApi(emu.url);
  return { emu, api, token: await api.login("web", "secret", DB) };
}

describe("calculations and joined related fields, on every read", () => {
  let emu: Emulator;
  let api: DataApi;
  let token: string;
  const log: string[] = [];
  const scriptReads: unknown[] = [];
  const scripts: ScriptHandlers = {
    "Read Order": ({ param, records, foundSet }) => {
      scriptReads.push({ get: computed(records.get("Orders", param).fieldData), found: foundSet?.records.map((r) => r.fieldData.Total) });
      return records.get("Orders", param).fieldData.Total;
    },
  };

  beforeAll(async () => {
    ({ emu, api, token } = await started({ scripts, log }));
  });
  afterAll(async () => {
    await emu?.close();
  });

  it("get, list, find and a response layout answer the computed values; portal rows compute theirs", async () => {
    for (const [i, expected] of SEEDED.entries()) {
      expect(computed((await api.getOk(token, "Orders", String(i + 1), DB)).fieldData)).toEqual(expected);
    }
    const first = await api.getOk(token, "Orders", "1", DB);
    expect(first.portalData.Lines.map((row: Record<string, unknown>) => row["Lines::Amount"])).toEqual([20, 5.5]);
    const listed = expectOk(await api.list(token, "Orders", undefined, DB)).data;
    expect(listed.map((r: { fieldData: Record<string, unknown> }) => computed(r.fieldData))).toEqual(SEEDED);
    const found = expectOk(await api.find(token, "Orders", { query: [{ Number: "A-2" }], "layout.response": "Order List" }, DB)).data;
    expect(found[0].fieldData).toEqual({ Number: "A-2", "Customers::Name": "Globex", Total: 300 });
    // A calculation in a portal row of another table's layout.
    const acme = await api.getOk(token, "Customers", "1", DB);
    expect(acme.portalData.Orders.map((row: Record<string, unknown>) => [row["Orders::Number"], row["Orders::Total"]])).toEqual([
      ["A-1", 25.5],
      ["B-1", 0],
    ]);
  });

  it("a script reads the computed values (records.get, its found set) and the calculation runs again after each change", async () => {
    const res = await api.call("GET", `${p`/databases/${DB}/layouts/Orders/records/${"1"}`}?script=Read%20Order&script.param=2`, { token });
    expect(expectOk(res).scriptResult).toBe("300");
    expect(scriptReads.at(-1)).toEqual({ get: SEEDED[1], found: [25.5] });
  });

  it("a create with portal rows, then a change to a related row, changes the parent's calculation on the next read", async () => {
    const { recordId } = await api.createOk(token, "Orders", { fieldData: { Number: "C-1", CustomerID: 2 }, portalData: { Lines: [{ "Lines::Qty": 4, "Lines::Price": 2.5 }] } }, DB);
    const created = await api.getOk(token, "Orders", recordId, DB);
    expect(computed(created.fieldData)).toEqual({ Number: "C-1", "Customers::Name": "Globex", Total: 10, Label: "C-1 for Globex", Check: 3 });
    const line = created.portalData.Lines[0].recordId as string;

    // Through the portal, then through the related table's own layout.
    expectOk(await api.edit(token, "Orders", recordId, { fieldData: {}, portalData: { Lines: [{ recordId: line, "Lines::Qty": 10 }] } }, DB));
    expect((await api.getOk(token, "Orders", recordId, DB)).fieldData.Total).toBe(25);
    expectOk(await api.create(token, "Lines", { fieldData: { OrderID: Number(recordId), Qty: 1, Price: 1 } }, DB));
    expect((await api.getOk(token, "Orders", recordId, DB)).fieldData.Total).toBe(26);

    // The joined related field follows the related record, and the calculation that reads it.
    expectOk(await api.edit(token, "Customers", "2", { fieldData: { Name: "Globex Corp" } }, DB));
    expect(computed((await api.getOk(token, "Orders", recordId, DB)).fieldData)).toMatchObject({ "Customers::Name": "Globex Corp", Label: "C-1 for Globex Corp" });
    // A new relation key joins another record.
    expectOk(await api.edit(token, "Orders", recordId, { fieldData: { CustomerID: 1 } }, DB));
    expect((await api.getOk(token, "Orders", recordId, DB)).fieldData["Customers::Name"]).toBe("Acme");
    expectOk(await api.delete(token, "Orders", recordId, DB));
    expectOk(await api.edit(token, "Customers", "2", { fieldData: { Name: "Globex" } }, DB));
  });

  it("a calculation that throws, or returns a value its field's type cannot hold, reads \"?\" and is logged once, naming table, field and record", async () => {
    expect((await api.getOk(token, "Orders", "3", DB)).fieldData.Check).toBe("?");
    expect((await api.getOk(token, "Orders", "3", DB)).fieldData.Check).toBe("?");
    const thrown = log.filter((line) => line.includes('calculation "Check" of table "Orders", record 3'));
    expect(thrown).toEqual(['calculation "Check" of table "Orders", record 3: threw Error: no check for B-1; the field reads "?", as a server shows an invalid result']);
    expect(log).toContain('calculation "Check" of table "Orders", record 4: returned "not a number", not a valid number (expected a number); the field reads "?", as a server shows an invalid result');
  });

  it("finds and sorts on a calculation and on a joined related field", async () => {
    const numbers = (res: Awaited<ReturnType<DataApi["find"]>>) => expectOk(res).data.map((r: { fieldData: { Number: string } }) => r.fieldData.Number);
    expect(numbers(await api.find(token, "Orders", { query: [{ Total: ">20" }], sort: [{ fieldName: "Total", sortOrder: "descend" }] }, DB))).toEqual(["A-2", "A-1"]);
    expect(numbers(await api.find(token, "Orders", { query: [{ "Customers::Name": "acme" }], sort: [{ fieldName: "Label", sortOrder: "descend" }] }, DB))).toEqual(["B-1", "A-1"]);
    // A number calculation whose result was invalid ("?") matches no number.
    expect(numbers(await api.find(token, "Orders", { query: [{ Check: "3" }] }, DB))).toEqual(["A-1", "A-2"]);
    expect(numbers(await api.find(token, "Orders", { query: [{ Label: "nobody" }] }, DB))).toEqual(["B-2"]);
    const sorted = expectOk(await api.list(token, "Orders", { _sort: JSON.stringify([{ fieldName: "Total" }, { fieldName: "Number", sortOrder: "descend" }]) }, DB)).data;
    expect(sorted.map((r: { fieldData: { Number: string } }) => r.fieldData.Number)).toEqual(["B-2", "B-1", "A-1", "A-2"]);
  });

  it("writes to a calculation or a joined related field are refused with 201, and nothing is stored", async () => {
    expectError(await api.edit(token, "Orders", "1", { fieldData: { Total: 1 } }, DB), 400, "201");
    expectError(await api.edit(token, "Orders", "1", { fieldData: { Total: 1 }, options: { prohibitmode: "script" } }, DB), 400, "201");
    expectError(await api.create(token, "Orders", { fieldData: { Number: "X", Total: 1 } }, DB), 400, "201");
    const related = await api.edit(token, "Orders", "1", { fieldData: { Number: "renamed", "Customers::Name": "Initech" } }, DB);
    expectError(related, 400, "201");
    expect(related.body.messages[0]!.message).toMatch(/"Customers::Name" is a related field, joined through the relation Orders::CustomerID = Customers::id/);
    expect(computed((await api.getOk(token, "Orders", "1", DB)).fieldData)).toEqual(SEEDED[0]);
    expect((await api.getOk(token, "Customers", "1", DB)).fieldData.Name).toBe("Acme");
  });
});

it("a circular calculation, a forgotten return and an async calculation read \"?\", each logged with its cause", async () => {
  const log: string[] = [];
  const number = (name: string) => ({ name, type: "number" as const, readOnly: true });
  const emu = await startEmulator({
    layouts: [{ database: DB, layout: "T", table: "T", fields: [{ name: "N", type: "number" }, number("A"), number("B"), number("C"), number("D")] }],
    data: { accounts: [{ username: "web", password: "secret" }], records: { T: [{ N: 1 }] } },
    calculations: {
      T: {
        A: (r) => Number(r.B) + 1,
        B: (r) => Number(r.A) + 1,
        C: (() => undefined) as never,
        D: (async () => 1) as never,
      },
    },
    log: (line) => log.push(line),
  });
  try {
    const api = new DataApi(emu.url);
    const token = await api.login("web", "secret", DB);
    const { N, A, B, C, D } = (await api.getOk(token, "T", "1", DB)).fieldData;
    expect({ N, A, B, C, D }).toEqual({ N: 1, A: "?", B: "?", C: "?", D: "?" });
    expect(log).toEqual([
      'calculation "A" of table "T", record 1: threw Error: circular calculation: "A" of table "T" reads itself (record 1); the field reads "?", as a server shows an invalid result',
      'calculation "B" of table "T", record 1: threw Error: circular calculation: "B" of table "T" reads itself (record 1); the field reads "?", as a server shows an invalid result',
      'calculation "C" of table "T", record 1: returned undefined; a calculation returns a string, a finite number or null; the field reads "?", as a server shows an invalid result',
      'calculation "D" of table "T", record 1: returned a Promise; a calculation is synchronous (it runs on every read); the field reads "?", as a server shows an invalid result',
    ]);
  } finally {
    await emu.close();
  }
});

describe("calculations: what the emulator refuses at start", () => {
  const seed = (orders: Record<string, string | number>[]) => ({ records: { Orders: orders } });

  it("a seed value for a calculation or a joined related field, naming the file, table, record and field", async () => {
    await expect(started({ data: seed([{ Number: "A" }, { Number: "B", Total: 3 }]) })).rejects.toThrow(
      '<seed>: records.Orders[1]["Total"]: "Total" is a calculation, computed on every read; remove it from the seed',
    );
    await expect(started({ data: seed([{ Number: "A", "Customers::Name": "Acme" }]) })).rejects.toThrow(
      '<seed>: records.Orders[0]["Customers::Name"]: "Customers::Name" is a related field, joined through the relation Orders::CustomerID = Customers::id; seed the related record instead',
    );
  });

  it.each([
    [{ Nope: { Total: () => 1 } }, 'calculations: calculations["Nope"]: no layout description uses a table named "Nope"'],
    [{ Orders: { Missing: () => 1 } }, 'calculations: calculations["Orders"]["Missing"]: table "Orders" of database "Shop" has no field "Missing"'],
    [{ Orders: { Number: () => 1 } }, 'calculations: calculations["Orders"]["Number"]: field "Number" of table "Orders" is not "readOnly"'],
    [{ Orders: { id: () => 1 } }, 'field "id" of table "Orders" is auto-entered (serial), not a calculation'],
    [{ Orders: { Total: 1 } }, 'calculations: calculations["Orders"]["Total"] must be a function (record, related) => value, got number'],
  ])("%j", async (given, message) => {
    await expect(startEmulator({ layouts: [LAYOUTS], calculations: given as never, log: () => {} })).rejects.toThrow(message);
  });

  it("a calculation given both by the scripts module and the option", async () => {
    await expect(startEmulator({ layouts: [LAYOUTS], scripts: MODULE, calculations: { Lines: { Amount: () => 0 } }, log: () => {} })).rejects.toThrow(
      `calculations: calculations["Lines"]["Amount"] is also given by ${MODULE}: export calculations`,
    );
  });
});

describe("fmgen serve --scripts: the module's calculations export", () => {
  it("computes the module's calculations", async () => {
    let stop!: () => void;
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = { stdout: (l) => out.push(l), stderr: (l) => err.push(l), stopSignal: () => new Promise<void>((resolve) => (stop = resolve)) };
    const done = run(["serve", "--layouts", LAYOUTS, "--data", SEED, "--scripts", MODULE], io);
    try {
      await expect.poll(() => out.length + err.length, { timeout: 30_000 }).toBeGreaterThan(0);
      expect(err).toEqual([]);
      const api = new DataApi(out[0]!);
      const token = await api.login("web", "secret", DB);
      expect(computed((await api.getOk(token, "Orders", "2", DB)).fieldData)).toEqual(SEEDED[1]);
      const script = await api.call("GET", `${p`/databases/${DB}/layouts/Orders/script/${"Order Total"}`}?script.param=1`, { token });
      expect(expectOk(script)).toEqual({ scriptResult: "25.5", scriptError: "0" });
    } finally {
      stop?.();
    }
    expect(await done).toBe(0);
  });

  it("a module whose calculations export is not tables of functions stops it with exit code 1, naming the file", async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = { stdout: (l) => out.push(l), stderr: (l) => err.push(l), stopSignal: () => new Promise<void>(() => {}) };
    expect(await run(["serve", "--layouts", LAYOUTS, "--scripts", `${FIXTURE}bad-calculations.mjs`], io)).toBe(1);
    expect(out).toEqual([]);
    expect(err.join("\n")).toContain('bad-calculations.mjs: export calculations: calculations["Orders"]["Total"] must be a function (record, related) => value, got number');
  });

  it("a module with only a calculations export gives calculations and no scripts", async () => {
    const emu = await startEmulator({ layouts: [LAYOUTS], data: SEED, scripts: `${FIXTURE}only-calculations.mjs` });
    try {
      const api = new DataApi(emu.url);
      const token = await api.login("web", "secret", DB);
      expect((await api.getOk(token, "Lines", "3", DB)).fieldData.Amount).toBe(300);
      expect(expectOk(await api.call("GET", p`/databases/${DB}/scripts`, { token })).scripts).toEqual([]);
    } finally {
      await emu.close();
    }
  });
});
