import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ScriptContext, ScriptHandlers } from "../../src/emulator/index.js";
import {
  assertScripts,
  defineLayout,
  FileMakerError,
  ProtocolError,
  ScriptError,
  ScriptMissingError,
  ValidationError,
  type FileMakerClient,
  type LayoutClient,
} from "../../src/runtime/index.js";
import { connect, counting, envelope, startFakeServer, startRuntimeEmulator, type Emulator, type FakeServer } from "../support/runtime-emulator.js";
import { Contact, DATABASE } from "../support/runtime-layouts.js";

// Scripts on the layout client's calls (docs/emulator.md, "2. Scripts"), duplicate and the entry modes (section 7),
// against the emulator with JavaScript script handlers that record what they see (which proves the phases' order
// and the params), and against a fake server for the exact wire keys and for malformed answers.

interface Seen {
  script: string;
  param: string;
  /** First names of the found set, in its order; null for a phase that has none (prerequest). */
  found: string[] | null;
}
let seen: Seen[] = [];

const trace =
  (name: string, result?: string) =>
  ({ param, foundSet }: ScriptContext) => {
    seen.push({ script: name, param, found: foundSet ? foundSet.records.map((r) => String(r.fieldData["First Name"])) : null });
    return result;
  };

const HANDLERS: ScriptHandlers = {
  Pre: trace("Pre", "pre done"),
  Presort: trace("Presort", "presort done"),
  After: trace("After", "after done"),
  Quiet: trace("Quiet"),
  Echo: ({ param }) => param,
  Number: () => 42,
  Fails: () => ({ error: 3 }),
  "Result And Error": () => ({ result: "partly", error: 401 }),
  Count: ({ foundSet }) => String(foundSet?.foundCount),
};

let emu: Emulator;
let fm: FileMakerClient;
let contacts: LayoutClient<typeof Contact>;
const SORT = [{ fieldName: "First Name", sortOrder: "ascend" }] as const;

beforeAll(async () => {
  emu = await startRuntimeEmulator({ scripts: HANDLERS, log: () => undefined });
  fm = connect(emu.url);
  contacts = fm.layout(Contact);
});

afterAll(async () => {
  await fm.close();
  await emu.close();
});

beforeEach(() => {
  seen = [];
});

describe("scripts on reads", () => {
  it("list runs prerequest, presort and script in FileMaker's order, each with its param, and answers their results", async () => {
    const page = await contacts.list({ sort: SORT, limit: 2, prerequest: { name: "Pre", param: "p1" }, presort: { name: "Presort", param: "p2" }, script: { name: "After", param: "p3" } });
    expect(page.data.map((r) => r.fieldData["First Name"])).toEqual(["Ada", "Alan"]);
    expect(page.scripts).toEqual({ prerequest: { result: "pre done", error: "0" }, presort: { result: "presort done", error: "0" }, after: { result: "after done", error: "0" } });
    // Presort sees the found set unsorted, the script sees it sorted (before offset and limit).
    expect(seen).toEqual([
      { script: "Pre", param: "p1", found: null },
      { script: "Presort", param: "p2", found: ["Ada", "Grace", "Alan", "Katherine"] },
      { script: "After", param: "p3", found: ["Ada", "Alan", "Grace", "Katherine"] },
    ]);
  });

  it("a script without a param gets an empty one; one that returns nothing has no result", async () => {
    const page = await contacts.list({ script: { name: "Quiet" } });
    expect(page.scripts).toEqual({ after: { error: "0" } });
    expect(page.scripts.after).not.toHaveProperty("result");
    expect(seen).toEqual([{ script: "Quiet", param: "", found: ["Ada", "Grace", "Alan", "Katherine"] }]);
  });

  it("a number result comes back as text, and only the phases asked for are there", async () => {
    const page = await contacts.list({ presort: { name: "Number" } });
    expect(page.scripts).toEqual({ presort: { result: "42", error: "0" } });
  });

  it("get carries the scripts beside the record's own members", async () => {
    const record = await contacts.get(1, { script: { name: "Echo", param: "héllo & ?=/" }, prerequest: { name: "Pre" } });
    expect(record.fieldData["First Name"]).toBe("Ada");
    expect(record.scripts).toEqual({ prerequest: { result: "pre done", error: "0" }, after: { result: "héllo & ?=/", error: "0" } });
    expect(Object.keys(record).sort()).toEqual(["fieldData", "modId", "portalData", "recordId", "scripts"]);
  });

  it("find runs its scripts on the found set", async () => {
    const page = await contacts.find({ query: [{ Status: "Active" }], sort: SORT, presort: { name: "Presort" }, script: { name: "Count" } });
    expect(page.data.map((r) => r.fieldData["First Name"])).toEqual(["Ada", "Grace", "Katherine"]);
    expect(page.scripts).toEqual({ presort: { result: "presort done", error: "0" }, after: { result: "3", error: "0" } });
    expect(seen).toEqual([{ script: "Presort", param: "", found: ["Ada", "Grace", "Katherine"] }]);
  });

  it("a find that matches nothing is an empty page that still carries the scripts that ran", async () => {
    const page = await contacts.find({ query: [{ "First Name": "==Nobody" }], prerequest: { name: "Echo", param: "ran" } });
    expect(page.data).toEqual([]);
    expect(page.dataInfo.foundCount).toBe(0);
    expect(page.scripts).toEqual({ prerequest: { result: "ran", error: "0" } });
  });

  it("a list past the end is an empty page with the scripts that ran", async () => {
    const page = await contacts.list({ offset: 99, prerequest: { name: "Echo", param: "ran" } });
    expect(page.data).toEqual([]);
    expect(page.scripts).toEqual({ prerequest: { result: "ran", error: "0" } });
  });

  it("calls without script options have no scripts member", async () => {
    const page = await contacts.list({ limit: 1 });
    expect("scripts" in page).toBe(false);
    expect("scripts" in (await contacts.get(1))).toBe(false);
    expect("scripts" in (await contacts.find({ query: [{ "First Name": "==Nobody" }] }))).toBe(false);
    expect(seen).toEqual([]);
  });
});

