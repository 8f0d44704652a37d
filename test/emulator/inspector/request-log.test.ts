import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { rawHttp } from "../../support/raw-http.js";
import { API_KEY, BASIC, call, DATA_SOURCE_PASSWORD, DB, inspector, LAYOUT, login, OAUTH, ODATA, PASSWORD, RECORDS, startInspected, USER, V, wholeLog } from "./support.js";

// The request log the inspector shows (docs/inspector.md): one entry per Data API, OData and Web Viewer request, with
// the API's account and code, bodies cut at 4 KiB, secrets removed, in a ring of a fixed size.

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startInspected();
});
afterAll(async () => {
  await emu.close();
});

/** The newest entry whose method and path match, with its headers and bodies. */
async function lastRequest(method: string, path: RegExp): Promise<any> {
  const { entries } = await inspector(emu.url, "log");
  const found = [...entries].reverse().find((e: any) => e.method === method && path.test(e.path));
  expect(found, `no ${method} ${path} in the log: ${JSON.stringify(entries.map((e: any) => `${e.method} ${e.path}`))}`).toBeDefined();
  return inspector(emu.url, `request?id=${found.id}`);
}

describe("entries", () => {
  it("logs a Data API create with its account, status, code and bodies", async () => {
    const token = await login(emu.url);
    const created = await call(emu.url, "POST", RECORDS, { Authorization: `Bearer ${token}` }, { fieldData: { "First Name": "Logged", "Last Name": "Create" } });
    expect(created.status).toBe(200);
    const entry = await lastRequest("POST", /\/layouts\/Contacts%20Web\/records$/);
    expect(entry).toMatchObject({ api: "Data API", method: "POST", account: USER, status: 200, code: "0" });
    expect(typeof entry.ms).toBe("number");
    expect(JSON.parse(entry.request.text)).toEqual({ fieldData: { "First Name": "Logged", "Last Name": "Create" } });
    expect(JSON.parse(entry.answer.text).response.recordId).toBe(created.body.response.recordId);
  });

  it("logs an OData insert with its account and code", async () => {
    const inserted = await call(emu.url, "POST", `${ODATA}/Contacts`, { Authorization: BASIC }, { "First Name": "OData", "Last Name": "Insert" });
    expect(inserted.status).toBe(201);
    const entry = await lastRequest("POST", /\/fmi\/odata\/v4\/Contacts\/Contacts$/);
    expect(entry).toMatchObject({ api: "OData", account: USER, status: 201, code: "0" });
    expect(JSON.parse(entry.request.text)).toEqual({ "First Name": "OData", "Last Name": "Insert" });
  });

  it("logs an error answer's code: the Data API's and OData's", async () => {
    const token = await login(emu.url);
    const missing = await call(emu.url, "GET", `${RECORDS}/999999`, { Authorization: `Bearer ${token}` });
    expect(missing.body.messages[0].code).toBe("101");
    expect(await lastRequest("GET", /\/records\/999999$/)).toMatchObject({ api: "Data API", status: missing.status, code: "101" });

    const odataMissing = await call(emu.url, "GET", `${ODATA}/Contacts(999999)`, { Authorization: BASIC });
    expect(odataMissing.status).toBe(404);
    const entry = await lastRequest("GET", /Contacts\(999999\)$/);
    expect(entry).toMatchObject({ api: "OData", status: 404, code: odataMissing.body.error.code });
    expect(entry.code).not.toBe("0");

    const refused = await call(emu.url, "POST", `${V}/databases/${DB}/sessions`, { Authorization: `Basic ${Buffer.from(`${USER}:wrong`).toString("base64")}` }, {});
    expect(refused.status).toBe(401);
    expect(await lastRequest("POST", /\/sessions$/)).toMatchObject({ status: 401, code: "212" });
  });

  it("names no account for an OData request whose sign-in is refused, the one it signed in as for a logged in one", async () => {
    const wrong = `Basic ${Buffer.from(`${USER}:wrong`).toString("base64")}`;
    expect((await call(emu.url, "GET", `${ODATA}/Contacts?$top=2`, { Authorization: wrong })).status).toBe(401);
    expect(await lastRequest("GET", /\$top=2$/)).toMatchObject({ api: "OData", status: 401, account: null });
    expect((await call(emu.url, "GET", `${ODATA}/Contacts?$top=3`, { Authorization: BASIC })).status).toBe(200);
    expect(await lastRequest("GET", /\$top=3$/)).toMatchObject({ api: "OData", status: 200, account: USER });
    // Refused before signing in (a URL past OData's limit): its credentials were never checked, so no account.
    const long = `${ODATA}/Contacts?$filter=${"x".repeat(8300)}`;
    expect((await call(emu.url, "GET", long, { Authorization: wrong })).status).toBe(414);
    expect(await lastRequest("GET", /\$filter=\[8300 /)).toMatchObject({ api: "OData", status: 414, account: null });
  });

  it("names a session's account on each Data API request with its token, and none for a token no session has", async () => {
    const token = await login(emu.url);
    expect((await call(emu.url, "GET", `${RECORDS}/1`, { Authorization: `Bearer ${token}` })).status).toBe(200);
    expect(await lastRequest("GET", /\/records\/1$/)).toMatchObject({ account: USER });
    expect((await call(emu.url, "GET", `${RECORDS}/2`, { Authorization: "Bearer not-a-session" })).status).toBe(401);
    expect(await lastRequest("GET", /\/records\/2$/)).toMatchObject({ account: null, code: "952" });
    // A Data API request with an API key: named from the key it ran under, an error answer from the key too.
    expect((await call(emu.url, "GET", `${RECORDS}/3`, { Authorization: `Bearer ${API_KEY}` })).status).toBe(200);
    expect(await lastRequest("GET", /\/records\/3$/)).toMatchObject({ account: "API key", code: "0" });
    expect((await call(emu.url, "GET", `${RECORDS}/999998`, { Authorization: `Bearer ${API_KEY}` })).body.messages[0].code).toBe("101");
    expect(await lastRequest("GET", /\/records\/999998$/)).toMatchObject({ account: "API key", code: "101" });
    // A request the shell refuses before its API reads it (a Host it does not serve) signed in as no one, token or not.
    const port = new URL(emu.url).port;
    expect((await rawHttp(emu.url, "GET", `${RECORDS}/4`, { Host: `evil.example:${port}`, Authorization: `Bearer ${token}` })).status).toBe(421);
    expect(await lastRequest("GET", /\/records\/4$/)).toMatchObject({ status: 421, code: "1630", account: null });
    // A session's error answer (no such record) names the session's account as its success does.
    expect((await call(emu.url, "GET", `${RECORDS}/999997`, { Authorization: `Bearer ${token}` })).body.messages[0].code).toBe("101");
    expect(await lastRequest("GET", /\/records\/999997$/)).toMatchObject({ account: USER, code: "101" });
  });

  it("names the account of an API key, of an OAuth sign-in and of a logout", async () => {
    await call(emu.url, "GET", `${ODATA}/Contacts?$top=1`, { Authorization: `Bearer ${API_KEY}` });
    expect(await lastRequest("GET", /\$top=1$/)).toMatchObject({ api: "OData", account: "API key", status: 200 });
    const oauth = await call(emu.url, "POST", `${V}/databases/${DB}/sessions`, { "X-FM-Data-OAuth-Request-Id": OAUTH.requestId, "X-FM-Data-OAuth-Identifier": OAUTH.identifier }, {});
    expect(oauth.status).toBe(200);
    expect(await lastRequest("POST", /\/sessions$/)).toMatchObject({ account: "OAuth", code: "0" });
    const token = await login(emu.url);
    expect((await call(emu.url, "DELETE", `${V}/databases/${DB}/sessions/${token}`)).status).toBe(200);
    expect(await lastRequest("DELETE", /\/sessions\//)).toMatchObject({ account: USER, code: "0", path: `${V}/databases/${DB}/sessions/[removed]` });
  });

  it("leaves the inspector's own requests out", async () => {
    const before = (await inspector(emu.url, "log")).total;
    await inspector(emu.url, "overview");
    await fetch(`${emu.url}/fmgen/`);
    const after = await inspector(emu.url, "log");
    expect(after.total).toBe(before);
    expect(after.entries.some((e: any) => e.path.startsWith("/fmgen"))).toBe(false);
  });
});

describe("secrets", () => {
  it("shows no password, Basic credential, token, data source password, API key, OAuth header, container token or cookie", async () => {
    const own = await startInspected();
    try {
      const token = await login(own.url, { fmDataSource: [{ database: "Other", username: "someone", password: DATA_SOURCE_PASSWORD }] });
      const bearer = { Authorization: `Bearer ${token}` };
      const created = await call(own.url, "POST", `${V}/databases/${DB}/layouts/${encodeURIComponent(LAYOUT)}/records`, bearer, { fieldData: { "First Name": "Secretive" } });
      const recordId = created.body.response.recordId as string;
      // A container upload (bytes never logged), then its URL (its token) and the download (its cookie).
      const marker = "CONTAINER-BYTES-MARKER-6161";
      const form = new FormData();
      form.append("upload", new Blob([Buffer.from(`\x89PNG\r\n\x1a\n${marker}`)], { type: "image/png" }), "photo.png");
      const upload = await fetch(`${own.url}${RECORDS}/${recordId}/containers/Photo/1`, { method: "POST", headers: bearer, body: form });
      expect(upload.status).toBe(200);
      const read = await call(own.url, "GET", `${RECORDS}/${recordId}`, bearer);
      const photoUrl = read.body.response.data[0].fieldData.Photo as string;
      // Its signed name (/Streaming/MainDB/<name>.png): what opens the file.
      const urlToken = new URL(photoUrl).pathname.split("/")[3]!.split(".")[0]!;
      expect(urlToken).toMatch(/^[0-9A-F]{64}$/);
      // The first download answers a redirect setting the streaming session's cookie; the second sends it back.
      const first = await fetch(photoUrl, { redirect: "manual" });
      const cookie = (first.headers.getSetCookie()[0] ?? "").split(";")[0]!;
      await first.arrayBuffer();
      expect(cookie).toMatch(/=/);
      const download = await fetch(first.headers.get("location") ? new URL(first.headers.get("location")!, photoUrl) : photoUrl, { headers: { Cookie: cookie } });
      expect(download.status).toBe(200);
      await download.arrayBuffer();
      // The same token in a header of its own, OAuth headers, an API key, a password in a body field named so.
      await call(own.url, "GET", `${V}/databases/${DB}/layouts/${encodeURIComponent(LAYOUT)}/records?_limit=1`, { ...bearer, "X-FM-Data-Access-Token": token, Cookie: cookie });
      await call(own.url, "POST", `${V}/databases/${DB}/sessions`, { "X-FM-Data-OAuth-Request-Id": OAUTH.requestId, "X-FM-Data-OAuth-Identifier": OAUTH.identifier }, {});
      await call(own.url, "GET", `${ODATA}/Contacts?$top=1`, { Authorization: `Bearer ${API_KEY}` });
      await call(own.url, "POST", `${ODATA}/Contacts`, { Authorization: BASIC }, { "First Name": "Body", password: PASSWORD });
      const hook = await call(own.url, "POST", `${ODATA}/Webhook.Add`, { Authorization: BASIC }, { webhook: "http://127.0.0.1:9/hook", tableName: "Contacts", headers: { "X-Hook-Secret": "hook-header-secret-3131" } });
      expect(hook.status, JSON.stringify(hook.body)).toBe(200);
      await call(own.url, "DELETE", `${V}/databases/${DB}/sessions/${token}`);

      const { entries, text } = await wholeLog(own.url);
      expect(entries.length).toBeGreaterThanOrEqual(10);
      const basicValue = BASIC.slice("Basic ".length);
      const secrets = { PASSWORD, basicValue, token, DATA_SOURCE_PASSWORD, API_KEY, requestId: OAUTH.requestId, identifier: OAUTH.identifier, urlToken, cookie: cookie.split("=")[1]!, hook: "hook-header-secret-3131", marker };
      for (const [name, secret] of Object.entries(secrets)) {
        expect(secret.length, name).toBeGreaterThan(6);
        expect(text.includes(secret), `${name} shows in the log`).toBe(false);
      }
      // And neither the page nor its other JSON shows any.
      const page = [
        await (await fetch(`${own.url}/fmgen/`)).text(),
        JSON.stringify(await inspector(own.url, "overview")),
        JSON.stringify(await inspector(own.url, `records?file=${DB}&layout=${encodeURIComponent(LAYOUT)}&limit=200`)),
        // The export holds the records and container files, never an account (docs/emulator.md, "Snapshots").
        await (await fetch(`${own.url}/fmgen/export`)).text(),
      ].join("\n");
      expect(page).toContain("X-Hook-Secret");
      for (const [name, secret] of Object.entries(secrets)) expect(page.includes(secret), `${name} shows on the page`).toBe(false);
      // The container's bytes are the record's data: the export carries them, as base64.
      expect(page).toContain(Buffer.from(`\x89PNG\r\n\x1a\n${marker}`).toString("base64"));
      // What was removed still says what it was.
      const upload2 = entries.find((e) => e.method === "POST" && /\/containers\/Photo\/1$/.test(e.path));
      expect(upload2.request).toMatchObject({ text: null });
      expect(upload2.request.type).toMatch(/^multipart\/form-data/);
      const signIn = entries.find((e) => e.method === "POST" && /\/sessions$/.test(e.path));
      expect(signIn.requestHeaders.authorization).toBe("Basic [removed]");
      expect(signIn.answerHeaders["X-FM-Data-Access-Token"]).toBe("[removed]");
      expect(JSON.parse(signIn.answer.text).response.token).toBe("[removed]");
      expect(JSON.parse(signIn.request.text).fmDataSource[0]).toEqual({ database: "Other", username: "someone", password: "[removed]" });
    } finally {
      await own.close();
    }
  });
});

describe("bounds", () => {
  it("cuts a body past 4 KiB with a marker, and keeps its size", async () => {
    const token = await login(emu.url);
    const long = "lorem ipsum dolor sit amet ".repeat(400);
    const created = await call(emu.url, "POST", RECORDS, { Authorization: `Bearer ${token}` }, { fieldData: { "First Name": "Long", "Last Name": long } });
    expect(created.status).toBe(200);
    const entry = await lastRequest("POST", /\/layouts\/Contacts%20Web\/records$/);
    expect(entry.request.size).toBeGreaterThan(10_000);
    expect(entry.request.truncated).toBe(true);
    expect(entry.request.text).toMatch(/… \[truncated: 4096 of \d+ bytes shown\]$/);
    expect(entry.request.text.length).toBeLessThan(4096 + 100);
  });

  it("keeps the last logSize requests, the oldest dropped first", async () => {
    const small = await startInspected({ inspector: { logSize: 3 } });
    try {
      for (let i = 1; i <= 5; i++) await call(small.url, "GET", `${V}/productInfo?n=${i}`);
      const log = await inspector(small.url, "log");
      expect({ size: log.size, total: log.total }).toEqual({ size: 3, total: 5 });
      expect(log.entries.map((e: any) => [e.id, e.path])).toEqual([3, 4, 5].map((n) => [n, `${V}/productInfo?n=${n}`]));
      expect((await fetch(`${small.url}/fmgen/api/request?id=1`)).status).toBe(404);
      const after = await inspector(small.url, "log?after=4");
      expect(after.entries.map((e: any) => e.id)).toEqual([5]);
    } finally {
      await small.close();
    }
  });

  it("keeps no log and serves no inspector with inspector: false, the Web Viewer shim still served", async () => {
    const off = await startInspected({ inspector: false });
    try {
      expect((await fetch(`${off.url}/fmgen/api/log`)).status).toBe(404);
      expect((await fetch(`${off.url}/fmgen/webviewer.js?account=web`)).status).toBe(200);
    } finally {
      await off.close();
    }
  });

  it("refuses a logSize that is not a whole number of at least 1", async () => {
    await expect(startInspected({ inspector: { logSize: 0 } })).rejects.toThrow(/logSize/);
    await expect(startInspected({ inspector: "yes" as never })).rejects.toThrow(/inspector/);
  });
});
