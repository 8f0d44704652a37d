import { createHash, pbkdf2Sync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, InvalidCredentialsError, memoryTokenStore, type Auth, type ClientOptions, type FileMakerClient, type TokenStore } from "../../src/runtime/index.js";
import { callAfterPoison, EMULATOR_TOKEN, POISONED_TOKENS, storeKey } from "../support/poisoned-tokens.js";
import { connect, counting, envelope, FAKE_TOKEN, startFakeServer, startRuntimeEmulator, type Emulator, type FakeServer, type SeenRequest } from "../support/runtime-emulator.js";
import { Contact, DATABASE, PASSWORD, USERNAME } from "../support/runtime-layouts.js";

// docs/sessions.md, "Sharing one session between clients, processes and machines": createClient({ tokenStore }) keeps
// the session token where other clients (other processes, other machines) signing in to the same server, database and
// account find it. A stored token is used until the server answers 952; then it is deleted, one login made and its
// token stored. A stored token serves only a client that proves the same credential: the key carries a PBKDF2 verifier
// of the secret. A store that fails never costs the client a token it obtained.

const MINUTE = 60_000;
const OAUTH = { requestId: "req-store-1", identifier: "oauth-identifier-SECRET-store" };
const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
const ID_TOKEN = `${part({ alg: "RS256" })}.${part({ sub: "sub-4242" })}.sig`;
/** An id token anyone can write: the victim's subject, no valid signature. */
const FORGED_ID_TOKEN = `${part({ alg: "none" })}.${part({ sub: "sub-4242" })}.forged`;
const OPAQUE_ID_TOKEN = "opaque-claris-token-A";
/** Two id tokens of one subject: the first expires an hour after its first use, the second replaces it. */
const OLD_ID_TOKEN = `${part({ alg: "RS256" })}.${part({ sub: "sub-7777", n: 1 })}.sig1`;
const NEW_ID_TOKEN = `${part({ alg: "RS256" })}.${part({ sub: "sub-7777", n: 2 })}.sig2`;

type Op = [op: "get" | "set" | "delete", key: string, token?: string];

/** A memory store that records every operation; `delay` ms before each (a store across the network). */
function recordingStore(delay = 0): TokenStore & { ops: Op[]; inner: TokenStore } {
  const inner = memoryTokenStore();
  const ops: Op[] = [];
  const wait = () => new Promise((resolve) => setTimeout(resolve, delay));
  return {
    ops,
    inner,
    get: async (key) => (ops.push(["get", key]), await wait(), inner.get(key)),
    set: async (key, token) => (ops.push(["set", key, token]), await wait(), inner.set(key, token)),
    delete: async (key) => (ops.push(["delete", key]), await wait(), inner.delete(key)),
  };
}

let emu: Emulator;
const clients: FileMakerClient[] = [];

function client(overrides: Partial<ClientOptions> = {}): FileMakerClient {
  const fm = createClient({ server: emu.url, database: DATABASE, auth: { username: USERNAME, password: PASSWORD }, ...overrides });
  clients.push(fm);
  return fm;
}

beforeAll(async () => {
  emu = await startRuntimeEmulator({ accounts: [{ oauth: OAUTH }, ...[ID_TOKEN, OPAQUE_ID_TOKEN, OLD_ID_TOKEN, NEW_ID_TOKEN].map((fmid) => ({ fmid }))], apiKeys: [{ key: "store-api-key" }] });
});

afterAll(async () => {
  for (const fm of clients) await fm.close().catch(() => undefined);
  await emu.close();
});

