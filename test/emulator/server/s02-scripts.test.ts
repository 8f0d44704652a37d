import { mkdtemp, readdir, copyFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ScriptStepError, type ScriptContext, type ScriptHandlers } from "../../../src/emulator/index.js";
import { startConformanceEmulator, type Emulator, type EmulatorOptions } from "../../support/conformance-emulator.js";
import { CONFORMANCE_LAYOUTS, CONTACTS, DataApi, DB, expectError, expectOk, INVOICES, NOTES, p, qs, type HttpResult } from "../../support/data-api-http.js";

// docs/emulator.md, "2. Scripts": scripts on calls (script, script.prerequest, script.presort and their params), in
// FileMaker's order, with their answer keys; a failing script; a missing script (104, nothing kept); the standalone
// endpoint; the script list with folders. Handlers are JavaScript (docs/emulator.md, "Scripts: handlers"): the ones
// here record what they see, which proves the order of the phases. Over loopback HTTP against the conformance fixtures
// (Contacts Web: Ada 1, Grace 2, Alan 3, Adam 4, Katherine 5).

const VERSIONS = ["v1", "v2", "vLatest"] as const;

interface Seen {
  script: string;
  param: string;
  layout: string;
  database: string;
  /** Record ids of the found set, in its order; null when the phase has none. */
  found: string[] | null;
  foundCount?: number;
  totalRecordCount?: number;
  /** How many Contacts records exist while the script runs. */
  contacts: number;
}

let seen: Seen[] = [];
let logLines: string[] = [];

function trace(name: string) {
  return (c: ScriptContext) => {
    seen.push({
      script: name,
      param: c.param,
      layout: c.layout,
      database: c.database,
      found: c.foundSet ? c.foundSet.records.map((r) => r.recordId) : null,
      ...(c.foundSet ? { foundCount: c.foundSet.foundCount, totalRecordCount: c.foundSet.totalRecordCount } : {}),
      contacts: c.records.list(CONTACTS).length,
    });
  };
}

let release: (() => void) | undefined;

const HANDLERS: ScriptHandlers = {
  Trace: trace("Trace"),
  "Trace Pre": trace("Trace Pre"),
  "Trace Presort": trace("Trace Presort"),
  Echo: ({ param }) => param,
  Number: () => 42,
  Nothing: () => undefined,
  Fails: () => ({ error: 3 }),
  "Result And Error": () => ({ result: "partly", error: 401 }),
  Throws: () => {
    throw new Error("boom in a handler");
  },
  "Bad Return": () => true as never,
  "Missing Record": ({ records }) => {
    records.get(CONTACTS, 99_999);
  },
  "Catch Step": ({ records }) => {
    try {
      // Not a number: refused whoever writes it (a missing required First Name is not: a script's write is not data entry).
      records.create(CONTACTS, { "First Name": "Typed", Age: "old" });
      return "created";
    } catch (error) {
      return { result: `${(error as ScriptStepError).code}: caught` };
    }
  },
  // Presort: gives the last record of the found set the smallest age, so an ascending sort by Age puts it first.
  "Make Youngest": ({ foundSet, records }) => {
    const last = foundSet!.records.at(-1)!;
    return records.edit(CONTACTS, last.recordId, { Age: 1 }).modId;
  },
  "Delete First": ({ foundSet, records }) => {
    records.delete(CONTACTS, foundSet!.records[0]!.recordId);
  },
  "Edit Param": ({ param, records }) => records.edit(CONTACTS, param, { "Last Name": "Scripted" }).modId,
  "Create Note": ({ param, records }) => records.create(NOTES, { Title: param }).recordId,
  Async: async ({ param, records }) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return records.edit(CONTACTS, param, { "Last Name": "Async" }).modId;
  },
  Gate: async () => {
    await new Promise<void>((resolve) => (release = resolve));
    return "released";
  },
  Globals: ({ globals }) => JSON.stringify({ banner: globals["Contacts::Site Banner"] }),
  "Set Banner": ({ param, records }) => {
    records.edit(CONTACTS, "1", { "Site Banner": param });
  },
  "Odd / Name?#%": () => "odd",
  "CRUD Tour": ({ records }) => {
    const { recordId, modId } = records.create(CONTACTS, { "First Name": "Tour", Email: "tour@example.com" });
    const edited = records.edit(CONTACTS, recordId, { "Last Name": "Guide" }, { modId });
    let stale = "";
    try {
      records.edit(CONTACTS, recordId, { "Last Name": "Stale" }, { modId });
    } catch (error) {
      stale = (error as ScriptStepError).code;
    }
    // A script's write is not data entry: Email's unique validation (during data entry, the default) does not apply.
    const twin = records.create(CONTACTS, { "First Name": "Dup", Email: "TOUR@example.com" });
    records.delete(CONTACTS, twin.recordId);
    let invalid = "";
    try {
      records.create(CONTACTS, { "First Name": "Dup", Age: "many" });
    } catch (error) {
      invalid = (error as ScriptStepError).code;
    }
    const found = records.find(CONTACTS, [{ "First Name": "Tour" }]).map((r) => [r.fieldData["Last Name"], r.modId]);
    const none = records.find(CONTACTS, [{ "First Name": "==Nobody" }]).length;
    const sorted = records.list(CONTACTS, { sort: [{ fieldName: "Age", sortOrder: "descend" }] })[0]!.fieldData["First Name"];
    const got = records.get(CONTACTS, recordId).fieldData["Last Name"];
    records.delete(CONTACTS, recordId);
    let gone = "";
    try {
      records.get(CONTACTS, recordId);
    } catch (error) {
      gone = (error as ScriptStepError).code;
    }
    let noLayout = "";
    try {
      records.list("No Such Layout");
    } catch (error) {
      noLayout = (error as ScriptStepError).code;
    }
    return JSON.stringify({ edited: edited.modId, stale, invalid, found, none, sorted, got, gone, noLayout });
  },
};

