import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../../src/cli/run.js";
import type { CliIo } from "../../../src/cli/io.js";
import { startEmulator } from "../../../src/emulator/index.js";
import { conformanceSeed, startConformanceEmulator, type Emulator } from "../../support/conformance-emulator.js";
import { basic, CONFORMANCE_LAYOUTS, CONTACTS, DataApi, DB, expectError, expectOk, p, PASSWORD, rawRequest, USER, type HttpResult } from "../../support/data-api-http.js";

// docs/emulator.md, "9. Other sign-ins": other sign-ins. OAuth (two headers) and FileMaker Cloud's Claris ID (an FMID
// id token) answer the same token as a Basic login; a proxy's static API key needs no login at all. One test per
// bullet, over loopback HTTP, on v1, v2 and vLatest, under both status modes where they differ.

const VERSIONS = ["v1", "v2", "vLatest"] as const;
const OAUTH = { requestId: "req-7F3A", identifier: "id-5C21-secret" };
const FMID = "eyJraWQiOiJjbGFyaXMifQ.eyJzdWIiOiJ3ZWIifQ.c2lnbmF0dXJl";

function seedWithSignIns() {
  const seed = conformanceSeed() as { accounts: object[]; records: unknown };
  seed.accounts.push({ oauth: OAUTH }, { fmid: FMID }, { oauth: { requestId: "r2", identifier: "no-rest" }, privileges: ["fmapp"] }, { fmid: "fmapp-only", privileges: ["fmapp"] });
  return seed as never;
}

let emu: Emulator;
let api: DataApi;
let serverEmu: Emulator;
let serverApi: DataApi;

beforeAll(async () => {
  ({ emu, api } = await startConformanceEmulator({ data: seedWithSignIns() }));
  ({ emu: serverEmu, api: serverApi } = await startConformanceEmulator({ data: seedWithSignIns(), serverStatuses: true }));
});
afterAll(async () => {
  await emu.close();
  await serverEmu.close();
});

const BOTH = [
  ["the contract's statuses", () => ({ emu, api })],
  ["real servers' statuses", () => ({ emu: serverEmu, api: serverApi })],
] as const;

const oauthHeaders = (requestId = OAUTH.requestId, identifier = OAUTH.identifier) => ({ "X-FM-Data-OAuth-Request-Id": requestId, "X-FM-Data-OAuth-Identifier": identifier });
const loginWith = (v: DataApi, headers: Record<string, string>, json: unknown = {}) => v.call("POST", p`/databases/${DB}/sessions`, { headers, json });

/** A login answer exactly as a Basic login's: the token in the body and in X-FM-Data-Access-Token, and it works. */
async function expectToken(v: DataApi, res: HttpResult): Promise<string> {
  const response = expectOk(res);
  expect(Object.keys(response)).toEqual(["token"]);
  expect(res.headers.get("x-fm-data-access-token")).toBe(response.token);
  expectOk(await v.list(response.token, CONTACTS, { _limit: 1 }));
  return response.token as string;
}