describe("the store's key", () => {
  it("names the Data API's URL, the database and the account, then a PBKDF2 verifier of the secret: never the secret", async () => {
    const cases: [Auth, string, string][] = [
      [{ username: USERNAME, password: PASSWORD }, USERNAME, PASSWORD],
      [{ oauth: OAUTH }, `oauth:${OAUTH.requestId}`, OAUTH.identifier],
      [{ claris: async () => ID_TOKEN }, "claris", ID_TOKEN],
    ];
    for (const [auth, account, secret] of cases) {
      const store = recordingStore();
      await client({ auth, tokenStore: store }).layout(Contact).get(1);
      const keys = [...new Set(store.ops.map(([, key]) => key))];
      const prefix = `${emu.url}/fmi/data/vLatest ${DATABASE} ${account}`;
      // 100,000 iterations of PBKDF2-SHA-256 salted with the key's first parts: slow to guess a password from.
      expect(keys).toEqual([`${prefix} ${pbkdf2Sync(secret, prefix, 100_000, 32, "sha256").toString("base64")}`]);
      const sha256 = createHash("sha256").update(secret).digest();
      for (const shown of [PASSWORD, OAUTH.identifier, ID_TOKEN, ID_TOKEN.split(".")[1]!, "sub-4242", sha256.toString("hex"), sha256.toString("base64")]) {
        expect(keys[0]).not.toContain(shown);
      }
    }
  });

  it("percent-encodes the database and the username, so that no two accounts share a key", async () => {
    const store = recordingStore();
    const fm = createClient({ server: "http://127.0.0.1:1", database: "My File", auth: { username: "a b", password: "x" }, tokenStore: store, retry: { retries: 0 } });
    await fm.layouts().catch(() => undefined);
    expect(store.ops[0]?.[1]).toMatch(/^http:\/\/127\.0\.0\.1:1\/fmi\/data\/vLatest My%20File a%20b \S+$/);
  });

  it("a store where WebCrypto is missing (a page served over plain http) is refused by createClient, by name", () => {
    const crypto = globalThis.crypto;
    Object.defineProperty(globalThis, "crypto", { value: {}, configurable: true });
    try {
      expect(() => createClient({ server: "http://127.0.0.1:1", database: DATABASE, auth: { username: "u", password: "p" }, tokenStore: memoryTokenStore() })).toThrow(
        new TypeError("createClient: a tokenStore needs WebCrypto (crypto.subtle), which this runtime lacks (a page served over plain http)"),
      );
      // No store, or a client that never logs in: nothing to prove, nothing refused.
      createClient({ server: "http://127.0.0.1:1", database: DATABASE, auth: { username: "u", password: "p" } });
      createClient({ server: "http://127.0.0.1:1", database: DATABASE, auth: { token: "t" }, tokenStore: memoryTokenStore() });
    } finally {
      Object.defineProperty(globalThis, "crypto", { value: crypto, configurable: true, writable: true });
    }
  });

  it("a token or an API key needs no login: the store is never asked, and close() ends a given token's session as without a store", async () => {
    const store = recordingStore();
    await client({ auth: { apiKey: "store-api-key" }, tokenStore: store }).layout(Contact).get(1);
    const token = await rawToken();
    const given = createClient({ server: emu.url, database: DATABASE, auth: { token }, tokenStore: store });
    await given.layout(Contact).get(1);
    const active = emu.stats().activeSessions;
    await given.close();
    expect(emu.stats().activeSessions).toBe(active - 1);
    expect(store.ops).toEqual([]);
  });
});

/** A session token from the emulator, logged in without the runtime. */
async function rawToken(): Promise<string> {
  const res = await fetch(`${emu.url}/fmi/data/vLatest/databases/${DATABASE}/sessions`, {
    method: "POST",
    headers: { authorization: `Basic ${Buffer.from(`${USERNAME}:${PASSWORD}`).toString("base64")}`, "content-type": "application/json" },
    body: "{}",
  });
  return ((await res.json()) as { response: { token: string } }).response.token;
}

