import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { lookupCost } from "../../../src/emulator/hosted-file/field-index.js";
import { DataApi, p } from "../../support/data-api-http.js";
import { batch, changeset, json, S } from "./batch-support.js";
import { DB, get, LAYOUTS, PASSWORD, send as sendTo, USER, type Answer } from "./serve-support.js";

// A record addressed by its key (`Contacts('k')`) was found by scanning the table from its first row, so the cost of
// a read or write by key grew with the row's place: a `$batch` of 100 PATCHes took ~3 ms on the first rows of a
// 3,000-row table and ~23 ms on the last. A FileMaker server finds it through the key's index; so does the
// emulator now. The cost is counted, not timed: `lookupCost.ids` counts the rows a lookup visits or hands out
// (field-index.ts), and a call by key must cost the same on the first row as on the last, a small constant.

const ROWS = 2_000;
/** Rows a call by key may visit or hand out (its own record, its unique check, its joins): a constant, whatever ROWS is. */
const PER_CALL = 8;

const key = (i: number) => `K${String(i).padStart(7, "0")}`;
const FIRST = key(1);
const LAST = key(ROWS);

let emu: RunningEmulator;
const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> => sendTo(emu.url, method, path, body, headers);

beforeAll(async () => {
  emu = await startEmulator({
    layouts: LAYOUTS,
    calculations: { Contacts: { Label: (r) => `${r.Name} (${r.Age})` } },
    data: {
      accounts: [{ username: USER, password: PASSWORD }],
      records: {
        Contacts: Array.from({ length: ROWS }, (_, i) => ({ id: key(i + 1), Name: `n${i + 1}`, Age: i })),
        Notes: [{ ContactId: FIRST, Text: "first" }, { ContactId: LAST, Text: "last" }],
      },
    },
  });
});
afterAll(() => emu.close());

/** The rows the call's lookups visited or handed out (the emulator runs in this process). */
async function costOf(call: () => Promise<unknown>): Promise<number> {
  const before = lookupCost.ids;
  await call();
  return lookupCost.ids - before;
}

async function ok(a: Promise<Answer>, status = 200): Promise<Answer> {
  const answer = await a;
  expect(answer.status, answer.text).toBe(status);
  return answer;
}

describe(`a call by key on a table of ${ROWS.toLocaleString("en-US")} rows`, () => {
  it("costs the same on the last row as on the first, and a small constant (no scan from the first row)", async () => {
    // The first lookup by key may index the table (one pass); every later one is a lookup.
    await ok(get(emu.url, `${S}/Contacts('${FIRST}')`));
    const calls: Record<string, (k: string) => Promise<unknown>> = {
      "GET T(k)": (k) => ok(get(emu.url, `${S}/Contacts('${k}')`)),
      "GET T(k)/F": (k) => ok(get(emu.url, `${S}/Contacts('${k}')/Name`)),
      "GET T(k)/Nav": (k) => ok(get(emu.url, `${S}/Contacts('${k}')/Notes`)),
      "GET T(k)/Nav/$ref": (k) => ok(get(emu.url, `${S}/Contacts('${k}')/Notes/$ref`)),
      "PATCH T(k)": (k) => ok(send("PATCH", `${S}/Contacts('${k}')`, { Age: 7 }), 204),
      "$batch changeset of PATCH T(k)": async (k) => {
        const a = await batch(emu.url, [{ kind: "changeset", requests: [{ method: "PATCH", url: `${S}/Contacts('${k}')`, ...json({ Age: 8 }) }] }]);
        expect(changeset(a.items?.[0]).map((r) => r.status)).toEqual([204]);
      },
    };
    for (const [name, call] of Object.entries(calls)) {
      const first = await costOf(() => call(FIRST));
      const last = await costOf(() => call(LAST));
      expect({ name, last }).toEqual({ name, last: first });
      expect(first, name).toBeLessThanOrEqual(PER_CALL);
    }
  });

  it("follows a key change, a rolled-back key change and a delete", async () => {
    await ok(send("PATCH", `${S}/Contacts('${key(ROWS - 1)}')`, { id: "MOVED" }), 204);
    await ok(get(emu.url, `${S}/Contacts('MOVED')`));
    await ok(get(emu.url, `${S}/Contacts('${key(ROWS - 1)}')`), 404);

    // A changeset that changes a key, then fails: the old key finds the record again, the new one nothing.
    const a = await batch(emu.url, [
      {
        kind: "changeset",
        requests: [
          { method: "PATCH", url: `${S}/Contacts('${key(ROWS - 2)}')`, ...json({ id: "GONE" }) },
          { method: "PATCH", url: `${S}/Contacts('NO-SUCH-KEY')`, ...json({ Age: 1 }) },
        ],
      },
    ]);
    expect(a.status).toBe(200);
    await ok(get(emu.url, `${S}/Contacts('GONE')`), 404);
    expect((await ok(get(emu.url, `${S}/Contacts('${key(ROWS - 2)}')`))).body.Name).toBe(`n${ROWS - 2}`);

    const cost = await costOf(() => ok(send("DELETE", `${S}/Contacts('${key(ROWS - 3)}')`), 204));
    expect(cost).toBeLessThanOrEqual(PER_CALL);
    await ok(get(emu.url, `${S}/Contacts('${key(ROWS - 3)}')`), 404);
    // A new record with a key that was deleted is found by it.
    await ok(send("POST", `${S}/Contacts`, { id: key(ROWS - 3), Name: "again" }), 201);
    expect((await ok(get(emu.url, `${S}/Contacts('${key(ROWS - 3)}')`))).body.Name).toBe("again");
  });

  it("reads and edits a Data API record by recordId, and checks a unique key, at a cost that does not grow with the row's place", async () => {
    const api = new DataApi(emu.url);
    const token = await api.login(USER, PASSWORD, DB);
    const record = (id: number) => p`/databases/${DB}/layouts/Contacts/records/${String(id)}`;
    const read = (id: number) => costOf(async () => expect((await api.call("GET", record(id), { token })).status).toBe(200));
    const edit = (id: number) => costOf(async () => expect((await api.call("PATCH", record(id), { token, json: { fieldData: { Name: "edited" } } })).status).toBe(200));
    for (const call of [read, edit]) {
      const first = await call(1);
      expect(await call(ROWS)).toBe(first);
      expect(first).toBeLessThanOrEqual(PER_CALL);
    }
    // A create whose unique key the last row holds: refused (504) through the unique index, not a scan.
    const create = (id: string) => costOf(async () => expect((await api.call("POST", p`/databases/${DB}/layouts/Contacts/records`, { token, json: { fieldData: { id } } })).body.messages[0]?.code).toBe("504"));
    const first = await create(FIRST);
    expect(await create(LAST)).toBe(first);
    expect(first).toBeLessThanOrEqual(PER_CALL);
  });
});
