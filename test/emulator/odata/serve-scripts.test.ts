import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ScriptStepError, type RunningEmulator, type ScriptHandlers } from "../../../src/emulator/index.js";
import { DataApi } from "../../support/data-api-http.js";
import { auth, DB, expectODataError, get, PASSWORD, send as sendTo, startOffice, USER, type Answer } from "./serve-support.js";

// Scripts through OData over loopback HTTP (docs/emulator.md, "Containers and scripts"): the
// same JavaScript handlers the Data API runs, their results, failures, parameters, and the scoped forms.

let emu: RunningEmulator;
const S = `/fmi/odata/v4/${DB}`;
const log: string[] = [];

const scripts: ScriptHandlers = {
  Echo: ({ param }) => param,
  Nothing: () => undefined,
  Num: () => 42,
  Fails: () => ({ error: 3 }),
  Throws: () => {
    throw new Error("boom");
  },
  StepFails: ({ records }) => records.get("Contacts", 999).recordId,
  Caught: ({ records }) => {
    try {
      records.get("Contacts", 999);
      return "found";
    } catch (error) {
      return error instanceof ScriptStepError ? `caught ${error.code}` : "other";
    }
  },
  Create: ({ records, param }) => records.create("Contacts", { Name: param, Age: 5 }).recordId,
  Context: ({ layout, database, foundSet }) => JSON.stringify({ layout, database, names: foundSet?.records.map((r) => r.fieldData.Name) ?? null, count: foundSet?.foundCount ?? null }),
  "Send Invoice": async ({ param }) => {
    await new Promise((r) => setTimeout(r, 5));
    return `sent ${param}`;
  },
};

beforeAll(async () => {
  emu = await startOffice(2, { scripts, databases: [{ database: DB, scripts: [{ name: "Described" }] }], log: (line) => log.push(line) });
});
afterAll(() => emu.close());

const post = (path: string, body?: string | object, headers: Record<string, string> = {}, method = "POST"): Promise<Answer> => sendTo(emu.url, method, path, body, headers);

const ok = (a: Answer) => {
  expect(a.status, a.text).toBe(200);
  expect(a.headers.get("content-type")).toBe("application/json;charset=utf-8");
  return a.body;
};

describe("POST /db/Script.X (5)", () => {
  it("answers scriptResult with code 0 and resultParameter as a string; none when the script exits with no result", async () => {
    expect(ok(await post(`${S}/Script.Echo`, { scriptParameterValue: "hello world" }))).toEqual({ scriptResult: { code: 0, resultParameter: "hello world" } });
    expect(ok(await post(`${S}/Script.Num`))).toEqual({ scriptResult: { code: 0, resultParameter: "42" } });
    expect(ok(await post(`${S}/Script.Nothing`))).toEqual({ scriptResult: { code: 0 } });
    expect(ok(await post(`${S}/Script.Described`, ""))).toEqual({ scriptResult: { code: 0 } });
    expect(ok(await post(`${S}/Script.Send%20Invoice`, { scriptParameterValue: "INV-1" }))).toEqual({ scriptResult: { code: 0, resultParameter: "sent INV-1" } });
  });

  it("passes the parameter: none is empty, a number as its text, an object as its JSON text", async () => {
    expect(ok(await post(`${S}/Script.Echo`)).scriptResult).toEqual({ code: 0, resultParameter: "" });
    expect(ok(await post(`${S}/Script.Echo`, {})).scriptResult).toEqual({ code: 0, resultParameter: "" });
    expect(ok(await post(`${S}/Script.Echo`, "  ")).scriptResult).toEqual({ code: 0, resultParameter: "" });
    expect(ok(await post(`${S}/Script.Echo`, { scriptParameterValue: 7.5 })).scriptResult.resultParameter).toBe("7.5");
    const object = { a: 1, b: ["x", null], c: { d: true } };
    expect(JSON.parse(ok(await post(`${S}/Script.Echo`, { scriptParameterValue: object })).scriptResult.resultParameter)).toEqual(object);
  });

  it("answers a failing script with 200 and its FileMaker error as code; a throwing one -1, logged", async () => {
    expect(ok(await post(`${S}/Script.Fails`))).toEqual({ scriptResult: { code: 3 } });
    expect(ok(await post(`${S}/Script.StepFails`))).toEqual({ scriptResult: { code: 101 } });
    expect(ok(await post(`${S}/Script.Caught`))).toEqual({ scriptResult: { code: 0, resultParameter: "caught 101" } });
    log.length = 0;
    expect(ok(await post(`${S}/Script.Throws`))).toEqual({ scriptResult: { code: -1 } });
    expect(log.some((l) => l.startsWith('script "Throws" (OData, database "Office") threw, scriptError -1: Error: boom'))).toBe(true);
  });

  it("writes through the hosted file: a record a script creates is read by both APIs at once", async () => {
    const a = ok(await post(`${S}/Script.Create`, { scriptParameterValue: "Scripted" }));
    const recordId = a.scriptResult.resultParameter as string;
    const read = await get(emu.url, `${S}/Contacts(ROWID=${recordId})?$select=Name,Age`);
    expect(read.body).toMatchObject({ Name: "Scripted", Age: 5 });
    const api = new DataApi(emu.url);
    const token = await api.login(USER, PASSWORD, DB);
    expect((await api.getOk(token, "Contacts", recordId, DB)).fieldData).toMatchObject({ Name: "Scripted", Age: 5 });
    // The Data API runs the same handler through the same runner.
    const standalone = await api.call("GET", `/databases/${DB}/layouts/Contacts/script/Echo?script.param=same`, { token });
    expect(standalone.body.response).toEqual({ scriptResult: "same", scriptError: "0" });
  });

  it("refuses a missing script (404 104), names FileMaker cannot call (-1002), FMSID (501), bad bodies, other methods", async () => {
    expect(expectODataError(await post(`${S}/Script.Nope`), 404, "104").message).toBe("(104): Script is missing");
    for (const name of ["1st", "a@b", "a%26b", "a%2Fb", "a%40b"]) expectODataError(await post(`${S}/Script.${name}`), 400, "-1002");
    expect(expectODataError(await post(`${S}/Script.FMSID:12`), 501, "-1").message).toMatch(/no ids/);
    for (const body of ["[1]", "{", '"x"', { other: 1 }, { scriptParameterValue: true }, { scriptParameterValue: null }, { scriptParameterValue: [1] }, { scriptParameterValue: "x", extra: 1 }]) {
      expectODataError(await post(`${S}/Script.Echo`, body), 400, "-1002");
    }
    const deep = `{"scriptParameterValue":${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}}`;
    expect(expectODataError(await post(`${S}/Script.Echo`, deep), 400, "-1002").message).toMatch(/nests too deeply/);
    expectODataError(await post(`${S}/Script.Echo?$top=1`), 400, "-1002");
    expectODataError(await post(`${S}/Script.Echo`, undefined, {}, "GET"), 405, "-1002");
    expectODataError(await post(`${S}/Script.Echo`, undefined, {}, "PATCH"), 405, "-1002");
    expectODataError(await post(`${S}/Script.Echo`, undefined, { Authorization: auth(USER, "wrong") }), 401, "212");
    expectODataError(await post(`/fmi/odata/v4/Nope/Script.Echo`), 404, "-1000");
  });
});

