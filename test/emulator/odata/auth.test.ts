import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { rawHttp } from "../../support/raw-http.js";
import { auth, DB, expectODataError, get, send as sendTo, startOffice, type Answer } from "./serve-support.js";

// OData's sign-ins beyond Basic (docs/emulator.md, "Sign-ins"): a Claris ID
// token (`Authorization: FMID`), a proxy's API key (`Authorization: Bearer`) without a prefix and under one
// (`/otto/fmi/odata/v4`), and what is no OData credential (a Data API session token, OAuth headers).

const FMID = "claris-id-token-1";
const FMID_REST_ONLY = "claris-id-token-rest";
const KEY = "dk_plain_key";
const OTTO_KEY = "dk_otto_key";
const HOUR = 60 * 60_000;

let emu: RunningEmulator;
const S = `/fmi/odata/v4/${DB}`;

beforeAll(async () => {
  emu = await startOffice(4, {
    accounts: [{ fmid: FMID }, { fmid: FMID_REST_ONLY, privileges: ["fmrest"] }, { oauth: { requestId: "r", identifier: "i" } }],
    apiKeys: [{ key: KEY }, { key: OTTO_KEY, pathPrefix: "/otto" }],
  });
});
afterAll(() => emu.close());

const as = (authorization: string) => ({ Authorization: authorization });