const DESCRIPTION = {
  database: DB,
  scripts: [
    { name: "Trace" },
    { name: "Send Invoice", folder: "Billing" },
    { name: "Close Month", folder: ["Billing", "Monthly"] },
    { name: "Echo", folder: "Billing" },
    { name: "Archive", folder: ["Billing", "Monthly"] },
    { name: "Cleanup", folder: "Maintenance" },
  ],
};

const started: Emulator[] = [];
async function start(overrides: Partial<EmulatorOptions> = {}): Promise<{ emu: Emulator; api: DataApi }> {
  const running = await startConformanceEmulator({ scripts: HANDLERS, databases: [DESCRIPTION], log: (line) => logLines.push(line), ...overrides });
  started.push(running.emu);
  return running;
}

let emu: Emulator;
let api: DataApi;
let serverEmu: Emulator;
let serverApi: DataApi;

beforeAll(async () => {
  ({ emu, api } = await start());
  ({ emu: serverEmu, api: serverApi } = await start({ serverStatuses: true }));
});
afterEach(() => {
  seen = [];
  logLines = [];
});
afterAll(async () => {
  await Promise.all(started.map((e) => e.close()));
});

const RECORDS = p`/databases/${DB}/layouts/${CONTACTS}/records`;
const FIND = p`/databases/${DB}/layouts/${CONTACTS}/_find`;
const scriptPath = (name: string, layout = CONTACTS) => p`/databases/${DB}/layouts/${layout}/script/${name}`;

const list = (a: DataApi, token: string, params: Record<string, string | number>) => a.call("GET", `${RECORDS}${qs(params)}`, { token });
const get = (a: DataApi, token: string, id: string, params: Record<string, string | number>) => a.call("GET", `${RECORDS}/${id}${qs(params)}`, { token });
const del = (a: DataApi, token: string, id: string, params: Record<string, string | number>) => a.call("DELETE", `${RECORDS}/${id}${qs(params)}`, { token });
const create = (a: DataApi, token: string, body: Record<string, unknown>) => a.call("POST", RECORDS, { token, json: body });
const edit = (a: DataApi, token: string, id: string, body: Record<string, unknown>) => a.call("PATCH", `${RECORDS}/${id}`, { token, json: body });
const find = (a: DataApi, token: string, body: Record<string, unknown>) => a.call("POST", FIND, { token, json: body });

/** The script answer keys of a response, in their order. */
function scriptKeys(response: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(response).filter(([k]) => k.startsWith("script")));
}

/** Both status modes: FileMaker errors are 400 with the contract's statuses, 500 with real servers'. */
async function eachStatusMode(work: (a: DataApi, token: string, fileMakerStatus: number, e: Emulator) => Promise<void>): Promise<void> {
  for (const [a, status, e] of [
    [api, 400, emu],
    [serverApi, 500, serverEmu],
  ] as const) {
    await work(a, await a.login(), status, e);
  }
}