describe("sharing a token", () => {
  it("the first client logs in and stores its token; a second client with the store reuses it: no login", async () => {
    const store = recordingStore();
    const first = await counting(emu, () => client({ tokenStore: store }).layout(Contact).get(1));
    expect(first.logins).toBe(1);
    const key = store.ops[0]![1];
    expect(store.ops).toEqual([["get", key], ["set", key, expect.any(String)]]);
    const second = await counting(emu, () => client({ tokenStore: store }).layout(Contact).get(2));
    expect(second.logins).toBe(0);
    expect(second.requests).toBe(1);
  });

  it("100 concurrent first calls with a slow store: one get, one login, one set", async () => {
    const store = recordingStore(20);
    const contacts = client({ tokenStore: store }).layout(Contact);
    const { logins, requests } = await counting(emu, () => Promise.all(Array.from({ length: 100 }, () => contacts.get(1))));
    expect(logins).toBe(1);
    expect(requests).toBe(101);
    expect(store.ops.map(([op]) => op)).toEqual(["get", "set"]);
  });

  it("a stored token that has died (952) is deleted, one login made and its token stored", async () => {
    const store = recordingStore();
    const seed = client({ tokenStore: store });
    await seed.layout(Contact).get(1);
    const [, key, dead] = store.ops[1]!;
    emu.advanceTime(16 * MINUTE);
    store.ops.length = 0;
    const { logins, requests } = await counting(emu, () => client({ tokenStore: store }).layout(Contact).get(1));
    expect(logins).toBe(1);
    // The call with the stored token (952), the login, the call again.
    expect(requests).toBe(3);
    expect(store.ops.slice(0, 3)).toEqual([["get", key], ["get", key], ["delete", key]]);
    expect(store.ops[3]).toEqual(["set", key, expect.any(String)]);
    expect(store.ops[3]![2]).not.toBe(dead);
    expect(await store.inner.get(key!)).toBe(store.ops[3]![2]);
  });

  it("after a 952, a token another client already stored is taken: no second login", async () => {
    const store = memoryTokenStore();
    const a = client({ tokenStore: store }).layout(Contact);
    const b = client({ tokenStore: store }).layout(Contact);
    await a.get(1);
    await b.get(1);
    emu.advanceTime(16 * MINUTE);
    const first = await counting(emu, () => b.get(1));
    expect(first.logins).toBe(1);
    const second = await counting(emu, () => a.get(1));
    expect(second.logins).toBe(0);
    // Its dead token (952), the call again with the stored one.
    expect(second.requests).toBe(2);
  });

  it("past the idle limit the token in hand is not taken again from the store: a fresh login replaces it", async () => {
    const store = recordingStore();
    let now = 0;
    const contacts = client({ tokenStore: store, now: () => now, idleRefreshMs: MINUTE }).layout(Contact);
    await contacts.get(1);
    const old = store.ops[1]![2];
    now += MINUTE + 1;
    const { logins, requests } = await counting(emu, () => contacts.get(1));
    expect(logins).toBe(1);
    expect(requests).toBe(2);
    expect(store.ops.at(-1)).toEqual(["set", store.ops[0]![1], expect.any(String)]);
    expect(store.ops.at(-1)![2]).not.toBe(old);
  });

  it("close() leaves a stored session open for the store's other users; logout() ends it and deletes it", async () => {
    const store = recordingStore();
    const fm = createClient({ server: emu.url, database: DATABASE, auth: { username: USERNAME, password: PASSWORD }, tokenStore: store });
    await fm.layout(Contact).get(1);
    const active = emu.stats().activeSessions;
    await fm.close();
    expect(emu.stats().activeSessions).toBe(active);
    const next = client({ tokenStore: store });
    expect((await counting(emu, () => next.layout(Contact).get(1))).logins).toBe(0);
    await next.logout();
    expect(emu.stats().activeSessions).toBe(active - 1);
    expect(store.ops.at(-1)?.[0]).toBe("delete");
    expect(await store.inner.get(store.ops[0]![1])).toBeUndefined();
    // And without a store of the app's, close() logs out as before.
    const own = createClient({ server: emu.url, database: DATABASE, auth: { username: USERNAME, password: PASSWORD } });
    await own.layout(Contact).get(1);
    await own.close();
    expect(emu.stats().activeSessions).toBe(active - 1);
  });

});

describe("a stored token serves only a client that proves the same credential", () => {
  const cases: [what: string, right: Auth, wrong: Auth][] = [
    ["a wrong password", { username: USERNAME, password: PASSWORD }, { username: USERNAME, password: "not-the-password" }],
    ["a wrong OAuth identifier", { oauth: OAUTH }, { oauth: { ...OAUTH, identifier: "not-the-identifier" } }],
    ["a Claris id token forged with the victim's sub", { claris: async () => ID_TOKEN }, { claris: async () => FORGED_ID_TOKEN }],
    ["another opaque Claris id token", { claris: async () => OPAQUE_ID_TOKEN }, { claris: async () => "opaque-claris-token-B" }],
  ];
  it.each(cases)("%s is refused (212), never served the session the right credential stored", async (_what, right, wrong) => {
    const store = memoryTokenStore();
    await client({ auth: right, tokenStore: store }).layout(Contact).get(1);
    const intruder = client({ auth: wrong, tokenStore: store, retry: { retries: 0 } }).layout(Contact);
    await expect(intruder.get(1)).rejects.toBeInstanceOf(InvalidCredentialsError);
    // The right credential still shares the stored session.
    expect((await counting(emu, () => client({ auth: right, tokenStore: store }).layout(Contact).get(1))).logins).toBe(0);
  });

  it("a Claris session is stored under the id token that opened it: an expired id token is never served its successor's", async () => {
    await client({ auth: { claris: async () => OLD_ID_TOKEN } }).layout(Contact).get(1);
    // OLD_ID_TOKEN's hour is over: the first login is refused (212), the provider's next id token opens the session.
    emu.advanceTime(61 * MINUTE);
    const store = memoryTokenStore();
    const tokens = [OLD_ID_TOKEN, NEW_ID_TOKEN];
    await client({ auth: { claris: async () => tokens.shift() ?? NEW_ID_TOKEN }, tokenStore: store }).layout(Contact).get(1);
    await expect(client({ auth: { claris: async () => OLD_ID_TOKEN }, tokenStore: store }).layout(Contact).get(1)).rejects.toBeInstanceOf(InvalidCredentialsError);
    expect((await counting(emu, () => client({ auth: { claris: async () => NEW_ID_TOKEN }, tokenStore: store }).layout(Contact).get(1))).logins).toBe(0);
  });
});