describe("9. OAuth", () => {
  it.each(VERSIONS)("9. OAuth: X-FM-Data-OAuth-Request-Id and X-FM-Data-OAuth-Identifier, no Basic, answer a token as a Basic login does (%s)", async (version) => {
    const v = api.withVersion(version);
    const basicShape = expectOk(await v.loginRaw(USER, PASSWORD));
    const token = await expectToken(v, await loginWith(v, oauthHeaders()));
    expect(token).toMatch(new RegExp(`^[0-9a-f]{${basicShape.token.length}}$`));
    // An empty body, as clients send it, is {} here too.
    await expectToken(v, await v.call("POST", p`/databases/${DB}/sessions`, { headers: oauthHeaders() }));
    expectOk(await v.logout(token));
    expectError(await v.list(token, CONTACTS), 401, "952");
  });

  it.each(BOTH)("9. OAuth: a wrong identifier or request id, one header of two, or OAuth beside Authorization is 401 / 212; nobody signs in (%s)", async (_, which) => {
    const { emu, api } = which();
    const logins = emu.stats().logins;
    expectError(await loginWith(api, oauthHeaders(OAUTH.requestId, "wrong")), 401, "212");
    expectError(await loginWith(api, oauthHeaders("wrong", OAUTH.identifier)), 401, "212");
    // The pair is one credential: a request id with another account's identifier is no account.
    expectError(await loginWith(api, oauthHeaders("r2", OAUTH.identifier)), 401, "212");
    expectError(await loginWith(api, { "X-FM-Data-OAuth-Request-Id": OAUTH.requestId }), 401, "212");
    expectError(await loginWith(api, { "X-FM-Data-OAuth-Identifier": OAUTH.identifier }), 401, "212");
    expectError(await loginWith(api, { ...oauthHeaders(), Authorization: basic(USER, PASSWORD) }), 401, "212");
    // An OAuth account's identifier is no password: it signs in only through the headers.
    expectError(await api.loginRaw(OAUTH.requestId, OAUTH.identifier), 401, "212");
    expect(emu.stats().logins).toBe(logins);
  });

  it("9. OAuth: an account without the fmrest privilege is refused as a Basic one is (401 / 9)", async () => {
    expectError(await loginWith(api, oauthHeaders("r2", "no-rest")), 401, "9");
  });
});

describe("9. FileMaker Cloud (Claris ID)", () => {
  it.each(VERSIONS)("9. FMID: Authorization: FMID <id token> answers a token as a Basic login does (%s)", async (version) => {
    const v = api.withVersion(version);
    const token = await expectToken(v, await loginWith(v, { Authorization: `FMID ${FMID}` }));
    expectOk(await v.logout(token));
  });

  it.each(BOTH)("9. FMID: an unknown or malformed id token is 401 / 212, an account without fmrest 401 / 9 (%s)", async (_, which) => {
    const { emu, api } = which();
    const logins = emu.stats().logins;
    expectError(await loginWith(api, { Authorization: `FMID ${FMID}x` }), 401, "212");
    expectError(await loginWith(api, { Authorization: "FMID" }), 401, "212");
    expectError(await loginWith(api, { Authorization: `Bearer ${FMID}` }), 401, "212");
    expectError(await loginWith(api, { Authorization: "FMID fmapp-only" }), 401, "9");
    // The id token is no password of any account.
    expectError(await api.loginRaw(USER, FMID), 401, "212");
    expect(emu.stats().logins).toBe(logins);
  });

  it("9. FMID: the id token lasts an hour of the emulator's clock from its first sign-in; sessions keep their own 15 minutes", async () => {
    const cloud = await startConformanceEmulator({ data: seedWithSignIns() });
    try {
      const v = cloud.api;
      await expectToken(v, await loginWith(v, { Authorization: `FMID ${FMID}` }));
      cloud.emu.advanceTime(59 * 60_000);
      const late = await expectToken(v, await loginWith(v, { Authorization: `FMID ${FMID}` }));
      cloud.emu.advanceTime(60_000);
      const expired = await loginWith(v, { Authorization: `FMID ${FMID}` });
      expectError(expired, 401, "212");
      expect(expired.body.messages[0]!.message).toMatch(/expired/);
      // The Data API session made with it a minute ago lives on.
      expectOk(await v.list(late, CONTACTS, { _limit: 1 }));
      // Other sign-ins are not affected.
      await expectToken(v, await loginWith(v, oauthHeaders()));
    } finally {
      await cloud.emu.close();
    }
  });
});

