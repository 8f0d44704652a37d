import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NEVER_ANSWERING_SCRIPT, startEmulator, type RunningEmulator } from "../../src/emulator/index.js";
import type { LayoutDescriptionInput } from "../../src/layout/schema.js";
import { rawHttp } from "../support/raw-http.js";

// docs/emulator.md, "Web Viewer bridge": the browser's shim over HTTP. GET /fmgen/webviewer.js is JavaScript that
// defines window.FileMaker; its calls (POST /fmgen/webviewer/call) are answered cross-origin for loopback pages only,
// with CORS headers, and refused (403) for any other Origin, before anything runs. Raw requests: fetch will not send
// a page's Origin. The shim itself runs here in a vm context with a fake window and Node's fetch.

const NOTES: LayoutDescriptionInput = {
  database: "Desk",
  layout: "Notes",
  table: "Notes",
  fields: [
    { name: "id", type: "number", readOnly: true, autoEnter: "serial" },
    { name: "Text", type: "text" },
  ],
};

let emulator: RunningEmulator;
let runs = 0;
beforeAll(async () => {
  emulator = await startEmulator({
    layouts: [NOTES],
    data: { accounts: [{ username: "web", password: "secret" }], records: { Notes: [{ Text: "first" }] } },
    scripts: { Count: () => String(++runs) },
    maxJsonBytes: 64 * 1024,
    log: () => undefined,
  });
});
afterAll(() => emulator.close());

const CALL = "/fmgen/webviewer/call";
const LOOPBACK = ["http://127.0.0.1:5173", "http://localhost:3000", "http://[::1]:8080"];
const FOREIGN = ["http://evil.example", "null", "https://127.0.0.1:5173", "http://127.0.0.1.evil.example"];
const scriptCall = (name: string) => JSON.stringify({ account: "web", script: "fmgen webviewer", parameter: JSON.stringify({ v: 1, id: "1", callback: "cb", script: { name } }) });
const post = (origin: string | undefined, body: string) =>
  rawHttp(emulator.url, "POST", CALL, { ...(origin ? { Origin: origin } : {}), "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(body)) }, body);

describe("the Web Viewer shim over HTTP", () => {
  it("GET /fmgen/webviewer.js?account=web is JavaScript naming the call endpoint", async () => {
    const res = await rawHttp(emulator.url, "GET", "/fmgen/webviewer.js?account=web", {});
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(res.text).toContain("window.FileMaker");
    expect(res.text).toContain(`${new URL(emulator.url).host}${CALL}`);
    expect((await rawHttp(emulator.url, "GET", "/fmgen/webviewer.js?account=nobody", {})).status).toBe(400);
  });

  it.each(LOOPBACK)("a call from Origin %s is answered with CORS headers, and its preflight too", async (origin) => {
    const before = runs;
    const res = await post(origin, scriptCall("Count"));
    expect(res.status).toBe(200);
    expect(res.headers["access-control-allow-origin"]).toBe(origin);
    expect(runs).toBe(before + 1);
    const answer = res.body.answer;
    expect([answer.callback, answer.id]).toEqual(["cb", "1"]);
    expect(JSON.parse(answer.result).response).toEqual({ scriptResult: String(runs), scriptError: "0" });
    const preflight = await rawHttp(emulator.url, "OPTIONS", CALL, { Origin: origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type" });
    expect(preflight.status).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe(origin);
    expect(preflight.headers["access-control-allow-headers"]).toBe("Content-Type");
  });

  it.each(FOREIGN)("a call, a preflight and the shim from Origin %s are refused (403), and nothing runs", async (origin) => {
    const before = runs;
    const res = await post(origin, scriptCall("Count"));
    expect(res.status).toBe(403);
    expect(res.headers["access-control-allow-origin"]).toBeUndefined();
    expect(runs).toBe(before);
    expect((await rawHttp(emulator.url, "OPTIONS", CALL, { Origin: origin })).status).toBe(403);
    expect((await rawHttp(emulator.url, "GET", "/fmgen/webviewer.js?account=web", { Origin: origin })).status).toBe(403);
  });

  it("the Data API's own writes stay refused for a loopback page of another origin", async () => {
    const body = "{}";
    const res = await rawHttp(emulator.url, "POST", "/fmi/data/vLatest/databases/Desk/sessions", { Origin: "http://127.0.0.1:5173", "Content-Type": "application/json", "Content-Length": "2", Authorization: `Basic ${Buffer.from("web:secret").toString("base64")}` }, body);
    expect(res.status).toBe(403);
  });

  it("a never-answering call answers {answer: null}; a body over maxJsonBytes is 413; a bad body 400", async () => {
    const hung = await post("http://localhost:3000", scriptCall(NEVER_ANSWERING_SCRIPT));
    expect([hung.status, hung.body]).toEqual([200, { answer: null }]);
    expect((await post(undefined, "not json")).status).toBe(400);
    const big = JSON.stringify({ script: "x", parameter: "y".repeat(100 * 1024) });
    expect((await post(undefined, big)).status).toBe(413);
  });

  it("the shim, run with a fake window, calls the page's callback asynchronously and in order", async () => {
    const js = await (await fetch(`${emulator.url}/fmgen/webviewer.js?account=web&webViewer=web`)).text();
    const answers: [string, any][] = [];
    const window: Record<string, any> = { cb: (id: string, result: string) => answers.push([id, JSON.parse(result)]) };
    runInNewContext(js, { window, fetch, setTimeout, console, Promise, JSON, String });
    const call = (id: string, request: object) => window.FileMaker.PerformScriptWithOption("fmgen webviewer", JSON.stringify({ v: 1, id, callback: "cb", webViewer: "web", request }), 0);
    call("a", { action: "create", layouts: "Notes", fieldData: { Text: "second" } });
    call("b", { layouts: "Notes", query: [{ Text: "nothing like it" }] });
    call("c", { layouts: "Notes", query: [{ Text: "second" }] });
    expect(answers).toEqual([]);
    for (let i = 0; i < 100 && answers.length < 3; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(answers.map(([id, r]) => [id, r.messages[0].code])).toEqual([["a", "0"], ["b", "401"], ["c", "0"]]);
    expect(answers[2]![1].response.data[0].fieldData.Text).toBe("second");
  });
});