describe("a store that fails never costs the client a token", () => {
  const down = () => Promise.reject(new Error("redis is down"));
  const active = () => emu.stats().activeSessions;

  it("a failed get fails the call naming tokenStore.get, before any login", async () => {
    const broken: TokenStore = { ...memoryTokenStore(), get: down };
    const { logins } = await counting(emu, () => expect(client({ tokenStore: broken }).layout(Contact).get(1)).rejects.toThrow("tokenStore.get failed: redis is down"));
    expect(logins).toBe(0);
  });

  it("a failed set after a login fails that call naming tokenStore.set; the token serves the next calls and logout() ends it", async () => {
    const before = active();
    const fm = client({ tokenStore: { ...memoryTokenStore(), set: down } });
    const contacts = fm.layout(Contact);
    await expect(contacts.get(1)).rejects.toThrow("tokenStore.set failed: redis is down");
    const next = await counting(emu, () => Promise.all([1, 2, 1, 2].map((id) => contacts.get(id))));
    expect(next.logins).toBe(0);
    expect(active()).toBe(before + 1);
    await fm.logout();
    expect(active()).toBe(before);
  });

  it("close() ends a session the store never took", async () => {
    const before = active();
    const fm = createClient({ server: emu.url, database: DATABASE, auth: { username: USERNAME, password: PASSWORD }, tokenStore: { ...memoryTokenStore(), set: down } });
    await expect(fm.layout(Contact).get(1)).rejects.toThrow("tokenStore.set failed");
    await fm.close();
    expect(active()).toBe(before);
  });

  it("the re-login after a 952 keeps its token when the set fails", async () => {
    let failing = false;
    const inner = memoryTokenStore();
    const fm = client({ tokenStore: { ...inner, set: (key, token) => (failing ? down() : inner.set(key, token)) } });
    const contacts = fm.layout(Contact);
    await contacts.get(1);
    emu.advanceTime(16 * MINUTE);
    const before = active();
    failing = true;
    await expect(contacts.get(1)).rejects.toThrow("tokenStore.set failed: redis is down");
    expect((await counting(emu, () => contacts.get(2))).logins).toBe(0);
    expect(active()).toBe(before + 1);
    await fm.logout();
    expect(active()).toBe(before);
  });

  it("a failed get at the idle refresh keeps the token in hand: logout() still ends its session", async () => {
    let now = 0;
    let failing = false;
    const inner = memoryTokenStore();
    const fm = client({ now: () => now, idleRefreshMs: MINUTE, tokenStore: { ...inner, get: (key) => (failing ? down() : inner.get(key)) } });
    await fm.layout(Contact).get(1);
    const before = active();
    // Idle past the client's limit, not the server's: the session is alive.
    now += MINUTE + 1;
    failing = true;
    await expect(fm.layout(Contact).get(1)).rejects.toThrow("tokenStore.get failed: redis is down");
    await fm.logout();
    expect(active()).toBe(before - 1);
  });

  it("a logout during a login whose set fails ends that login's session", async () => {
    const before = active();
    let started!: () => void;
    const asked = new Promise<void>((resolve) => (started = resolve));
    const fm = client({ tokenStore: { ...memoryTokenStore(), get: async () => void started(), set: down } });
    const call = fm.layout(Contact).get(1).catch((error: unknown) => error);
    await asked;
    await fm.logout();
    expect(String(await call)).toContain("tokenStore.set failed");
    expect(active()).toBe(before);
  });

  it("a failed delete at logout still ends the session at the server, then names tokenStore.delete", async () => {
    const before = active();
    const fm = client({ tokenStore: { ...memoryTokenStore(), delete: down } });
    await fm.layout(Contact).get(1);
    await expect(fm.logout()).rejects.toThrow("tokenStore.delete failed: redis is down");
    expect(active()).toBe(before);
  });

  it("a logout that fails after the store let go of the token: close() still ends the session", async () => {
    const before = active();
    const fm = createClient({ server: emu.url, database: DATABASE, auth: { username: USERNAME, password: PASSWORD }, tokenStore: memoryTokenStore() });
    await fm.layout(Contact).get(1);
    await expect(fm.logout({ signal: AbortSignal.abort() })).rejects.toThrow();
    await fm.close();
    expect(active()).toBe(before);
  });

  it("a store's error is redacted like the client's own: no token in it", async () => {
    const writing = client({ tokenStore: { ...memoryTokenStore(), set: (_key, token) => Promise.reject(new Error(`cannot write ${token}`)) } });
    expect(((await writing.layout(Contact).get(1).catch((e: unknown) => e)) as Error).message).toBe("tokenStore.set failed: cannot write [redacted]");
    const inner = memoryTokenStore();
    let stored = "";
    const set = async (key: string, token: string) => inner.set(key, (stored = token));
    const deleting = client({ tokenStore: { ...inner, set, delete: () => Promise.reject(new Error(`cannot delete ${stored}`)) } });
    await deleting.layout(Contact).get(1);
    expect(((await deleting.logout().catch((e: unknown) => e)) as Error).message).toBe("tokenStore.delete failed: cannot delete [redacted]");
  });

  it("a logout that fails keeps the token: logout() again ends the session", async () => {
    const before = active();
    const fm = client();
    await fm.layout(Contact).get(1);
    await expect(fm.logout({ signal: AbortSignal.abort() })).rejects.toThrow();
    expect(active()).toBe(before + 1);
    await fm.logout();
    expect(active()).toBe(before);
  });
});

