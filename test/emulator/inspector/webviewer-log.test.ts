import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { BASIC, call, inspector, LAYOUT, PASSWORD, startInspected, USER, wholeLog } from "./support.js";

// The request log's Web Viewer entries (docs/inspector.md, "The request log"): a call of the shim
// (`POST /fmgen/webviewer/call`) carries the bridge's account and its result's FileMaker code, as a Data API entry
// does; an in-process `webViewer()` logs each Data API call its bridge makes, with its account and code.

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startInspected();
});
afterAll(async () => {
  await emu.close();
});

const parameter = (request: object, id = "1") => JSON.stringify({ v: 1, id, callback: "answer", request });

async function shimCall(request: object): Promise<any> {
  const res = await call(emu.url, "POST", "/fmgen/webviewer/call", {}, { account: USER, script: "fmgen bridge", parameter: parameter(request) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.answer;
}

async function lastEntry(test: (e: any) => boolean): Promise<any> {
  const { entries } = await inspector(emu.url, "log");
  const found = [...entries].reverse().find(test);
  expect(found, JSON.stringify(entries)).toBeDefined();
  return found;
}

describe("Web Viewer entries of the request log", () => {
  it("give a shim call its account and the FileMaker code of its result", async () => {
    const missing = await shimCall({ action: "read", layouts: LAYOUT, recordId: 999999 });
    expect(JSON.parse(missing.result).messages[0].code).toBe("101");
    expect(await lastEntry((e) => e.api === "Web Viewer")).toMatchObject({ method: "POST", path: "/fmgen/webviewer/call", account: USER, status: 200, code: "101" });

    const read = await shimCall({ action: "read", layouts: LAYOUT, limit: 1 });
    expect(JSON.parse(read.result).messages[0].code).toBe("0");
    expect(await lastEntry((e) => e.api === "Web Viewer")).toMatchObject({ account: USER, code: "0" });

    // An error the step answers itself, before any Data API call: its code too.
    await shimCall({ action: "read" });
    expect(await lastEntry((e) => e.api === "Web Viewer")).toMatchObject({ code: "1708" });

    // A call never answered (another Web Viewer's) has no code; a refused call (not JSON) neither.
    const other = await call(emu.url, "POST", "/fmgen/webviewer/call", {}, { account: USER, webViewer: "mine", script: "s", parameter: JSON.stringify({ v: 1, id: "2", callback: "answer", webViewer: "theirs", request: { layouts: LAYOUT } }) });
    expect(other.body).toEqual({ answer: null });
    expect(await lastEntry((e) => e.api === "Web Viewer")).toMatchObject({ status: 200, code: null });
    expect((await call(emu.url, "POST", "/fmgen/webviewer/call", {}, "not json")).status).toBe(400);
    expect(await lastEntry((e) => e.api === "Web Viewer")).toMatchObject({ status: 400, code: null });
  });

  it("log an in-process webViewer()'s Data API calls, each with its account and FileMaker code, secrets removed", async () => {
    const before = (await inspector(emu.url, "log")).total;
    const viewer = emu.webViewer({ account: USER });
    const answers: string[] = [];
    viewer.install({ answer: (_id: string, result: string) => answers.push(result) });
    viewer.FileMaker.PerformScript("fmgen bridge", parameter({ action: "read", layouts: LAYOUT, recordId: 999999 }));
    viewer.FileMaker.PerformScript("fmgen bridge", parameter({ action: "create", layouts: LAYOUT, fieldData: { "First Name": "Viewer" } }, "2"));
    await viewer.settled();
    expect(answers.map((a) => JSON.parse(a).messages[0].code)).toEqual(["101", "0"]);

    const { entries } = await inspector(emu.url, "log");
    const logged = entries.filter((e: any) => e.id > before);
    expect(logged.map((e: any) => [e.api, e.method, e.path.replace(/^.*\/databases\/Contacts/, ""), e.account, e.status, e.code])).toEqual([
      ["Web Viewer", "POST", "/sessions", USER, 200, "0"],
      ["Web Viewer", "GET", `/layouts/${encodeURIComponent(LAYOUT)}/records/999999`, USER, 404, "101"],
      ["Web Viewer", "POST", `/layouts/${encodeURIComponent(LAYOUT)}/records`, USER, 200, "0"],
    ]);
    // With their bodies, as a Data API entry's; no secret of the bridge's sign-in shows.
    const create = await inspector(emu.url, `request?id=${logged[2].id}`);
    expect(JSON.parse(create.request.text)).toEqual({ fieldData: { "First Name": "Viewer" } });
    const { text } = await wholeLog(emu.url);
    for (const secret of [PASSWORD, BASIC.slice("Basic ".length)]) expect(text).not.toContain(secret);
  });
});