describe("scoped scripts: /db/T/Script.X and /db/T(k)/Script.X (5, UNCONFIRMED)", () => {
  it("runs with the table's records, or the one record, as its found set, through the table's first layout", async () => {
    const all = JSON.parse(ok(await post(`${S}/Contacts/Script.Context`)).scriptResult.resultParameter);
    const count = Number((await get(emu.url, `${S}/Contacts/$count`)).text);
    expect(all).toMatchObject({ layout: "Contacts", database: DB, count });
    expect(all.names.slice(0, 3)).toEqual(["Ada", "bob", "Cy O'Brien"]);
    expect(JSON.parse(ok(await post(`${S}/Contacts('B2')/Script.Context`)).scriptResult.resultParameter)).toEqual({ layout: "Contacts", database: DB, names: ["bob"], count: 1 });
    expect(JSON.parse(ok(await post(`${S}/Notes(1)/Script.Context`)).scriptResult.resultParameter)).toMatchObject({ layout: "Notes", count: 1 });
    expect(JSON.parse(ok(await post(`${S}/Script.Context`)).scriptResult.resultParameter)).toEqual({ layout: "", database: DB, names: null, count: null });
    expectODataError(await post(`${S}/Nope/Script.Context`), 404, "-1020");
    expectODataError(await post(`${S}/Contacts('ZZ')/Script.Context`), 404, "-1023");
    expectODataError(await post(`${S}/Contacts('B2')/Script.Nope`), 404, "104");
  });
});

describe("a scripts module (fmgen serve --scripts)", () => {
  it("runs the module's handlers through OData as the Data API does", async () => {
    const dir = await mkdtemp(join(tmpdir(), "fmgen-odata-scripts-"));
    try {
      const file = join(dir, "scripts.mjs");
      await writeFile(file, 'export default { "Mark Seen": ({ param, records }) => records.edit("Contacts", param, { Name: "seen" }).modId };\n');
      const second = await startOffice(0, { scripts: file });
      try {
        const base = `${second.url}/fmi/odata/v4/${DB}`;
        const res = await fetch(`${base}/Script.Mark%20Seen`, { method: "POST", headers: { Authorization: auth(), "Content-Type": "application/json" }, body: JSON.stringify({ scriptParameterValue: 2 }), signal: AbortSignal.timeout(10_000) });
        expect(await res.json()).toEqual({ scriptResult: { code: 0, resultParameter: "1" } });
        expect((await get(second.url, `/fmi/odata/v4/${DB}/Contacts(ROWID=2)/Name`)).body.value).toBe("seen");
      } finally {
        await second.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