/** Every record of the fixture's tables with content (Notes is counted: it starts empty). */
async function snapshot(a: DataApi, token: string, e: Emulator) {
  return { tables: e.stats().records, records: await a.snapshotAll(token, [CONTACTS, INVOICES]) };
}

describe("2. keys", () => {
  it("2. keys: a key given twice on the query string is 1708 (400 under both status modes), and no script runs", async () => {
    await eachStatusMode(async (a, token) => {
      const res = await a.call("GET", `${RECORDS}?script=Trace&script=Trace`, { token });
      expectError(res, 400, "1708");
      expect(res.body.messages[0]!.message).toMatch(/: script is given 2 times; give it once$/);
      expectError(await a.call("GET", `${RECORDS}/1?script=Trace&script.param=a&script.param=b`, { token }), 400, "1708");
    });
    expect(seen).toEqual([]);
  });

  it("2. keys: a body value that is not a string is 1708 naming the key, and nothing is created", async () => {
    await eachStatusMode(async (a, token, _, e) => {
      const before = await snapshot(a, token, e);
      for (const [key, value] of [["script", 5], ["script.param", { id: 1 }], ["script.prerequest", null], ["script.presort.param", ["x"]]] as const) {
        const res = await create(a, token, { fieldData: { "First Name": "Never" }, ...(key.endsWith(".param") ? { [key.replace(".param", "")]: "Trace" } : {}), [key]: value });
        expectError(res, 400, "1708");
        expect(res.body.messages[0]!.message).toContain(`${key} must be a string`);
      }
      expect(await snapshot(a, token, e)).toEqual(before);
    });
    expect(seen).toEqual([]);
  });

  it("2. keys: a .param without its script is 1708 (it would do nothing)", async () => {
    const token = await api.login();
    for (const key of ["script.param", "script.prerequest.param", "script.presort.param"]) {
      const res = await list(api, token, { [key]: "x" });
      expectError(res, 400, "1708");
      expect(res.body.messages[0]!.message).toContain(`${key} was given without ${key.replace(".param", "")}`);
    }
  });

  it("2. keys: the six names are all there is; a look-alike is 960", async () => {
    const token = await api.login();
    for (const name of ["script.after", "script.prerequest.params", "scripts", "script.presort.parameter"]) {
      const res = await list(api, token, { script: "Trace", [name]: "x" });
      expectError(res, 400, "960");
      expect(res.body.messages[0]!.message).toBe(`Unknown parameter(s): ${name}`);
    }
    expect(seen).toEqual([]);
  });
});

describe("2. where the keys go", () => {
  it.each(VERSIONS)("2. where: query string on list, get and delete; JSON body on create, find and edit (%s)", async (version) => {
    const a = api.withVersion(version);
    const token = await a.login();
    const keys = (param: string) => ({ script: "Trace", "script.param": param });
    expect(scriptKeys(expectOk(await list(a, token, { ...keys("list"), _limit: 1 })))).toEqual({ scriptError: "0" });
    expect(scriptKeys(expectOk(await get(a, token, "1", keys("get"))))).toEqual({ scriptError: "0" });
    const created = expectOk(await create(a, token, { fieldData: { "First Name": "Where", Email: `where-${version}@example.com` }, ...keys("create") }));
    expect(created).toEqual({ recordId: expect.any(String), modId: "0", scriptError: "0" });
    expect(expectOk(await edit(a, token, created.recordId, { fieldData: { Age: 3 }, ...keys("edit") }))).toEqual({ modId: "1", scriptError: "0" });
    expect(scriptKeys(expectOk(await find(a, token, { query: [{ "First Name": "Where" }], ...keys("find") })))).toEqual({ scriptError: "0" });
    expect(expectOk(await del(a, token, created.recordId, keys("delete")))).toEqual({ scriptError: "0" });
    expect(seen.map((s) => s.param)).toEqual(["list", "get", "create", "edit", "find", "delete"]);
    expect(seen.every((s) => s.layout === CONTACTS && s.database === DB)).toBe(true);
  });

  it("2. where: script keys elsewhere are unknown parameters (960): a create's, edit's or find's query string", async () => {
    const token = await api.login();
    expectError(await api.call("POST", `${RECORDS}?script=Trace`, { token, json: { fieldData: { "First Name": "X" } } }), 400, "960");
    expectError(await api.call("PATCH", `${RECORDS}/1?script=Trace`, { token, json: { fieldData: {} } }), 400, "960");
    expectError(await api.call("POST", `${FIND}?script=Trace`, { token, json: { query: [{ "First Name": "Ada" }] } }), 400, "960");
    expect(seen).toEqual([]);
  });

  it("2. where (choice): a delete also takes the keys in a JSON body, as fms-api-client sends them; a key in both places is 1708", async () => {
    const { api: a } = await start();
    const token = await a.login();
    const res = await a.call("DELETE", `${RECORDS}/5`, { token, json: { script: "Trace", "script.param": "from the body" } });
    expect(expectOk(res)).toEqual({ scriptError: "0" });
    expect(seen.map((s) => [s.param, s.contacts])).toEqual([["from the body", 4]]);
    expectError(await a.call("DELETE", `${RECORDS}/4?script=Trace`, { token, json: { script: "Trace" } }), 400, "1708");
    expectError(await a.call("DELETE", `${RECORDS}/4`, { token, json: { script: "Trace", fieldData: {} } }), 400, "960");
    expectOk(await a.get(token, CONTACTS, "4"));
  });
});