describe("script errors", () => {
  it("a script that fails is data: the call succeeds and its error is in scripts", async () => {
    const page = await contacts.list({ limit: 1, script: { name: "Fails" }, presort: { name: "Result And Error" } });
    expect(page.data).toHaveLength(1);
    expect(page.scripts).toEqual({ presort: { result: "partly", error: "401" }, after: { error: "3" } });
  });

  it("assertScripts turns the first failed phase into a ScriptError, and returns a result whose scripts succeeded", async () => {
    const failed = await contacts.list({ limit: 1, script: { name: "Fails" }, presort: { name: "Result And Error" } });
    const error = (() => {
      try {
        assertScripts(failed);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ScriptError);
    expect(error).toMatchObject({ phase: "presort", code: "401", result: "partly", name: "ScriptError" });
    const ok = await contacts.get(1, { script: { name: "Echo", param: "x" } });
    expect(assertScripts(ok)).toBe(ok);
    const deleted = await contacts.delete((await contacts.create({ fieldData: { "First Name": "Del" } })).recordId, { script: { name: "Fails" } });
    expect(() => assertScripts(deleted)).toThrow(/^after script failed: error 3$/);
  });

  it("a script the file does not have is a ScriptMissingError (104), and nothing of the call is kept", async () => {
    const before = (await contacts.list()).dataInfo.totalRecordCount;
    await expect(contacts.create({ fieldData: { "First Name": "Ghost" } }, { script: { name: "No Such Script" } })).rejects.toThrow(ScriptMissingError);
    const error = await contacts.list({ prerequest: { name: "No Such Script" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileMakerError);
    expect(error).toMatchObject({ code: "104" });
    expect((await contacts.list()).dataInfo.totalRecordCount).toBe(before);
  });

  it("a call that fails after a script ran carries that script's results on the error", async () => {
    // No First Name: 509 (required), after the prerequest ran.
    const error = await contacts.create({ fieldData: { "Last Name": "Nameless" } }, { prerequest: { name: "Echo", param: "was here" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as FileMakerError).scripts).toEqual({ prerequest: { result: "was here", error: "0" } });
  });
});

describe("scripts on writes, and duplicate", () => {
  it("create, edit and delete answer their scripts; the after script sees the record", async () => {
    const created = await contacts.create({ fieldData: { "First Name": "Scripted" } }, { prerequest: { name: "Pre" }, script: { name: "After", param: "c" } });
    expect(created).toEqual({ recordId: expect.stringMatching(/^\d+$/), modId: "0", scripts: { prerequest: { result: "pre done", error: "0" }, after: { result: "after done", error: "0" } } });
    expect(seen).toEqual([
      { script: "Pre", param: "", found: null },
      { script: "After", param: "c", found: ["Scripted"] },
    ]);
    const edited = await contacts.edit(created.recordId, { fieldData: { "Last Name": "Edited" } }, { script: { name: "Echo", param: "e" } });
    expect(edited).toEqual({ modId: "1", scripts: { after: { result: "e", error: "0" } } });
    const deleted = await contacts.delete(created.recordId, { prerequest: { name: "Echo", param: "d" } });
    expect(deleted).toEqual({ scripts: { prerequest: { result: "d", error: "0" } } });
    expect(await contacts.delete((await contacts.create({ fieldData: { "First Name": "Plain" } })).recordId)).toBeUndefined();
  });

  // Email is unique: the records duplicated here have none.
  it("duplicate copies a record: a new recordId and serial, the other fields as the original's", async () => {
    const original = await contacts.create({ fieldData: { "First Name": "Twin", "Last Name": "Original", Birthday: "1990-01-02" } });
    const copy = await contacts.duplicate(original.recordId);
    expect(copy).toEqual({ recordId: expect.stringMatching(/^\d+$/), modId: "0" });
    expect(copy.recordId).not.toBe(original.recordId);
    const [a, b] = [await contacts.get(original.recordId), await contacts.get(copy.recordId)];
    expect(b.fieldData).toMatchObject({ "First Name": "Twin", "Last Name": "Original", Birthday: "1990-01-02" });
    expect(b.fieldData.id).not.toBe(a.fieldData.id);
    await contacts.delete(copy.recordId);
    await contacts.delete(original.recordId);
  });

  it("duplicate runs scripts; the after script sees the copy", async () => {
    const original = await contacts.create({ fieldData: { "First Name": "Twin" } });
    const copy = await contacts.duplicate(original.recordId, { script: { name: "After", param: "dup" }, prerequest: { name: "Quiet" } });
    expect(copy.scripts).toEqual({ prerequest: { error: "0" }, after: { result: "after done", error: "0" } });
    expect(seen).toEqual([
      { script: "Quiet", param: "", found: null },
      { script: "After", param: "dup", found: ["Twin"] },
    ]);
    await contacts.delete(copy.recordId);
    await contacts.delete(original.recordId);
  });

  it("duplicate of a record that does not exist is a FileMakerError 101", async () => {
    await expect(contacts.duplicate(99_999)).rejects.toMatchObject({ code: "101" });
  });
});

describe("entry modes", () => {
  it('entryMode "script" skips data-entry validation (a required field left empty)', async () => {
    await expect(contacts.create({ fieldData: { "Last Name": "No First" } })).rejects.toThrow(ValidationError);
    await expect(contacts.create({ fieldData: { "Last Name": "No First" } }, { entryMode: "user" })).rejects.toThrow(ValidationError);
    const created = await contacts.create({ fieldData: { "Last Name": "No First" } }, { entryMode: "script" });
    await expect(contacts.edit(created.recordId, { fieldData: { Email: "nofirst@example.com" } })).rejects.toThrow(ValidationError);
    expect(await contacts.edit(created.recordId, { fieldData: { Email: "nofirst@example.com" } }, { entryMode: "script", script: { name: "Quiet" } })).toMatchObject({ modId: "1" });
    await contacts.delete(created.recordId);
  });

  it('prohibitMode "script" writes a field that prohibits modification', async () => {
    // Contacts Web as a definition that does not mark the serial read-only: the server refuses it (201) unless the
    // write says prohibitmode "script".
    const Loose = defineLayout<{ id: number | null; "First Name": string }>()({ layout: Contact.layout, fields: { id: { type: "number" }, "First Name": { type: "text" } } });
    const loose = fm.layout(Loose);
    await expect(loose.create({ fieldData: { id: 777, "First Name": "Serial" } })).rejects.toMatchObject({ code: "201" });
    const created = await loose.create({ fieldData: { id: 777, "First Name": "Serial" } }, { prohibitMode: "script", entryMode: "script" });
    expect((await loose.get(created.recordId)).fieldData.id).toBe(777);
    const edited = await loose.edit(created.recordId, { fieldData: { id: 778 } }, { prohibitMode: "script" });
    expect(edited.modId).toBe("1");
    expect((await loose.get(created.recordId)).fieldData.id).toBe(778);
    await loose.delete(created.recordId);
  });
});

describe("option checks", () => {
  const BAD: [string, () => Promise<unknown>, RegExp][] = [
    ["an empty script name", () => contacts.list({ script: { name: "" } }), /^list: script\.name must be a non-empty string, got ""$/],
    ["a numeric script name", () => contacts.get(1, { prerequest: { name: 5 as never } }), /^get: prerequest\.name must be a non-empty string, got 5$/],
    ["a script that is not an object", () => contacts.find({ query: [{ Status: "Active" }], presort: "Pre" as never }), /^find: presort\.name must be a non-empty string, got undefined$/],
    ["a null script", () => contacts.delete(1, { script: null as never }), /^delete: script\.name must be a non-empty string, got undefined$/],
    ["a numeric param", () => contacts.create({ fieldData: { "First Name": "X" } }, { script: { name: "Echo", param: 5 as never } }), /^create: script\.param must be a string, got 5$/],
    ["a param on duplicate", () => contacts.duplicate(1, { presort: { name: "Echo", param: null as never } }), /^duplicate: presort\.param must be a string, got null$/],
    ["an unknown entryMode", () => contacts.create({ fieldData: { "First Name": "X" } }, { entryMode: "robot" as never }), /^create: entryMode must be "user" or "script", got "robot"$/],
    ["an unknown prohibitMode", () => contacts.edit(1, { fieldData: {} }, { prohibitMode: 1 as never }), /^edit: prohibitMode must be "user" or "script", got 1$/],
  ];

  it.each(BAD)("%s is a TypeError naming the call and the option, before any request", async (_what, call, message) => {
    const { requests } = await counting(emu, async () => {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toMatch(message);
    });
    expect(requests).toBe(0);
  });
});

describe("the wire", () => {
  let fake: FakeServer;
  let client: FileMakerClient;
  const RECORD = {
    recordId: "1",
    modId: "0",
    fieldData: { id: 1, "First Name": "Ada", "Last Name": "", Email: "", Status: "", Birthday: "", "Wake Up": "", Created: "", Modified: "", Photo: "", Phone: "", "Phone(2)": "", "Phone(3)": "", "Company::Name": "" },
    portalData: { Invoices: [] },
  };
  const DATA_INFO = { database: DATABASE, layout: "Contacts Web", table: "Contacts", totalRecordCount: 1, foundCount: 1, returnedCount: 1 };
  const SCRIPTED = { scriptResult: "r", scriptError: "0", "scriptResult.prerequest": "p", "scriptError.prerequest": "0", "scriptError.presort": "5" };
  let answer: object = {};

  beforeAll(async () => {
    fake = await startFakeServer(() => ({ status: 200, body: envelope(answer) }));
    client = connect(fake.url);
  });

  afterAll(async () => {
    await client.close();
    await fake.close();
  });

  const last = () => {
    const req = fake.requests.at(-1)!;
    const url = new URL(req.url, "http://x");
    return { method: req.method, path: url.pathname.replace(/^\/fmi\/data\/vLatest/, ""), query: Object.fromEntries(url.searchParams), body: req.body.length ? (JSON.parse(req.body.toString()) as Record<string, unknown>) : undefined };
  };
  const SCRIPTS = { script: { name: "A b", param: "1&2" }, prerequest: { name: "P", param: "" }, presort: { name: "S" } } as const;
  const KEYS = { script: "A b", "script.param": "1&2", "script.prerequest": "P", "script.prerequest.param": "", "script.presort": "S" };
  const RESULTS = { prerequest: { result: "p", error: "0" }, presort: { error: "5" }, after: { result: "r", error: "0" } };
  const RECORDS = `/databases/${DATABASE}/layouts/Contacts%20Web/records`;

  it("list, get and delete send the script keys on the query string", async () => {
    answer = { data: [RECORD], dataInfo: DATA_INFO, ...SCRIPTED };
    const c = client.layout(Contact);
    expect((await c.list({ limit: 1, ...SCRIPTS })).scripts).toEqual(RESULTS);
    expect(last()).toEqual({ method: "GET", path: RECORDS, query: { _limit: "1", ...KEYS }, body: undefined });
    expect((await c.get(1, SCRIPTS)).scripts).toEqual(RESULTS);
    expect(last()).toEqual({ method: "GET", path: `${RECORDS}/1`, query: KEYS, body: undefined });
    answer = SCRIPTED;
    expect(await c.delete(1, SCRIPTS)).toEqual({ scripts: RESULTS });
    expect(last()).toEqual({ method: "DELETE", path: `${RECORDS}/1`, query: KEYS, body: undefined });
  });

  it("create, edit, find and duplicate send them in the body, with the entry modes as options", async () => {
    const c = client.layout(Contact);
    answer = { recordId: "9", modId: "0", ...SCRIPTED };
    expect(await c.create({ fieldData: { "First Name": "A" } }, { ...SCRIPTS, entryMode: "script", prohibitMode: "user" })).toEqual({ recordId: "9", modId: "0", scripts: RESULTS });
    expect(last()).toEqual({ method: "POST", path: RECORDS, query: {}, body: { fieldData: { "First Name": "A" }, ...KEYS, options: { entrymode: "script", prohibitmode: "user" } } });
    expect(await c.duplicate(1, SCRIPTS)).toEqual({ recordId: "9", modId: "0", scripts: RESULTS });
    expect(last()).toEqual({ method: "POST", path: `${RECORDS}/1`, query: {}, body: KEYS });
    await c.duplicate(1);
    expect(last()).toEqual({ method: "POST", path: `${RECORDS}/1`, query: {}, body: {} });
    answer = { modId: "3", ...SCRIPTED };
    expect(await c.edit(1, { fieldData: {} }, { presort: { name: "S" }, prohibitMode: "script" })).toEqual({ modId: "3", scripts: { presort: { error: "5" } } });
    expect(last()).toEqual({ method: "PATCH", path: `${RECORDS}/1`, query: {}, body: { fieldData: {}, "script.presort": "S", options: { prohibitmode: "script" } } });
    answer = { data: [RECORD], dataInfo: DATA_INFO, ...SCRIPTED };
    expect((await c.find({ query: [{ "First Name": "A" }], ...SCRIPTS })).scripts).toEqual(RESULTS);
    expect(last()).toEqual({ method: "POST", path: `/databases/${DATABASE}/layouts/Contacts%20Web/_find`, query: {}, body: { query: [{ "First Name": "==A" }], ...KEYS } });
  });

  it("calls without the options send none of their keys", async () => {
    const c = client.layout(Contact);
    answer = { recordId: "9", modId: "0", ...SCRIPTED };
    // The server's script keys are ignored when the call asked for no script.
    expect(await c.create({ fieldData: { "First Name": "A" } })).toEqual({ recordId: "9", modId: "0" });
    expect(last().body).toEqual({ fieldData: { "First Name": "A" } });
    answer = { data: [RECORD], dataInfo: DATA_INFO, ...SCRIPTED };
    expect("scripts" in (await c.list())).toBe(false);
    expect(last().query).toEqual({});
  });

  it.each([
    ["no scriptError for a phase asked for", { scriptResult: "r", "scriptError.prerequest": "0", "scriptError.presort": "0" }, "response.scriptError or scriptResult is not a string"],
    ["a numeric scriptError", { scriptError: "0", "scriptError.prerequest": 0, "scriptError.presort": "0" }, "response.scriptError.prerequest or scriptResult.prerequest is not a string"],
    ["a numeric scriptResult", { scriptError: "0", "scriptError.prerequest": "0", "scriptError.presort": "0", "scriptResult.presort": 42 }, "response.scriptError.presort or scriptResult.presort is not a string"],
  ])("an answer with %s is a ProtocolError naming it", async (_what, keys, message) => {
    answer = { recordId: "9", modId: "0", ...keys };
    const error = await client.layout(Contact).create({ fieldData: {} }, SCRIPTS).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as Error).message).toContain(message);
  });
});

describe("a call that runs a script is never sent twice", () => {
  // A dropped connection or a proxy's error page may come after the server ran the script: sending the call again
  // would run it again. Reads without a script are sent again (the control); answers that say the server did nothing
  // (952: the token unknown, refused before running anything) are sent again, scripts or not.
  const FAST = { retries: 3, baseDelayMs: 1, maxDelayMs: 2 };
  const ONE = { script: { name: "After" } };
  const DATA_INFO = { database: DATABASE, layout: "Contacts Web", table: "Contacts", totalRecordCount: 1, foundCount: 1, returnedCount: 1 };
  const faults = { "hang-up": "hang-up", "a proxy's 502 page": { status: 502, body: "<html>Bad Gateway</html>", contentType: "text/html" } } as const;
  const calls: [string, (c: LayoutClient<typeof Contact>, options: object) => Promise<unknown>][] = [
    ["list", (c, o) => c.list({ limit: 1, ...o })],
    ["get", (c, o) => c.get(1, o)],
    ["find", (c, o) => c.find({ query: [{ "First Name": "A" }], ...o })],
    ["findFirst", (c, o) => c.findFirst({ query: [{ "First Name": "A" }], ...o })],
    ["query().run", (c, o) => c.query().where({ "First Name": "A" }).run(o)],
  ];
  // Writes and runScript were never sent again after a fault; they are here so that they stay so.
  const writes: typeof calls = [
    ["create", (c, o) => c.create({ fieldData: {} }, o)],
    ["duplicate", (c, o) => c.duplicate(1, o)],
    ["edit", (c, o) => c.edit(1, { fieldData: {} }, o)],
    ["delete", (c, o) => c.delete(1, o)],
  ];
  const scripts = [["script", ONE], ["prerequest", { prerequest: { name: "Pre" } }], ["presort", { presort: { name: "Presort" } }]] as const;

  for (const [fault, answer] of Object.entries(faults)) {
    it.each([...calls, ...writes].flatMap(([name, call]) => scripts.map(([option, o]) => [name, option, call, o] as const)))(`${fault}: %s with %s is sent once`, async (_name, _option, call, options) => {
      const fake = await startFakeServer(() => answer);
      const fm = connect(fake.url, { retry: FAST });
      try {
        await expect(call(fm.layout(Contact), options)).rejects.toThrow();
        expect(fake.requests).toHaveLength(1);
      } finally {
        await fm.close();
        await fake.close();
      }
    });
  }

  it.each(Object.entries(faults))("%s: runScript is sent once", async (_fault, answer) => {
    const fake = await startFakeServer(() => answer);
    const fm = connect(fake.url, { retry: FAST });
    try {
      await expect(fm.runScript(Contact, "After")).rejects.toThrow();
      expect(fake.requests).toHaveLength(1);
    } finally {
      await fm.close();
      await fake.close();
    }
  });

  it("the same reads without a script are sent again (the control)", async () => {
    const fake = await startFakeServer(() => "hang-up");
    const fm = connect(fake.url, { retry: FAST });
    try {
      for (const [, call] of calls) await expect(call(fm.layout(Contact), {})).rejects.toThrow();
      expect(fake.requests).toHaveLength(calls.length * (FAST.retries + 1));
    } finally {
      await fm.close();
      await fake.close();
    }
  });

  it("after a 952 the script call is sent again once, with a fresh login: the server refused it before running anything", async () => {
    const fieldData = { id: 1, "First Name": "Ada", "Last Name": "", Email: "", Status: "", Birthday: "", "Wake Up": "", Created: "", Modified: "", Photo: "", Phone: "", "Phone(2)": "", "Phone(3)": "", "Company::Name": "" };
    const record = { recordId: "1", modId: "0", fieldData, portalData: { Invoices: [] } };
    const fake = await startFakeServer((_req, index) =>
      index === 0 ? { status: 401, body: envelope({}, "952") } : { status: 200, body: envelope({ data: [record], dataInfo: DATA_INFO, scriptError: "0" }) },
    );
    const fm = connect(fake.url, { retry: FAST });
    try {
      expect((await fm.layout(Contact).list({ limit: 1, ...ONE })).scripts).toEqual({ after: { error: "0" } });
      expect(fake.requests).toHaveLength(2);
      // The login, then the login after the 952.
      expect(fake.sessionRequests.filter((r) => r.method === "POST")).toHaveLength(2);
    } finally {
      await fm.close();
      await fake.close();
    }
  });
});