describe("a stored token that cannot work is deleted and replaced by one login", () => {
  it.each(POISONED_TOKENS)("%s in a memory store: the call succeeds, one login, a fresh token stored, never the bad one sent", async (_what, poison) => {
    const { recordId, logins, requests, stored } = await callAfterPoison(emu, memoryTokenStore(), poison);
    expect(recordId).toBe("1");
    expect(logins).toBe(1);
    // The login and the call: the bad token never left.
    expect(requests).toBe(2);
    expect(stored).toMatch(EMULATOR_TOKEN);
  });

  describe("a token the server refuses as too large (431)", () => {
    let fake: FakeServer;
    let refuse: (token: string) => boolean;
    /** Whether the 431 is a bare one (a front end's, no envelope) rather than the emulator's envelope of code 1708. */
    let bare = false;
    const bearer = (req: SeenRequest) => (req.headers.authorization ?? "").slice("Bearer ".length);
    beforeAll(async () => {
      fake = await startFakeServer((req) =>
        !refuse(bearer(req))
          ? { status: 200, body: envelope({ data: [], dataInfo: { database: DATABASE, layout: "Contacts Web", table: "Contacts", totalRecordCount: 0, foundCount: 0, returnedCount: 0 } }) }
          : bare
            ? { status: 431, body: "", contentType: "text/plain" }
            : { status: 431, body: envelope({}, "1708", "Request Header Fields Too Large") },
      );
    });
    afterAll(() => fake.close());

    it.each([false, true])("bare (no envelope): %s; the token deleted, one login, the call sent again with the fresh token", async (plain) => {
      bare = plain;
      const long = "a".repeat(3_000);
      refuse = (token) => token === long;
      const store = memoryTokenStore();
      await store.set(storeKey(fake.url), long);
      const [logins, requests] = [fake.sessionRequests.length, fake.requests.length];
      const fm = connect(fake.url, { tokenStore: store });
      expect((await fm.layout(Contact).list()).data).toEqual([]);
      expect(fake.sessionRequests.length - logins).toBe(1);
      expect(fake.requests.slice(requests).map(bearer)).toEqual([long, FAKE_TOKEN]);
      expect(await store.get(storeKey(fake.url))).toBe(FAKE_TOKEN);
      await fm.close();
    });

    it("a fresh token refused too: the server's error after one login, no loop", async () => {
      bare = false;
      refuse = () => true;
      const store = memoryTokenStore();
      await store.set(storeKey(fake.url), "b".repeat(3_000));
      const logins = fake.sessionRequests.length;
      const fm = connect(fake.url, { tokenStore: store, retry: { retries: 3, baseDelayMs: 1, maxDelayMs: 1 } });
      await expect(fm.layout(Contact).list()).rejects.toMatchObject({ code: "1708", httpStatus: 431 });
      expect(fake.sessionRequests.length - logins).toBe(1);
      await fm.close();
    });
  });
});