describe("2. order of a call", () => {
  it("2. order: prerequest, the action, presort (unsorted found set), sort, script (sorted, the whole found set), then offset/limit", async () => {
    const token = await api.login();
    const res = expectOk(
      await find(api, token, {
        query: [{ "First Name": "A" }, { "First Name": "Katherine" }],
        sort: [{ fieldName: "First Name", sortOrder: "descend" }],
        offset: 2,
        limit: 2,
        "script.prerequest": "Trace Pre",
        "script.prerequest.param": "pre",
        "script.presort": "Trace Presort",
        "script.presort.param": "presort",
        script: "Trace",
        "script.param": "after",
      }),
    );
    expect(seen).toEqual([
      { script: "Trace Pre", param: "pre", layout: CONTACTS, database: DB, found: null, contacts: 5 },
      // Found in creation order (Ada 1, Alan 3, Adam 4, Katherine 5), not yet sorted.
      { script: "Trace Presort", param: "presort", layout: CONTACTS, database: DB, found: ["1", "3", "4", "5"], foundCount: 4, totalRecordCount: 5, contacts: 5 },
      // Sorted by First Name descending: Katherine, Alan, Adam, Ada; the whole found set, not the page.
      { script: "Trace", param: "after", layout: CONTACTS, database: DB, found: ["5", "3", "4", "1"], foundCount: 4, totalRecordCount: 5, contacts: 5 },
    ]);
    // offset 2, limit 2 come last.
    expect(res.data.map((r: any) => r.recordId)).toEqual(["3", "4"]);
    expect(res.dataInfo).toMatchObject({ foundCount: 4, returnedCount: 2 });
  });

  it("2. order: the prerequest runs before the action (a create's record does not exist yet), the after script after it", async () => {
    const { api: a } = await start();
    const token = await a.login();
    const created = expectOk(await create(a, token, { fieldData: { "First Name": "Order" }, "script.prerequest": "Trace Pre", "script.presort": "Trace Presort", script: "Trace" }));
    expect(seen.map((s) => [s.script, s.contacts, s.found])).toEqual([
      ["Trace Pre", 5, null],
      ["Trace Presort", 6, [created.recordId]],
      ["Trace", 6, [created.recordId]],
    ]);
  });

  it("2. order: what a presort script changes is answered and sorted by; the answer's records carry their new modIds", async () => {
    const { api: a } = await start();
    const token = await a.login();
    // Unsorted, Katherine (5) is last; the presort script makes her the youngest, so ascending Age puts her first.
    const res = expectOk(await list(a, token, { _sort: JSON.stringify([{ fieldName: "Age", sortOrder: "ascend" }]), _limit: 2, "script.presort": "Make Youngest" }));
    expect(res.data.map((r: any) => [r.recordId, r.fieldData.Age, r.modId])).toEqual([
      ["5", 1, "1"],
      ["1", 36, "0"],
    ]);
    expect(scriptKeys(res)).toEqual({ "scriptResult.presort": "1", "scriptError.presort": "0" });
  });

  it("2. order: a record a script deletes is left out of the answer and the found count", async () => {
    const { api: a } = await start();
    const token = await a.login();
    const res = expectOk(await find(a, token, { query: [{ Status: "Active" }], script: "Delete First" }));
    expect(res.data.map((r: any) => r.recordId)).toEqual(["3", "5"]);
    expect(res.dataInfo).toMatchObject({ foundCount: 2, returnedCount: 2, totalRecordCount: 4 });
  });

  it("2. order: a create's and an edit's answer give the modId the scripts left (the record's current one)", async () => {
    const { api: a } = await start();
    const token = await a.login();
    const created = expectOk(await create(a, token, { fieldData: { "First Name": "Mod" } }));
    expect(expectOk(await edit(a, token, created.recordId, { fieldData: { Age: 9 }, script: "Edit Param", "script.param": created.recordId }))).toEqual({
      modId: "2",
      scriptResult: "2",
      scriptError: "0",
    });
    expect(expectOk(await a.edit(token, CONTACTS, created.recordId, { fieldData: { Age: 10 }, modId: "2" })).modId).toBe("3");
  });

  it("2. order: an action that fails after a prerequest ran answers its error with the prerequest's keys; later phases do not run", async () => {
    await eachStatusMode(async (a, token, status) => {
      const res = await find(a, token, { query: [{ "First Name": "==Nobody" }], "script.prerequest": "Echo", "script.prerequest.param": "ran", script: "Trace" });
      expectError(res, status === 400 ? 404 : 500, "401");
      expect(res.body.response).toEqual({ "scriptResult.prerequest": "ran", "scriptError.prerequest": "0" });
    });
    expect(seen).toEqual([]);
  });
});