describe("9. seed and startEmulator accounts", () => {
  it("9. accounts: startEmulator({ accounts }) takes OAuth and FMID accounts too", async () => {
    const emu = await startEmulator({ layouts: [CONFORMANCE_LAYOUTS], accounts: [{ oauth: { requestId: "a", identifier: "b" } }, { fmid: "tok" }, { username: "u", password: "p" }] });
    try {
      const v = new DataApi(emu.url);
      expectOk(await loginWith(v, oauthHeaders("a", "b")));
      expectOk(await loginWith(v, { Authorization: "FMID tok" }));
      expectOk(await v.loginRaw("u", "p"));
      expect(emu.stats().logins).toBe(3);
    } finally {
      await emu.close();
    }
  });

  it.each([
    ["an OAuth account without identifier", { oauth: { requestId: "a" } }],
    ["an OAuth account with an empty request id", { oauth: { requestId: "", identifier: "b" } }],
    ["an FMID token with a space", { fmid: "a b" }],
    ["two ways at once", { username: "u", password: "p", fmid: "t" }],
    ["an unknown key", { oauth: { requestId: "a", identifier: "b" }, secret: 1 }],
  ])("9. accounts: a seed with %s stops the emulator from starting", async (_label, account) => {
    await expect(startEmulator({ layouts: [CONFORMANCE_LAYOUTS], data: { accounts: [account] } as never })).rejects.toThrow(/accounts/);
  });

  it("9. accounts: GET /databases takes the FMID and OAuth sign-ins too (section 8)", async () => {
    expect(expectOk(await api.call("GET", "/databases", { headers: { Authorization: `FMID ${FMID}` } }))).toEqual({ databases: [{ name: DB }] });
    expect(expectOk(await api.call("GET", "/databases", { headers: oauthHeaders() }))).toEqual({ databases: [{ name: DB }] });
    expectError(await api.call("GET", "/databases", { headers: { Authorization: "FMID nope" } }), 401, "212");
    expectError(await api.call("GET", "/databases", { headers: { "X-FM-Data-OAuth-Request-Id": "x" } }), 401, "212");
  });
});