const send = (method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Answer> => sendTo(emu.url, method, path, body, headers, false);

function expect401(a: Answer): string {
  const error = expectODataError(a, 401, "212");
  expect(a.headers.get("www-authenticate")).toBe('Basic realm="FileMaker"');
  return error.message;
}

async function dataApiLogin(authorization: string): Promise<Answer> {
  return send("POST", `/fmi/data/vLatest/databases/${DB}/sessions`, as(authorization), {});
}

describe("Claris ID (FMID) tokens", () => {
  it("reads with a Claris ID account's token; the Data API and OData share its hour, then both answer 401", async () => {
    // A fresh emulator: the token's hour starts at its first use, and this test moves the clock.
    const own = await startOffice(2, { accounts: [{ fmid: FMID }] });
    try {
      const read = (path: string) => get(own.url, path, as(`FMID ${FMID}`));
      const a = await read(`${S}/Contacts?$select=Name&$top=1`);
      expect(a.status).toBe(200);
      expect(a.body.value).toEqual([expect.objectContaining({ Name: "Ada" })]);
      own.advanceTime(HOUR - 1000);
      expect((await read(`${S}/Contacts/$count`)).text).toBe("3");
      const login = await fetch(`${own.url}/fmi/data/vLatest/databases/${DB}/sessions`, { method: "POST", headers: { Authorization: `FMID ${FMID}`, "Content-Type": "application/json" }, body: "{}" });
      expect(login.status).toBe(200);
      own.advanceTime(1000);
      expect(expect401(await read(`${S}/Contacts`))).toMatch(/^\(212\): Invalid account\/password: the FMID id token has expired/);
      const late = await fetch(`${own.url}/fmi/data/vLatest/databases/${DB}/sessions`, { method: "POST", headers: { Authorization: `FMID ${FMID}`, "Content-Type": "application/json" }, body: "{}" });
      expect(late.status).toBe(401);
    } finally {
      await own.close();
    }
  });

  it("writes with a token too, and refuses an unknown token, a malformed FMID header and an account without fmodata", async () => {
    const created = await send("POST", `${S}/Notes`, as(`FMID ${FMID}`), { Text: "by fmid" });
    expect(created.status).toBe(201);
    expect(created.body.Text).toBe("by fmid");
    expect401(await get(emu.url, `${S}/Contacts`, as("FMID not-a-known-token")));
    expect401(await get(emu.url, `${S}/Contacts`, as("FMID")));
    expect401(await get(emu.url, `${S}/Contacts`, as(`FMID ${FMID} extra`)));
    expect401(await get(emu.url, `${S}/Contacts`, as(`FMID ${FMID_REST_ONLY}`)));
    // The same token signs in to the Data API, which it may use.
    expect((await dataApiLogin(`FMID ${FMID_REST_ONLY}`)).status).toBe(200);
  });
});

describe("API keys (OttoFMS): Bearer under the key's path prefix", () => {
  it("a key without a prefix reads and writes at /fmi/odata/v4 and nowhere else", async () => {
    const a = await get(emu.url, `${S}/Contacts?$select=Name&$orderby=Name`, as(`Bearer ${KEY}`));
    expect(a.status).toBe(200);
    expect(a.body.value.map((r: any) => r.Name)).toEqual(["Ada", "bob", "Cy O'Brien"]);
    const patched = await send("PATCH", `${S}/Contacts('B2')`, as(`Bearer ${KEY}`), { Age: 42 });
    expect(patched.status).toBe(204);
    expect((await get(emu.url, `${S}/Contacts('B2')/Age`)).body.value).toBe(42);
    // Not under another key's prefix.
    expect401(await get(emu.url, `/otto${S}/Contacts`, as(`Bearer ${KEY}`)));
    expect401(await get(emu.url, `${S}/Contacts`, as(`Bearer ${KEY}x`)));
    expect401(await get(emu.url, `${S}/Contacts`, as("Bearer")));
  });

  it("a key with pathPrefix /otto serves /otto/fmi/odata/v4 (discovery, $metadata, reads, writes), not the bare root", async () => {
    const key = as(`Bearer ${OTTO_KEY}`);
    const root = await get(emu.url, "/otto/fmi/odata/v4", key);
    expect(root.status).toBe(200);
    expect(root.body.value).toEqual([expect.objectContaining({ name: DB })]);
    const meta = await get(emu.url, `/otto${S}/$metadata`, key);
    expect(meta.status).toBe(200);
    expect(meta.headers.get("content-type")).toBe("application/xml;charset=utf-8");
    const one = await get(emu.url, `/otto${S}/Contacts('A1')?$select=Name`, key);
    expect(one.status).toBe(200);
    expect(one.body.Name).toBe("Ada");
    expect((await get(emu.url, `/otto${S}/Notes/$count`, key)).status).toBe(200);
    const created = await send("POST", `/otto${S}/Notes`, key, { Text: "via otto" });
    expect(created.status).toBe(201);
    const deleted = await send("DELETE", `/otto${S}/Notes?$filter=Text eq 'via otto'`.replace(/ /g, "%20"), key);
    expect(deleted.status).toBe(204);
    expect(deleted.headers.get("fmodata.affected_rows")).toBe("1");
    expect401(await get(emu.url, `${S}/Contacts`, key));
    // Unknown paths under the prefix are OData's: an unknown database is OData's 404, not the Data API's.
    expectODataError(await get(emu.url, `/otto/fmi/odata/v4/Nope/Contacts`, key), 404, "-1000");
  });

  it("under the prefix a Basic or FMID sign-in works as at the root, as a proxy forwards it", async () => {
    expect((await get(emu.url, `/otto${S}/Contacts`)).status).toBe(200);
    expect((await get(emu.url, `/otto${S}/Contacts`, as(`FMID ${FMID}`))).status).toBe(200);
    expect401(await get(emu.url, `/otto${S}/Contacts`, as(auth("web", "wrong"))));
  });

  it("URLs in answers under /otto leave the prefix out, as captured Otto answers do (2.3): @context, @id, nextLink, Location", async () => {
    const key = as(`Bearer ${OTTO_KEY}`);
    const base = `${emu.url}/fmi/odata/v4/${DB}`;
    const page = await get(emu.url, `/otto${S}/Notes?$select=Text`, { ...key, Prefer: "odata.maxpagesize=2" });
    expect(page.status).toBe(200);
    expect(page.body["@context"]).toBe(`${base}/$metadata#Notes("Text")`);
    expect(page.body.value[0]["@id"]).toMatch(new RegExp(`^${base}/Notes\\(\\d+\\)$`));
    expect(page.body["@nextLink"]).toMatch(new RegExp(`^${base}/Notes\\?`));
    const created = await send("POST", `/otto${S}/Notes`, { ...key, Prefer: "return=minimal" }, { Text: "loc" });
    expect(created.status).toBe(204);
    expect(created.headers.get("location")).toMatch(new RegExp(`^${base}/Notes\\(ROWID=\\d+\\)$`));
    const doc = await get(emu.url, `/otto${S}`, key);
    expect(doc.body["@context"]).toBe(`${base}/$metadata`);
  });

  it("under /otto, injected faults and a refused Host are answered in OData's wire", async () => {
    const refused = await rawHttp(emu.url, "GET", `/otto${S}/Contacts`, { Host: "elsewhere.example", Authorization: `Bearer ${OTTO_KEY}` });
    expect(refused.status).toBe(421);
    expect(refused.body.error.code).toBe("-1000");
    const own = await startOffice(1, { apiKeys: [{ key: OTTO_KEY, pathPrefix: "/otto" }], faults: { rate: 1, seed: 1, kinds: ["capacity812"] } });
    try {
      expectODataError(await get(own.url, `/otto${S}/Contacts`, as(`Bearer ${OTTO_KEY}`)), 503, "812");
    } finally {
      await own.close();
    }
  });

  it("the Data API under /otto is unchanged: the key lists records there with no login", async () => {
    const a = await send("GET", `/otto/fmi/data/vLatest/databases/${DB}/layouts/Contacts/records?_limit=1`, as(`Bearer ${OTTO_KEY}`));
    expect(a.status).toBe(200);
    expect(a.body.response.data).toHaveLength(1);
  });
});

describe("what is no OData credential", () => {
  it("a Data API session token is 401 at the root and under a prefix", async () => {
    const login = await dataApiLogin(auth());
    expect(login.status).toBe(200);
    const token = login.headers.get("x-fm-data-access-token")!;
    expect(token).toBeTruthy();
    // The token is live for the Data API.
    expect((await send("GET", `/fmi/data/vLatest/databases/${DB}/layouts/Contacts/records?_limit=1`, as(`Bearer ${token}`))).status).toBe(200);
    expect401(await get(emu.url, `${S}/Contacts`, as(`Bearer ${token}`)));
    expect401(await get(emu.url, `/otto${S}/Contacts`, as(`Bearer ${token}`)));
  });

  it("OAuth login headers are a Data API login, not an OData credential (choice): 401", async () => {
    const headers = { "X-FM-Data-OAuth-Request-Id": "r", "X-FM-Data-OAuth-Identifier": "i" };
    expect((await send("POST", `/fmi/data/vLatest/databases/${DB}/sessions`, headers, {})).status).toBe(200);
    expect401(await send("GET", `${S}/Contacts`, headers));
  });
});