describe("2. answer keys", () => {
  it("2. answer keys: only those of the phases asked for, in phase order, all strings", async () => {
    const token = await api.login();
    expect(scriptKeys(expectOk(await list(api, token, { "script.presort": "Echo", "script.presort.param": "p", _limit: 1 })))).toEqual({
      "scriptResult.presort": "p",
      "scriptError.presort": "0",
    });
    const all = expectOk(await list(api, token, { script: "Number", "script.prerequest": "Echo", "script.prerequest.param": "pre", "script.presort": "Fails", _limit: 1 }));
    expect(Object.keys(scriptKeys(all))).toEqual(["scriptResult.prerequest", "scriptError.prerequest", "scriptError.presort", "scriptResult", "scriptError"]);
    expect(scriptKeys(all)).toEqual({ "scriptResult.prerequest": "pre", "scriptError.prerequest": "0", "scriptError.presort": "3", scriptResult: "42", scriptError: "0" });
  });

  it('2. answer keys: scriptResult is a string even for a number, absent when the script returns nothing; scriptError is "0" on success', async () => {
    const token = await api.login();
    expect(scriptKeys(expectOk(await get(api, token, "1", { script: "Number" })))).toEqual({ scriptResult: "42", scriptError: "0" });
    expect(scriptKeys(expectOk(await get(api, token, "1", { script: "Nothing" })))).toEqual({ scriptError: "0" });
    expect(scriptKeys(expectOk(await get(api, token, "1", { script: "Echo" })))).toEqual({ scriptResult: "", scriptError: "0" });
  });
});

describe("2. a script that runs and fails", () => {
  it('2. failing script: the call succeeds (200, "0"), its action is kept, scriptError carries the error', async () => {
    await eachStatusMode(async (a, token) => {
      const res = await create(a, token, { fieldData: { "First Name": "Kept" }, script: "Fails", "script.prerequest": "Result And Error" });
      expect(expectOk(res)).toEqual({ recordId: expect.any(String), modId: "0", "scriptResult.prerequest": "partly", "scriptError.prerequest": "401", scriptError: "3" });
      expect((await a.getOk(token, CONTACTS, res.body.response.recordId)).fieldData["First Name"]).toBe("Kept");
    });
  });

  it("2. failing script: a handler that throws is scriptError -1, with its message in the emulator's log", async () => {
    const token = await api.login();
    expect(scriptKeys(expectOk(await list(api, token, { script: "Throws", _limit: 1 })))).toEqual({ scriptError: "-1" });
    expect(logLines).toHaveLength(1);
    expect(logLines[0]).toMatch(/^script "Throws" \(after, database "Contacts", layout "Contacts Web"\) threw, scriptError -1: Error: boom in a handler/);
  });

  it("2. failing script: a records step it does not catch ends it with that step's code; a return of another shape is -1", async () => {
    const token = await api.login();
    expect(scriptKeys(expectOk(await get(api, token, "1", { script: "Missing Record" })))).toEqual({ scriptError: "101" });
    expect(logLines[0]).toMatch(/"Missing Record".*stopped with error 101: records\.get: Record is missing/);
    expect(scriptKeys(expectOk(await get(api, token, "1", { script: "Catch Step" })))).toEqual({ scriptResult: "502: caught", scriptError: "0" });
    expect(scriptKeys(expectOk(await get(api, token, "1", { script: "Bad Return" })))).toEqual({ scriptError: "-1" });
    expect(logLines.at(-1)).toMatch(/"Bad Return".*returned a boolean, scriptError -1/);
  });
});

