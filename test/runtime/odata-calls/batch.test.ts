import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { createODataClient as createFetchClient } from "../../../src/runtime/odata/fetch.js";
import { BatchReadBackError, f, NetworkError, RecordMissingError, type BatchStep, type ODataClient } from "../../../src/runtime/odata/index.js";
import { PASSWORD, startOffice, USER } from "../../emulator/odata/serve-support.js";
import { Contacts, Elsewhere, Notes, officeClient } from "./support.js";

// od.batch against the emulator: one atomic changeset, typed results in order, a failing step leaves no trace.

let emu: RunningEmulator;
let od: ODataClient<"Office">;
beforeAll(async () => {
  emu = await startOffice(4);
  od = officeClient(emu.url);
});
afterAll(async () => {
  await od?.close();
  await emu?.close();
});

const batch: ODataClient<"Office">["batch"] = (build, options) => od.batch(build, options);
const notes = async (filter: string) => (await od.table(Notes).list({ filter: f.raw(filter) })).value;

describe("od.batch", () => {
  it("applies every step and resolves each step's result in order", async () => {
    const results = await batch((b) => [
      b.table(Contacts).create({ Name: "Grace", Age: 85 }),
      b.table(Notes).create({ ContactId: "A1", Text: "batch one", N: 501 }),
      b.table(Notes).update({ rowId: 1 }, { Text: "renamed" }),
      b.table(Notes).updateWhere(f.gte("N", 2), { Text: "many" }),
      b.table(Notes).deleteWhere(f.eq("N", 4)),
      b.table(Contacts).delete("C3"),
    ]);
    expect(results[0]).toMatchObject({ Name: "Grace", Age: 85, id: expect.stringMatching(/^[0-9A-F-]{36}$/i) });
    // The new note as stored once the whole batch applied: the updateWhere after it renamed it.
    expect(results[1]).toEqual({ ContactId: "A1", Text: "many", N: 501 });
    expect(results.slice(2)).toEqual([undefined, 4, 1, undefined]);
    expect(await notes("N eq 1")).toMatchObject([{ Text: "renamed" }]);
    expect((await notes("N ge 2")).map((n) => n.Text)).toEqual(["many", "many", "many"]);
  });

  it("a created row that a later step deletes: applied, and a BatchReadBackError holds the other results", async () => {
    const error = await batch((b) => [b.table(Notes).create({ Text: "short-lived", N: 600 }), b.table(Notes).deleteWhere(f.eq("N", 600)), b.table(Notes).create({ Text: "stays", N: 601 })]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BatchReadBackError);
    expect(error).toMatchObject({ name: "BatchReadBackError", results: [null, 1, { Text: "stays", N: 601 }] });
    expect((error as Error).message).toMatch(/applied, but the new row of step 1 \(create Notes, ROWID \d+\) no longer exists/);
    expect(await notes("N ge 600 and N le 601")).toMatchObject([{ Text: "stays" }]);
  });

  it("a failing step rejects the batch, names the step, and leaves no trace", async () => {
    const before = await notes("N ne null");
    const error = await batch((b) => [
      b.table(Notes).create({ Text: "never", N: 900 }),
      b.table(Notes).updateWhere(f.eq("N", 1), { Text: "never either" }),
      b.table(Notes).update({ rowId: 424242 }, { Text: "x" }),
      b.table(Notes).create({ Text: "not reached", N: 901 }),
    ]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RecordMissingError);
    expect(error).toMatchObject({ code: "-1023", httpStatus: 404, batchStep: 3, call: { method: "PATCH", path: "/Notes(ROWID=424242)" } });
    expect((error as Error).message).toMatch(/^batch: step 3 \(update Notes\(ROWID=424242\)\) of 4 failed, so nothing of the batch was applied: PATCH \/Notes\(ROWID=424242\): OData error -1023/);
    expect(await notes("N ne null")).toEqual(before);
  });

  it("takes a 100-step changeset", async () => {
    const results = await batch((b) => Array.from({ length: 100 }, (_, i) => b.table(Notes).create({ Text: `bulk ${i}`, N: 1000 + i })));
    expect(results.map((r) => (r as { N: number }).N)).toEqual(Array.from({ length: 100 }, (_, i) => 1000 + i));
    expect(await notes("N ge 1000")).toHaveLength(100);
  });

  it("refuses a table of another database, a step of another builder, and bad values before sending anything", async () => {
    await expect(batch((b) => [b.table(Elsewhere as never).create({ Text: "x" } as never)])).rejects.toThrow(TypeError);
    await expect(batch((b) => [b.table(Elsewhere as never).create({ Text: "x" } as never)])).rejects.toThrow(/database "Other"/);
    let stolen: BatchStep<unknown> | undefined;
    await batch((b) => {
      stolen = b.table(Notes).create({ Text: "stolen", N: 7000 });
      return [];
    });
    await expect(batch(() => [stolen!])).rejects.toThrow(/step 1 is not a step made by this batch's builder/);
    await expect(batch((b) => [b.table(Notes).update("k" as never, { Text: "x" })])).rejects.toThrow(/table "Notes" has no key/);
    // The single calls' checks, before anything is sent: a read-only field, an unknown one, a value of the wrong type.
    const writes = [
      () => batch((b) => [b.table(Notes).create({ Text: "x", N: 7000 }), b.table(Contacts).update("A1", { Label: "x" } as never)]),
      () => batch((b) => [b.table(Notes).create({ Text: "x", N: 7000 }), b.table(Notes).create({ Nope: 1 } as never)]),
      () => batch((b) => [b.table(Notes).create({ Text: "x", N: 7000 }), b.table(Notes).update({ rowId: 1 }, { N: "seven" } as never)]),
    ];
    for (const write of writes) await expect(write()).rejects.toThrow(TypeError);
    await expect(writes[0]!()).rejects.toThrow(/Label/);
    expect(await notes("N eq 7000")).toEqual([]);
  });

  it("a read back that fails says the batch is applied", async () => {
    let sent = 0;
    const lossy = createFetchClient({ server: emu.url, database: "Office", auth: { username: USER, password: PASSWORD }, fetch: (input, init) => (++sent === 2 ? Promise.reject(new TypeError("fetch failed")) : fetch(input, init)) });
    const error = await lossy.batch((b) => [b.table(Notes).create({ Text: "applied anyway", N: 8000 })]).catch((e: unknown) => e);
    await lossy.close();
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toMatch(/^batch: applied, but reading back its new rows failed: /);
    expect(await notes("N eq 8000")).toMatchObject([{ Text: "applied anyway" }]);
  });
});
