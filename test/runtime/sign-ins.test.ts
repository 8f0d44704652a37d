import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, InvalidCredentialsError, InvalidTokenError, type Auth, type FileMakerClient } from "../../src/runtime/index.js";
import { counting, startRuntimeEmulator, type Emulator } from "../support/runtime-emulator.js";
import { Contact, DATABASE } from "../support/runtime-layouts.js";

// Sign-ins (docs/sessions.md, "Choosing a sign-in"; docs/emulator.md, "9. Other sign-ins"): OAuth headers, a
// FileMaker Cloud Claris ID (FMID id token, asked for again when it expires and at every re-login), and a proxy's
// static API key (no login, an optional path prefix, 952 an error). Each against the emulator.

const MINUTE = 60_000;
const OAUTH = { requestId: "req-7f3a", identifier: "oauth-identifier-SECRET-91c2" };

/** A JWT-shaped id token (unsigned: the emulator compares it whole) whose subject is `sub`. */
function idToken(sub: string, n: number): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "RS256", kid: "k" })}.${part({ sub, n, "cognito:username": sub })}.signature-${n}`;
}
const ID_TOKENS = [1, 2, 3, 4].map((n) => idToken("3f1c-user", n));
const API_KEY = "proxy-key-SECRET-4d9e";
const OTTO_KEY = "otto-key-SECRET-77aa";

let emu: Emulator;
const clients: FileMakerClient[] = [];

function client(auth: Auth): FileMakerClient {
  const fm = createClient({ server: emu.url, database: DATABASE, auth, retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 1 } });
  clients.push(fm);
  return fm;
}

/** A Claris ID provider handing out `tokens` in turn (the last one again when they run out), counting its calls. */
function provider(tokens: readonly string[]): { claris: () => Promise<string>; calls: () => number } {
  let calls = 0;
  return { claris: async () => tokens[Math.min(calls++, tokens.length - 1)]!, calls: () => calls };
}

beforeAll(async () => {
  emu = await startRuntimeEmulator({
    accounts: [{ oauth: OAUTH }, ...ID_TOKENS.map((fmid) => ({ fmid }))],
    apiKeys: [{ key: API_KEY }, { key: OTTO_KEY, pathPrefix: "/otto" }],
  });
});

afterAll(async () => {
  for (const fm of clients) await fm.close().catch(() => undefined);
  await emu.close();
});

describe("OAuth ({ oauth: { requestId, identifier } })", () => {
  it("logs in once with the OAuth headers and reads", async () => {
    const contacts = client({ oauth: OAUTH }).layout(Contact);
    const { result, logins, requests } = await counting(emu, () => Promise.all([contacts.get(1), contacts.get(2)]));
    expect(result.map((r) => r.fieldData["First Name"])).toEqual(["Ada", "Grace"]);
    expect(logins).toBe(1);
    expect(requests).toBe(3);
  });

  it("a wrong identifier is an InvalidCredentialsError", async () => {
    const contacts = client({ oauth: { ...OAUTH, identifier: "wrong" } }).layout(Contact);
    const { logins } = await counting(emu, () => expect(contacts.get(1)).rejects.toBeInstanceOf(InvalidCredentialsError));
    expect(logins).toBe(0);
  });

  it("logs in again, once, when the token expires (952)", async () => {
    const contacts = client({ oauth: OAUTH }).layout(Contact);
    await contacts.get(1);
    emu.advanceTime(16 * MINUTE);
    const { logins, requests } = await counting(emu, () => Promise.all([contacts.get(1), contacts.get(2)]));
    expect(logins).toBe(1);
    // Two 952 answers, one login, the two calls again.
    expect(requests).toBe(5);
  });
});

describe("Claris ID ({ claris: () => Promise<idToken> })", () => {
  it("asks for an id token once, logs in with it and reads", async () => {
    const ids = provider(ID_TOKENS);
    const contacts = client({ claris: ids.claris }).layout(Contact);
    const { result, logins } = await counting(emu, () => Promise.all([contacts.get(1), contacts.get(2)]));
    expect(result).toHaveLength(2);
    expect(logins).toBe(1);
    expect(ids.calls()).toBe(1);
  });

  it("an unknown id token: asked for again once, then an InvalidCredentialsError", async () => {
    const ids = provider(["unknown-id-token"]);
    const contacts = client({ claris: ids.claris }).layout(Contact);
    await expect(contacts.get(1)).rejects.toBeInstanceOf(InvalidCredentialsError);
    expect(ids.calls()).toBe(2);
  });

  it("asks again at every re-login, and once more when the id token it gave has expired", async () => {
    // The provider caches its id token until told otherwise: it hands the first one out twice.
    const ids = provider([ID_TOKENS[1]!, ID_TOKENS[1]!, ID_TOKENS[1]!, ID_TOKENS[2]!]);
    const contacts = client({ claris: ids.claris }).layout(Contact);
    await contacts.get(1);
    expect(ids.calls()).toBe(1);
    // The session expires, the id token (an hour from its first use) does not: one re-login, one more id token.
    emu.advanceTime(16 * MINUTE);
    const relogin = await counting(emu, () => contacts.get(1));
    expect(relogin.logins).toBe(1);
    expect(ids.calls()).toBe(2);
    // Past the id token's hour: the re-login's id token is refused (212), a new one is asked for and works.
    emu.advanceTime(61 * MINUTE);
    const expired = await counting(emu, () => contacts.get(2));
    expect(expired.result.fieldData["First Name"]).toBe("Grace");
    expect(expired.logins).toBe(1);
    expect(ids.calls()).toBe(4);
  });

  it("what the provider resolves to must be an id token; its own failure is the call's", async () => {
    await expect(client({ claris: async () => undefined as unknown as string }).layout(Contact).get(1)).rejects.toThrow(/auth\.claris must resolve to an id token/);
    const cause = new Error("Claris ID sign-in failed");
    await expect(client({ claris: () => Promise.reject(cause) }).layout(Contact).get(1)).rejects.toBe(cause);
  });
});

describe("a proxy's API key ({ apiKey, pathPrefix? })", () => {
  it("sends the key as a Bearer token with no login at all", async () => {
    const fm = client({ apiKey: API_KEY });
    const { result, logins, requests } = await counting(emu, () => fm.layout(Contact).get(1));
    expect(result.fieldData["First Name"]).toBe("Ada");
    expect(logins).toBe(0);
    expect(requests).toBe(1);
  });

  it("puts pathPrefix before the Data API's path", async () => {
    const { result, logins } = await counting(emu, () => client({ apiKey: OTTO_KEY, pathPrefix: "/otto" }).layout(Contact).get(2));
    expect(result.fieldData["First Name"]).toBe("Grace");
    expect(logins).toBe(0);
    // The same key without its prefix is not one the Data API's own paths take.
    await expect(client({ apiKey: OTTO_KEY }).layout(Contact).get(2)).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it("a refused key (952) is an InvalidTokenError, never a login", async () => {
    const fm = client({ apiKey: "not-a-key" });
    const { logins, requests } = await counting(emu, () => expect(fm.layout(Contact).get(1)).rejects.toBeInstanceOf(InvalidTokenError));
    expect(logins).toBe(0);
    expect(requests).toBe(1);
  });

  it("logout and close are no-ops, and the key keeps working after a long idle time", async () => {
    let now = 0;
    const fm = createClient({ server: emu.url, database: DATABASE, auth: { apiKey: API_KEY }, now: () => now });
    await fm.layout(Contact).get(1);
    const { requests } = await counting(emu, async () => {
      await fm.logout();
      await fm.close();
    });
    expect(requests).toBe(0);
    now += 60 * MINUTE;
    emu.advanceTime(60 * MINUTE);
    const later = createClient({ server: emu.url, database: DATABASE, auth: { apiKey: API_KEY }, now: () => now });
    const again = await counting(emu, () => later.layout(Contact).get(1));
    expect(again.logins).toBe(0);
    await later.close();
  });
});

describe("createClient checks auth", () => {
  const secret = "SECRET-VALUE-9q";
  const wrong: [string, unknown][] = [
    ["nothing", undefined],
    ["null", null],
    ["a string", secret],
    ["an empty object", {}],
    ["a username without password", { username: "web" }],
    ["an empty username", { username: "", password: secret }],
    ["a token that is not a string", { token: 42 }],
    ["oauth without identifier", { oauth: { requestId: secret } }],
    ["oauth as a string", { oauth: secret }],
    ["claris as a string", { claris: secret }],
    ["an empty apiKey", { apiKey: "" }],
    ["a pathPrefix without its leading slash", { apiKey: secret, pathPrefix: "otto" }],
    ["a pathPrefix with a trailing slash", { apiKey: secret, pathPrefix: "/otto/" }],
    ["a pathPrefix with a query", { apiKey: secret, pathPrefix: "/otto?x=1" }],
    ["a misspelt key", { usrname: "web", password: secret }],
  ];
  it.each(wrong)("%s: a TypeError naming auth (or its member that is wrong) and what it takes, never a value", (_what, auth) => {
    let error: unknown;
    try {
      createClient({ server: "http://127.0.0.1:1", database: DATABASE, auth: auth as Auth });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TypeError);
    const message = (error as TypeError).message;
    expect(message).toMatch(
      typeof auth === "object" && auth !== null && Object.keys(auth).length > 0 && !("usrname" in auth)
        ? /^createClient: options\.auth\.(username|password|token|oauth\.requestId|oauth\.identifier|claris|apiKey|pathPrefix) must be /
        : /^createClient: options\.auth must be \{ username, password \}, \{ token \}, \{ oauth: \{ requestId, identifier \} \}, \{ claris \} or \{ apiKey, pathPrefix\? \}, got /,
    );
    expect(message).not.toContain(secret);
  });

  it("names the keys it was given, so that a misspelling shows", () => {
    expect(() => createClient({ server: "http://127.0.0.1:1", database: DATABASE, auth: { usrname: "web", password: "pw" } as unknown as Auth })).toThrow(/got an object with keys usrname,password$/);
  });
});