describe("2. a script the file does not have", () => {
  it("2. missing script: 104 (400 with the contract's statuses, 500 with real servers'), checked before anything runs, nothing kept", async () => {
    await eachStatusMode(async (a, token, status, e) => {
      const before = await snapshot(a, token, e);
      // Each call names a script that exists (which would write) beside one that does not.
      const writes = { "script.prerequest": "Create Note", "script.prerequest.param": "never" };
      const calls: [string, Promise<HttpResult>][] = [
        ["create", create(a, token, { fieldData: { "First Name": "Never" }, ...writes, script: "No Such Script" })],
        ["edit", edit(a, token, "1", { fieldData: { "Last Name": "Never" }, ...writes, "script.presort": "No Such Script" })],
        ["delete", del(a, token, "2", { ...writes, script: "No Such Script" })],
        ["find", find(a, token, { query: [{ "First Name": "Ada" }], ...writes, script: "No Such Script" })],
        ["list", list(a, token, { ...writes, "script.presort": "No Such Script" })],
        ["get", get(a, token, "1", { "script.prerequest": "No Such Script", script: "Create Note" })],
      ];
      for (const [what, call] of calls) {
        const res = await call;
        expectError(res, status, "104");
        expect(res.body.messages[0]!.message, what).toBe('Script is missing: no script named "No Such Script" in "Contacts"');
        expect(res.body.response, what).toEqual({});
      }
      expect(await snapshot(a, token, e)).toEqual(before);
    });
    expect(seen).toEqual([]);
  });
});

describe("2. the standalone endpoint", () => {
  it.each(VERSIONS)("2. standalone: GET .../layouts/{layout}/script/{script}?script.param=P answers { scriptResult, scriptError } (%s)", async (version) => {
    const a = api.withVersion(version);
    const token = await a.login();
    const res = await a.call("GET", `${scriptPath("Echo")}?script.param=${encodeURIComponent("hello & ü")}`, { token });
    expect(expectOk(res)).toEqual({ scriptResult: "hello & ü", scriptError: "0" });
    expect(expectOk(await a.call("GET", scriptPath("Trace"), { token }))).toEqual({ scriptError: "0" });
    expect(seen).toEqual([{ script: "Trace", param: "", layout: CONTACTS, database: DB, found: null, contacts: expect.any(Number) }]);
  });

  it("2. standalone: a script that fails still answers 200 / 0, its error in scriptError", async () => {
    const token = await api.login();
    expect(expectOk(await api.call("GET", scriptPath("Fails"), { token }))).toEqual({ scriptError: "3" });
    expect(expectOk(await api.call("GET", scriptPath("Throws"), { token }))).toEqual({ scriptError: "-1" });
  });

  it('2. standalone: the script name is one percent-encoded path segment ("/", "?", "#" and "%" included)', async () => {
    const token = await api.login();
    expect(scriptPath("Odd / Name?#%")).toContain("Odd%20%2F%20Name%3F%23%25");
    expect(expectOk(await api.call("GET", scriptPath("Odd / Name?#%"), { token }))).toEqual({ scriptResult: "odd", scriptError: "0" });
    // Unencoded, the "/" makes another path: no such resource.
    expectError(await api.call("GET", `${p`/databases/${DB}/layouts/${CONTACTS}`}/script/Odd%20/%20Name`, { token }), 404, "1630");
  });

  it("2. standalone: a missing script is 104, an unknown layout 105, a parameter other than script.param 960; a repeated one 1708", async () => {
    await eachStatusMode(async (a, token, status) => {
      expectError(await a.call("GET", scriptPath("No Such Script"), { token }), status, "104");
      expectError(await a.call("GET", scriptPath("Echo", "No Such Layout"), { token }), status === 400 ? 404 : 500, "105");
      expectError(await a.call("GET", `${scriptPath("Echo")}?script=Echo`, { token }), 400, "960");
      expectError(await a.call("GET", `${scriptPath("Echo")}?script.param=a&script.param=b`, { token }), 400, "1708");
      expectError(await a.call("GET", scriptPath("Echo")), 401, "952");
    });
  });
});

