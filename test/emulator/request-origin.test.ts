import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../src/emulator/index.js";
import { auth, DB, PASSWORD, startOffice, USER } from "./odata/serve-support.js";
import { rawHttp } from "../support/raw-http.js";

// A page of another origin must not write through the browser's stored credentials (docs/emulator.md, Security):
// OData's 401 asks a browser for Basic credentials, which it then attaches to any page's request to this server, and
// a bodyless POST with no Content-Type of its own (a no-cors fetch) needs no preflight. So every request that is not
// a GET or HEAD and names an Origin other than its own Host's is refused before either API reads it, on both APIs.
// Raw requests: fetch will not send a page's Origin.

let emu: RunningEmulator;
let runs = 0;
let own: string;

beforeAll(async () => {
  emu = await startOffice(0, { scripts: { Count: () => String(++runs) } });
  own = new URL(emu.url).origin;
});
afterAll(() => emu.close());

const ODATA = `/fmi/odata/v4/${DB}`;
const SESSIONS = `/fmi/data/vLatest/databases/${DB}/sessions`;
const basic = { Authorization: auth() };
const json = { ...basic, "Content-Type": "application/json" };
const FOREIGN = ["http://evil.example", "null", "http://127.0.0.1:1", "https://127.0.0.1", "not a url"];

/** A raw request with its body's length. */
const send = (method: string, path: string, headers: Record<string, string>, body = "") =>
  rawHttp(emu.url, method, path, body ? { ...headers, "Content-Length": String(Buffer.byteLength(body)) } : headers, body);

async function contacts(): Promise<number> {
  const res = await rawHttp(emu.url, "GET", `${ODATA}/Contacts/$count`, basic);
  return Number(res.text);
}

describe("a write from a page of another origin is refused, and nothing is done", () => {
  it.each(FOREIGN)("OData: a bodyless script call with Origin %s is 403, and the script does not run", async (origin) => {
    const before = runs;
    const res = await rawHttp(emu.url, "POST", `${ODATA}/Script.Count`, { ...basic, Origin: origin });
    expect(res.status, res.text).toBe(403);
    expect(res.body.error).toMatchObject({ code: "-1000", message: expect.stringMatching(/from a page of another origin/) });
    expect(runs).toBe(before);
  });

  it.each(FOREIGN)("OData: a create with Origin %s is 403, and no row is made", async (origin) => {
    const before = await contacts();
    const res = await send("POST", `${ODATA}/Contacts`, { ...json, Origin: origin }, JSON.stringify({ Name: "Mallory" }));
    expect(res.status, res.text).toBe(403);
    expect(await contacts()).toBe(before);
  });

  it.each(["PATCH", "DELETE"])("OData: %s with a foreign Origin is 403, and the row is as it was", async (method) => {
    const res = await send(method, `${ODATA}/Contacts('A1')`, { ...json, Origin: "http://evil.example" }, method === "PATCH" ? JSON.stringify({ Name: "Mallory" }) : "");
    expect(res.status, res.text).toBe(403);
    const row = await rawHttp(emu.url, "GET", `${ODATA}/Contacts('A1')`, basic);
    expect(row.body.Name).toBe("Ada");
  });

  it("the Data API: a login with a foreign Origin is 403 / 1630, and no session is made", async () => {
    const sessions = emu.stats().activeSessions;
    const res = await send("POST", SESSIONS, { ...json, Authorization: `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}`, Origin: "http://evil.example" }, "{}");
    expect({ status: res.status, code: res.code }, res.text).toEqual({ status: 403, code: "1630" });
    expect(res.body.messages[0].message).toMatch(/from a page of another origin/);
    expect(emu.stats().activeSessions).toBe(sessions);
  });
});

describe("what is still served", () => {
  it("a write naming the emulator's own origin (a page it serves) is taken", async () => {
    const before = runs;
    const res = await rawHttp(emu.url, "POST", `${ODATA}/Script.Count`, { ...basic, Origin: own });
    expect(res.status, res.text).toBe(200);
    expect(runs).toBe(before + 1);
  });

  it("the own origin is compared as URLs normalize it (localhost's name and port as the Host names them)", async () => {
    const port = new URL(emu.url).port;
    const res = await rawHttp(emu.url, "POST", `${ODATA}/Script.Count`, { ...basic, Host: `LOCALHOST:${port}`, Origin: `http://localhost:${port}` });
    expect(res.status, res.text).toBe(200);
  });

  it("a write with no Origin (a client that is not a browser) is taken", async () => {
    const res = await rawHttp(emu.url, "POST", `${ODATA}/Script.Count`, basic);
    expect(res.status, res.text).toBe(200);
  });

  it("a GET with a foreign Origin is answered: it changes nothing, and the page cannot read it", async () => {
    const res = await rawHttp(emu.url, "GET", `${ODATA}/Contacts('A1')`, { ...basic, Origin: "http://evil.example" });
    expect(res.status, res.text).toBe(200);
  });
});