describe("9. a proxy's static API key", () => {
  let proxied: Emulator;
  let serverProxied: Emulator;
  const KEY = "otto-key-1";
  const PREFIXED_KEY = "otto-key-2";
  beforeAll(async () => {
    const apiKeys = [{ key: KEY }, { key: PREFIXED_KEY, pathPrefix: "/otto" }];
    ({ emu: proxied } = await startConformanceEmulator({ apiKeys }));
    ({ emu: serverProxied } = await startConformanceEmulator({ apiKeys, serverStatuses: true }));
  });
  afterAll(async () => {
    await proxied.close();
    await serverProxied.close();
  });

  it.each(VERSIONS)("9. API key: Authorization: Bearer <key> on the /fmi/data paths is served with no login (%s)", async (version) => {
    const v = new DataApi(proxied.url, version);
    const logins = proxied.stats().logins;
    const page = expectOk(await v.list(KEY, CONTACTS, { _limit: 2 }));
    expect(page.dataInfo).toMatchObject({ database: DB, layout: CONTACTS, returnedCount: 2 });
    const { recordId } = await v.createOk(KEY, CONTACTS, { fieldData: { "First Name": "Keyed" } });
    expectOk(await v.edit(KEY, CONTACTS, recordId, { fieldData: { "Last Name": "Proxy" } }));
    expect(expectOk(await v.find(KEY, CONTACTS, { query: [{ "Last Name": "Proxy" }] })).data.map((r: { recordId: string }) => r.recordId)).toEqual([recordId]);
    expectOk(await v.call("GET", p`/databases/${DB}/layouts/${CONTACTS}`, { token: KEY }));
    expectOk(await v.delete(KEY, CONTACTS, recordId));
    expect(proxied.stats().logins).toBe(logins);
  });

  it.each(VERSIONS)("9. API key: a key with pathPrefix /otto is served under /otto/fmi/data/{version}/ (%s)", async (version) => {
    const otto = new DataApi(`${proxied.url}/otto`, version);
    expectOk(await otto.list(PREFIXED_KEY, CONTACTS, { _limit: 1 }));
    expectOk(await otto.get(PREFIXED_KEY, CONTACTS, "1"));
    // Under the prefix the Data API is all there: a Basic login and its session token work as on /fmi/data.
    const token = await otto.login();
    expectOk(await otto.list(token, CONTACTS, { _limit: 1 }));
    expectOk(await otto.logout(token));
  });

  it.each([
    ["the contract's statuses", () => proxied],
    ["real servers' statuses", () => serverProxied],
  ] as const)("9. API key: a wrong key, or a key outside its prefix, is 401 / 952 and changes nothing (%s)", async (_, which) => {
    const emu = which();
    const plain = new DataApi(emu.url);
    const otto = new DataApi(`${emu.url}/otto`);
    const before = emu.stats().records;
    expectError(await plain.list("wrong-key", CONTACTS), 401, "952");
    expectError(await plain.list(`${KEY}x`, CONTACTS), 401, "952");
    expectError(await plain.list(PREFIXED_KEY, CONTACTS), 401, "952");
    expectError(await otto.list(KEY, CONTACTS), 401, "952");
    expectError(await plain.create("wrong-key", CONTACTS, { fieldData: { "First Name": "No" } }), 401, "952");
    // A key is not a session: it cannot be logged out, and is no sign-in.
    expectError(await plain.logout(KEY), 401, "952");
    expectError(await loginWith(plain, { Authorization: `Bearer ${KEY}` }), 401, "212");
    expectOk(await plain.list(KEY, CONTACTS, { _limit: 1 }));
    // A path under the prefix that is not the Data API is no resource.
    expectError(await rawRequest(`${emu.url}/otto/other`, "GET", { token: PREFIXED_KEY }), 404, "1630");
    expect(emu.stats().records).toEqual(before);
  });

  it("9. API key: FileMaker errors through a key answer as any call's (404 / 101, or 500 with real servers' statuses)", async () => {
    expectError(await new DataApi(proxied.url).get(KEY, CONTACTS, "999"), 404, "101");
    expectError(await new DataApi(serverProxied.url).get(KEY, CONTACTS, "999"), 500, "101");
  });

  it("9. API key: an emulator without keys takes no Bearer value but session tokens", async () => {
    expectError(await api.list(KEY, CONTACTS), 401, "952");
  });

  it.each([
    ["an empty key", [{ key: "" }]],
    ["a key with a space", [{ key: "a b" }]],
    ["a prefix without a leading slash", [{ key: "k", pathPrefix: "otto" }]],
    ["a prefix with a trailing slash", [{ key: "k", pathPrefix: "/otto/" }]],
    ["a prefix with an empty segment", [{ key: "k", pathPrefix: "/a//b" }]],
    ["a prefix with a dot segment", [{ key: "k", pathPrefix: "/a/.." }]],
  ])("9. API key: %s stops the emulator from starting", async (_label, apiKeys) => {
    await expect(startEmulator({ layouts: [CONFORMANCE_LAYOUTS], apiKeys })).rejects.toThrow(/apiKeys\[0\]/);
  });

  it("9. API key: fmgen serve --api-key KEY and --api-key KEY@/prefix", async () => {
    let stop!: () => void;
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = { stdout: (l) => out.push(l), stderr: (l) => err.push(l), stopSignal: () => new Promise<void>((resolve) => (stop = resolve)) };
    const done = run(["serve", "--layouts", CONFORMANCE_LAYOUTS, "--api-key", "cli-key", "--api-key", "cli-otto@/otto/v2"], io);
    await expect.poll(() => out.length, { timeout: 30_000 }).toBeGreaterThan(0);
    try {
      const url = out[0]!;
      expect(expectOk(await new DataApi(url).call("GET", p`/databases/${DB}/layouts`, { token: "cli-key" })).layouts.length).toBeGreaterThan(0);
      expectOk(await new DataApi(`${url}/otto/v2`).call("GET", p`/databases/${DB}/layouts`, { token: "cli-otto" }));
      expectError(await new DataApi(url).call("GET", p`/databases/${DB}/layouts`, { token: "cli-otto" }), 401, "952");
    } finally {
      stop();
      expect(await done).toBe(0);
    }
    expect(await run(["serve", "--layouts", CONFORMANCE_LAYOUTS, "--api-key", "@/otto"], { stdout: () => {}, stderr: (l) => err.push(l), stopSignal: () => new Promise(() => {}) })).toBe(1);
    expect(err.join("\n")).toMatch(/--api-key/);
  });
});