describe("2. the script list", () => {
  it.each(VERSIONS)("2. script list: GET /databases/{db}/scripts lists the description's scripts with nested folders, then the other handlers (%s)", async (version) => {
    const a = api.withVersion(version);
    const res = expectOk(await a.call("GET", p`/databases/${DB}/scripts`, { token: await a.login() }));
    const leaf = (name: string) => ({ name, isFolder: false });
    expect(res.scripts.slice(0, 3)).toEqual([
      leaf("Trace"),
      {
        name: "Billing",
        isFolder: true,
        folderScriptNames: [leaf("Send Invoice"), { name: "Monthly", isFolder: true, folderScriptNames: [leaf("Close Month"), leaf("Archive")] }, leaf("Echo")],
      },
      { name: "Maintenance", isFolder: true, folderScriptNames: [leaf("Cleanup")] },
    ]);
    const described = new Set(["Trace", "Echo"]);
    expect(res.scripts.slice(3)).toEqual(Object.keys(HANDLERS).filter((n) => !described.has(n)).map(leaf));
  });

  it("2. script list: a described script without a handler runs as an empty script (scriptError 0, no result)", async () => {
    const token = await api.login();
    expect(expectOk(await api.call("GET", scriptPath("Send Invoice"), { token }))).toEqual({ scriptError: "0" });
    expect(scriptKeys(expectOk(await list(api, token, { script: "Close Month", _limit: 1 })))).toEqual({ scriptError: "0" });
  });

  it("2. script list: <Database>.database.json files in a layouts folder are the databases' descriptions", async () => {
    const dir = await mkdtemp(join(tmpdir(), "fmgen-scripts-"));
    try {
      for (const name of await readdir(CONFORMANCE_LAYOUTS)) await copyFile(join(CONFORMANCE_LAYOUTS, name), join(dir, name));
      await writeFile(join(dir, "Contacts.database.json"), JSON.stringify({ $schema: "../schema/database.schema.json", database: DB, scripts: [{ name: "Only Described", folder: "F" }] }));
      const { api: a } = await start({ layouts: [dir], scripts: { Handler: () => "h" }, databases: [] });
      const token = await a.login();
      expect(expectOk(await a.call("GET", p`/databases/${DB}/scripts`, { token })).scripts).toEqual([
        { name: "F", isFolder: true, folderScriptNames: [{ name: "Only Described", isFolder: false }] },
        { name: "Handler", isFolder: false },
      ]);
      expect(expectOk(await a.call("GET", scriptPath("Only Described"), { token }))).toEqual({ scriptError: "0" });
      // A description of a database no layout is of, or a second description of one, stops the start.
      await expect(start({ layouts: [dir], databases: [{ database: "Elsewhere" }] })).rejects.toThrowError(/databases\[0\]: no layout description is of database "Elsewhere"/);
      await expect(start({ layouts: [dir], databases: [{ database: DB }] })).rejects.toThrowError(/database "Contacts" is described twice \(also in .*Contacts\.database\.json\)/);
      await writeFile(join(dir, "Contacts.database.json"), JSON.stringify({ database: DB, scripts: [{ name: "" }] }));
      await expect(start({ layouts: [dir] })).rejects.toThrowError(/Contacts\.database\.json: scripts\[0\]\.name: /);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("2. script list and standalone scripts are not layout metadata: an emulator started with metadata: false serves them", async () => {
    const { api: a } = await start({ metadata: false });
    const token = await a.login();
    expectError(await a.call("GET", p`/databases/${DB}/layouts`, { token }), 404, "1630");
    expect(expectOk(await a.call("GET", p`/databases/${DB}/scripts`, { token })).scripts[0]).toEqual({ name: "Trace", isFolder: false });
    expect(expectOk(await a.call("GET", `${scriptPath("Echo")}?script.param=x`, { token }))).toEqual({ scriptResult: "x", scriptError: "0" });
  });

  it("2. script list: without handlers or descriptions it is empty", async () => {
    const { emu: bare, api: a } = await startConformanceEmulator();
    started.push(bare);
    expect(expectOk(await a.call("GET", p`/databases/${DB}/scripts`, { token: await a.login() }))).toEqual({ scripts: [] });
    expectError(await a.call("GET", `${RECORDS}?script=Anything`, { token: await a.login() }), 400, "104");
  });
});

describe("2. handlers (the scripts interface)", () => {
  it("2. handlers: records finds, lists, reads, creates, edits (modId checked and bumped) and deletes, with the Data API's type validation (a script's write is not data entry)", async () => {
    const { api: a } = await start();
    const token = await a.login();
    const out = JSON.parse(expectOk(await a.call("GET", scriptPath("CRUD Tour"), { token })).scriptResult);
    expect(out).toEqual({ edited: "1", stale: "306", invalid: "502", found: [["Guide", "1"]], none: 0, sorted: "Katherine", got: "Guide", gone: "101", noLayout: "105" });
    expect(expectOk(await a.list(token, CONTACTS)).dataInfo.totalRecordCount).toBe(5);
  });

  it("2. handlers: an async handler is awaited, and other requests are answered meanwhile", async () => {
    const { api: a } = await start();
    const token = await a.login();
    const waiting = a.call("GET", scriptPath("Gate"), { token });
    await expect.poll(() => release).toBeDefined();
    // The emulator answers another request while the handler waits.
    expectOk(await a.get(token, CONTACTS, "1"));
    release!();
    expect(expectOk(await waiting)).toEqual({ scriptResult: "released", scriptError: "0" });
    release = undefined;
    expect(expectOk(await edit(a, token, "2", { fieldData: { Age: 86 }, script: "Async", "script.param": "2" }))).toEqual({ modId: "2", scriptResult: "2", scriptError: "0" });
    expect((await a.getOk(token, CONTACTS, "2")).fieldData["Last Name"]).toBe("Async");
  });

  it("2. handlers: globals are the session's values; a global the script writes is the session's too", async () => {
    const { api: a } = await start();
    const mine = await a.login();
    const theirs = await a.login();
    expectOk(await a.call("PATCH", p`/databases/${DB}/globals`, { token: mine, json: { globalFields: { "Contacts::Site Banner": "mine" } } }));
    expect(expectOk(await a.call("GET", scriptPath("Globals"), { token: mine })).scriptResult).toBe('{"banner":"mine"}');
    expect(expectOk(await a.call("GET", scriptPath("Globals"), { token: theirs })).scriptResult).toBe('{"banner":""}');
    expectOk(await a.call("GET", `${scriptPath("Set Banner")}?script.param=scripted`, { token: theirs }));
    expect((await a.getOk(theirs, CONTACTS, "2")).fieldData["Site Banner"]).toBe("scripted");
    expect((await a.getOk(mine, CONTACTS, "2")).fieldData["Site Banner"]).toBe("mine");
  });

  it("2. handlers: startEmulator({ scripts }) takes a module path; a module that does not load or exports no object of functions is named", async () => {
    const fixtures = new URL("../../fixtures/scripts/", import.meta.url).pathname;
    const { api: a } = await start({ scripts: join(fixtures, "scripts.mjs") });
    expect(expectOk(await a.call("GET", `${scriptPath("Echo Param")}?script.param=from+a+module`, { token: await a.login() }))).toEqual({
      scriptResult: "from a module",
      scriptError: "0",
    });
    await expect(start({ scripts: join(fixtures, "not-functions.mjs") })).rejects.toThrowError(/not-functions\.mjs: default export: script "Echo Param" must be a handler function, got string/);
    await expect(start({ scripts: join(fixtures, "no-default.mjs") })).rejects.toThrowError(/no-default\.mjs: the scripts module has no default export/);
    await expect(start({ scripts: join(fixtures, "throws-on-import.mjs") })).rejects.toThrowError(/throws-on-import\.mjs: cannot load the scripts module: scripts module exploded while loading/);
    await expect(start({ scripts: join(fixtures, "nope.mjs") })).rejects.toThrowError(/nope\.mjs: cannot load the scripts module/);
    await expect(start({ scripts: [() => 1] as never })).rejects.toThrowError(/scripts: the scripts must be an object mapping script names to handler functions, got an array/);
  });
});
